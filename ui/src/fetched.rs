//! What a screen shows of data it fetches: "Carregando…" until the first
//! answer, the envelope's message when the call failed, and the data drawn
//! in the language shown ([`Fetched`]: `<Transition>` → `<ErrorBoundary>` →
//! `Suspend`, the shape of leptos's `fetch` example, built once).

use leptos::prelude::*;
use paylink_model::Lang;
use paylink_text as text;

use crate::Failure;

/// While a screen's data loads. `class`: `"card muted"`, plus `skeleton`
/// where embed.js's frame needs the page's height before the answer.
#[component]
pub fn Loading(l: Lang, class: &'static str) -> impl IntoView {
    view! {
        <p class=class aria-busy="true">{text::LOADING.t(l)}</p>
    }
}

/// The `<ErrorBoundary>` fallback of a fetched screen: the envelope's
/// message (or why there is none), in the language shown.
pub fn failed(
    lang: RwSignal<Lang>,
) -> impl Fn(ArcRwSignal<Errors>) -> AnyView + Send + Clone + 'static {
    move |errors: ArcRwSignal<Errors>| {
        let text = move || {
            let l = lang.get();
            errors.with(|errors| {
                errors
                    .iter()
                    .map(|(_, e)| match e.downcast_ref::<Failure>() {
                        Some(e) => e.text(l),
                        None => e.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        };
        view! {
            <div class="card">
                <div class="alert" role="alert">
                    <p>{text}</p>
                </div>
            </div>
        }
        .into_any()
    }
}

/// `data` as `show` draws it in the language shown (`show` may turn an
/// answer into a view of its own, such as a refused filter's messages, or
/// pass a failure on to the error message). `data`'s call reads the
/// language, so a switch asks it again.
///
/// Built once, outside any closure that reads the language: a switch
/// refetches `data` (its call sends `Accept-Language`) and the data already
/// on screen stays there, under `<Transition>`, until the answer in the new
/// language replaces it; a block rebuilt on every switch would show
/// "Carregando…" in its place meanwhile.
#[component]
pub fn Fetched<T, V, F>(
    lang: RwSignal<Lang>,
    data: LocalResource<Result<T, Failure>>,
    /// The loading line's class (`"muted"` unless given).
    #[prop(optional)]
    class: Option<&'static str>,
    show: F,
) -> impl IntoView
where
    T: Clone + 'static,
    V: IntoView + 'static,
    F: Fn(Lang, Result<T, Failure>) -> Result<V, Failure> + Clone + Send + Sync + 'static,
{
    let class = class.unwrap_or("muted");
    view! {
        <Transition fallback=move || view! { <Loading l=lang.get_untracked() class /> }>
            <ErrorBoundary fallback=failed(lang)>
                {move || {
                    let show = show.clone();
                    Suspend::new(async move {
                        let answer = data.await;
                        show(lang.get_untracked(), answer)
                    })
                }}
            </ErrorBoundary>
        </Transition>
    }
}
