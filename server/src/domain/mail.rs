//! The e-mail of one notification send: the message's words (`messages`) as plain text and
//! HTML, with the installment's PIX copia e cola and boleto line as they are on the day it is
//! sent (the payer page's codes, `payer::payer_view`), and its printable boleto
//! (`boleto_pdf`) attached when the installment is an open boleto; a payment's confirmation
//! links the installment's receipt and attaches it (`receipts`, `receipt_pdf`). In the payer's
//! language (the customer's `language`, pt-BR unless `en`); the words, labels included, are
//! the catalog's (`paylink_text::notices`).

use paylink_model::{Date, Lang, NotificationType};
use paylink_text as text;

use super::messages::{email_text, render, Context};
use super::payer::{OurNumbers, PayerConfig};
use crate::store::{Db, DbError};

/// A file sent with the e-mail.
#[derive(Clone, Debug)]
pub struct Attachment {
    pub file_name: String,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

/// One e-mail, ready for the transport.
#[derive(Clone, Debug)]
pub struct Email {
    pub subject: String,
    pub text: String,
    pub html: String,
    pub attachment: Option<Attachment>,
}

/// Whether a message of this type asks the payer to pay (and so carries the codes).
fn asks_for_payment(kind: NotificationType) -> bool {
    !matches!(
        kind,
        NotificationType::InvoiceConfirmPayment | NotificationType::InvoiceChanged
    )
}

/// The codes of installment `ctx.number` on `today`, and its boleto as a PDF.
struct Codes {
    pix: Option<String>,
    boleto_line: Option<String>,
    pdf: Option<Attachment>,
}

async fn codes(
    db: &Db,
    cfg: &PayerConfig,
    ctx: &Context,
    url: &str,
    today: Date,
) -> Result<Option<Codes>, DbError> {
    let Some(n) = ctx.number.map(|n| n as u32) else {
        return Ok(None);
    };
    // A Pix Automático cycle its payer's bank pays: nothing to pay by hand.
    if !asks_for_payment(ctx.kind) || ctx.bank_collects {
        return Ok(None);
    }
    let Some(detail) =
        crate::store::invoice_detail::find(db, &ctx.application_id, &ctx.invoice_id, url).await?
    else {
        return Ok(None);
    };
    let numbers = OurNumbers::of(&detail, Some(db)).await?;
    let mut view = super::payer::payer_view(&detail, cfg, &numbers, today);
    if cfg.pix_api {
        super::payer::with_bank_codes(&mut view, &detail, db).await?;
    }
    let Some(shown) = view.installments.iter().find(|i| i.installment == n) else {
        return Ok(None);
    };
    let address = match &detail.customer.address_id {
        Some(id) => crate::store::customers::payer_address(db, id).await?,
        None => None,
    };
    let pdf = match super::payer::boleto_pdf_input(&detail, n, cfg, &numbers, address, today) {
        Ok(mut input) => {
            if cfg.pix_api {
                input.pix = super::payer::bank_pix_for_boleto(&detail, n, db).await?;
            }
            // Tens of milliseconds of CPU: off the async threads, as the proxy does.
            match tokio::task::spawn_blocking(move || super::boleto_pdf::render(&input)).await {
                Ok(Ok(bytes)) => Some(Attachment {
                    file_name: format!(
                        "boleto-{}-{n}.pdf",
                        super::payer::file_name_part(&detail.external_id, &detail.id)
                    ),
                    content_type: "application/pdf",
                    bytes,
                }),
                Ok(Err(e)) => {
                    tracing::warn!(invoice = %ctx.invoice_id, error = ?e, "boleto PDF not attached");
                    None
                }
                Err(e) => {
                    tracing::warn!(invoice = %ctx.invoice_id, error = %e, "boleto PDF not attached");
                    None
                }
            }
        }
        Err(_) => None,
    };
    Ok(Some(Codes {
        pix: shown.pix.as_ref().map(|p| p.payload.clone()),
        boleto_line: shown.boleto.as_ref().map(|b| b.line.clone()),
        pdf,
    }))
}

/// The receipt a payment's confirmation carries: the link to its PDF, and the PDF (none when it
/// could not be made: the link still is).
async fn receipt(
    db: &Db,
    cfg: &PayerConfig,
    ctx: &Context,
    url: &str,
    public_url: &str,
) -> Result<Option<(String, Option<Attachment>)>, DbError> {
    let Some(n) = ctx.number.map(|n| n as u32) else {
        return Ok(None);
    };
    if ctx.kind != NotificationType::InvoiceConfirmPayment {
        return Ok(None);
    }
    let Some(detail) =
        crate::store::invoice_detail::find(db, &ctx.application_id, &ctx.invoice_id, url).await?
    else {
        return Ok(None);
    };
    let Some(r) = super::receipts::of(db, &detail, n, cfg).await? else {
        return Ok(None);
    };
    let lang = match ctx.lang {
        Lang::PtBr => "",
        Lang::En => "?lang=en",
    };
    let link = format!(
        "{}/api/pay/{}/installments/{n}/receipt.pdf{lang}",
        public_url.trim_end_matches('/'),
        ctx.invoice_id
    );
    let pdf = match super::receipts::pdf(r, ctx.lang, public_url).await {
        Ok(bytes) => Some(Attachment {
            file_name: super::receipts::file_name(&detail, n, ctx.lang),
            content_type: "application/pdf",
            bytes,
        }),
        Err(e) => {
            tracing::warn!(invoice = %ctx.invoice_id, error = %e, "receipt PDF not attached");
            None
        }
    };
    Ok(Some((link, pdf)))
}

/// The e-mail of send `ctx` on `today`, its payment link `url` (under `public_url`).
pub(crate) async fn email(
    db: &Db,
    cfg: &PayerConfig,
    ctx: &Context,
    url: &str,
    public_url: &str,
    today: Date,
) -> Result<Email, DbError> {
    let mut message = render(ctx, url, today);
    let l = ctx.lang;
    let (pix_label, boleto_label, receipt_label) = (
        text::PIX_CODE.t(l),
        text::BOLETO_DIGITABLE_LINE.t(l),
        text::RECEIPT_TITLE.t(l),
    );
    let mut attached = text::BOLETO_ATTACHED.t(l);
    let codes = codes(db, cfg, ctx, url, today).await?;
    // (label, code) paragraphs after the message's own, before the footer.
    let mut code_paragraphs: Vec<(&str, String)> = Vec::new();
    let mut attachment = None;
    if let Some(c) = codes {
        if let Some(pix) = c.pix {
            code_paragraphs.push((pix_label, pix));
        }
        if let Some(line) = c.boleto_line {
            code_paragraphs.push((boleto_label, line));
        }
        attachment = c.pdf;
    }
    let receipt = receipt(db, cfg, ctx, url, public_url).await?;
    let mut receipt_link = None;
    if let Some((link, pdf)) = receipt {
        receipt_link = Some(link);
        if pdf.is_some() {
            attached = text::RECEIPT_ATTACHED.t(l);
            attachment = pdf;
        }
    }
    // A sandbox's e-mails carry demo payment settings: each says so in its subject and
    // closes its message with it, before the codes.
    if cfg.sandbox {
        message.subject = format!("{} {}", text::TEST_TAG.t(l), message.subject);
        message
            .paragraphs
            .push(text::TEST_ENVIRONMENT.t(l).to_string());
    }
    let mut paragraphs = message.paragraphs.clone();
    paragraphs.extend(
        code_paragraphs
            .iter()
            .map(|(label, code)| format!("{label}:\n{code}")),
    );
    if let Some(link) = &receipt_link {
        paragraphs.push(format!("{receipt_label}:\n{link}"));
    }
    if attachment.is_some() {
        paragraphs.push(attached.to_string());
    }
    let plain = email_text(&paragraphs, &message.footer);

    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"></head>\
         <body style=\"font-family:sans-serif;color:#222\">\n",
        ctx.lang.code()
    );
    for p in &message.paragraphs {
        html.push_str(&format!("<p>{}</p>\n", linked(p, url)));
    }
    for (label, code) in &code_paragraphs {
        html.push_str(&format!(
            "<p><strong>{}:</strong><br><code style=\"word-break:break-all\">{}</code></p>\n",
            escape(label),
            escape(code)
        ));
    }
    if let Some(link) = &receipt_link {
        let link = escape(link);
        html.push_str(&format!(
            "<p><strong>{receipt_label}:</strong><br><a href=\"{link}\">{link}</a></p>\n"
        ));
    }
    if attachment.is_some() {
        html.push_str(&format!("<p>{attached}</p>\n"));
    }
    html.push_str(&format!(
        "<hr><p style=\"color:#666;font-size:small\">{}</p>\n</body></html>\n",
        escape(&message.footer)
    ));
    Ok(Email {
        subject: message.subject,
        text: plain,
        html,
        attachment,
    })
}

