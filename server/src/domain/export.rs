//! The CSV export of the merchant's invoice list, as a Brazilian spreadsheet
//! opens it without an import dialog: UTF-8 with a BOM (or Excel reads it as
//! Latin-1), `;` between fields and a decimal comma (the pt-BR locale's list
//! and decimal separators), dates dd/mm/aaaa, one line per installment.

use paylink_model::{Date, Lang};

use crate::store::lists::ExportRow;

/// The file's first bytes: the BOM and the header row.
pub fn header() -> String {
    format!(
        "\u{feff}{}\r\n",
        [
            "Fatura",
            "Pedido",
            "Cliente",
            "CPF/CNPJ",
            "E-mail",
            "Tipo",
            "Parcela",
            "Vencimento",
            "Valor (R$)",
            "Pago (R$)",
            "Situação",
            "Pago em",
        ]
        .join(";")
    )
}

/// One installment as a CSV line (CRLF-terminated, RFC 4180). `today` (in
/// Brasília) tells an overdue installment from one still open.
pub fn line(row: &ExportRow, today: Date) -> String {
    let due = row
        .due_date
        .map(|d| d.format_for(Lang::PtBr))
        .unwrap_or_default();
    let status = match row.status.as_str() {
        _ if row.cancelled => "Cancelada",
        "WAITING_PAYMENT" if row.due_date.is_some_and(|d| d < today) => "Vencida",
        "WAITING_PAYMENT" => "Em aberto",
        "CONFIRMED" => "Paga",
        "REVERSED" => "Estornada",
        other => other,
    };
    let fields = [
        field(&row.invoice_id),
        text(&row.external_id),
        text(&row.full_name),
        field(
            &row.document
                .as_deref()
                .map(paylink_model::br::mask_document)
                .unwrap_or_default(),
        ),
        text(row.email.as_deref().unwrap_or("")),
        field(&row.invoice_type),
        field(&format!("{}/{}", row.number, row.installment_count)),
        field(&due),
        decimal_comma(row.price_cents),
        decimal_comma(row.paid_cents),
        field(status),
        field(
            &row.paid_at
                .as_deref()
                .and_then(paylink_model::date::brasilia_day)
                .map(|d| d.format_for(Lang::PtBr))
                .unwrap_or_default(),
        ),
    ];
    let mut out = fields.join(";");
    out.push_str("\r\n");
    out
}

/// Cents as `1234,56`: no thousands separator, which spreadsheets would
/// read as text.
fn decimal_comma(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let c = cents.unsigned_abs();
    format!("{sign}{},{:02}", c / 100, c % 100)
}

/// A field quoted when it holds `;`, `"` or a line break (RFC 4180).
fn field(value: &str) -> String {
    if value.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// A field typed by someone else (a payer's name, an order id): one that a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) gets a
/// leading `'`, so opening the export never runs it (OWASP, CSV injection).
fn text(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        field(&format!("'{value}"))
    } else {
        field(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> ExportRow {
        ExportRow {
            invoice_id: "0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10".into(),
            external_id: "pedido;42".into(),
            full_name: "=HYPERLINK(\"http://x\")".into(),
            document: Some("52998224725".into()),
            email: Some("maria@example.com.br".into()),
            invoice_type: "INSTALLMENT".into(),
            number: 2,
            installment_count: 3,
            due_date: Date::parse_iso("2027-02-28"),
            price_cents: 123_456,
            paid_cents: 5,
            status: "WAITING_PAYMENT".into(),
            paid_at: Some("2027-03-01T02:59:00.000Z".into()),
            cancelled: false,
        }
    }

    #[test]
    fn a_line_is_what_a_brazilian_spreadsheet_reads() {
        let today = Date::parse_iso("2027-01-10").unwrap();
        assert_eq!(
            line(&row(), today),
            "0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10;\"pedido;42\";\"'=HYPERLINK(\"\"http://x\"\")\";\
             529.982.247-25;maria@example.com.br;INSTALLMENT;2/3;28/02/2027;1234,56;0,05;Em aberto;28/02/2027\r\n"
        );
        let late = Date::parse_iso("2027-03-01").unwrap();
        assert!(line(&row(), late).contains(";Vencida;"));
        assert!(header().starts_with("\u{feff}Fatura;Pedido;"));
        // A payment known by its day only (by hand, a boleto's retorno) is paid that day.
        let by_hand = ExportRow {
            paid_at: Some("2027-03-01T00:00:00.000Z".into()),
            ..row()
        };
        assert!(line(&by_hand, today).ends_with(";01/03/2027\r\n"));
    }
}
