//! The widget's async work: [`Busy`] for a form's submit and [`load`] for a
//! screen's GET.
//!
//! Leptos has `Action` and `LocalResource` for this; they bring its
//! async-derived machinery (async locks, wakers, suspense plumbing), about
//! 25 KB of wasm that a screen with one request at a time does not need
//! (bench/widget-size). These are `spawn_local` plus a signal.

use std::future::Future;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::api;

/// Whether a submit is on its way (the button shows "Enviando…" and a
/// second submit is ignored until the answer).
#[derive(Clone, Copy)]
pub struct Busy(RwSignal<bool>);

impl Default for Busy {
    fn default() -> Self {
        Busy(crate::form::flag_signal(false))
    }
}

impl Busy {
    /// Tracked: views re-render when the submit starts and ends.
    pub fn get(self) -> bool {
        self.0.get()
    }

    pub fn get_untracked(self) -> bool {
        self.0.get_untracked()
    }

    /// Runs `work` unless a submit is already on its way.
    pub fn run(self, work: impl Future<Output = ()> + 'static) {
        if self.0.get_untracked() {
            return;
        }
        self.0.set(true);
        let flag = self.0;
        spawn_local(async move {
            work.await;
            // The screen may be gone by now: a disposed signal ignores the set.
            flag.set(false);
        });
    }
}

/// What a GET answered: `None` until the first answer.
pub type Answer<T> = Option<Result<T, api::Error>>;

/// A screen's data, fetched when created and again on [`Load::refetch`]
/// (which keeps showing the last answer until the new one arrives).
pub struct Load<T: Send + Sync + 'static> {
    value: RwSignal<Answer<T>>,
    refetch: StoredValue<Box<dyn Fn()>, LocalStorage>,
}

impl<T: Send + Sync + 'static> Clone for Load<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync + 'static> Copy for Load<T> {}

/// Starts `fetch` now and returns the signal its answers land in. Answers
/// arrive in any order; only the newest ask's answer is kept.
pub fn load<T, F>(fetch: impl Fn() -> F + 'static) -> Load<T>
where
    T: Send + Sync + 'static,
    F: Future<Output = Result<T, api::Error>> + 'static,
{
    let value = RwSignal::new(None);
    let asked = StoredValue::new(0u32);
    let run = move || {
        let n = asked.get_value().wrapping_add(1);
        asked.set_value(n);
        let answer = fetch();
        spawn_local(async move {
            let answer = answer.await;
            if asked.try_get_value() == Some(n) {
                value.set(Some(answer));
            }
        });
    };
    run();
    Load {
        value,
        refetch: StoredValue::new_local(Box::new(run)),
    }
}

impl<T: Send + Sync + 'static> Load<T> {
    /// Asks again.
    pub fn refetch(&self) {
        self.refetch.with_value(|f| f());
    }

    /// Reads the answer, tracked.
    pub fn with<R>(&self, f: impl FnOnce(&Answer<T>) -> R) -> R {
        self.value.with(f)
    }

    /// Reads the answer, untracked.
    pub fn with_untracked<R>(&self, f: impl FnOnce(&Answer<T>) -> R) -> R {
        self.value.with_untracked(f)
    }
}
