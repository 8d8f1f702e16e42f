//! Fine, interest and discount: their rules at field paths, the banks'
//! calendar, and the amount due on dated cases, plus properties over any date.

use paylink_model::charges::*;
use paylink_model::date::Date;
use paylink_model::errors::Msg;
use paylink_model::Lang;
use proptest::prelude::*;

fn d(s: &str) -> Date {
    Date::parse_iso(s).unwrap()
}

fn fine(kind: &str, value: f64) -> Fine {
    Fine {
        kind: Some(kind.into()),
        value: Some(value),
    }
}

fn interest(value: f64) -> Interest {
    Interest { value: Some(value) }
}

fn discount(kind: &str, value: f64, until: &str) -> Discount {
    Discount {
        kind: Some(kind.into()),
        value: Some(value),
        until_date: Some(until.into()),
    }
}

fn ctx(cpf: bool) -> TermsContext {
    TermsContext {
        amount_cents: Some(10_000),
        due_date: Some(d("2026-12-10")),
        payer_is_cpf: cpf,
    }
}

/// The paths of the broken rules, each with its message in both languages.
fn paths(
    f: Option<Fine>,
    i: Option<Interest>,
    dc: Option<Discount>,
    c: TermsContext,
) -> Vec<String> {
    let pt = validate_terms(f.as_ref(), i.as_ref(), dc.as_ref(), c, Lang::PtBr);
    let en = validate_terms(f.as_ref(), i.as_ref(), dc.as_ref(), c, Lang::En);
    assert_eq!(pt.keys().collect::<Vec<_>>(), en.keys().collect::<Vec<_>>());
    for (k, msgs) in &pt {
        assert_ne!(msgs, &en[k], "{k} is not translated");
    }
    pt.keys().cloned().collect()
}

