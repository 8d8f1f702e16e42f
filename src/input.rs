//! Helpers for what the merchant types and sees, shared by several screens:
//! today's date in Brasília, an amount reformatted on blur.

use paylink_model::date::brasilia_today_from_millis;
use paylink_model::money::{format_brl_input, parse_brl};
use paylink_model::Date;

/// Today in Brasília (the day due dates are compared with, on the server too).
pub fn brasilia_today() -> Option<Date> {
    brasilia_today_from_millis(js_sys::Date::now() as i64)
}

/// `1234,5` → `1.234,50` when it is a valid amount (on blur of the price).
pub fn reformat_price(s: &str) -> Option<String> {
    parse_brl(s).map(format_brl_input)
}
