//! Invoices with their installments, payment types, notifications and
//! webhooks: written in one transaction with their events, read whole (one
//! or a list page's at once). Over 400 lines because writing and reading
//! share the row shapes (`InvoiceRows`), which are best kept in one place.

use paylink_model::charges::{DiscountTerm, Value, ValueType};
use paylink_model::{
    ChargeTerms, CustomerDetail, Date, HookType, InvoiceCreated, InvoiceType, NewInvoice,
    PlannedInstallment,
};
use sqlx::Row;

use super::idempotency::claim_key;
use super::*;

/// Every row of an invoice, as the detail operation needs them.
pub struct InvoiceRows {
    pub id: String,
    /// The invoice's columns under their own names (and more).
    pub invoice: DbRow,
    pub customer: CustomerDetail,
    /// One row per installment, in order, its columns prefixed `i_`.
    pub installments: Vec<DbRow>,
    pub payment_types: Vec<String>,
    pub notifications: Vec<NotificationRow>,
    pub webhooks: Vec<WebhookRow>,
    /// Each scheduled notification send, with its notification's id.
    pub notification_sends: Vec<(String, paylink_model::NotificationSend)>,
    /// Fine, interest and discount.
    pub terms: ChargeTerms,
    /// Each devolução of the installments' Pix, with its installment's number, oldest first.
    pub devolucoes: Vec<(u32, paylink_model::Devolucao)>,
}

/// A fine's or discount's stored type and value.
fn stored_value(kind: Option<&str>, value: Option<i64>) -> Result<Option<Value>, DbError> {
    match (kind, value) {
        (None, None) => Ok(None),
        (Some(k), Some(n)) => ValueType::parse(k)
            .map(|t| Some(Value::of(t, n)))
            .ok_or_else(|| DbError::Decode(format!("unexpected stored value type {k:?}").into())),
        _ => Err(DbError::Decode(
            "a stored value type without its value".into(),
        )),
    }
}

/// [`ChargeTerms`] from the columns [`insert`] writes: type and
/// integer of the fine (hundredths of a percent or cents), interest per
/// month, type, integer and last day of the discount.
pub(crate) fn terms_of(r: &DbRow) -> Result<ChargeTerms, DbError> {
    let discount = match (
        stored_value(r.try_get("discount_type")?, r.try_get("discount_value")?)?,
        r.try_get::<Option<&str>, _>("discount_until")?,
    ) {
        (None, None) => None,
        (Some(value), Some(until)) => Some(DiscountTerm {
            value,
            until: Date::parse_iso(until)
                .ok_or_else(|| DbError::Decode(format!("bad stored date {until:?}").into()))?,
        }),
        _ => {
            return Err(DbError::Decode(
                "a stored discount without its value or date".into(),
            ))
        }
    };
    Ok(ChargeTerms {
        fine: stored_value(r.try_get("fine_type")?, r.try_get("fine_value")?)?,
        interest_monthly_bp: r.try_get("interest_monthly_bp")?,
        discount,
    })
}

/// A stored notification config of an invoice.
pub struct NotificationRow {
    pub id: String,
    pub kind: String,
    pub channel: String,
    pub period: Option<i64>,
    pub created_at: String,
}

/// A stored webhook of an invoice.
pub struct WebhookRow {
    pub id: String,
    pub hook_type: String,
    pub url: String,
    pub created_at: String,
}

