//! The pt-BR / English switch (two toggle buttons).

use leptos::prelude::*;
use paylink_model::Lang;
use web_sys::Node;

use crate::dom::h;
use crate::i18n::K;
use crate::Ctx;

pub fn lang_switch(ctx: Ctx) -> Node {
    let button = move |lang: Lang, text: &'static str, title: &'static str| {
        h("button")
            .attr("type", "button")
            .attr("lang", lang.code())
            .attr("title", title)
            .dyn_attr("aria-pressed", move || {
                Some(
                    (if ctx.lang.get() == lang {
                        "true"
                    } else {
                        "false"
                    })
                    .to_string(),
                )
            })
            .on("click", move |_| ctx.lang.set(lang))
            .c(text)
    };
    h("div")
        .class("lang")
        .attr("role", "group")
        .dyn_attr("aria-label", move || {
            Some(K::Language.t(ctx.lang.get()).to_string())
        })
        .c(button(Lang::PtBr, "PT", "Português (Brasil)"))
        .c(button(Lang::En, "EN", "English"))
        .into_node()
}