#[test]
fn wire_names_are_the_ones_brazilian_billing_apis_use() {
    let json = r#"{"type":"PERCENTAGE","value":2.0}"#;
    let f: Fine = serde_json::from_str(json).unwrap();
    assert_eq!(f, fine("PERCENTAGE", 2.0));
    let dc: Discount =
        serde_json::from_str(r#"{"type":"FIXED","value":5.5,"untilDate":"2026-12-05"}"#).unwrap();
    assert_eq!(dc, discount("FIXED", 5.5, "2026-12-05"));
    let i: Interest = serde_json::from_str(r#"{"value":1.0}"#).unwrap();
    let terms = check_terms(Some(&f), Some(&i), Some(&dc), ctx(false)).unwrap();
    let (f2, i2, d2) = terms.to_wire();
    assert_eq!(
        serde_json::to_string(&f2.unwrap()).unwrap(),
        r#"{"type":"PERCENTAGE","value":2.0}"#
    );
    assert_eq!(
        serde_json::to_string(&i2.unwrap()).unwrap(),
        r#"{"value":1.0}"#
    );
    assert_eq!(
        serde_json::to_string(&d2.unwrap()).unwrap(),
        r#"{"type":"FIXED","value":5.5,"untilDate":"2026-12-05"}"#
    );
    // Missing fields parse, so they become field errors rather than a parse error.
    let empty: Discount = serde_json::from_str("{}").unwrap();
    assert_eq!(empty, Discount::default());
}

#[test]
fn valid_terms_become_integers() {
    let t = check_terms(
        Some(&fine("PERCENTAGE", 2.0)),
        Some(&interest(1.0)),
        Some(&discount("PERCENTAGE", 5.0, "2026-12-05")),
        ctx(true),
    )
    .unwrap();
    assert_eq!(t.fine, Some(Value::Percent(200)));
    assert_eq!(t.interest_monthly_bp, Some(100));
    assert_eq!(
        t.discount,
        Some(DiscountTerm {
            value: Value::Percent(500),
            until: d("2026-12-10").add_days(-5).unwrap()
        })
    );
    let t = check_terms(
        Some(&fine("FIXED", 15.0)),
        None,
        Some(&discount("FIXED", 99.99, "2026-12-10")),
        ctx(false),
    )
    .unwrap();
    assert_eq!(t.fine, Some(Value::Cents(1_500)));
    assert_eq!(t.discount.unwrap().value, Value::Cents(9_999));
    assert_eq!(Value::of(ValueType::Fixed, 9_999), Value::Cents(9_999));
    assert_eq!(
        check_terms(None, None, None, ctx(true)),
        Ok(ChargeTerms::default())
    );
}

#[test]
fn bad_terms_are_refused_at_their_paths() {
    type Case = (
        Option<Fine>,
        Option<Interest>,
        Option<Discount>,
        bool,
        &'static [&'static str],
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            Some(fine("PERCENT", 2.0)),
            None,
            None,
            false,
            &["fine.type"],
            "unknown fine type",
        ),
        (
            Some(Fine {
                kind: None,
                value: Some(2.0),
            }),
            None,
            None,
            false,
            &["fine.type"],
            "fine without type",
        ),
        (
            Some(Fine {
                kind: Some("FIXED".into()),
                value: None,
            }),
            None,
            None,
            false,
            &["fine.value"],
            "fine without value",
        ),
        (
            Some(fine("PERCENTAGE", 0.0)),
            None,
            None,
            false,
            &["fine.value"],
            "zero fine",
        ),
        (
            Some(fine("PERCENTAGE", -1.0)),
            None,
            None,
            false,
            &["fine.value"],
            "negative fine",
        ),
        (
            Some(fine("PERCENTAGE", 2.001)),
            None,
            None,
            false,
            &["fine.value"],
            "three decimals",
        ),
        (
            Some(fine("PERCENTAGE", 20.01)),
            None,
            None,
            false,
            &["fine.value"],
            "fine above 20 %",
        ),
        (
            Some(fine("PERCENTAGE", 2.01)),
            None,
            None,
            true,
            &["fine.value"],
            "CPF: fine above 2 %",
        ),
        (
            Some(fine("PERCENTAGE", 10.0)),
            None,
            None,
            true,
            &["fine.value"],
            "CPF: fine of 10 %",
        ),
        (
            Some(fine("FIXED", 2.01)),
            None,
            None,
            true,
            &["fine.value"],
            "CPF: fixed fine above 2 % of R$ 100",
        ),
        (
            Some(fine("FIXED", 20.01)),
            None,
            None,
            false,
            &["fine.value"],
            "fixed fine above 20 % of the amount",
        ),
        (
            None,
            Some(interest(0.0)),
            None,
            false,
            &["interest.value"],
            "zero interest",
        ),
        (
            None,
            Some(interest(10.01)),
            None,
            false,
            &["interest.value"],
            "interest above 10 % a month",
        ),
        (
            None,
            Some(Interest { value: None }),
            None,
            false,
            &["interest.value"],
            "interest without value",
        ),
        (
            None,
            Some(interest(f64::NAN)),
            None,
            false,
            &["interest.value"],
            "interest not a number",
        ),
        (
            None,
            None,
            Some(discount("ALL", 5.0, "2026-12-05")),
            false,
            &["discount.type"],
            "unknown discount type",
        ),
        (
            None,
            None,
            Some(discount("PERCENTAGE", 100.0, "2026-12-05")),
            false,
            &["discount.value"],
            "100 % discount",
        ),
        (
            None,
            None,
            Some(discount("FIXED", 100.0, "2026-12-05")),
            false,
            &["discount.value"],
            "fixed discount equal to the amount",
        ),
        (
            None,
            None,
            Some(discount("FIXED", 150.0, "2026-12-05")),
            false,
            &["discount.value"],
            "fixed discount above the amount",
        ),
        (
            None,
            None,
            Some(discount("FIXED", 0.0, "2026-12-05")),
            false,
            &["discount.value"],
            "zero discount",
        ),
        (
            None,
            None,
            Some(discount("PERCENTAGE", 5.0, "2026-12-11")),
            false,
            &["discount.untilDate"],
            "deadline after the due date",
        ),
        (
            None,
            None,
            Some(discount("PERCENTAGE", 5.0, "05/12/2026")),
            false,
            &["discount.untilDate"],
            "deadline not ISO",
        ),
        (
            None,
            None,
            Some(Discount {
                kind: Some("FIXED".into()),
                value: Some(5.0),
                until_date: None,
            }),
            false,
            &["discount.untilDate"],
            "no deadline",
        ),
        (
            None,
            None,
            Some(Discount::default()),
            false,
            &["discount.type", "discount.untilDate", "discount.value"],
            "empty discount",
        ),
        (
            Some(fine("FIXED", -3.0)),
            Some(interest(11.0)),
            Some(discount("PERCENTAGE", 5.0, "2027-01-01")),
            false,
            &["discount.untilDate", "fine.value", "interest.value"],
            "every broken rule at once",
        ),
    ];
    for (f, i, dc, cpf, want, why) in cases {
        assert_eq!(paths(f, i, dc, ctx(cpf)), *want, "{why}");
    }
    // The same 2 % fine is fine for a CPF, and 10 % for a company.
    assert!(check_terms(Some(&fine("PERCENTAGE", 2.0)), None, None, ctx(true)).is_ok());
    assert!(check_terms(Some(&fine("PERCENTAGE", 10.0)), None, None, ctx(false)).is_ok());
    assert!(check_terms(Some(&fine("FIXED", 2.0)), None, None, ctx(true)).is_ok());
    // When the payer sets the amount, a fixed discount is only checked for range.
    let open = TermsContext {
        amount_cents: None,
        ..ctx(false)
    };
    assert!(check_terms(
        None,
        None,
        Some(&discount("FIXED", 150.0, "2026-12-05")),
        open
    )
    .is_ok());
}