/// Stores an invoice with its installments, payment types, notifications
/// and webhooks in one transaction: all of it or nothing. `created` is
/// the response (its ids are the rows' ids); `plan` gives the due dates;
/// `audit`, the operator's line when an operator made it.
pub async fn insert(
    db: &Db,
    app: &Application,
    inv: &NewInvoice,
    created: &InvoiceCreated,
    plan: &[PlannedInstallment],
    idem: Option<&Idem>,
    audit: Option<&super::operators::AuditLine>,
) -> Result<(), DbError> {
    let (id, created_at) = (created.id.as_str(), created.created_at.as_str());
    let mut tx = db.begin_write().await?;
    if let Some(idem) = idem {
        claim_key(&mut tx, &app.id, idem).await?;
    }
    const INSERT: &str = "INSERT INTO invoices (id, application_id, customer_id, external_id, description, invoice_type, price_cents,
            price_by_customer, due_date, installment_count, frequency, end_date, end_installment, end_subscription,
            redirect_to, created_at, fine_type, fine_value, interest_monthly_bp, discount_type, discount_value,
            discount_until, search_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
            $22, $23)";
    // An operator's creation writes its audit line in the same statement.
    let sql = audit.map(|_| super::operators::with_audit(db.backend(), INSERT, 23));
    let q = sqlx::query(sql.as_deref().unwrap_or(INSERT))
        .bind(id)
        .bind(&app.id)
        .bind(&inv.customer_id)
        .bind(&inv.external_id)
        .bind(&inv.description)
        .bind(inv.invoice_type.as_str())
        .bind(inv.price_cents)
        .bind(inv.price_by_customer)
        .bind(inv.due_date.to_string())
        .bind(inv.installment_count as i64)
        .bind(inv.frequency.map(|f| f.as_str()))
        .bind(inv.end_date.map(|d| d.to_string()))
        .bind(inv.end_installment.map(|n| n as i64))
        .bind(&inv.end_subscription)
        .bind(&inv.redirect_to)
        .bind(created_at)
        .bind(inv.terms.fine.map(|f| f.kind().name()))
        .bind(inv.terms.fine.map(Value::stored))
        .bind(inv.terms.interest_monthly_bp)
        .bind(inv.terms.discount.map(|d| d.value.kind().name()))
        .bind(inv.terms.discount.map(|d| d.value.stored()))
        .bind(inv.terms.discount.map(|d| d.until.to_string()))
        .bind(super::search_keys::invoice_key(&inv.external_id));
    match audit {
        Some(line) => super::operators::bind_audit(q, line),
        None => q,
    }
    .execute(&mut *tx)
    .await?;
    // Each list in one multi-row INSERT: a statement is a round trip.
    use crate::store::events::values_placeholders as values;
    let sql = format!(
        "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date, status, created_at, pix_txid)
         VALUES {}",
        values(plan.len(), 9)
    );
    let mut q = sqlx::query(&sql);
    for (p, created) in plan.iter().zip(&created.installments) {
        q = q
            .bind(&created.id)
            .bind(id)
            .bind(p.number as i64)
            .bind(p.price_cents)
            .bind(0_i64)
            .bind(p.due_date.to_string())
            .bind("WAITING_PAYMENT")
            .bind(created_at)
            .bind(super::new_pix_txid());
    }
    q.execute(&mut *tx).await?;
    if let Some(p) = &inv.pix_automatico {
        super::pix_recurrences::insert(&mut tx, id, p, created_at).await?;
    }
    if !inv.payment_types.is_empty() {
        let sql = format!(
            "INSERT INTO invoice_payment_types (invoice_id, position, payment_type) VALUES {}",
            values(inv.payment_types.len(), 3)
        );
        let mut q = sqlx::query(&sql);
        for (pos, t) in inv.payment_types.iter().enumerate() {
            q = q.bind(id).bind(pos as i64).bind(t.as_str());
        }
        q.execute(&mut *tx).await?;
    }
    if !inv.notifications.is_empty() {
        let sql = format!(
            "INSERT INTO invoice_notifications (id, invoice_id, position, type, channel, period, created_at)
             VALUES {}",
            values(inv.notifications.len(), 7)
        );
        let mut q = sqlx::query(&sql);
        for (pos, n) in inv.notifications.iter().enumerate() {
            q = q
                .bind(new_id())
                .bind(id)
                .bind(pos as i64)
                .bind(n.kind.as_str())
                .bind(n.channel.as_str())
                .bind(n.period.map(|p| p as i64))
                .bind(created_at);
        }
        q.execute(&mut *tx).await?;
    }
    if !inv.webhooks.is_empty() {
        let sql = format!(
            "INSERT INTO invoice_webhooks (id, invoice_id, position, hook_type, url, created_at) VALUES {}",
            values(inv.webhooks.len(), 6)
        );
        let mut q = sqlx::query(&sql);
        for (pos, w) in inv.webhooks.iter().enumerate() {
            q = q
                .bind(new_id())
                .bind(id)
                .bind(pos as i64)
                .bind(w.hook_type.as_str())
                .bind(&w.url)
                .bind(created_at);
        }
        q.execute(&mut *tx).await?;
    }
    // The outbox: INVOICE_CREATED, and PAYMENT_GENERATED for each
    // installment's charge, committed with the invoice itself.
    let event = |kind, installment| crate::store::events::NewEvent {
        application_id: &app.id,
        invoice_id: id,
        external_id: &inv.external_id,
        kind,
        installment,
        method: None,
        returned: None,
    };
    let mut events = vec![event(HookType::InvoiceCreated, None)];
    for i in &created.installments {
        let snapshot = crate::store::events::InstallmentSnapshot {
            id: i.id.clone(),
            installment: i.installment,
            price: i.price,
            price_paid: i.price_paid,
            status: i.status.as_str().to_string(),
            due_date: i.due_date.clone(),
        };
        events.push(event(HookType::PaymentGenerated, Some(snapshot)));
    }
    crate::store::events::record_all(&mut tx, &events).await?;
    // Payer notifications of the new installments, in the same
    // transaction (a new invoice's configs are the request's: none, no
    // sends, and no query to find that out).
    if !inv.notifications.is_empty() {
        let new: Vec<_> = created
            .installments
            .iter()
            .zip(plan)
            .map(|(i, p)| (i.id.as_str(), p.number, p.due_date))
            .collect();
        crate::store::notifications::schedule_for_new_installments(&mut tx, id, &new).await?;
    }
    tx.commit().await
}

