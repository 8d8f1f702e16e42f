//! `paylink migrate [--status]` and `paylink backup --to FILE`: the schema's migrations, and
//! a consistent copy of a SQLite database taken while the server writes.

use std::path::Path;

use super::common::{open_as, Failure};
use crate::store::OpenMode;

/// Applies the pending migrations and names each; `--status` lists them all and changes
/// nothing.
pub(super) async fn migrate(target: &str, status: bool) -> Result<(), Failure> {
    let db = open_as(target, OpenMode::AsIs).await?;
    let before = db.migrations().await.map_err(|e| e.to_string())?;
    if status {
        for m in &before {
            let state = if m.applied { "applied" } else { "pending" };
            println!("{:04}\t{state}\t{}", m.version, m.description);
        }
        let pending = before.iter().filter(|m| !m.applied).count();
        println!("{pending} pending of {}", before.len());
        return Ok(());
    }
    db.migrate()
        .await
        .map_err(|e| format!("migration failed: {e}"))?;
    let mut n = 0;
    for m in before.iter().filter(|m| !m.applied) {
        println!("applied {:04} {}", m.version, m.description);
        n += 1;
    }
    println!(
        "the database is current ({n} applied now, {} in all)",
        before.len()
    );
    Ok(())
}

/// Writes a consistent copy of the SQLite database `target` to `to`, a new file.
pub(super) async fn backup(target: &str, to: &Path) -> Result<(), Failure> {
    if crate::store::Backend::of(target) == crate::store::Backend::Postgres {
        return Err(Failure::Usage(
            "paylink backup copies SQLite databases; for PostgreSQL use pg_dump (docs/operations.md, Backups)"
                .into(),
        ));
    }
    if to.exists() {
        return Err(Failure::Usage(format!(
            "{} exists already: a backup never overwrites a file",
            to.display()
        )));
    }
    let db = open_as(target, OpenMode::RequireCurrent).await?;
    db.backup_sqlite(to)
        .await
        .map_err(|e| format!("cannot back up to {}: {e}", to.display()))?;
    let bytes = std::fs::metadata(to).map_or(0, |m| m.len());
    println!("backed up {target} to {} ({bytes} bytes)", to.display());
    Ok(())
}