#[test]
fn messages_say_what_to_fix() {
    let err = check_terms(Some(&fine("PERCENTAGE", 5.0)), None, None, ctx(true)).unwrap_err();
    assert_eq!(err.0, vec![("fine.value".to_string(), Msg::FineAboveCdc)]);
    let pt = err.render(Lang::PtBr);
    assert!(pt["fine.value"][0].contains("2 %") && pt["fine.value"][0].contains("art. 52"));
    let en = validate_terms(None, Some(&interest(12.5)), None, ctx(false), Lang::En);
    assert_eq!(en["interest.value"], vec!["The maximum is 10 %."]);
    let pt = validate_terms(
        None,
        None,
        Some(&discount("PERCENTAGE", 100.0, "2026-12-01")),
        ctx(false),
        Lang::PtBr,
    );
    assert_eq!(pt["discount.value"], vec!["O máximo é 99,99 %."]);
    assert!(document_is_cpf(Some("52998224725")));
    assert!(document_is_cpf(Some("529.982.247-25")));
    assert!(!document_is_cpf(Some("11222333000181")));
    assert!(!document_is_cpf(None));
}

#[test]
fn the_bank_calendar() {
    for (year, easter_day) in [
        (2000, "2000-04-23"),
        (2024, "2024-03-31"),
        (2025, "2025-04-20"),
        (2026, "2026-04-05"),
        (2027, "2027-03-28"),
        (2038, "2038-04-25"),
    ] {
        assert_eq!(easter(year), d(easter_day), "{year}");
    }
    for holiday in [
        "2026-01-01",
        "2026-02-16",
        "2026-02-17",
        "2026-04-03",
        "2026-04-21",
        "2026-05-01",
        "2026-06-04",
        "2026-09-07",
        "2026-10-12",
        "2026-11-02",
        "2026-11-15",
        "2026-11-20",
        "2026-12-25",
        "2027-02-08",
        "2027-02-09",
        "2027-03-26",
        "2027-05-27",
        "2024-11-20",
        "2025-03-03",
        "2025-03-04",
        "2025-06-19",
    ] {
        assert!(is_bank_holiday(d(holiday)), "{holiday}");
        assert!(!is_business_day(d(holiday)), "{holiday}");
    }
    for ordinary in [
        "2023-11-20", // before Lei 14.759/2023 took effect
        "2026-02-18", // Ash Wednesday: banks open at noon
        "2026-04-02",
        "2026-12-24",
        "2026-12-31",
        "2026-11-25",
    ] {
        assert!(is_business_day(d(ordinary)), "{ordinary}");
    }
    assert_eq!(weekday(d("2026-11-25")), 2); // a Wednesday
    assert!(!is_business_day(d("2026-12-12")) && !is_business_day(d("2026-12-13")));
    assert_eq!(next_business_day(d("2026-12-12")), d("2026-12-14"));
    assert_eq!(next_business_day(d("2026-09-05")), d("2026-09-08")); // Sat, Sun, 7 Sep
    assert_eq!(next_business_day(d("2026-04-03")), d("2026-04-06")); // Good Friday
    assert_eq!(next_business_day(d("2027-02-06")), d("2027-02-10")); // Carnival weekend
    assert_eq!(next_business_day(d("2026-12-10")), d("2026-12-10"));
}