/// Whether `app_id` has the (not cancelled) invoice `id`: the check before
/// an action, without reading the invoice's rows.
pub async fn exists(db: &Db, app_id: &str, id: &str) -> Result<bool, DbError> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM invoices WHERE id = $1 AND application_id = $2 AND deleted_at IS NULL",
    )
    .bind(id)
    .bind(app_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(found.is_some())
}

/// The application that owns invoice `id` (cancelled or not), for the payer
/// routes, which serve every application's invoices each as its own.
pub async fn owner(db: &Db, id: &str) -> Result<Option<super::Application>, DbError> {
    sqlx::query_as(
        "SELECT a.id, a.user_id, a.name FROM invoices i JOIN applications a ON a.id = i.application_id
         WHERE i.id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// The txid of each installment's static PIX code, by installment id (none
/// for a row an older server wrote after the migration gave the others theirs).
pub async fn static_pix_txids(db: &Db, invoice_id: &str) -> Result<Vec<(String, String)>, DbError> {
    sqlx::query_as(
        "SELECT id, pix_txid FROM installments WHERE invoice_id = $1 AND pix_txid IS NOT NULL",
    )
    .bind(invoice_id)
    .fetch_all(&db.pool)
    .await
}

/// All rows of an invoice of `app_id`, or `None` (unknown, deleted, or
/// another application's: indistinguishable to the caller).
pub(super) async fn load(
    db: &Db,
    app_id: &str,
    id: &str,
    include_deleted: bool,
) -> Result<Option<InvoiceRows>, DbError> {
    let ids = [id.to_string()];
    Ok(load_many(db, app_id, &ids, include_deleted).await?.pop())
}

/// All rows of the invoices `ids` of `app_id` that exist (in no given
/// order; the unknown, deleted or another application's left out). Two
/// statements on one connection whatever the number of invoices: every
/// statement is a round trip to the connection (on SQLite, to its worker
/// thread), and the trips, not the queries, are what this costs; a list
/// page of 50 loaded one by one was 100 trips.
pub(super) async fn load_many(
    db: &Db,
    app_id: &str,
    ids: &[String],
    include_deleted: bool,
) -> Result<Vec<InvoiceRows>, DbError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = db.pool.acquire().await?;
    // $3, $4, … : the ids, after the application and the deleted flag.
    let list = (0..ids.len())
        .map(|i| format!("${}", i + 3))
        .collect::<Vec<_>>()
        .join(", ");
    // The invoice, its customer (deleted or not: an invoice keeps its
    // payer) and the customer's address, repeated on each installment.
    // Every invoice has at least one installment; the LEFT JOIN keeps
    // the invoice even if one had none. `application_id || ''` keeps
    // SQLite (no statistics) from walking the application's index, every
    // invoice of it, to test the `IN`, rather than looking the ids up by
    // key (EXPLAIN QUERY PLAN; 100,000 invoices: ~45 ms a page against ~1).
    let sql = format!(
        // A BOOLEAN column reaches sqlx::Any as a type SQLite's driver
        // cannot map; as an integer expression it reads alike on both.
        "SELECT v.id, v.customer_id, v.external_id, v.description, v.invoice_type, v.price_cents,
                CASE WHEN v.price_by_customer THEN 1 ELSE 0 END AS price_by_customer, v.due_date,
                v.installment_count, v.frequency, v.end_date, v.end_installment, v.end_subscription,
                v.redirect_to, v.created_at, v.fine_type, v.fine_value, v.interest_monthly_bp,
                v.discount_type, v.discount_value, v.discount_until,
                c.full_name AS c_full_name, c.document AS c_document, c.business AS c_business,
                c.email AS c_email, c.user_id AS c_user_id, c.application_id AS c_application_id,
                c.phone AS c_phone, a.id AS c_address_id, c.observations AS c_observations, c.language AS c_language,
                c.created_at AS c_created_at, c.deleted_at AS c_deleted_at,
                i.id AS i_id, i.number AS i_number, i.price_cents AS i_price_cents,
                i.price_paid_cents AS i_price_paid_cents, i.due_date AS i_due_date, i.status AS i_status,
                i.created_at AS i_created_at, i.updated_at AS i_updated_at, i.deleted_at AS i_deleted_at,
                i.last_view_at AS i_last_view_at, i.paid_at AS i_paid_at,
                i.payment_received_at AS i_payment_received_at, i.views_count AS i_views_count,
                pc.operation AS p_operation, pc.status AS p_status, pc.refusal AS p_refusal,
                pc.last_error AS p_last_error,
                y.due_date AS y_due_date, y.status AS y_status, y.attempts AS y_attempts,
                y.reasons AS y_reasons,
                r.periodicity AS r_periodicity, r.retry_policy AS r_retry_policy,
                r.operation AS r_operation, r.status AS r_status, r.id_rec AS r_id_rec,
                r.bank_status AS r_bank_status, r.refusal AS r_refusal, r.closing AS r_closing
         FROM invoices v
         JOIN customers c ON c.id = v.customer_id AND c.application_id = v.application_id
         LEFT JOIN addresses a ON a.customer_id = c.id
         LEFT JOIN installments i ON i.invoice_id = v.id
         LEFT JOIN pix_charges pc ON pc.id = i.id
         LEFT JOIN pix_cycles y ON y.installment_id = i.id
         LEFT JOIN pix_recurrences r ON r.id = v.id
         WHERE v.id IN ({list}) AND (v.application_id || '') = $1 AND ($2 OR v.deleted_at IS NULL)
         ORDER BY v.id, i.number"
    );
    let rows = ids
        .iter()
        .fold(
            sqlx::query(&sql).bind(app_id).bind(include_deleted),
            |q, id| q.bind(id),
        )
        .fetch_all(&mut *conn)
        .await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    // Only the invoices found: the others' extras are not asked for.
    let mut found = rows
        .iter()
        .map(|r| r.try_get::<String, _>("id"))
        .collect::<Result<Vec<_>, _>>()?;
    found.dedup();
    let list = (0..found.len())
        .map(|i| format!("${}", i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    // Payment types, notification configs, webhooks and notification
    // sends in one statement: `kind` tells them apart, `o1`..`o4` order
    // each kind as its own query did (a send of no installment sorts
    // first, explicitly: SQLite puts NULL first and PostgreSQL last).
    // Typed NULLs, because PostgreSQL types each UNION column once.
    let sql = format!(
        "SELECT invoice_id AS inv, 'p' AS kind, CAST(NULL AS TEXT) AS id, payment_type AS t1,
                CAST(NULL AS TEXT) AS t2, CAST(NULL AS TEXT) AS t3, CAST(NULL AS BIGINT) AS n1,
                position AS o1, CAST(NULL AS TEXT) AS o2, CAST(0 AS BIGINT) AS o3, CAST(NULL AS TEXT) AS o4,
                CAST(NULL AS TEXT) AS t4, CAST(NULL AS TEXT) AS t5, CAST(NULL AS TEXT) AS t6,
                CAST(NULL AS TEXT) AS t7, CAST(NULL AS TEXT) AS t8, CAST(NULL AS TEXT) AS t9
         FROM invoice_payment_types WHERE invoice_id IN ({list})
         UNION ALL
         SELECT invoice_id, 'n', id, type, channel, created_at, period, position, NULL, 0, NULL,
                NULL, NULL, NULL, NULL, NULL, NULL
         FROM invoice_notifications WHERE invoice_id IN ({list})
         UNION ALL
         SELECT invoice_id, 'w', id, hook_type, url, created_at, NULL, position, NULL, 0, NULL,
                NULL, NULL, NULL, NULL, NULL, NULL
         FROM invoice_webhooks WHERE invoice_id IN ({list})
         UNION ALL
         SELECT s.invoice_id, 's', s.notification_id, s.status, s.due_at, s.sent_at, n.number,
                0, s.due_at, COALESCE(n.number, 0), s.created_at,
                s.channel, s.recipient, s.provider_id, ps.status, ps.received_at,
                COALESCE(ps.error, s.last_error)
         FROM notification_sends s LEFT JOIN installments n ON n.id = s.installment_id
         LEFT JOIN notification_provider_statuses ps
           ON ps.channel = s.channel AND ps.provider_id = s.provider_id
         WHERE s.invoice_id IN ({list})
         UNION ALL
         SELECT n.invoice_id, 'd', d.refund_id, d.natureza, d.status, d.requested_at,
                d.amount_cents, n.number, d.created_at, 0, d.refund_id,
                d.end_to_end_id, d.rtr_id, d.settled_at, NULL, NULL, NULL
         FROM pix_refunds d JOIN pix_payments p ON p.end_to_end_id = d.end_to_end_id
         JOIN installments n ON n.id = p.installment_id
         WHERE n.invoice_id IN ({list})
         ORDER BY inv, kind, o1, o2, o3, o4"
    );
    let extras = found
        .iter()
        .fold(sqlx::query(&sql), |q, id| q.bind(id))
        .fetch_all(&mut *conn)
        .await?;

    // Each invoice's rows are together (ordered by id, in the database's
    // collation, which need not be Rust's: grouped, not compared).
    let mut by_invoice: std::collections::HashMap<String, Vec<DbRow>> =
        std::collections::HashMap::new();
    for e in extras {
        by_invoice.entry(e.try_get("inv")?).or_default().push(e);
    }
    let mut out = Vec::with_capacity(found.len());
    let mut rows = rows.into_iter().peekable();
    while let Some(first) = rows.next() {
        let id: String = first.try_get("id")?;
        let mut mine = vec![first];
        while let Some(r) = rows.next_if(|r| r.try_get::<&str, _>("id").is_ok_and(|i| i == id)) {
            mine.push(r);
        }
        let theirs = by_invoice.remove(&id).unwrap_or_default();
        out.push(invoice_rows(mine, &theirs)?);
    }
    Ok(out)
}

/// One invoice's [`InvoiceRows`] from its rows of the detail query (at
/// least one) and its rows of the extras' query.
fn invoice_rows(rows: Vec<DbRow>, extras: &[DbRow]) -> Result<InvoiceRows, DbError> {
    use crate::store::notifications::SendColumns;
    let first = &rows[0];
    let customer = CustomerDetail {
        id: first.try_get("customer_id")?,
        full_name: first.try_get("c_full_name")?,
        document: first.try_get("c_document")?,
        business: first.try_get("c_business")?,
        email: first.try_get("c_email")?,
        user_id: first.try_get("c_user_id")?,
        application_id: first.try_get("c_application_id")?,
        phone: first.try_get("c_phone")?,
        address_id: first.try_get("c_address_id")?,
        observations: first.try_get("c_observations")?,
        language: crate::store::customers::language(first.try_get("c_language")?),
        created_at: first.try_get("c_created_at")?,
        deleted_at: first.try_get("c_deleted_at")?,
    };
    let (mut payment_types, mut notifications, mut webhooks, mut notification_sends) =
        (vec![], vec![], vec![], vec![]);
    let mut devolucoes = vec![];
    for r in extras {
        match r.try_get::<&str, _>("kind")? {
            "p" => payment_types.push(r.try_get("t1")?),
            "d" => {
                let text = |c: &str| r.try_get::<&str, _>(c);
                let fault =
                    |c: &str| super::stored_fault(format!("unexpected stored devolução {c}"));
                devolucoes.push((
                    r.try_get::<i64, _>("o1")? as u32,
                    paylink_model::Devolucao {
                        id: r.try_get("id")?,
                        end_to_end_id: r.try_get("t4")?,
                        rtr_id: r.try_get("t5")?,
                        amount: r.try_get("n1")?,
                        natureza: paylink_model::DevolucaoNatureza::parse(text("t1")?)
                            .ok_or_else(|| fault("natureza"))?,
                        status: paylink_model::DevolucaoStatus::parse(text("t2")?)
                            .ok_or_else(|| fault("status"))?,
                        requested_at: r.try_get("t3")?,
                        settled_at: r.try_get("t6")?,
                    },
                ));
            }
            "n" => notifications.push(NotificationRow {
                id: r.try_get("id")?,
                kind: r.try_get("t1")?,
                channel: r.try_get("t2")?,
                period: r.try_get("n1")?,
                created_at: r.try_get("t3")?,
            }),
            "w" => webhooks.push(WebhookRow {
                id: r.try_get("id")?,
                hook_type: r.try_get("t1")?,
                url: r.try_get("t2")?,
                created_at: r.try_get("t3")?,
            }),
            _ => notification_sends.push((
                r.try_get("id")?,
                crate::store::notifications::send_of(SendColumns {
                    installment: r.try_get("n1")?,
                    due_at: r.try_get("t2")?,
                    status: r.try_get("t1")?,
                    sent_at: r.try_get("t3")?,
                    channel: r.try_get("t4")?,
                    recipient: r.try_get("t5")?,
                    provider_id: r.try_get("t6")?,
                    provider_status: r.try_get("t7")?,
                    provider_status_at: r.try_get("t8")?,
                    last_error: r.try_get("t9")?,
                }),
            )),
        }
    }
    let mut installments = Vec::with_capacity(rows.len());
    for r in &rows {
        if r.try_get::<Option<&str>, _>("i_id")?.is_some() {
            installments.push(r.clone());
        }
    }
    let invoice = rows.into_iter().next().expect("at least one row");
    let terms = terms_of(&invoice)?;
    Ok(InvoiceRows {
        id: invoice.try_get("id")?,
        terms,
        invoice,
        customer,
        installments,
        payment_types,
        notifications,
        webhooks,
        notification_sends,
        devolucoes,
    })
}

/// SINGLE, RECURRING and SUBSCRIPTION start with one installment (later
/// charges of periodic invoices are created by the scheduler); INSTALLMENT
/// gets its whole plan at once.
pub fn initial_plan(inv: &NewInvoice) -> Vec<PlannedInstallment> {
    let count = if inv.invoice_type == InvoiceType::Installment {
        inv.installment_count
    } else {
        1
    };
    paylink_model::installment_plan(inv.price_cents, count, inv.due_date)
}
