//! The search keys of the lists' text search (migration 0016): what `q`
//! is compared with, folded by `paylink_model::list::search_fold` as `q`
//! is; written with each row, and filled at start-up for rows an older
//! version wrote.

use paylink_model::list::search_fold;
use sqlx::Row;

use super::{Db, DbError, DbRow};

/// A customer's key: its name and e-mail, one line each (`q` holds no
/// control character, so no match spans the two).
pub(super) fn customer_key(full_name: &str, email: Option<&str>) -> String {
    format!(
        "{}\n{}",
        search_fold(full_name),
        search_fold(email.unwrap_or(""))
    )
}

/// An invoice's key: its externalId.
pub(super) fn invoice_key(external_id: &str) -> String {
    search_fold(external_id)
}

/// Rows keyed per statement while filling: one `UPDATE … CASE` each.
const FILL_BATCH: usize = 500;

/// Keys the rows written before migration 0016 (`search_key IS NULL`),
/// in batches; with none left it is one cheap query per table.
/// Instances starting together may key a row twice, with one value.
pub(super) async fn fill(db: &Db) -> Result<(), DbError> {
    crate::store::search_keys::fill_keys(db, "customers", "full_name, email", |r| {
        Ok(customer_key(r.try_get("full_name")?, r.try_get("email")?))
    })
    .await?;
    crate::store::search_keys::fill_keys(db, "invoices", "external_id", |r| {
        Ok(invoice_key(r.try_get("external_id")?))
    })
    .await
}

/// [`fill`] for one table: `key` reads a row's
/// `columns` (and its id) and gives its key.
async fn fill_keys(
    db: &Db,
    table: &str,
    columns: &str,
    key: impl Fn(&DbRow) -> Result<String, DbError>,
) -> Result<(), DbError> {
    loop {
        let rows = sqlx::query(&format!(
            "SELECT id, {columns} FROM {table} WHERE search_key IS NULL LIMIT {FILL_BATCH}"
        ))
        .fetch_all(&db.pool)
        .await?;
        let keys = rows
            .iter()
            .map(|r| Ok((r.try_get("id")?, key(r)?)))
            .collect::<Result<Vec<(String, String)>, DbError>>()?;
        if !crate::store::search_keys::set_keys(db, table, &keys).await? {
            return Ok(());
        }
    }
}

/// Writes `(id, key)` pairs into `table`'s search_key in one statement;
/// false when there were none.
async fn set_keys(db: &Db, table: &str, keys: &[(String, String)]) -> Result<bool, DbError> {
    if keys.is_empty() {
        return Ok(false);
    }
    let cases: String = (0..keys.len())
        .map(|n| format!(" WHEN ${} THEN ${}", 2 * n + 1, 2 * n + 2))
        .collect();
    let ids: Vec<String> = (0..keys.len()).map(|n| format!("${}", 2 * n + 1)).collect();
    let sql = format!(
        "UPDATE {table} SET search_key = CASE id{cases} END WHERE id IN ({})",
        ids.join(", ")
    );
    let query = keys
        .iter()
        .fold(sqlx::query(&sql), |q, (id, key)| q.bind(id).bind(key));
    let mut tx = db.begin_write().await?;
    query.execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_customer_key_holds_the_folded_name_and_e_mail() {
        assert_eq!(
            customer_key("João da Conceição", Some("JOAO@Loja.example")),
            "joao da conceicao\njoao@loja.example"
        );
        assert_eq!(customer_key("ANA", None), "ana\n");
        assert_eq!(invoice_key("Pedido-Ção"), "pedido-cao");
    }
}