/// R$ 100,00, 2 % fine, 1 % a month, 5 % off until 5 Dec, due Thursday 10 Dec 2026.
fn usual() -> ChargeTerms {
    ChargeTerms {
        fine: Some(Value::Percent(200)),
        interest_monthly_bp: Some(100),
        discount: Some(DiscountTerm {
            value: Value::Percent(500),
            until: d("2026-12-05"),
        }),
    }
}

/// (original, due, paid, terms, discount, fine, interest, total, why)
type DatedCase = (
    i64,
    &'static str,
    &'static str,
    ChargeTerms,
    i64,
    i64,
    i64,
    i64,
    &'static str,
);

#[test]
fn amount_due_on_dated_cases() {
    let no_discount = ChargeTerms {
        discount: None,
        ..usual()
    };
    // (original, due, paid, terms, discount, fine, interest, total, why)
    let cases: Vec<DatedCase> = vec![
        (
            10_000,
            "2026-12-10",
            "2026-11-25",
            usual(),
            500,
            0,
            0,
            9_500,
            "early: discount",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-05",
            usual(),
            500,
            0,
            0,
            9_500,
            "on the discount deadline",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-06",
            usual(),
            0,
            0,
            0,
            10_000,
            "day after the deadline",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-10",
            usual(),
            0,
            0,
            0,
            10_000,
            "on the due date",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-11",
            usual(),
            0,
            200,
            3,
            10_203,
            "one day late: 3,33 cents truncated",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-20",
            usual(),
            0,
            200,
            33,
            10_233,
            "ten days late",
        ),
        (
            10_000,
            "2026-12-10",
            "2027-01-09",
            usual(),
            0,
            200,
            100,
            10_300,
            "thirty days: a month's 1 %",
        ),
        (
            10_000,
            "2026-12-10",
            "2027-12-10",
            usual(),
            0,
            200,
            1_216,
            11_416,
            "a year: 365/30 months",
        ),
        (
            12_345,
            "2026-12-10",
            "2026-12-17",
            no_discount,
            0,
            246,
            28,
            12_619,
            "246,9 and 28,8 truncated",
        ),
        (
            10_000,
            "2026-12-12",
            "2026-12-14",
            no_discount,
            0,
            0,
            0,
            10_000,
            "due Saturday, paid Monday",
        ),
        (
            10_000,
            "2026-12-12",
            "2026-12-15",
            no_discount,
            0,
            200,
            3,
            10_203,
            "due Saturday, paid Tuesday",
        ),
        (
            10_000,
            "2026-11-20",
            "2026-11-23",
            no_discount,
            0,
            0,
            0,
            10_000,
            "due on Consciência Negra (Fri)",
        ),
        (
            10_000,
            "2026-11-20",
            "2026-11-24",
            no_discount,
            0,
            200,
            3,
            10_203,
            "a day after the moved date",
        ),
        (
            10_000,
            "2023-11-20",
            "2023-11-21",
            no_discount,
            0,
            200,
            3,
            10_203,
            "20 Nov 2023 was a working day",
        ),
        (
            10_000,
            "2026-12-25",
            "2026-12-28",
            no_discount,
            0,
            0,
            0,
            10_000,
            "due on Christmas",
        ),
        (
            10_000,
            "2027-02-08",
            "2027-02-10",
            no_discount,
            0,
            0,
            0,
            10_000,
            "due Carnival Monday, paid Ash Wednesday",
        ),
        (
            10_000,
            "2026-09-05",
            "2026-09-08",
            no_discount,
            0,
            0,
            0,
            10_000,
            "Saturday before 7 Sep",
        ),
        (
            10_000,
            "2026-09-05",
            "2026-09-10",
            no_discount,
            0,
            200,
            6,
            10_206,
            "two days after the moved date",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-01",
            ChargeTerms {
                discount: Some(DiscountTerm {
                    value: Value::Cents(1_000),
                    until: d("2026-12-10"),
                }),
                ..usual()
            },
            1_000,
            0,
            0,
            9_000,
            "fixed discount",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-11",
            ChargeTerms {
                fine: Some(Value::Cents(500)),
                interest_monthly_bp: None,
                discount: None,
            },
            0,
            500,
            0,
            10_500,
            "fixed fine, no interest",
        ),
        (
            500,
            "2026-12-10",
            "2026-12-01",
            ChargeTerms {
                discount: Some(DiscountTerm {
                    value: Value::Cents(1_000),
                    until: d("2026-12-10"),
                }),
                ..usual()
            },
            500,
            0,
            0,
            0,
            "a discount above the amount stops at zero",
        ),
        (
            10_000,
            "2026-12-10",
            "2026-12-01",
            ChargeTerms {
                discount: Some(DiscountTerm {
                    value: Value::Percent(3_333),
                    until: d("2026-12-10"),
                }),
                ..usual()
            },
            3_333,
            0,
            0,
            6_667,
            "33,33 %",
        ),
        (
            999,
            "2026-12-10",
            "2026-12-11",
            usual(),
            0,
            19,
            0,
            1_018,
            "small amounts truncate to zero interest",
        ),
        (
            10_000,
            "2026-12-10",
            "2027-01-09",
            ChargeTerms::default(),
            0,
            0,
            0,
            10_000,
            "no terms",
        ),
    ];
    for (original, due, paid, terms, discount, fine, interest, total, why) in cases {
        let a = amount_due(original, d(due), d(paid), &terms);
        assert_eq!(
            (a.original, a.discount, a.fine, a.interest, a.total),
            (original, discount, fine, interest, total),
            "{why}"
        );
    }
    let a = amount_due(10_000, d("2026-12-12"), d("2026-12-20"), &usual());
    assert_eq!((a.effective_due, a.late_days), (d("2026-12-14"), 6));
}

