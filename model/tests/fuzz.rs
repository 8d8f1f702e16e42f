//! The JSON → model → validate path under generated input (proptest): any
//! bytes, any JSON, and JSON objects carrying the spec's keys with values of
//! every type and values near each rule's edges. Nothing panics, `check` and
//! `validate` agree, what `check` accepts and normalises is accepted again,
//! and a request built to satisfy every rule is accepted with an installment
//! plan that sums exactly to its price.

use paylink_model::date::Date;
use paylink_model::money::{MAX_CENTS, MIN_PRICE_CENTS};
use paylink_model::*;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value};

const CUSTOMER_KEYS: &[&str] = &[
    "fullName",
    "document",
    "business",
    "email",
    "phone",
    "observations",
    "address",
];
const ADDRESS_KEYS: &[&str] = &[
    "address",
    "number",
    "complement",
    "neighborhood",
    "city",
    "state",
    "zipcode",
];
const INVOICE_KEYS: &[&str] = &[
    "customerId",
    "externalId",
    "dueDate",
    "paymentTypes",
    "installmentCount",
    "price",
    "description",
    "invoiceType",
    "frequency",
    "endDate",
    "endInstallment",
    "endSubscription",
    "notifications",
    "webhooks",
    "redirectTo",
    "priceByCustomer",
];
const NOTIFICATION_KEYS: &[&str] = &["type", "channel", "period"];
const WEBHOOK_KEYS: &[&str] = &["hookType", "url"];

fn config() -> ProptestConfig {
    // Seconds, not minutes, in a debug build on two shared cores.
    ProptestConfig {
        cases: 400,
        ..ProptestConfig::default()
    }
}

/// Text near the rules (enum names in and out of case, dates, documents,
/// URLs, blanks, control and bidi characters) and arbitrary text.
fn text() -> BoxedStrategy<String> {
    let near = select(vec![
        "PIX",
        "BOLETO",
        "pix",
        "SINGLE",
        "INSTALLMENT",
        "RECURRING",
        "SUBSCRIPTION",
        "MONTHLY",
        "FORTWEEKLY",
        "YEARLY",
        "Email",
        "SMS",
        "WhatsApp",
        "whatsapp",
        "SEND_INVOICE_REMINDER",
        "INVOICE_RESEND",
        "INVOICE_GENERATED",
        "PAYMENT_CONFIRMED",
        "2027-01-31",
        "2027-02-29",
        "2024-02-29",
        "0000-01-01",
        "9999-12-31",
        "2027-1-1",
        "2027-01-31T00:00:00Z",
        "529.982.247-25",
        "52998224725",
        "12ABC34501DE35",
        "11.222.333/0001-81",
        "01310-100",
        "SP",
        "sp",
        "XX",
        "+55 (11) 98765-4321",
        "5511987654321",
        "maria@example.com",
        "a@b",
        "https://loja.example.com/h",
        "http://loja.example.com/h",
        "http://127.0.0.1/",
        "https://user:pw@host.example/",
        "javascript:alert(1)",
        "https://[::1]/",
        "https://10.0.0.1/",
        "0B6F5A3E-8C1D-4F2A-9E7B-5D4C3B2A1F00",
        "0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00",
        "",
        " ",
        "\t\n",
        "\u{0}",
        "\u{202e}",
        "ção",
        "R$ 1.234,56",
    ])
    .prop_map(String::from);
    prop_oneof![
        3 => near,
        1 => "\\PC{0,40}",
        1 => any::<String>(),
        1 => "[0-9a-zA-Z .,:/@+()\\-]{0,30}",
    ]
    .boxed()
}

/// Numbers at the rules' edges (prices, counts, periods) and arbitrary ones.
fn number() -> BoxedStrategy<Value> {
    let near = select(vec![
        0.0,
        1.0,
        2.0,
        4.99,
        5.0,
        5.01,
        10.005,
        10.07,
        33.34,
        100.0,
        119.0,
        120.0,
        121.0,
        365.0,
        366.0,
        1000.0,
        1001.0,
        99_999_999.99,
        100_000_000.0,
        1e12,
        1e308,
        -0.0,
        -1.0,
        -5.0,
        0.1 + 0.2,
    ])
    .prop_map(Value::from);
    prop_oneof![
        2 => near,
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<u64>().prop_map(Value::from),
        // serde_json writes a non-finite f64 as null, which is also worth sending.
        1 => any::<f64>().prop_map(Value::from),
        1 => (-1000i64..200_000).prop_map(|c| Value::from(c as f64 / 100.0)),
    ]
    .boxed()
}

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ]
    .boxed()
}

