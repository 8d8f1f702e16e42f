//! The invoice form's customer: a combobox (the WAI-ARIA 1.2 combobox
//! pattern, list autocomplete) that searches the customer list (`GET
//! /api/customers?q=…`, by name, CPF/CNPJ or e-mail) as the merchant types,
//! shows each match's name and masked document, and offers "Novo cliente"
//! (the customer form) from the same list. Arrow keys move through the
//! options, Enter picks one, Escape closes the list (and, closed, clears the
//! text). The combobox is `customerId`'s control (its label, `aria-invalid`,
//! its message) but has no name: what it shows is a name, and the form
//! contract's `[name="customerId"]` is a hidden input beside it holding what
//! the request carries, the picked customer's id or a UUID typed as it is
//! (the ARIA combobox pattern allows the value apart from the text).

use leptos::prelude::*;
use paylink_model::br::{mask_document, uuid_is_valid};
use paylink_model::charges::document_is_cpf;
use paylink_model::{CustomerDetail, CustomerRef, Lang};
use paylink_text as text;
use paylink_ui::form::{error_id, field_id, Form};

use crate::api::{self, query_string};
use crate::{focus_main, Merchant, Step};

/// The listbox's id (`aria-controls`).
const LISTBOX: &str = "customer-options";
/// How many matches the list shows.
const SHOWN: &str = "8";
/// Shorter text is not searched (every customer would match).
const MIN_CHARS: usize = 2;

/// The `id` of option `i` (`aria-activedescendant`); `n` options are
/// customers, the last one is "Novo cliente".
fn option_id(i: usize) -> String {
    format!("customer-option-{i}")
}