/// The link to the payer's page of charges (`/c/{token}`, every charge of theirs with this
/// merchant), as the e-mail's last paragraph before the footer.
pub(crate) fn with_charges_link(mail: &mut Email, lang: Lang, url: &str) {
    let line = text::ALL_YOUR_CHARGES.t(lang);
    if let Some(at) = mail.text.rfind("\n\n--\n") {
        mail.text.insert_str(at, &format!("\n\n{line}\n{url}"));
    }
    if let Some(at) = mail.html.rfind("<hr>") {
        let url = escape(url);
        mail.html.insert_str(
            at,
            &format!("<p>{}<br><a href=\"{url}\">{url}</a></p>\n", escape(line)),
        );
    }
}

/// `text` escaped for HTML, with `url` as a link wherever it appears.
fn linked(text: &str, url: &str) -> String {
    let escaped_url = escape(url);
    escape(text).replace(
        &escaped_url,
        &format!("<a href=\"{escaped_url}\">{escaped_url}</a>"),
    )
}

/// Text made safe for HTML (element content and quoted attributes).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merchants_words_stay_text_in_the_html() {
        assert_eq!(
            linked("Referente a: <b>curso</b> & \"aula\"", "https://x"),
            "Referente a: &lt;b&gt;curso&lt;/b&gt; &amp; &quot;aula&quot;"
        );
        assert_eq!(
            linked("acesse: https://pay.example/pay/1?a=1&b=2", "https://pay.example/pay/1?a=1&b=2"),
            "acesse: <a href=\"https://pay.example/pay/1?a=1&amp;b=2\">https://pay.example/pay/1?a=1&amp;b=2</a>"
        );
        assert!(!asks_for_payment(NotificationType::InvoiceConfirmPayment));
        assert!(asks_for_payment(NotificationType::SendInvoiceCodeAtDay));
    }
}