#[test]
fn the_br_code_carries_the_amount_due_that_day() {
    let due = d("2026-12-10");
    assert_eq!(
        br_code_amount(10_000, due, d("2026-12-01"), &usual()),
        9_500
    );
    assert_eq!(
        br_code_amount(10_000, due, d("2026-12-10"), &usual()),
        10_000
    );
    assert_eq!(
        br_code_amount(10_000, due, d("2026-12-20"), &usual()),
        10_233
    );
    let code = paylink_model::pix::br_code(&paylink_model::pix::PixCharge {
        key: "pix@loja.example.com",
        amount_cents: Some(br_code_amount(10_000, due, d("2026-12-20"), &usual())),
        merchant_name: "Loja",
        merchant_city: "Sao Paulo",
        txid: None,
    });
    assert!(code.contains("5406102.33"), "{code}");
}

fn date_strategy() -> impl Strategy<Value = Date> {
    // 2020-01-01 .. 2040-12-31
    (18_262i64..25_932).prop_map(|n| Date::from_days_since_epoch(n).unwrap())
}

fn value_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1i64..=MAX_FINE_BP).prop_map(Value::Percent),
        (1i64..2_000_000).prop_map(Value::Cents),
    ]
}

prop_compose! {
    fn terms_strategy()(
        fine in proptest::option::of(value_strategy()),
        interest in proptest::option::of(1i64..=MAX_INTEREST_BP),
        disc in proptest::option::of((
            prop_oneof![(1i64..=MAX_DISCOUNT_BP).prop_map(Value::Percent), (1i64..20_000_000).prop_map(Value::Cents)],
            0i64..60,
        )),
    ) -> (Option<Value>, Option<i64>, Option<(Value, i64)>) {
        (fine, interest, disc)
    }
}

