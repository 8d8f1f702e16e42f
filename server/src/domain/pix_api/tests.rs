//! Every body paylink sends a bank, validated against the schemas of BACEN's published document
//! (`server/pix-api/openapi.yaml`), and bodies that break the document refused by the same check,
//! so the check itself is shown to bite.

use serde_json::{json, Value};

use super::*;

/// A validator for one schema of the document's `components.schemas`, with its `$ref`s resolved
/// inside the document. The one erratum of release 2.9.0 is corrected first (see the README
/// beside the document): `PessoaFisica.cpf`'s pattern carries JavaScript's `/.../` delimiters.
fn validator(schema: &str) -> jsonschema::Validator {
    let text = include_str!("../../../pix-api/openapi.yaml");
    let doc: Value = serde_yaml::from_str(text).expect("the document is YAML");
    let mut components = doc["components"].clone();
    let cpf = &mut components["schemas"]["PessoaFisica"]["properties"]["cpf"]["pattern"];
    assert_eq!(
        cpf, "/^\\d{11}$/",
        "the erratum is still there; drop this correction if not"
    );
    *cpf = json!("^\\d{11}$");
    let root = json!({"$ref": format!("#/components/schemas/{schema}"), "components": components});
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&root)
        .expect("the document's schemas compile")
}

