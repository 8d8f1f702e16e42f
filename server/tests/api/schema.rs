//! One schema on two backends: `migrations/sqlite` and `migrations/postgres` are written by
//! hand, so this test migrates a SQLite file and a PostgreSQL schema and compares what they
//! hold: tables; columns by type family (INTEGER and BIGINT are one family, TEXT and VARCHAR
//! another), nullability and normalised default; indexes by name, columns and uniqueness;
//! primary keys, unique, foreign-key and check constraints. Any difference fails unless
//! [`INTENDED`] lists it with its reason. Without PAYLINK_TEST_DATABASE_URL only the SQLite
//! half runs (the suite's other PostgreSQL tests are skipped alike): it still reads the
//! SQLite schema and holds the SQLite side of the list to it.

use std::collections::{BTreeMap, BTreeSet};

use sqlx::Connection;

use crate::helpers::*;

/// The differences meant to be there: (backend that has the fact, the fact, why).
const INTENDED: &[(&str, &str, &str)] = &[
    // Migration 0015: each installment's nosso número. PostgreSQL gives it from a sequence, in
    // the column's default (next_our_number()), NOT NULL; SQLite can neither add a NOT NULL
    // column to a table with rows nor take a function as a default, so a trigger numbers new
    // installments from a one-row counter that skips the runs older installments printed.
    (
        "postgres",
        "installments.our_number: integer not null default next_our_number",
        OUR_NUMBER,
    ),
    (
        "sqlite",
        "installments.our_number: integer null default none",
        OUR_NUMBER,
    ),
    ("sqlite", "table our_number_counter", OUR_NUMBER),
    (
        "sqlite",
        "our_number_counter.id: integer not null default none",
        OUR_NUMBER,
    ),
    (
        "sqlite",
        "our_number_counter.last_number: integer not null default none",
        OUR_NUMBER,
    ),
    ("sqlite", "our_number_counter: check on (id)", OUR_NUMBER),
    ("sqlite", "our_number_counter: primary key (id)", OUR_NUMBER),
    ("sqlite", "table our_number_runs", OUR_NUMBER),
    (
        "sqlite",
        "our_number_runs.first_number: integer not null default none",
        OUR_NUMBER,
    ),
    (
        "sqlite",
        "our_number_runs.last_number: integer not null default none",
        OUR_NUMBER,
    ),
    (
        "sqlite",
        "our_number_runs: primary key (first_number)",
        OUR_NUMBER,
    ),
];

const OUR_NUMBER: &str =
    "0015: PostgreSQL numbers boletos by a sequence, SQLite by a trigger and its counter";

/// What a column's declared type stores, so that `INTEGER` on SQLite and `BIGINT` on
/// PostgreSQL (both 64-bit there and here) compare equal.
fn family(declared: &str) -> String {
    let t = declared.to_ascii_lowercase();
    let f = if t.contains("int") {
        "integer"
    } else if t.contains("char") || t.contains("text") || t.contains("clob") {
        "text"
    } else if t.contains("bool") {
        "boolean"
    } else if t.contains("real")
        || t.contains("double")
        || t.contains("float")
        || t.contains("numeric")
    {
        "real"
    } else if t.contains("json") {
        "json"
    } else if t.contains("blob") || t.contains("bytea") {
        "bytes"
    } else if t.contains("timestamp") {
        "timestamp"
    } else if t.is_empty() {
        "none"
    } else {
        return t;
    };
    f.to_string()
}

/// A default or predicate as both backends would write it: PostgreSQL's casts
/// (`'x'::text`), parentheses, case and spaces removed; booleans as 0 and 1.
fn normalise(expr: &str) -> String {
    let mut out = String::new();
    let mut chars = expr.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            in_string = !in_string;
            out.push(c);
            continue;
        }
        if in_string {
            out.push(c);
            continue;
        }
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            // The cast's type: letters, spaces between words, `[]`.
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '[' || *c == ']')
            {
                chars.next();
                if chars.peek() == Some(&' ') {
                    let rest: String = chars.clone().take(10).collect();
                    if rest.trim_start().starts_with("precision")
                        || rest.trim_start().starts_with("varying")
                    {
                        chars.next();
                    }
                }
            }
            continue;
        }
        if c == '(' || c == ')' || c == '"' || c.is_whitespace() {
            continue;
        }
        out.push(c.to_ascii_lowercase());
    }
    match out.as_str() {
        "false" => "0".into(),
        "true" => "1".into(),
        _ => out,
    }
}

