//! Helpers for what the merchant types and sees, shared by several screens:
//! today's date in Brasília.

use paylink_model::date::brasilia_today_from_millis;
use paylink_model::Date;

/// Today in Brasília (the day due dates are compared with, on the server too).
pub fn brasilia_today() -> Option<Date> {
    brasilia_today_from_millis(js_sys::Date::now() as i64)
}
