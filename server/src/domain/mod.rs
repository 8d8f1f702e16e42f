//! The rules of the service that are not in `paylink_model` (they need the
//! server: the database's rows, the payer page's codes, the messages sent).

pub mod boleto_pdf;
pub mod charges;
pub mod charges_links;
pub mod cnab240;
pub mod export;
pub mod links;
pub mod mail;
pub mod messages;
pub mod operators;
pub mod outbound;
pub mod payer;
pub mod pix_api;
pub mod providers;
pub mod receipt_pdf;
pub mod receipts;
pub mod settlement;
pub mod smtp;
pub mod webhooks;

/// Milliseconds since the Unix epoch, now (session clocks, the bank's time windows).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Today's date in Brasília, the calendar charges are due by (a charge due on
/// the 24th is due from 00:00 of the 24th in São Paulo, 03:00 UTC).
pub fn today() -> paylink_model::Date {
    Clock::System.today()
}

/// The time the payer's pages are rendered at: the system's, or one held still (a test's
/// 21:00 in Brasília, a page of charges opened after its link expired) so that what depends
/// on the hour is driven, never waited for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    #[default]
    System,
    /// Always this instant (Unix milliseconds).
    Fixed(i64),
}

impl Clock {
    /// Milliseconds since the Unix epoch, now.
    pub fn now_ms(self) -> i64 {
        match self {
            Clock::System => now_ms(),
            Clock::Fixed(ms) => ms,
        }
    }

    /// Today's date in Brasília, as [`today`].
    pub fn today(self) -> paylink_model::Date {
        paylink_model::date::brasilia_today_from_millis(self.now_ms()).expect("a date after 1970")
    }
}

/// An error with its causes (`connection refused: os error 111`), as a delivery, a send or a
/// call to the bank records it for the merchant to read.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