/// The columns a constraint's expression names (string literals aside).
fn columns_named(expr: &str, columns: &BTreeSet<String>) -> Vec<String> {
    let mut plain = String::new();
    let mut in_string = false;
    for c in expr.chars() {
        if c == '\'' {
            in_string = !in_string;
        } else if !in_string {
            plain.push(c);
        }
    }
    let named: BTreeSet<String> = plain
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_ascii_lowercase)
        .filter(|w| columns.contains(w))
        .collect();
    named.into_iter().collect()
}

/// A schema as facts, one line each (`customers.email: text null default none`), so that
/// two schemas compare as two sets.
type Facts = BTreeSet<String>;

/// The contents of every `CHECK (…)` in a CREATE TABLE statement.
fn checks_in(sql: &str) -> Vec<String> {
    let upper = sql.to_ascii_uppercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = upper[from..].find("CHECK") {
        let start = from + at + "CHECK".len();
        let Some(open) = sql[start..].find('(') else {
            break;
        };
        let mut depth = 0;
        let mut end = start + open;
        for (i, c) in sql[start + open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(sql[start + open + 1..end].to_string());
        from = end;
    }
    out
}

fn column_fact(
    table: &str,
    name: &str,
    declared: &str,
    not_null: bool,
    default: Option<&str>,
) -> String {
    format!(
        "{table}.{name}: {} {} default {}",
        family(declared),
        if not_null { "not null" } else { "null" },
        default.map_or("none".to_string(), normalise)
    )
}

/// A SQLite foreign key as its rows gather: the table it names, its columns, the columns
/// they name (none: the primary key), its `ON DELETE`.
type ForeignKey = (String, Vec<String>, Vec<Option<String>>, String);

/// A PostgreSQL index: table, name, unique, primary, made by a constraint, columns, predicate.
type PgIndex = (
    String,
    String,
    bool,
    bool,
    bool,
    Vec<String>,
    Option<String>,
);

async fn sqlite_facts(path: &str) -> Facts {
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let tables: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%' ORDER BY name",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    let mut facts = Facts::new();
    for (table, sql) in &tables {
        facts.insert(format!("table {table}"));
        let cols: Vec<(String, String, i64, Option<String>, i64)> = sqlx::query_as(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
        )
        .bind(table)
        .fetch_all(&mut c)
        .await
        .unwrap();
        let names: BTreeSet<String> = cols.iter().map(|c| c.0.to_ascii_lowercase()).collect();
        let mut pk: Vec<(i64, String)> = Vec::new();
        for (name, declared, not_null, default, in_pk) in &cols {
            // A primary key's column holds no NULL on PostgreSQL; on SQLite it is declared so.
            facts.insert(column_fact(
                table,
                name,
                declared,
                *not_null == 1 || *in_pk > 0,
                default.as_deref(),
            ));
            if *in_pk > 0 {
                pk.push((*in_pk, name.clone()));
            }
        }
        pk.sort();
        if !pk.is_empty() {
            let pk: Vec<String> = pk.into_iter().map(|(_, n)| n).collect();
            facts.insert(format!("{table}: primary key ({})", pk.join(", ")));
        }
        let indexes: Vec<(String, i64, String, i64)> =
            sqlx::query_as("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)")
                .bind(table)
                .fetch_all(&mut c)
                .await
                .unwrap();
        for (index, unique, origin, partial) in indexes {
            if origin == "pk" {
                continue;
            }
            let cols: Vec<(Option<String>,)> =
                sqlx::query_as("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
                    .bind(&index)
                    .fetch_all(&mut c)
                    .await
                    .unwrap();
            let cols: Vec<String> = cols
                .into_iter()
                .map(|(n,)| n.unwrap_or_else(|| "<expr>".into()))
                .collect();
            if origin == "u" {
                facts.insert(format!("{table}: unique ({})", cols.join(", ")));
                continue;
            }
            let (def,): (Option<String>,) =
                sqlx::query_as("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
                    .bind(&index)
                    .fetch_one(&mut c)
                    .await
                    .unwrap();
            let predicate = if partial == 1 {
                let def = def.unwrap_or_default();
                let at = def.to_ascii_uppercase().rfind(" WHERE ").unwrap();
                format!(" where {}", normalise(&def[at + 7..]))
            } else {
                String::new()
            };
            facts.insert(format!(
                "{table}: {}index {index} ({}){predicate}",
                if unique == 1 { "unique " } else { "" },
                cols.join(", ")
            ));
        }
        let fks: Vec<(i64, String, String, Option<String>, String)> = sqlx::query_as(
            "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
        )
        .bind(table)
        .fetch_all(&mut c)
        .await
        .unwrap();
        let mut by_id: BTreeMap<i64, ForeignKey> = BTreeMap::new();
        for (id, to_table, from, to, on_delete) in fks {
            let e = by_id
                .entry(id)
                .or_insert_with(|| (to_table, Vec::new(), Vec::new(), on_delete));
            e.1.push(from);
            e.2.push(to);
        }
        for (to_table, from, to, on_delete) in by_id.into_values() {
            // `REFERENCES t` without columns names t's primary key.
            let to: Vec<String> = if to.iter().all(Option::is_none) {
                let pk: Vec<(String,)> = sqlx::query_as(
                    "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk",
                )
                .bind(&to_table)
                .fetch_all(&mut c)
                .await
                .unwrap();
                pk.into_iter().map(|(n,)| n).collect()
            } else {
                to.into_iter().map(Option::unwrap_or_default).collect()
            };
            facts.insert(format!(
                "{table}: foreign key ({}) references {to_table} ({}) on delete {}",
                from.join(", "),
                to.join(", "),
                on_delete.to_ascii_lowercase()
            ));
        }
        for check in checks_in(sql) {
            facts.insert(format!(
                "{table}: check on ({})",
                columns_named(&check, &names).join(", ")
            ));
        }
    }
    facts
}

async fn postgres_facts(url: &str) -> Facts {
    let mut c = sqlx::PgConnection::connect(url).await.unwrap();
    let mut facts = Facts::new();
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
           AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    let tables: BTreeSet<String> = tables.into_iter().map(|(t,)| t).collect();
    let mut names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for t in &tables {
        facts.insert(format!("table {t}"));
    }
    let cols: Vec<(String, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text, column_default::text
         FROM information_schema.columns WHERE table_schema = current_schema()",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for (table, name, declared, nullable, default) in cols {
        if !tables.contains(&table) {
            continue;
        }
        names
            .entry(table.clone())
            .or_default()
            .insert(name.to_ascii_lowercase());
        facts.insert(column_fact(
            &table,
            &name,
            &declared,
            nullable == "NO",
            default.as_deref(),
        ));
    }
    let indexes: Vec<PgIndex> = sqlx::query_as(
        "SELECT t.relname::text, i.relname::text, x.indisunique, x.indisprimary,
                EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid
                        AND k.contype IN ('p', 'u', 'x')),
                ARRAY(SELECT COALESCE(a.attname::text, '<expr>')
                      FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                      LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                      ORDER BY k.n),
                pg_get_expr(x.indpred, x.indrelid)
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = current_schema()",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for (table, index, unique, primary, by_constraint, cols, predicate) in indexes {
        if !tables.contains(&table) {
            continue;
        }
        if primary {
            facts.insert(format!("{table}: primary key ({})", cols.join(", ")));
        } else if by_constraint {
            facts.insert(format!("{table}: unique ({})", cols.join(", ")));
        } else {
            let predicate =
                predicate.map_or(String::new(), |p| format!(" where {}", normalise(&p)));
            facts.insert(format!(
                "{table}: {}index {index} ({}){predicate}",
                if unique { "unique " } else { "" },
                cols.join(", ")
            ));
        }
    }
    let constraints: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT t.relname::text, c.contype::text, pg_get_constraintdef(c.oid)
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = current_schema() AND c.contype IN ('f', 'c')",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for (table, kind, def) in constraints {
        if !tables.contains(&table) {
            continue;
        }
        if kind == "c" {
            let check = def.trim_start_matches("CHECK ");
            facts.insert(format!(
                "{table}: check on ({})",
                columns_named(check, &names[&table]).join(", ")
            ));
            continue;
        }
        // FOREIGN KEY (a, b) REFERENCES t(x, y) ON DELETE CASCADE
        let inside = |s: &str| -> (String, usize) {
            let open = s.find('(').unwrap();
            let close = open + s[open..].find(')').unwrap();
            (s[open + 1..close].replace('"', ""), close)
        };
        let (from, close) = inside(&def);
        let rest = &def[close + 1..];
        let after = rest.trim_start().trim_start_matches("REFERENCES ");
        let to_table = after[..after.find('(').unwrap()].trim().replace('"', "");
        let (to, _) = inside(after);
        let on_delete = def
            .find("ON DELETE ")
            .map_or("no action".to_string(), |at| {
                let action = &def[at + "ON DELETE ".len()..];
                let words: Vec<&str> = action.split_whitespace().collect();
                match words.first() {
                    Some(&"SET") => format!("set {}", words[1]),
                    Some(w) => w.to_string(),
                    None => String::new(),
                }
                .to_ascii_lowercase()
            });
        facts.insert(format!(
            "{table}: foreign key ({from}) references {to_table} ({to}) on delete {on_delete}"
        ));
    }
    facts
}

/// The listed differences that `facts` (of `backend`) must still show, or the list is stale.
fn stale(backend: &str, facts: &Facts) -> Vec<String> {
    INTENDED
        .iter()
        .filter(|(b, fact, _)| *b == backend && !facts.contains(*fact))
        .map(|(b, fact, _)| format!("{b}: {fact}"))
        .collect()
}

#[tokio::test]
async fn both_backends_migrate_to_one_schema() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("schema.db").to_str().unwrap().to_string();
    paylink_server::store::Db::open(&file).await.unwrap();
    let sqlite = sqlite_facts(&file).await;
    assert!(
        sqlite.iter().filter(|f| f.starts_with("table ")).count() > 20,
        "the SQLite schema read as {} facts: is the reading right?",
        sqlite.len()
    );
    for kind in [
        ": foreign key (",
        ": check on (",
        ": index ",
        ": unique (",
        ": primary key (",
    ] {
        assert!(
            sqlite.iter().any(|f| f.contains(kind)),
            "no `{kind}` read from the SQLite schema: is the reading right?"
        );
    }
    let stale_sqlite = stale("sqlite", &sqlite);
    assert!(
        stale_sqlite.is_empty(),
        "listed in INTENDED but not in the schema:\n{}",
        stale_sqlite.join("\n")
    );
    if !on_postgres() {
        return;
    }
    let url = test_database(dir.path(), "unused").await;
    paylink_server::store::Db::open(&url).await.unwrap();
    let postgres = postgres_facts(&url).await;
    // (No check: PostgreSQL's migrations have none; SQLite's one is listed in INTENDED.)
    for kind in [": foreign key (", ": index ", ": unique ("] {
        assert!(
            postgres.iter().any(|f| f.contains(kind)),
            "no `{kind}` read from the PostgreSQL schema: is the reading right?"
        );
    }
    let stale_pg = stale("postgres", &postgres);
    assert!(
        stale_pg.is_empty(),
        "listed in INTENDED but not in the schema:\n{}",
        stale_pg.join("\n")
    );
    let intended: BTreeSet<(&str, &str)> = INTENDED.iter().map(|(b, f, _)| (*b, *f)).collect();
    let mut differences = Vec::new();
    for (backend, ours, theirs) in [
        ("sqlite", &sqlite, &postgres),
        ("postgres", &postgres, &sqlite),
    ] {
        for fact in ours.difference(theirs) {
            if !intended.contains(&(backend, fact.as_str())) {
                differences.push(format!("only on {backend}: {fact}"));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "the backends' migrations differ (make them agree, or list the difference in INTENDED with why):\n{}",
        differences.join("\n")
    );
}