proptest! {
    #[test]
    fn amounts_are_whole_cents_never_negative_and_never_fall_with_time(
        original in 0i64..=paylink_model::money::MAX_CENTS,
        due in date_strategy(),
        (fine, interest, disc) in terms_strategy(),
        offset in -60i64..400,
        step in 1i64..40,
    ) {
        let terms = ChargeTerms {
            fine,
            interest_monthly_bp: interest,
            discount: disc.map(|(value, before)| DiscountTerm { value, until: due.add_days(-before).unwrap() }),
        };
        let pay = due.add_days(offset).unwrap();
        let a = amount_due(original, due, pay, &terms);
        prop_assert!(a.total >= 0);
        prop_assert!(a.discount <= a.original);
        prop_assert_eq!(a.total, a.original - a.discount + a.fine + a.interest);
        // The rounding rule: each part is the exact value truncated, never rounded up.
        if let Some(Value::Percent(bp)) = fine {
            if a.late_days > 0 {
                prop_assert!(a.fine * 10_000 <= original * bp && original * bp < (a.fine + 1) * 10_000);
            }
        }
        if let Some(bp) = interest {
            let exact = original as i128 * bp as i128 * a.late_days as i128;
            prop_assert!(a.interest as i128 * 300_000 <= exact && exact < (a.interest as i128 + 1) * 300_000);
        }
        // Paying later never costs less.
        let later = amount_due(original, due, pay.add_days(step).unwrap(), &terms);
        prop_assert!(later.total >= a.total, "{:?} then {:?}", a, later);
        // Nothing extra until the moved due date; something once past it, if any terms.
        if pay <= a.effective_due {
            prop_assert_eq!(a.fine + a.interest, 0);
        } else {
            prop_assert_eq!(a.discount, 0);
        }
    }
}

#[test]
fn an_invoice_gives_the_rules_its_smallest_installment_due_date_and_payer() {
    let req = paylink_model::InvoiceRequest {
        customer_id: Some("6f1c2b1e-8d3a-4c5e-9f00-0123456789ab".into()),
        external_id: Some("pedido-1".into()),
        due_date: Some("2026-12-10".into()),
        payment_types: Some(vec!["PIX".into()]),
        installment_count: Some(3),
        invoice_type: Some("INSTALLMENT".into()),
        price: Some(100.0),
        ..Default::default()
    };
    let invoice = req.check().unwrap();
    let c = TermsContext::for_invoice(&invoice, Some("529.982.247-25"));
    assert_eq!(c.amount_cents, Some(3_333)); // 33,34 + 33,33 + 33,33
    assert_eq!(c.due_date, Some(d("2026-12-10")));
    assert!(c.payer_is_cpf);
    // A fixed discount of R$ 33,33 would leave the smallest installment at zero.
    let err = check_terms(None, None, Some(&discount("FIXED", 33.33, "2026-12-10")), c);
    assert!(err.unwrap_err().has("discount.value"));
    let c = TermsContext::for_invoice(&invoice, Some("11.222.333/0001-81"));
    assert!(!c.payer_is_cpf);
}

#[test]
fn boleto_instructions_state_the_terms_in_both_languages() {
    // Due Saturday 12 Dec 2026: charges start after Monday the 14th.
    let due = d("2026-12-12");
    let terms = ChargeTerms {
        fine: Some(Value::Percent(200)),
        interest_monthly_bp: Some(250),
        discount: Some(DiscountTerm {
            value: Value::Percent(500),
            until: d("2026-12-05"),
        }),
    };
    assert_eq!(
        instructions(123_456, due, &terms, Lang::PtBr),
        vec![
            "Até 05/12/2026, desconto de R$ 61,72: pague R$ 1.172,84.",
            "Após 14/12/2026, multa de R$ 24,69.",
            "Após 14/12/2026, juros de mora de 2,5 % ao mês, por dia corrido de atraso.",
        ]
    );
    assert_eq!(
        instructions(123_456, due, &terms, Lang::En),
        vec![
            "Until 2026-12-05, a discount of R$ 61.72: pay R$ 1,172.84.",
            "After 2026-12-14, a fine of R$ 24.69.",
            "After 2026-12-14, late interest of 2.5 % a month, per calendar day late.",
        ]
    );
    let fixed = ChargeTerms {
        fine: Some(Value::Cents(500)),
        interest_monthly_bp: Some(33),
        discount: None,
    };
    assert_eq!(
        instructions(10_000, d("2026-12-10"), &fixed, Lang::PtBr),
        vec![
            "Após 10/12/2026, multa de R$ 5,00.",
            "Após 10/12/2026, juros de mora de 0,33 % ao mês, por dia corrido de atraso.",
        ]
    );
    assert!(instructions(10_000, due, &ChargeTerms::default(), Lang::PtBr).is_empty());
}

