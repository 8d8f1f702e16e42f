//! The merchant's navigation (Painel / Nova cobrança / Faturas / Clientes), shown on
//! the merchant's screens only: never on a payer's page (`/pay/:id`) or a
//! payment link's (`/l/:slug`), which payers see.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::i18n::lists::LK;
use crate::Ctx;

/// Whether `path` is one of the payers' screens.
pub fn is_payer_path(path: &str) -> bool {
    path.starts_with("/pay/") || path.starts_with("/l/")
}

/// Which entry `path` is under (`aria-current="page"`).
fn current(path: &str, href: &str) -> bool {
    match href {
        "/" => path == "/" || path == "/index.html",
        _ => path == href || path.starts_with(&format!("{href}/")),
    }
}

#[component]
pub fn MerchantNav() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let path = use_location().pathname;
    move || {
        let p = path.get();
        (!is_payer_path(&p)).then(|| {
            let l = lang.get();
            let items = [
                ("/painel", LK::Dashboard),
                ("/", LK::NewCharge),
                ("/invoices", LK::Invoices),
                ("/customers", LK::Customers),
            ]
            .into_iter()
            .map(|(href, k)| {
                view! {
                    <li>
                        <a href=href aria-current=current(&p, href).then_some("page")>{k.t(l)}</a>
                    </li>
                }
            })
            .collect_view();
            view! {
                <nav class="merchant-nav" aria-label=LK::Nav.t(l)>
                    <ul>{items}</ul>
                </nav>
            }
        })
    }
}
