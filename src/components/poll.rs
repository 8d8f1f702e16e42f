//! Keeps a screen current without a reload: asks again with backoff (3 s,
//! then ×1.5 up to 30 s) while there is a payment to wait for, and stops when
//! the screen goes away. Only on the App's own routes (`/pay/…`,
//! `/invoices/…`, also when mounted in a merchant's element, whose URL is
//! not ours): a component mounted outside the App never polls.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::{on_cleanup, GetUntracked};
use leptos::task::spawn_local;

pub fn poll_while(refetch: impl Fn() + 'static, waiting: impl Fn() -> bool + 'static) {
    let routed = leptos::prelude::use_context::<crate::Ctx>().is_some_and(|c| {
        matches!(
            c.route.get_untracked(),
            crate::Route::Pay(_) | crate::Route::Invoice(_)
        )
    });
    if !routed {
        return;
    }
    let alive = Arc::new(AtomicBool::new(true));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }
    spawn_local(async move {
        let mut delay = 3000.0_f64;
        loop {
            sleep(delay as i32).await;
            if !alive.load(Ordering::Relaxed) || !waiting() {
                break;
            }
            refetch();
            delay = (delay * 1.5).min(30_000.0);
        }
    });
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