fn request_with_terms() -> paylink_model::InvoiceRequest {
    paylink_model::InvoiceRequest {
        customer_id: Some("6f1c2b1e-8d3a-4c5e-9f00-0123456789ab".into()),
        external_id: Some("pedido-1".into()),
        due_date: Some("2026-12-10".into()),
        payment_types: Some(vec!["PIX".into(), "BOLETO".into()]),
        installment_count: Some(2),
        invoice_type: Some("INSTALLMENT".into()),
        price: Some(100.0),
        fine: Some(fine("PERCENTAGE", 2.0)),
        interest: Some(interest(1.0)),
        discount: Some(discount("FIXED", 5.0, "2026-12-05")),
        ..Default::default()
    }
}

#[test]
fn an_invoice_request_carries_its_terms_checked() {
    let inv = request_with_terms().check().unwrap();
    assert_eq!(
        inv.terms,
        ChargeTerms {
            fine: Some(Value::Percent(200)),
            interest_monthly_bp: Some(100),
            discount: Some(DiscountTerm {
                value: Value::Cents(500),
                until: d("2026-12-05"),
            }),
        }
    );
    // Without terms, none.
    let bare = paylink_model::InvoiceRequest {
        fine: None,
        interest: None,
        discount: None,
        ..request_with_terms()
    };
    assert_eq!(bare.check().unwrap().terms, ChargeTerms::default());
}

#[test]
fn an_invoice_request_reports_bad_terms_with_its_other_errors() {
    let req = paylink_model::InvoiceRequest {
        price: Some(1.0),
        fine: Some(fine("PERCENT", 2.0)),
        interest: Some(Interest { value: None }),
        // R$ 50,00 is the smallest installment: a discount of it leaves nothing.
        discount: Some(discount("FIXED", 50.0, "2026-12-11")),
        ..request_with_terms()
    };
    let v = req.check().unwrap_err();
    for path in ["price", "fine.type", "interest.value", "discount.untilDate"] {
        assert!(v.has(path), "{path}: {v:?}");
    }
    let req = paylink_model::InvoiceRequest {
        discount: Some(discount("FIXED", 50.0, "2026-12-05")),
        ..request_with_terms()
    };
    let v = req.check().unwrap_err();
    assert_eq!(
        v.0,
        vec![("discount.value".to_string(), Msg::DiscountNotBelowAmount)]
    );
}

#[test]
fn the_payers_cpf_caps_the_fine_once_the_customer_is_known() {
    let req = paylink_model::InvoiceRequest {
        fine: Some(fine("PERCENTAGE", 2.5)),
        ..request_with_terms()
    };
    let inv = req.check().unwrap();
    let v = inv
        .check_terms_for_payer(&req, Some("52998224725"))
        .unwrap_err();
    assert_eq!(v.0, vec![("fine.value".to_string(), Msg::FineAboveCdc)]);
    let company = inv
        .check_terms_for_payer(&req, Some("11222333000181"))
        .unwrap();
    assert_eq!(company.fine, Some(Value::Percent(250)));
}

#[test]
fn a_due_date_or_discount_date_before_today_is_refused_when_today_is_known() {
    let opts = |today: &str| paylink_model::CheckOptions {
        today: Some(d(today)),
        ..Default::default()
    };
    let req = request_with_terms();
    assert!(req.check_with(opts("2026-12-05")).is_ok());
    let v = req.check_with(opts("2026-12-06")).unwrap_err();
    assert_eq!(
        v.0,
        vec![("discount.untilDate".to_string(), Msg::DateInPast)]
    );
    let v = req.check_with(opts("2026-12-11")).unwrap_err();
    assert!(v.has("dueDate"), "{v:?}");
    assert!(v.0.contains(&("dueDate".to_string(), Msg::DateInPast)));
    // Due today is fine; no `today`, no date rule.
    assert!(paylink_model::InvoiceRequest {
        discount: None,
        ..request_with_terms()
    }
    .check_with(opts("2026-12-10"))
    .is_ok());
    assert!(req.check().is_ok());
}