#[component]
pub fn CustomerPicker(l: Lang, form: Form) -> impl IntoView {
    let merchant = expect_context::<Merchant>();
    let client = api::use_client();
    let f = merchant.invoice;
    let typed = merchant.customer_text;
    let open = RwSignal::new(false);
    let active = RwSignal::new(None::<usize>);
    // What is searched: the text, once long enough, unless it is the name of
    // the customer picked (or an id typed as it is). Kept while the list is
    // closed, so the options do not move when it opens again.
    let search = Memo::new(move |_| {
        let t = typed.with(|t| t.trim().to_string());
        let picked = merchant
            .created
            .with(|c| c.as_ref().is_some_and(|c| c.full_name == t));
        (t.chars().count() >= MIN_CHARS && !picked && !uuid_is_valid(&t)).then_some(t)
    });
    let found = LocalResource::new(move || {
        let q = search.get();
        async move {
            let Some(q) = q else {
                return Some(Vec::new());
            };
            let query = query_string(&[("q", Some(q)), ("limit", Some(SHOWN.into()))]);
            // A failed search shows no match (the form says why on submit).
            client.list_customers(&query, l).await.ok().map(|p| p.data)
        }
    });
    let matches = Memo::new(move |_| found.get().flatten().unwrap_or_default());
    // The customers, then "Novo cliente".
    let count = move || matches.with(Vec::len) + 1;

    let close = move || {
        open.set(false);
        active.set(None);
    };
    let pick = move |i: usize| {
        let chosen: Option<CustomerDetail> = matches.with_untracked(|m| m.get(i).cloned());
        close();
        match chosen {
            Some(c) => {
                typed.set(c.full_name.clone());
                let cpf = document_is_cpf(c.document.as_deref());
                merchant.charge(
                    CustomerRef {
                        id: c.id,
                        full_name: c.full_name,
                    },
                    cpf,
                    false,
                );
                form.changed("customerId");
            }
            None => {
                merchant.step.set(Step::Customer);
                request_animation_frame(focus_main);
            }
        }
    };
    let on_input = move |ev: web_sys::Event| {
        let t = event_target_value(&ev);
        // A UUID typed or pasted is the id as it is; other text picks no one yet.
        let id = if uuid_is_valid(t.trim()) {
            t.trim().to_string()
        } else {
            String::new()
        };
        f.customer_id.set(id);
        typed.set(t);
        open.set(true);
        active.set(None);
        form.changed("customerId");
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let n = count();
        match ev.key().as_str() {
            "ArrowDown" | "ArrowUp" => {
                ev.prevent_default();
                let down = ev.key() == "ArrowDown";
                let next = match (open.get_untracked(), active.get_untracked()) {
                    (true, Some(a)) if down => (a + 1) % n,
                    (true, Some(a)) => (a + n - 1) % n,
                    _ if down => 0,
                    _ => n - 1,
                };
                open.set(true);
                active.set(Some(next));
            }
            "Enter" => {
                if let (true, Some(a)) = (open.get_untracked(), active.get_untracked()) {
                    // Picks the option instead of sending the form.
                    ev.prevent_default();
                    pick(a);
                }
            }
            "Escape" => {
                ev.prevent_default();
                if open.get_untracked() {
                    close();
                } else {
                    typed.set(String::new());
                    f.customer_id.set(String::new());
                    form.changed("customerId");
                }
            }
            _ => {}
        }
    };
    let on_blur = move |_| {
        close();
        form.blur("customerId");
    };

    let id = field_id("customerId");
    let err_id = error_id("customerId");
    let hint_id = format!("{id}-hint");
    let error = Memo::new(move |_| form.error("customerId"));
    let invalid = move || error.with(Option::is_some);
    let described = {
        let (err_id, hint_id) = (err_id.clone(), hint_id.clone());
        move || {
            // The message alone when there is one (as every field of the form).
            if invalid() {
                err_id.clone()
            } else {
                hint_id.clone()
            }
        }
    };
    let options = move || {
        let shown = matches.get();
        let n = shown.len();
        let customers = shown
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let document = c.document.as_deref().map(mask_document);
                let email = c.email.clone();
                view! {
                    <li
                        role="option"
                        id=option_id(i)
                        aria-selected=move || if active.get() == Some(i) { "true" } else { "false" }
                        on:mousedown=|ev| ev.prevent_default()
                        on:click=move |_| pick(i)
                    >
                        <span class="name">{c.full_name}</span>
                        {document.map(|d| view! { <span class="doc">{d}</span> })}
                        {email.map(|e| view! { <span class="email">{e}</span> })}
                    </li>
                }
            })
            .collect_view();
        view! {
            {customers}
            <li
                role="option"
                id=option_id(n)
                class="new"
                aria-selected=move || if active.get() == Some(n) { "true" } else { "false" }
                on:mousedown=|ev| ev.prevent_default()
                on:click=move |_| pick(n)
            >
                {format!("+ {}", text::NEW_CUSTOMER.t(l))}
            </li>
        }
    };
    // How many matched, for screen readers (a sentence with its plural).
    let status = move || {
        (open.get() && search.with(Option::is_some))
            .then(|| text::customers_found(l, matches.with(Vec::len)))
    };
    view! {
        <div class="field combo" class:invalid=invalid>
            <label for=id.clone()>{text::CUSTOMER.t(l)}<span class="req" aria-hidden="true">" *"</span></label>
            <input type="hidden" name="customerId" prop:value=move || f.customer_id.get()/>
            <input
                type="text"
                id=id
                role="combobox"
                autocomplete="off"
                aria-autocomplete="list"
                aria-required="true"
                aria-controls=LISTBOX
                aria-expanded=move || if open.get() { "true" } else { "false" }
                aria-activedescendant=move || active.get().map(option_id)
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                prop:value=move || typed.get()
                on:input=on_input
                on:keydown=on_key
                on:blur=on_blur
                on:click=move |_| open.set(true)
            />
            <p class="note" id=hint_id>{text::CUSTOMER_HINT.t(l)}</p>
            <ul role="listbox" id=LISTBOX aria-label=text::CUSTOMER.t(l) hidden=move || !open.get()>
                {options}
            </ul>
            <p class="sr-only" role="status">{status}</p>
            <p class="error" id=err_id>{move || error.get()}</p>
        </div>
    }
}