/// Any JSON, a few levels deep.
fn json() -> BoxedStrategy<Value> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((text(), inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
        .boxed()
}

/// An object with some of `keys`, each holding a value from `value`.
fn shaped(keys: &'static [&'static str], value: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop::collection::vec(prop::option::weighted(0.7, value), keys.len())
        .prop_map(move |values| {
            let map: Map<String, Value> = keys
                .iter()
                .zip(values)
                .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
                .collect();
            Value::Object(map)
        })
        .boxed()
}

fn customer_json() -> BoxedStrategy<Value> {
    let value = prop_oneof![
        4 => leaf(),
        1 => json(),
        1 => shaped(ADDRESS_KEYS, prop_oneof![4 => leaf(), 1 => json()].boxed()),
    ];
    shaped(CUSTOMER_KEYS, value.boxed())
}

/// Per field, mostly values its rule accepts (formatted or bare), sometimes
/// null or anything: enough accepted customers to test the normal form.
fn customer_near_valid() -> BoxedStrategy<Value> {
    fn field(good: &[&'static str]) -> BoxedStrategy<Value> {
        prop_oneof![
            4 => select(good.to_vec()).prop_map(Value::from),
            1 => Just(Value::Null),
            1 => leaf(),
        ]
        .boxed()
    }
    let address = (
        field(&["Av. Paulista", " Rua da Consolação "]),
        field(&["1000", "s/n"]),
        field(&["apto 12", ""]),
        field(&["Bela Vista"]),
        field(&["São Paulo", "Recife"]),
        field(&["SP", "rj", " pe "]),
        field(&["01310-100", "01310100", " 50030-230 "]),
    )
        .prop_map(|(a, n, c, nb, city, uf, cep)| {
            let fields = [a, n, c, nb, city, uf, cep];
            Value::Object(
                ADDRESS_KEYS
                    .iter()
                    .zip(fields)
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        });
    (
        field(&["Maria da Silva", "  Zé Ninguém ", "Ana", "ção"]),
        field(&[
            "529.982.247-25",
            "52998224725",
            "11.222.333/0001-81",
            "12ABC34501DE35",
            "12.abc.345/01de-35",
        ]),
        field(&["Loja Exemplo Ltda", " "]),
        field(&["maria@example.com", "a.b+c@sub.example.com.br"]),
        field(&["+55 (11) 98765-4321", "5511987654321", "+55 11 3333-4444"]),
        field(&["cliente antigo", ""]),
        prop_oneof![3 => address.boxed(), 1 => Just(Value::Null).boxed()],
    )
        .prop_map(|(name, doc, business, email, phone, obs, address)| {
            let fields = [name, doc, business, email, phone, obs, address];
            Value::Object(
                CUSTOMER_KEYS
                    .iter()
                    .zip(fields)
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        })
        .boxed()
}

fn invoice_json() -> BoxedStrategy<Value> {
    let item = prop_oneof![
        3 => leaf(),
        1 => shaped(NOTIFICATION_KEYS, leaf()),
        1 => shaped(WEBHOOK_KEYS, leaf()),
        1 => json(),
    ]
    .boxed();
    let value = prop_oneof![
        4 => leaf(),
        2 => prop::collection::vec(item, 0..4).prop_map(Value::Array),
        1 => json(),
    ];
    shaped(INVOICE_KEYS, value.boxed())
}

/// Parses and validates as the server and the widget do; returns whether
/// the request was accepted. `check` and `validate` must agree, and the
/// messages must exist in both languages.
fn customer_path(text: &str) -> Option<NewCustomer> {
    let req: CustomerRequest = serde_json::from_str(text).ok()?;
    let checked = req.check();
    let (pt, en) = (req.validate(Lang::PtBr), req.validate(Lang::En));
    assert_eq!(
        checked.is_ok(),
        pt.is_empty(),
        "check and validate disagree on {text}"
    );
    assert_eq!(pt.keys().collect::<Vec<_>>(), en.keys().collect::<Vec<_>>());
    checked.ok()
}

fn invoice_path(text: &str) -> Option<NewInvoice> {
    let req: InvoiceRequest = serde_json::from_str(text).ok()?;
    let insecure = req.check_with(CheckOptions {
        allow_insecure_webhooks: true,
        ..CheckOptions::default()
    });
    let checked = req.check();
    let (pt, en) = (req.validate(Lang::PtBr), req.validate(Lang::En));
    assert_eq!(
        checked.is_ok(),
        pt.is_empty(),
        "check and validate disagree on {text}"
    );
    assert_eq!(pt.keys().collect::<Vec<_>>(), en.keys().collect::<Vec<_>>());
    // Lifting the webhook rules never rejects what production accepts.
    assert!(checked.is_err() || insecure.is_ok(), "{text}");
    checked.ok()
}

/// What the server does with an accepted invoice: its plan sums exactly to
/// the price, one installment per count, each at least R$ 5,00 unless the
/// payer sets the amount.
fn assert_plan(inv: &NewInvoice) {
    let plan = installment_plan(inv.price_cents, inv.installment_count, inv.due_date);
    assert_eq!(plan.len(), inv.installment_count as usize, "{inv:?}");
    assert_eq!(
        plan.iter().map(|p| p.price_cents).sum::<i64>(),
        inv.price_cents
    );
    if !inv.price_by_customer {
        assert!(
            plan.iter().all(|p| p.price_cents >= MIN_PRICE_CENTS),
            "{inv:?}"
        );
    }
}

/// The stored (normalised) customer is a valid request again, unchanged.
fn assert_normal_form_is_stable(new: &NewCustomer) {
    let again = CustomerRequest {
        full_name: Some(new.full_name.clone()),
        document: new.document.clone(),
        business: new.business.clone(),
        email: new.email.clone(),
        phone: new.phone.clone(),
        observations: new.observations.clone(),
        address: new.address.as_ref().map(|a| AddressRequest {
            address: a.address.clone(),
            number: a.number.clone(),
            complement: a.complement.clone(),
            neighborhood: a.neighborhood.clone(),
            city: a.city.clone(),
            state: a.state.clone(),
            zipcode: a.zipcode.clone(),
        }),
        language: Some(new.language.code().to_string()),
    };
    assert_eq!(again.check().as_ref(), Ok(new));
}

// ------------------------------------------------------------------ a valid request, by rule --

const UUIDS: &[&str] = &[
    "0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00",
    "7E1F4C2A-9B3D-4E5F-8A6B-1C2D3E4F5A6B",
];

/// An invoice request that satisfies every rule of the spec and README,
/// with its type's required and optional fields.
fn valid_invoice() -> BoxedStrategy<(InvoiceRequest, i64)> {
    let kind = select(InvoiceType::ALL.to_vec());
    let due = (0i64..(365 * 60)).prop_map(|d| Date::from_days_since_epoch(20_000 + d).unwrap());
    let notification = (
        select(NotificationType::ALL.to_vec()),
        select(Channel::ALL.to_vec()),
        5i64..=365,
    )
        .prop_map(|(kind, channel, period)| NotificationRequest {
            kind: Some(kind.as_str().to_string()),
            channel: Some(channel.as_str().to_string()),
            period: kind.takes_period().then_some(period),
        });
    let webhook = select(InvoiceHookType::ALL.to_vec()).prop_map(|h| WebhookRequest {
        hook_type: Some(h.as_str().to_string()),
        url: Some("https://loja.example.com/hooks/paylink".to_string()),
    });
    (
        kind,
        due,
        prop::sample::subsequence(PaymentType::ALL.to_vec(), 1..=2),
        2u32..=MAX_INSTALLMENTS,
        0i64..=MAX_CENTS,
        any::<bool>(),
        select(Frequency::ALL.to_vec()),
        prop::collection::vec(notification, 0..4),
        prop::collection::vec(webhook, 0..3),
        (select(UUIDS.to_vec()), "[a-z0-9-]{1,40}", 1i64..=1000),
    )
        .prop_map(
            |(kind, due, types, count, cents, by_customer, freq, notes, hooks, (id, ext, end))| {
                let count = if kind == InvoiceType::Installment {
                    count
                } else {
                    1
                };
                // At least R$ 5,00 per installment, at most the boleto maximum.
                let min = MIN_PRICE_CENTS * i64::from(count);
                let cents = min + cents % (MAX_CENTS - min + 1);
                let by_customer = by_customer && kind == InvoiceType::Single;
                let req = InvoiceRequest {
                    customer_id: Some(id.to_string()),
                    external_id: Some(ext),
                    due_date: Some(format!(
                        "{:04}-{:02}-{:02}",
                        due.year(),
                        due.month(),
                        due.day()
                    )),
                    payment_types: Some(types.iter().map(|t| t.as_str().to_string()).collect()),
                    installment_count: Some(i64::from(count)),
                    price: (!by_customer).then(|| cents as f64 / 100.0),
                    invoice_type: Some(kind.as_str().to_string()),
                    frequency: kind.is_periodic().then(|| freq.as_str().to_string()),
                    end_installment: (kind == InvoiceType::Recurring).then_some(end),
                    notifications: Some(notes),
                    webhooks: Some(hooks),
                    price_by_customer: Some(by_customer),
                    ..Default::default()
                };
                (req, if by_customer { 0 } else { cents })
            },
        )
        .boxed()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(req) = serde_json::from_slice::<CustomerRequest>(&bytes) {
            let _ = req.validate(Lang::PtBr);
        }
        if let Ok(req) = serde_json::from_slice::<InvoiceRequest>(&bytes) {
            let _ = req.validate(Lang::En);
        }
    }

    #[test]
    fn any_json_never_panics(value in json()) {
        let text = value.to_string();
        customer_path(&text);
        invoice_path(&text);
    }

    #[test]
    fn customer_shaped_json_never_panics_and_normalises_stably(
        value in prop_oneof![customer_json(), customer_near_valid()]
    ) {
        if let Some(new) = customer_path(&value.to_string()) {
            assert_normal_form_is_stable(&new);
        }
    }

    #[test]
    fn invoice_shaped_json_never_panics_and_plans_exactly(value in invoice_json()) {
        if let Some(inv) = invoice_path(&value.to_string()) {
            assert_plan(&inv);
        }
    }

    #[test]
    fn a_request_within_every_rule_is_accepted_and_its_plan_sums_to_the_price(
        (req, cents) in valid_invoice()
    ) {
        // Through JSON, as it arrives.
        let text = serde_json::to_string(&req).unwrap();
        let inv = invoice_path(&text);
        prop_assert!(inv.is_some(), "rejected: {:?}\n{}", req.validate(Lang::En), text);
        let inv = inv.unwrap();
        prop_assert_eq!(inv.price_cents, cents);
        assert_plan(&inv);
    }

    #[test]
    fn any_accept_language_never_panics(header in "\\PC{0,60}") {
        let _ = Lang::from_accept_language(&header);
    }
}

// --------------------------------------------------------------- dates and counts at the edges --

/// A date near an end of what `YYYY-MM-DD` can name (0001-01-01, 9999-12-31),
/// near today, or not a date at all (day 0, 31 February, year 10000).
fn edge_date() -> BoxedStrategy<Value> {
    let last = Date::new(9999, 12, 31).unwrap().days_since_epoch();
    let first = Date::new(1, 1, 1).unwrap().days_since_epoch();
    let day = |d: i64| Value::String(Date::from_days_since_epoch(d).unwrap().to_string());
    prop_oneof![
        // The last ten years of the calendar: a plan of up to 120 months may run off its end.
        4 => (0i64..3700).prop_map(move |back| day(last - back)),
        1 => (0i64..400).prop_map(move |d| day(first + d)),
        1 => (20_000i64..22_000).prop_map(day),
        1 => select(vec![
            "9999-12-32",
            "9999-02-29",
            "10000-01-01",
            "0000-12-31",
            "9999-13-01",
            "+9999-12-31",
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ]
    .boxed()
}

/// A whole number near each rule's bounds (installmentCount 2..=120, endInstallment), or far out.
fn edge_count() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => (0i64..=(MAX_INSTALLMENTS as i64 + 2)).prop_map(Value::from),
        1 => select(vec![i64::MIN, -1, 1000, 1001, i64::from(u32::MAX), i64::MAX]).prop_map(Value::from),
    ]
    .boxed()
}

/// A price in reais near its bounds: R$ 5,00 an installment, the boleto maximum, and past them.
fn edge_price() -> BoxedStrategy<Value> {
    let max = MAX_CENTS as f64 / 100.0;
    prop_oneof![
        (0i64..=MAX_CENTS).prop_map(|c| Value::from(c as f64 / 100.0)),
        select(vec![
            0.0,
            0.01,
            4.99,
            5.0,
            10.0,
            600.0,
            max,
            max + 0.01,
            1e15,
            1e300,
            -0.01,
            f64::MIN_POSITIVE,
        ])
        .prop_map(Value::from),
    ]
    .boxed()
}

/// An invoice whose dates, counts and price sit at the edges, every other field valid.
fn edge_invoice() -> BoxedStrategy<(Value, Option<Date>)> {
    (
        select(InvoiceType::ALL.to_vec()),
        select(Frequency::ALL.to_vec()),
        edge_date(),
        prop::option::of(edge_date()),
        edge_count(),
        prop::option::of(edge_count()),
        edge_price(),
        prop::option::of((edge_date(), select(vec!["FIXED", "PERCENTAGE"]), 0.01f64..50.0)),
        any::<bool>(),
        // Today as the server passes it, near either end too (or no date rule at all).
        prop::option::of(edge_date()),
    )
        .prop_map(|(kind, freq, due, end, count, end_n, price, discount, fine, today)| {
            let mut o = Map::new();
            o.insert("customerId".into(), UUIDS[0].into());
            o.insert("externalId".into(), "pedido-1".into());
            o.insert("paymentTypes".into(), serde_json::json!(["PIX", "BOLETO"]));
            o.insert("invoiceType".into(), kind.as_str().into());
            o.insert("dueDate".into(), due);
            o.insert("installmentCount".into(), count);
            o.insert("price".into(), price);
            if kind.is_periodic() {
                o.insert("frequency".into(), freq.as_str().into());
            }
            if let Some(end) = end {
                o.insert("endDate".into(), end);
            }
            if let Some(n) = end_n {
                o.insert("endInstallment".into(), n);
            }
            if let Some((until, kind, value)) = discount {
                o.insert(
                    "discount".into(),
                    serde_json::json!({ "type": kind, "value": (value * 100.0).round() / 100.0, "untilDate": until }),
                );
            }
            if fine {
                o.insert("fine".into(), serde_json::json!({ "type": "PERCENTAGE", "value": 2.0 }));
                o.insert("interest".into(), serde_json::json!({ "value": 1.0 }));
            }
            let today = today.and_then(|t| t.as_str().and_then(Date::parse_iso));
            (Value::Object(o), today)
        })
        .boxed()
}

proptest! {
    #![proptest_config(config())]

    /// Dates, counts and prices at the edges go through the server's own steps (check with
    /// today, the payer's terms, the plan, each installment's terms and amount due on its due
    /// date and on the calendar's last day) without a panic: a request is refused with field
    /// errors, or accepted with a plan of exactly `installmentCount` dated installments.
    #[test]
    fn dates_and_counts_at_the_edges_are_field_errors_or_a_whole_plan(
        (value, today) in edge_invoice()
    ) {
        let text = value.to_string();
        let req: InvoiceRequest = serde_json::from_str(&text).unwrap();
        invoice_path(&text);
        let opts = CheckOptions { today, ..CheckOptions::default() };
        match req.check_with(opts) {
            Err(v) => {
                prop_assert!(!v.is_empty());
                for lang in [Lang::PtBr, Lang::En] {
                    let errors = v.render(lang);
                    prop_assert!(errors.keys().all(|k| !k.is_empty() && k != "."), "{errors:?}");
                }
            }
            Ok(mut inv) => {
                inv.terms = inv.check_terms_for_payer(&req, Some("52998224725")).unwrap_or(inv.terms);
                let _ = inv.terms.to_wire();
                assert_plan(&inv);
                let last_day = Date::new(9999, 12, 31).unwrap();
                for p in installment_plan(inv.price_cents, inv.installment_count, inv.due_date) {
                    let _ = p.due_date.to_iso_midnight_utc();
                    let terms = inv.terms.for_due(inv.due_date, p.due_date);
                    for day in [p.due_date, last_day] {
                        let due = charges::amount_due(p.price_cents, p.due_date, day, &terms);
                        prop_assert!(due.total >= 0);
                    }
                    let _ = charges::instructions(p.price_cents, p.due_date, &terms, Lang::PtBr);
                }
                if let Some(freq) = inv.frequency {
                    for i in 0..3 {
                        let _ = periodic_due(inv.due_date, freq, i);
                    }
                }
            }
        }
    }
}
