//! Keeps a screen current without a reload: asks again with backoff (3 s,
//! then ×1.5 up to 30 s) while there is a payment to wait for, and stops when
//! the screen goes away (its owner is cleaned up).

use std::time::Duration;

use leptos::prelude::*;

/// Calls `refetch` after 3 s, 4.5 s, … (at most 30 s apart) while `waiting()`.
pub fn poll_while(
    refetch: impl Fn() + Clone + 'static,
    waiting: impl Fn() -> bool + Clone + 'static,
) {
    let timer = StoredValue::new(None::<TimeoutHandle>);
    on_cleanup(move || {
        if let Some(Some(h)) = timer.try_get_value() {
            h.clear();
        }
    });
    schedule(3000.0, timer, refetch, waiting);
}

fn schedule(
    delay: f64,
    timer: StoredValue<Option<TimeoutHandle>>,
    refetch: impl Fn() + Clone + 'static,
    waiting: impl Fn() -> bool + Clone + 'static,
) {
    let next = move || {
        if !waiting() {
            return;
        }
        refetch();
        schedule((delay * 1.5).min(30_000.0), timer, refetch, waiting);
    };
    let handle = set_timeout_with_handle(next, Duration::from_millis(delay as u64)).ok();
    timer.try_set_value(handle);
}
