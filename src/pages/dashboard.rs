//! `/painel`: the merchant's dashboard (`GET /api/dashboard`): the month's
//! received, open and overdue totals, and the money received in each of the
//! last 12 months as a bar chart the widget draws in SVG. The chart is a
//! picture (`role="img"`, one sentence); its numbers are in the `<table>`
//! below it, which is what screen readers read.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Dashboard, Lang};
use paylink_text as text;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::table::{Cell, Table};
use crate::Ctx;

/// The chart's drawing box (SVG user units) and its plot area.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 110.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 48.0;

/// The top of the chart's scale, in cents: the smallest 1, 2 or 5 × 10ⁿ
/// reais (R$ 1,00 at least) not below `max`, so the axis reads round numbers.
pub fn nice_top(max: i64) -> i64 {
    let mut step: i64 = 100;
    loop {
        for m in [1, 2, 5] {
            let top = step.saturating_mul(m);
            if top >= max {
                return top;
            }
        }
        if step > i64::MAX / 10 {
            return i64::MAX;
        }
        step *= 10;
    }
}

/// Each value's bar height as a share (0 to 1) of the scale's top.
pub fn bar_shares(values: &[i64]) -> (i64, Vec<f64>) {
    let top = nice_top(values.iter().copied().max().unwrap_or(0).max(0));
    let shares = values
        .iter()
        .map(|v| (*v).max(0) as f64 / top as f64)
        .collect();
    (top, shares)
}

#[component]
pub fn DashboardPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let data = LocalResource::new(move || {
        let l = lang.get();
        async move { client.get_dashboard(l).await }
    });
    view! {
        <section class="card dashboard">
            <h1>{move || text::DASHBOARD.t(lang.get())}</h1>
            <Fetched lang data show=|l, d| d.map(|d| view! { <DashboardBody l d /> }) />
        </section>
    }
}

#[component]
fn DashboardBody(l: Lang, d: Dashboard) -> impl IntoView {
    let totals = [
        (
            text::received_in(l, &text::month_label(&d.month, l)),
            d.received,
            "received",
        ),
        (text::OPEN.t(l).to_string(), d.open, "open"),
        (text::OVERDUE.t(l).to_string(), d.overdue, "overdue"),
    ]
    .into_iter()
    .map(|(label, cents, key)| {
        view! {
            <div>
                <dt>{label}</dt>
                <dd class="amount" data-total=key>{format_brl(cents, l)}</dd>
            </div>
        }
    })
    .collect_view();
    let rows: Vec<Vec<Cell>> = d
        .months
        .iter()
        .map(|m| {
            vec![
                Cell::new(text::month_label(&m.month, l)),
                Cell::num(format_brl(m.received, l)),
            ]
        })
        .collect();
    view! {
        <dl class="facts totals">{totals}</dl>
        <h2>{text::CHART_CAPTION.t(l)}</h2>
        <Chart l months=d.months.iter().map(|m| (m.month.clone(), m.received)).collect() />
        <Table
            class="months"
            caption=text::CHART_CAPTION.t(l)
            head=vec![(text::MONTH.t(l), ""), (text::RECEIVED.t(l), "num")]
            rows
        />
    }
}

/// The bars of `months` ((`YYYY-MM`, cents), oldest first), with the
/// scale's top and middle written on the left and each month's short name
/// below its bar, the year under each January and under the first month
/// (unless January is next to it: two years side by side would touch).
#[component]
pub fn Chart(l: Lang, months: Vec<(String, i64)>) -> impl IntoView {
    let values: Vec<i64> = months.iter().map(|(_, c)| *c).collect();
    let (top, shares) = bar_shares(&values);
    let plot_h = HEIGHT - TOP - BOTTOM;
    let slot = (WIDTH - LEFT) / months.len().max(1) as f64;
    let base = TOP + plot_h;
    let grid = [(1.0, top), (0.5, top / 2), (0.0, 0)]
        .into_iter()
        .map(|(share, cents)| {
            let y = base - share * plot_h;
            view! {
                <line class="grid" x1=LEFT x2=WIDTH y1=y y2=y />
                <text class="axis y" x=LEFT - 6.0 y=y + 4.0 text-anchor="end">{format_brl(cents, l)}</text>
            }
        })
        .collect_view();
    // The first month's year, unless January (with its own) is right beside it.
    let first_year = !months.get(1).is_some_and(|(ym, _)| ym.ends_with("-01"));
    let bars = months
        .into_iter()
        .zip(shares)
        .enumerate()
        .map(|(i, ((ym, cents), share))| {
            let h = share * plot_h;
            let x = LEFT + i as f64 * slot;
            let (month, year) = text::month_axis(&ym, l);
            let shown = (i == 0 && first_year) || ym.ends_with("-01");
            let year = year.filter(|_| shown).map(|y| {
                view! { <text class="axis x" x=x + slot / 2.0 y=HEIGHT - 4.0 text-anchor="middle">{y}</text> }
            });
            view! {
                <rect class="bar" x=x + slot * 0.2 y=base - h width=slot * 0.6 height=h data-cents=cents />
                <text class="axis x" x=x + slot / 2.0 y=HEIGHT - 26.0 text-anchor="middle">{month}</text>
                {year}
            }
        })
        .collect_view();
    view! {
        <svg
            class="chart"
            role="img"
            aria-label=text::CHART_LABEL.t(l)
            viewBox=format!("0 0 {WIDTH} {HEIGHT}")
            preserveAspectRatio="xMidYMid meet"
        >
            {grid}
            {bars}
        </svg>
    }
}