fn errors(v: &jsonschema::Validator, body: &Value) -> Vec<String> {
    v.iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn date(y: i32, m: u8, d: u8) -> Date {
    Date::new(y, m, d).unwrap()
}

fn full_cobv() -> CobV {
    let mut c = CobV::new(
        "pix@loja.example",
        date(2027, 1, 31),
        30,
        Devedor::new("52998224725", "Maria da Silva").unwrap(),
        33334,
    )
    .with_message("Pedido 1, parcela 1 de 3");
    c.valor.multa = Some(Modalidade {
        modalidade: 2,
        valor_perc: "2.00".into(),
    });
    c.valor.juros = Some(Modalidade {
        modalidade: 3,
        valor_perc: "1.00".into(),
    });
    c.valor.desconto = Some(Desconto {
        modalidade: 1,
        desconto_data_fixa: vec![DescontoDataFixa {
            data: "2027-01-25".into(),
            valor_perc: "10.00".into(),
        }],
    });
    c
}

#[test]
fn a_due_dated_charge_is_a_valid_cobv_with_its_fine_interest_and_discount() {
    let v = validator("CobVSolicitada");
    let body = serde_json::to_value(full_cobv()).unwrap();
    assert_eq!(errors(&v, &body), Vec::<String>::new(), "{body}");
    assert_eq!(body["calendario"]["dataDeVencimento"], "2027-01-31");
    assert_eq!(body["valor"]["original"], "333.34");
    assert_eq!(
        body["devedor"],
        json!({"cpf": "52998224725", "nome": "Maria da Silva"})
    );

    let plain = CobV::new(
        "12345678000195",
        date(2027, 3, 1),
        0,
        Devedor::new("12ABC34501DE35", "Loja Cliente Ltda").unwrap(),
        500,
    );
    let body = serde_json::to_value(plain).unwrap();
    assert_eq!(errors(&v, &body), Vec::<String>::new(), "{body}");
    assert_eq!(body["valor"], json!({"original": "5.00"}));
}

#[test]
fn an_invoices_terms_become_the_cobvs_multa_juros_and_desconto() {
    use paylink_model::charges::{DiscountTerm, Value};
    let base = || {
        CobV::new(
            "pix@loja.example",
            date(2027, 1, 31),
            30,
            Devedor::new("52998224725", "Maria da Silva").unwrap(),
            33334,
        )
        .with_message("Pedido 1, parcela 1 de 3")
    };
    let terms = paylink_model::ChargeTerms {
        fine: Some(Value::Percent(200)),
        interest_monthly_bp: Some(100),
        discount: Some(DiscountTerm {
            value: Value::Cents(1000),
            until: date(2027, 1, 25),
        }),
    };
    assert_eq!(base().with_terms(&terms), full_cobv());
    let other = paylink_model::ChargeTerms {
        fine: Some(Value::Cents(250)),
        interest_monthly_bp: Some(33),
        discount: Some(DiscountTerm {
            value: Value::Percent(550),
            until: date(2027, 1, 30),
        }),
    };
    let body = serde_json::to_value(base().with_terms(&other)).unwrap();
    assert_eq!(
        errors(&validator("CobVSolicitada"), &body),
        Vec::<String>::new()
    );
    assert_eq!(
        body["valor"]["multa"],
        json!({"modalidade": 1, "valorPerc": "2.50"})
    );
    assert_eq!(
        body["valor"]["juros"],
        json!({"modalidade": 3, "valorPerc": "0.33"})
    );
    assert_eq!(
        body["valor"]["desconto"],
        json!({"modalidade": 2, "descontoDataFixa": [{"data": "2027-01-30", "valorPerc": "5.50"}]})
    );
    let none = serde_json::to_value(base().with_terms(&Default::default())).unwrap();
    assert_eq!(none["valor"], json!({"original": "333.34"}));
}

#[test]
fn the_check_refuses_bodies_that_break_the_document() {
    let v = validator("CobVSolicitada");
    let good = serde_json::to_value(full_cobv()).unwrap();
    let broken = |f: &dyn Fn(&mut Value)| {
        let mut b = good.clone();
        f(&mut b);
        errors(&v, &b)
    };
    assert!(
        !broken(&|b| b["valor"]["original"] = json!("333.3")).is_empty(),
        "two decimals"
    );
    assert!(
        !broken(&|b| b["valor"]["multa"]["modalidade"] = json!(3)).is_empty(),
        "fine 1 or 2"
    );
    assert!(
        !broken(&|b| b["devedor"]["cpf"] = json!("5299822472")).is_empty(),
        "11 digits"
    );
    assert!(!broken(&|b| b["calendario"]["dataDeVencimento"] = json!("31/01/2027")).is_empty());
    assert!(!broken(&|b| {
        b.as_object_mut().unwrap().remove("devedor");
    })
    .is_empty());
    assert!(
        !broken(&|b| b["chave"] = json!("x".repeat(78))).is_empty(),
        "77 at most"
    );
}

#[test]
fn an_immediate_charge_and_a_removal_are_valid_too() {
    let cob = Cob::new(
        "pix@loja.example",
        3600,
        Devedor::new("52998224725", "Maria"),
        1000,
    );
    let body = serde_json::to_value(cob).unwrap();
    assert_eq!(
        errors(&validator("CobSolicitada"), &body),
        Vec::<String>::new(),
        "{body}"
    );
    assert_eq!(body["calendario"]["expiracao"], 3600);

    let body = serde_json::to_value(REMOVAL).unwrap();
    assert_eq!(
        errors(&validator("CobVRevisada"), &body),
        Vec::<String>::new(),
        "{body}"
    );
    let wrong = json!({"status": "CANCELADA"});
    assert!(!errors(&validator("CobVRevisada"), &wrong).is_empty());
}

#[test]
fn txids_are_the_installments_uuids_within_the_documents_pattern() {
    let t = txid("6c12042f-d304-437b-9dc0-c240401925f4").unwrap();
    assert_eq!(t, "6c12042fd304437b9dc0c240401925f4");
    assert!((26..=35).contains(&t.len()) && t.chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(txid("not-a-uuid"), None);
    assert_eq!(txid(""), None);
}

#[test]
fn amounts_are_reais_with_two_decimals_and_documents_pick_cpf_or_cnpj() {
    assert_eq!(reais(5), "0.05");
    assert_eq!(reais(100), "1.00");
    assert_eq!(reais(9_999_999_999), "99999999.99");
    assert!(matches!(
        Devedor::new("52998224725", "M"),
        Some(Devedor::Pf { .. })
    ));
    assert!(matches!(
        Devedor::new("12345678000195", "L"),
        Some(Devedor::Pj { .. })
    ));
    assert_eq!(Devedor::new("123", "x"), None);
    assert_eq!(Devedor::new("5299822472a", "x"), None);
}

#[test]
fn an_installment_is_a_cobv_until_due_and_a_cob_of_what_it_costs_today_after() {
    use paylink_model::charges::Value as V;
    let terms = paylink_model::ChargeTerms {
        fine: Some(V::Percent(200)),
        interest_monthly_bp: Some(100),
        discount: None,
    };
    let installment = |due: Date, document: Option<&'static str>| charge::Installment {
        price_cents: 10_000,
        due,
        first_due: due,
        terms: &terms,
        customer_document: document,
        customer_name: "Maria da Silva",
        message: "order-42 - parcela 1 de 3",
        immediate: false,
    };
    let today = date(2027, 1, 10);
    // 2027-01-10 at 15:00 in Brasília (18:00 UTC).
    let now = paylink_model::date::brasilia_day_start(today) + 15 * 3600;
    match charge::charge_for(
        "pix@loja.example",
        &installment(date(2027, 1, 31), Some("52998224725")),
        now,
    ) {
        charge::Charge::Due(cobv) => {
            let body = serde_json::to_value(&cobv).unwrap();
            assert_eq!(
                errors(&validator("CobVSolicitada"), &body),
                Vec::<String>::new()
            );
            assert_eq!(body["valor"]["multa"]["valorPerc"], "2.00");
            assert_eq!(
                body["calendario"]["validadeAposVencimento"],
                charge::DAYS_AFTER_DUE
            );
        }
        other => panic!("{other:?}"),
    }
    // Overdue: payable now, with the fine and a month of interest (2 % + 1 %, more or less a day).
    match charge::charge_for(
        "pix@loja.example",
        &installment(date(2026, 12, 10), Some("52998224725")),
        now,
    ) {
        charge::Charge::Now(cob) => {
            let body = serde_json::to_value(&cob).unwrap();
            assert_eq!(
                errors(&validator("CobSolicitada"), &body),
                Vec::<String>::new()
            );
            let cents = cents_of(body["valor"]["original"].as_str().unwrap()).unwrap();
            assert!((10_290..=10_310).contains(&cents), "{cents}");
            // Interest grows tomorrow: payable until midnight in Brasília, 9 hours.
            assert_eq!(body["calendario"]["expiracao"], 9 * 3600);
        }
        other => panic!("{other:?}"),
    }
    // The first cycle of a Pix Automático recurrence: payable now (a cob, for the composite
    // code of Jornada 3) though not due yet, with its payer.
    match charge::charge_for(
        "pix@loja.example",
        &charge::Installment {
            immediate: true,
            ..installment(date(2027, 1, 31), Some("52998224725"))
        },
        now,
    ) {
        charge::Charge::Now(cob) => {
            assert!(matches!(cob.devedor, Some(Devedor::Pf { .. })));
            assert_eq!(cob.valor.original, "100.00");
        }
        other => panic!("{other:?}"),
    }
    // No document: a cob without devedor, still valid.
    match charge::charge_for(
        "pix@loja.example",
        &installment(date(2027, 1, 31), None),
        now,
    ) {
        charge::Charge::Now(cob) => {
            assert_eq!(cob.devedor, None);
            assert_eq!(cob.valor.original, "100.00");
            // Until the end of the due date (a Sunday: Monday 1 February, the business day).
            assert_eq!(
                cob.calendario.expiracao,
                (21 * 24 + 9 + 24) * 3600,
                "from 15:00 on 10 January to midnight ending 1 February"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_callback_is_believed_only_where_the_bank_agrees() {
    let bank = json!({"endToEndId": "E9999999920270110120012345678901", "txid": "6c12042fd304437b9dc0c240401925f4",
                      "valor": "33.34", "chave": "pix@loja.example", "horario": "2027-01-10T12:00:00.000Z"});
    let ok = check_confirmed(&bank, &bank, "pix@loja.example").unwrap();
    assert_eq!(
        (ok.cents, ok.txid.as_str()),
        (3334, "6c12042fd304437b9dc0c240401925f4")
    );
    let claim = |f: &str, v: Value| {
        let mut c = bank.clone();
        c[f] = v;
        check_confirmed(&c, &bank, "pix@loja.example")
    };
    assert_eq!(claim("valor", json!("3334.00")), Err("another amount"));
    assert_eq!(claim("txid", json!("0".repeat(32))), Err("another txid"));
    assert_eq!(
        claim("endToEndId", json!("E".repeat(32))),
        Err("another endToEndId")
    );
    assert_eq!(
        check_confirmed(&bank, &bank, "outra@chave"),
        Err("paid to another key")
    );
    let mut no_txid = bank.clone();
    no_txid.as_object_mut().unwrap().remove("txid");
    assert!(check_confirmed(&Value::Null, &no_txid, "pix@loja.example").is_err());
    // Reconciliation has no claim: the bank's record alone.
    assert!(check_confirmed(&Value::Null, &bank, "pix@loja.example").is_ok());
    // The time is kept in UTC whatever offset the bank wrote (the dashboard and the export read
    // stored instants as UTC), and a time that is not RFC 3339 is not a confirmation.
    let mut in_brasilia = bank.clone();
    in_brasilia["horario"] = json!("2027-01-10T09:00:00-03:00");
    assert_eq!(
        check_confirmed(&Value::Null, &in_brasilia, "pix@loja.example")
            .unwrap()
            .horario,
        "2027-01-10T12:00:00.000Z"
    );
    in_brasilia["horario"] = json!("10/01/2027 09:00");
    assert_eq!(
        check_confirmed(&Value::Null, &in_brasilia, "pix@loja.example"),
        Err("no readable horario")
    );
    assert_eq!(cents_of("0.05"), Some(5));
    assert_eq!(cents_of("1.5"), None);
    assert_eq!(cents_of("-1.00"), None);
}

/// A charge the bank holds under the txid is paylink's when what the payer pays and who owes it
/// are the same, whatever the bank added; each difference is named, the bank's value first.
#[test]
fn a_charge_found_at_the_bank_is_compared_on_what_matters() {
    let due = Date::parse_iso("2027-01-31").unwrap();
    let devedor = Devedor::new("52998224725", "Maria da Silva").unwrap();
    let sent =
        serde_json::to_value(CobV::new("pix@loja.example", due, 30, devedor, 10_000)).unwrap();
    let mut found = sent.clone();
    found["txid"] = json!("6c12042fd304437b9dc0c240401925f4");
    found["status"] = json!("ATIVA");
    found["calendario"]["criacao"] = json!("2027-01-01T10:00:00Z");
    found["devedor"]["nome"] = json!("MARIA DA SILVA");
    assert_eq!(charge::differences(&sent, &found), Vec::<String>::new());

    found["valor"]["original"] = json!("100.01");
    found["devedor"] = json!({"cnpj": "12345678000195", "nome": "Outra Ltda"});
    assert_eq!(
        charge::differences(&sent, &found),
        [
            "valor.original: 100.01 ≠ 100.00",
            "devedor.cpf: — ≠ 52998224725"
        ]
    );
    // An immediate charge has no due date and may have no payer: only what was sent counts.
    let cob = serde_json::to_value(Cob::new("pix@loja.example", 86_400, None, 500)).unwrap();
    let mut held = cob.clone();
    held["calendario"]["dataDeVencimento"] = json!("2027-01-31");
    assert!(charge::differences(&cob, &held).is_empty());
    held["chave"] = json!("outra@chave");
    assert_eq!(
        charge::differences(&cob, &held),
        ["chave: outra@chave ≠ pix@loja.example"]
    );
}