#[test]
fn each_installment_keeps_the_discounts_days_before_its_own_due_date() {
    let terms = ChargeTerms {
        fine: Some(Value::Percent(200)),
        interest_monthly_bp: Some(100),
        discount: Some(DiscountTerm {
            value: Value::Cents(500),
            until: d("2027-01-25"),
        }),
    };
    let first = d("2027-01-31");
    assert_eq!(terms.for_due(first, first), terms);
    let second = terms.for_due(first, d("2027-02-28"));
    assert_eq!(second.discount.unwrap().until, d("2027-02-22"));
    assert_eq!(
        (second.fine, second.interest_monthly_bp),
        (terms.fine, terms.interest_monthly_bp)
    );
    // Paid on 2027-02-20, the second installment (R$ 33,33) gets its discount.
    let a = amount_due(3_333, d("2027-02-28"), d("2027-02-20"), &second);
    assert_eq!((a.discount, a.total), (500, 2_833));
    assert_eq!(
        ChargeTerms::default().for_due(first, d("2027-03-31")),
        ChargeTerms::default()
    );
}

/// How long a PIX charge payable now can carry today's amount: until the
/// discount ends, until the business-day due date, one day at a time while
/// interest runs, for good when nothing is left to change it.
#[test]
fn the_amount_holds_until_it_next_changes() {
    let only_fine = ChargeTerms {
        fine: Some(Value::Percent(200)),
        interest_monthly_bp: None,
        discount: None,
    };
    let none = ChargeTerms {
        fine: None,
        interest_monthly_bp: None,
        discount: None,
    };
    // (terms, due, today, holds until; None: for the whole horizon)
    let cases: [(&ChargeTerms, &str, &str, Option<&str>, &str); 9] = [
        (
            &usual(),
            "2026-12-10",
            "2026-12-01",
            Some("2026-12-05"),
            "the discount's last day",
        ),
        (
            &usual(),
            "2026-12-10",
            "2026-12-05",
            Some("2026-12-05"),
            "the discount ends tonight",
        ),
        (
            &usual(),
            "2026-12-10",
            "2026-12-06",
            Some("2026-12-10"),
            "then the due date",
        ),
        (
            &usual(),
            "2026-12-12",
            "2026-12-06",
            Some("2026-12-14"),
            "a Saturday's due date moves to Monday",
        ),
        (
            &usual(),
            "2026-12-10",
            "2026-12-11",
            Some("2026-12-11"),
            "late: interest changes it every day",
        ),
        (
            &only_fine,
            "2026-12-10",
            "2026-12-10",
            Some("2026-12-10"),
            "the fine starts tomorrow",
        ),
        (
            &only_fine,
            "2026-12-10",
            "2026-12-11",
            None,
            "a fine without interest stays",
        ),
        (
            &none,
            "2026-12-10",
            "2026-11-26",
            None,
            "no terms: always the price",
        ),
        (
            &none,
            "2027-12-10",
            "2026-11-26",
            None,
            "beyond the horizon",
        ),
    ];
    for (terms, due, today, until, why) in cases {
        assert_eq!(
            amount_holds_until(10_000, d(due), d(today), terms, 366),
            until.map(d),
            "{why}"
        );
    }
    // Whatever the day, the amount is the same up to that day and differs the next.
    for today in [
        "2026-12-01",
        "2026-12-05",
        "2026-12-06",
        "2026-12-11",
        "2027-01-20",
    ] {
        let (today, due) = (d(today), d("2026-12-10"));
        let until = amount_holds_until(10_000, due, today, &usual(), 366).unwrap();
        let total = |day| amount_due(10_000, due, day, &usual()).total;
        assert_eq!(total(until), total(today));
        assert_ne!(total(until.add_days(1).unwrap()), total(today));
    }
}
