//! The invoice detail form made from its stored rows: the one place that
//! reads the detail query's columns (and their `i_` aliases).

use paylink_model::*;
use sqlx::Row;

use super::{stored_fault, Db, DbError, InvoiceRows};

/// The detail form of this application's invoice `id`, with `url` as
/// its payment link; `None` if there is no such (undeleted) invoice.
/// Stored text that does not parse is a storage fault, an error.
pub async fn find(
    db: &Db,
    app_id: &str,
    id: &str,
    url: &str,
) -> Result<Option<InvoiceDetail>, DbError> {
    crate::store::invoice_detail::find_including_deleted(db, app_id, id, url, false).await
}

/// [`find`], deleted (cancelled) invoices included when asked.
pub(super) async fn find_including_deleted(
    db: &Db,
    app_id: &str,
    id: &str,
    url: &str,
    include_deleted: bool,
) -> Result<Option<InvoiceDetail>, DbError> {
    match crate::store::invoices::load(db, app_id, id, include_deleted).await? {
        None => Ok(None),
        Some(rows) => detail_from_rows(rows, url).map(Some),
    }
}

/// Turns stored rows into the detail form. Stored enum text that does not
/// parse is a storage fault, reported as such rather than guessed at.
pub(super) fn detail_from_rows(rows: InvoiceRows, url: &str) -> Result<InvoiceDetail, DbError> {
    fn parse<T>(text: &str, f: fn(&str) -> Option<T>) -> Result<T, DbError> {
        f(text).ok_or_else(|| stored_fault(format!("unexpected stored value {text:?}")))
    }
    let due = |s: String| {
        Date::parse_iso(&s)
            .map(Date::to_iso_midnight_utc)
            .ok_or_else(|| stored_fault(format!("bad stored date {s:?}")))
    };
    let r = &rows.invoice;
    let id: String = r.try_get("id")?;
    let (fine, interest, discount) = rows.terms.to_wire();

    let installments = rows
        .installments
        .iter()
        .map(|i| {
            let number = i.try_get::<i64, _>("i_number")? as u32;
            let devolucoes: Vec<Devolucao> = rows
                .devolucoes
                .iter()
                .filter(|(n, _)| *n == number)
                .map(|(_, d)| d.clone())
                .collect();
            Ok(Installment {
                price_returned: devolucoes
                    .iter()
                    .filter(|d| d.status == DevolucaoStatus::Devolvido)
                    .map(|d| d.amount)
                    .sum(),
                devolucoes,
                id: i.try_get("i_id")?,
                invoice_id: id.clone(),
                installment: i.try_get::<i64, _>("i_number")? as u32,
                price: i.try_get("i_price_cents")?,
                price_paid: i.try_get("i_price_paid_cents")?,
                due_date: due(i.try_get("i_due_date")?)?,
                status: parse(i.try_get::<&str, _>("i_status")?, InstallmentStatus::parse)?,
                created_at: i.try_get("i_created_at")?,
                updated_at: i.try_get("i_updated_at")?,
                deleted_at: i.try_get("i_deleted_at")?,
                last_view_at: i.try_get("i_last_view_at")?,
                paid_at: i.try_get("i_paid_at")?,
                payment_received_at: i.try_get("i_payment_received_at")?,
                views_count: i.try_get::<i64, _>("i_views_count")? as u32,
                pix_charge: crate::store::pix_charges::charge_of(
                    i.try_get("p_operation")?,
                    i.try_get("p_status")?,
                    i.try_get("p_refusal")?,
                    i.try_get("p_last_error")?,
                ),
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;

    let (mut before, mut after, mut paid, mut send) = (vec![], vec![], vec![], vec![]);
    for n in &rows.notifications {
        let kind = parse(&n.kind, NotificationType::parse)?;
        let config_id = n.id.clone();
        let config = NotificationConfig {
            sends: rows
                .notification_sends
                .iter()
                .filter(|(of, _)| *of == config_id)
                .map(|(_, send)| send.clone())
                .collect(),
            id: config_id,
            kind,
            channel: parse(&n.channel, Channel::parse)?,
            period: n.period.map(|p| p as u32),
            created_at: n.created_at.clone(),
        };
        match kind.group() {
            NotificationGroup::BeforeDueDate => before.push(config),
            NotificationGroup::AfterDueDate => after.push(config),
            NotificationGroup::AfterPayment => paid.push(config),
            NotificationGroup::SendTypes => send.push(config),
        }
    }
    let webhooks = rows
        .webhooks
        .into_iter()
        .map(|w| {
            Ok(WebhookConfig {
                hook_type: parse(&w.hook_type, HookType::parse)?,
                id: w.id,
                url: w.url,
                created_at: w.created_at,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    let payment_types = rows
        .payment_types
        .iter()
        .map(|t| {
            Ok(PaymentTypeDetail {
                invoice_id: id.clone(),
                payment_type_accepted: parse(t, PaymentType::parse)?,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;

    Ok(InvoiceDetail {
        url: url.to_string(),
        external_id: r.try_get("external_id")?,
        description: r.try_get("description")?,
        invoice_type: parse(r.try_get::<&str, _>("invoice_type")?, InvoiceType::parse)?,
        price: r.try_get("price_cents")?,
        price_by_customer: r.try_get::<i64, _>("price_by_customer")? != 0,
        due_date: due(r.try_get("due_date")?)?,
        end_date: r
            .try_get::<Option<String>, _>("end_date")?
            .map(due)
            .transpose()?,
        end_installment: r
            .try_get::<Option<i64>, _>("end_installment")?
            .map(|n| n as u32),
        end_subscription: r.try_get("end_subscription")?,
        frequency: r
            .try_get::<Option<&str>, _>("frequency")?
            .map(|f| parse(f, Frequency::parse))
            .transpose()?,
        installment_count: r.try_get::<i64, _>("installment_count")? as u32,
        customer: rows.customer,
        redirect_to: r.try_get("redirect_to")?,
        installments,
        items: Vec::new(),
        notification_before_due_date: before,
        notification_after_due_date: after,
        notification_after_payment: paid,
        notification_send_types: send,
        webhooks,
        payment_types,
        created_at: r.try_get("created_at")?,
        fine,
        interest,
        discount,
        pix_automatico: match super::pix_recurrences::detail_of(r)? {
            Some(mut p) => {
                for i in &rows.installments {
                    let number = i.try_get::<i64, _>("i_number")? as u32;
                    p.cycles.extend(super::pix_cycles::cycle_of(i, number)?);
                }
                Some(p)
            }
            None => None,
        },
        id,
    })
}
