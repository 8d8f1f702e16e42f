//! Every validation rule of the invoicing contract, one table of named cases
//! per rule: what passes, what fails, under which API field path, and that the
//! message exists in both languages.

use paylink_model::br::{self, mask_cep, mask_document, mask_phone};
use paylink_model::date::Date;
use paylink_model::money::{format_brl, format_brl_input, parse_brl, MAX_CENTS};
use paylink_model::*;

// ---------------------------------------------------------------- helpers --

/// The errors in pt-BR after checking they mirror the English ones: same
/// keys, same number of messages per key, every message non-empty and
/// actually translated.
fn bilingual(validate: impl Fn(Lang) -> Errors, why: &str) -> Errors {
    let pt = validate(Lang::PtBr);
    let en = validate(Lang::En);
    assert_eq!(
        pt.keys().collect::<Vec<_>>(),
        en.keys().collect::<Vec<_>>(),
        "{why}: pt-BR and English report different fields"
    );
    for (key, pt_msgs) in &pt {
        let en_msgs = &en[key];
        assert_eq!(pt_msgs.len(), en_msgs.len(), "{why}: {key}");
        for (p, e) in pt_msgs.iter().zip(en_msgs) {
            assert!(!p.trim().is_empty() && !e.trim().is_empty(), "{why}: {key}");
            assert_ne!(p, e, "{why}: {key} is not translated");
        }
    }
    pt
}

fn keys(errors: &Errors) -> Vec<&str> {
    errors.keys().map(String::as_str).collect()
}

/// Asserts that exactly `expected` fields are reported, in both languages.
fn assert_customer_errors(req: &CustomerRequest, expected: &[&str], why: &str) {
    let errors = bilingual(|l| req.validate(l), why);
    assert_eq!(keys(&errors), expected, "{why}: {errors:?}");
    assert_eq!(req.check().is_ok(), expected.is_empty(), "{why}");
}

fn assert_invoice_errors(req: &InvoiceRequest, expected: &[&str], why: &str) {
    let errors = bilingual(|l| req.validate(l), why);
    let mut expected = expected.to_vec();
    expected.sort_unstable();
    assert_eq!(keys(&errors), expected, "{why}: {errors:?}");
    assert_eq!(req.check().is_ok(), expected.is_empty(), "{why}");
}

/// One change that breaks a valid request.
type Breaks = fn(&mut InvoiceRequest);

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn named(full_name: &str) -> CustomerRequest {
    CustomerRequest {
        full_name: s(full_name),
        ..Default::default()
    }
}

fn with_document(doc: &str) -> CustomerRequest {
    CustomerRequest {
        document: s(doc),
        ..named("Ana Souza")
    }
}

fn with_phone(phone: &str) -> CustomerRequest {
    CustomerRequest {
        phone: s(phone),
        ..named("Ana Souza")
    }
}

fn with_address(address: AddressRequest) -> CustomerRequest {
    CustomerRequest {
        address: Some(address),
        ..named("Ana Souza")
    }
}

fn date(iso: &str) -> Date {
    Date::parse_iso(iso).unwrap()
}

const CUSTOMER_ID: &str = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

fn notification(kind: &str, channel: &str, period: Option<i64>) -> NotificationRequest {
    NotificationRequest {
        kind: s(kind),
        channel: s(channel),
        period,
    }
}

fn webhook(hook_type: &str, url: &str) -> WebhookRequest {
    WebhookRequest {
        hook_type: s(hook_type),
        url: s(url),
    }
}

/// A fully valid INSTALLMENT request: R$ 150,00 in 3, both payment types, a
/// reminder and a notice, a webhook and a redirect.
fn installment() -> InvoiceRequest {
    InvoiceRequest {
        customer_id: s(CUSTOMER_ID),
        external_id: s("pedido-2026-0042"),
        due_date: s("2026-12-10"),
        payment_types: Some(vec!["PIX".into(), "BOLETO".into()]),
        installment_count: Some(3),
        price: Some(150.0),
        description: s("Curso de programação — turma de verão"),
        invoice_type: s("INSTALLMENT"),
        frequency: None,
        end_date: None,
        end_installment: None,
        end_subscription: None,
        notifications: Some(vec![
            notification("SEND_INVOICE_REMINDER", "Email", Some(5)),
            notification("INVOICE_GENERATED", "WhatsApp", None),
        ]),
        webhooks: Some(vec![webhook(
            "PAYMENT_CONFIRMED",
            "https://api.loja.com.br/hooks/paylink",
        )]),
        redirect_to: s("https://loja.com.br/obrigado"),
        price_by_customer: Some(false),
        fine: None,
        interest: None,
        discount: None,
        pix_automatico: None,
    }
}

/// The smallest valid request: a SINGLE invoice with only the required fields.
fn single() -> InvoiceRequest {
    InvoiceRequest {
        customer_id: s(CUSTOMER_ID),
        external_id: s("pedido-1"),
        due_date: s("2026-12-10"),
        payment_types: Some(vec!["PIX".into()]),
        installment_count: Some(1),
        price: Some(49.9),
        ..Default::default()
    }
}

fn recurring() -> InvoiceRequest {
    InvoiceRequest {
        invoice_type: s("RECURRING"),
        frequency: s("MONTHLY"),
        end_installment: Some(12),
        ..single()
    }
}

fn subscription() -> InvoiceRequest {
    InvoiceRequest {
        invoice_type: s("SUBSCRIPTION"),
        frequency: s("YEARLY"),
        ..single()
    }
}

/// The Receita Federal check digits of a 12-character CNPJ base, written here
/// independently of the model: value = ASCII − 48, weights 2..9 from the right
/// (cycling), modulus 11, remainder < 2 → 0 else 11 − remainder.
fn receita_check_digits(base: &str) -> String {
    assert_eq!(base.len(), 12, "a CNPJ base has 12 characters");
    let mut values: Vec<u32> = base.bytes().map(|b| u32::from(b) - 48).collect();
    for _ in 0..2 {
        let sum: u32 = values
            .iter()
            .rev()
            .zip([2, 3, 4, 5, 6, 7, 8, 9].iter().cycle())
            .map(|(v, w)| v * w)
            .sum();
        let r = sum % 11;
        values.push(if r < 2 { 0 } else { 11 - r });
    }
    format!("{}{}", values[12], values[13])
}

// --------------------------------------------------------------- customer --

#[test]
fn a_complete_customer_is_normalised_for_storage() {
    let req = CustomerRequest {
        full_name: s("  Ana Maria Souza  "),
        document: s("529.982.247-25"),
        business: s("Souza Doces ME"),
        email: s(" ana.souza@example.com.br "),
        phone: s("+55 (11) 98765-4321"),
        observations: s("Cliente desde 2019"),
        address: Some(AddressRequest {
            address: s("Avenida Paulista"),
            number: s("1578"),
            complement: s("Conjunto 12"),
            neighborhood: s("Bela Vista"),
            city: s("São Paulo"),
            state: s("sp"),
            zipcode: s("01310-100"),
        }),
        language: s("en"),
    };
    assert_customer_errors(&req, &[], "complete customer");
    let c = req.check().unwrap();
    assert_eq!(c.full_name, "Ana Maria Souza");
    assert_eq!(c.document.as_deref(), Some("52998224725"));
    assert_eq!(c.email.as_deref(), Some("ana.souza@example.com.br"));
    assert_eq!(c.phone.as_deref(), Some("+5511987654321"));
    let a = c.address.unwrap();
    assert_eq!(a.state.as_deref(), Some("SP"));
    assert_eq!(a.zipcode.as_deref(), Some("01310100"));
    assert_eq!(a.city.as_deref(), Some("São Paulo"));
    assert_eq!(c.language, paylink_model::Lang::En);
}

#[test]
fn only_full_name_is_required() {
    let c = named("Ana").check().unwrap();
    assert_eq!(c.full_name, "Ana");
    assert_eq!(
        (c.document, c.business, c.email, c.phone, c.observations),
        (None, None, None, None, None)
    );
    assert_eq!(c.address, None);
}

#[test]
fn full_name_is_required_and_between_3_and_150_characters() {
    let too_long = "a".repeat(151);
    let longest = "á".repeat(150);
    for (name, valid, why) in [
        (Some("Ana"), true, "exactly 3 characters"),
        (Some("Zoë"), true, "3 characters, one of them two bytes"),
        (Some(longest.as_str()), true, "150 multibyte characters"),
        (Some("  Ana  "), true, "surrounding spaces are trimmed"),
        (None, false, "missing"),
        (Some(""), false, "empty"),
        (Some("   "), false, "blank counts as missing"),
        (Some("Al"), false, "2 characters"),
        (Some("  Al  "), false, "2 characters once trimmed"),
        (Some("Zé"), false, "2 characters in 3 bytes"),
        (Some(too_long.as_str()), false, "151 characters"),
    ] {
        let req = CustomerRequest {
            full_name: name.map(String::from),
            ..Default::default()
        };
        let expected: &[&str] = if valid { &[] } else { &["fullName"] };
        assert_customer_errors(&req, expected, why);
    }
}

#[test]
fn full_name_messages_say_which_rule_broke() {
    let missing = CustomerRequest::default().validate(Lang::PtBr);
    assert_eq!(missing["fullName"], ["Campo obrigatório."]);
    let blank = named("  ").validate(Lang::En);
    assert_eq!(blank["fullName"], ["This field is required."]);
    let short = named("Al").validate(Lang::En);
    assert!(short["fullName"][0].contains('3'), "{short:?}");
    let long = named(&"a".repeat(151)).validate(Lang::PtBr);
    assert!(long["fullName"][0].contains("150"), "{long:?}");
}

#[test]
fn cpf_with_valid_check_digits_is_stored_as_digits() {
    for (input, stored, why) in [
        ("529.982.247-25", "52998224725", "masked"),
        ("52998224725", "52998224725", "bare digits"),
        (
            " 529 982 247 25 ",
            "52998224725",
            "spaces around and between groups",
        ),
        ("111.444.777-35", "11144477735", "another valid CPF"),
        ("000.000.001-91", "00000000191", "leading zeros"),
    ] {
        let req = with_document(input);
        assert_customer_errors(&req, &[], why);
        assert_eq!(
            req.check().unwrap().document.as_deref(),
            Some(stored),
            "{why}"
        );
    }
}

#[test]
fn cpf_with_wrong_digits_is_rejected() {
    for (input, why) in [
        ("529.982.247-26", "wrong second check digit"),
        ("529.982.247-15", "wrong first check digit"),
        ("529.982.247-52", "check digits swapped"),
        ("529.982.274-25", "transposed body digits"),
        ("111.111.111-11", "all digits repeated (passes the modulus)"),
        ("000.000.000-00", "all zeros"),
        ("99999999999", "all nines, bare"),
    ] {
        let req = with_document(input);
        assert_customer_errors(&req, &["document"], why);
        let msg = &req.validate(Lang::PtBr)["document"][0];
        assert!(msg.contains("CPF"), "{why}: {msg}");
    }
}

#[test]
fn document_of_the_wrong_length_or_with_stray_characters_is_rejected() {
    for (input, why) in [
        ("529.982.247-2", "10 digits"),
        ("529.982.247-255", "12 digits"),
        ("1234567", "7 digits"),
        ("11.222.333/0001-8", "13 characters"),
        ("11.222.333/0001-810", "15 characters"),
        ("5299822472A", "a letter in an 11-character CPF"),
        ("529*982*247*25", "unknown separators are kept and fail"),
        ("52998224725ã", "a non-ASCII letter"),
        ("cpf", "not a number at all"),
    ] {
        assert_customer_errors(&with_document(input), &["document"], why);
    }
    // A blank document is the same as no document.
    assert_customer_errors(&with_document("   "), &[], "blank document");
    assert_eq!(with_document("").check().unwrap().document, None);
}

#[test]
fn numeric_cnpj_is_checked_and_stored_bare() {
    assert_eq!(
        receita_check_digits("112223330001"),
        "81",
        "the helper agrees"
    );
    for (input, stored, why) in [
        ("11.222.333/0001-81", "11222333000181", "masked"),
        ("11222333000181", "11222333000181", "bare"),
        ("11.444.777/0001-61", "11444777000161", "another valid CNPJ"),
    ] {
        let req = with_document(input);
        assert_customer_errors(&req, &[], why);
        assert_eq!(
            req.check().unwrap().document.as_deref(),
            Some(stored),
            "{why}"
        );
    }
    for (input, why) in [
        ("11.222.333/0001-82", "wrong second check digit"),
        ("11.222.333/0001-71", "wrong first check digit"),
        ("11.222.333/0002-81", "branch changed, digits kept"),
        ("11.111.111/1111-11", "all characters repeated"),
        ("00000000000000", "all zeros"),
    ] {
        let req = with_document(input);
        assert_customer_errors(&req, &["document"], why);
        let msg = &req.validate(Lang::En)["document"][0];
        assert!(msg.contains("CNPJ"), "{why}: {msg}");
    }
}

#[test]
fn alphanumeric_cnpj_follows_the_receita_federal_rule() {
    // The official example of IN RFB 2.229/2024.
    assert_eq!(receita_check_digits("12ABC34501DE"), "35");
    assert_eq!(
        br::check_document("12.ABC.345/01DE-35").as_deref(),
        Ok("12ABC34501DE35")
    );

    for (base, why) in [
        ("12ABC34501DE", "official example"),
        ("A1B2C3D4E5F6", "letters and digits alternating"),
        ("ZZZZZZZZ0001", "root all Z"),
        ("00000000000A", "one letter in the branch"),
        ("QWERTYUIOPAS", "letters only"),
        ("9AB8CD7EF6GH", "another mix"),
    ] {
        let valid = format!("{base}{}", receita_check_digits(base));
        let masked = mask_document(&valid);
        for (input, how) in [
            (valid.clone(), "bare"),
            (masked.clone(), "masked"),
            (valid.to_lowercase(), "lower case"),
            (masked.to_lowercase(), "masked lower case"),
        ] {
            let req = with_document(&input);
            assert_customer_errors(&req, &[], &format!("{why}, {how}: {input}"));
            assert_eq!(
                req.check().unwrap().document,
                Some(valid.clone()),
                "{why}, {how}: stored upper-case and bare"
            );
        }
        // Any other pair of check digits fails.
        let right: u32 = valid[12..].parse().unwrap();
        for wrong in [(right + 1) % 100, (right + 10) % 100, (right + 99) % 100] {
            let input = format!("{base}{wrong:02}");
            assert_customer_errors(&with_document(&input), &["document"], &input);
        }
    }

    for (input, why) in [
        ("12.ABC.345/01DE-3A", "a letter in the check digits"),
        ("12ABC34501DEAB", "letters as both check digits"),
        ("12.ABC.345/01DE-36", "wrong second check digit"),
        ("12.ABC.345/01DE-45", "wrong first check digit"),
        ("12.ABÇ.345/01DE-35", "a non-ASCII letter"),
        ("12.AB_.345/01DE-35", "an underscore"),
        ("AAAAAAAAAAAAAA", "all characters repeated"),
    ] {
        assert_customer_errors(&with_document(input), &["document"], why);
    }
}

#[test]
fn email_must_be_a_plausible_address() {
    for (input, why) in [
        ("ana@example.com", "plain"),
        (
            "ana.souza+boletos@mail.example.com.br",
            "dots, plus tag, subdomains",
        ),
        ("a_b-c@x-y.io", "underscore and hyphens"),
        ("ANA@EXAMPLE.COM", "upper case"),
        ("  ana@example.com  ", "trimmed"),
    ] {
        let req = CustomerRequest {
            email: s(input),
            ..named("Ana Souza")
        };
        assert_customer_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().email.as_deref(), Some(input.trim()));
    }
    for (input, why) in [
        ("ana", "no @"),
        ("ana@", "no domain"),
        ("@example.com", "no local part"),
        ("ana@example", "no top-level domain"),
        ("ana@@example.com", "two @"),
        ("ana@exa@mple.com", "@ in the local part"),
        ("ana..souza@example.com", "consecutive dots"),
        (".ana@example.com", "local part starts with a dot"),
        ("ana.@example.com", "local part ends with a dot"),
        ("ana souza@example.com", "space inside"),
        ("ana@-example.com", "label starts with a hyphen"),
        ("ana@example-.com", "label ends with a hyphen"),
        ("ana@example..com", "empty label"),
        ("ana@example.c", "one-letter top-level domain"),
        ("ana@example.123", "numeric top-level domain"),
        ("ana@exa_mple.com", "underscore in the domain"),
        ("joão@example.com", "non-ASCII local part"),
        ("<ana@example.com>", "angle brackets"),
    ] {
        let req = CustomerRequest {
            email: s(input),
            ..named("Ana Souza")
        };
        assert_customer_errors(&req, &["email"], why);
    }
}

#[test]
fn phone_is_brazilian_without_plus_and_stored_in_e164() {
    for (input, stored, why) in [
        ("11987654321", "+5511987654321", "mobile, bare"),
        ("(11) 98765-4321", "+5511987654321", "mobile, masked"),
        ("011 98765-4321", "+5511987654321", "with the trunk 0"),
        ("11 98765 4321", "+5511987654321", "spaces only"),
        ("(11) 3456-7890", "+551134567890", "landline with 8 digits"),
        ("1134567890", "+551134567890", "landline, bare"),
        ("01134567890", "+551134567890", "landline with the trunk 0"),
        ("(21) 2345-6789", "+552123456789", "landline in Rio"),
        ("(19) 98765-4321", "+5519987654321", "another São Paulo DDD"),
        ("(12) 99876-5432", "+5512998765432", "DDD 12"),
        ("(99) 99999-9999", "+5599999999999", "highest DDD"),
        (
            "(55) 99999-9999",
            "+5555999999999",
            "DDD 55 (RS), not a country code",
        ),
        ("+55 (11) 98765-4321", "+5511987654321", "with +55, masked"),
        ("+5511987654321", "+5511987654321", "E.164 already"),
        ("+55 11 3456 7890", "+551134567890", "+55 landline"),
        (
            "5511987654321",
            "+5511987654321",
            "digits with country code (older clients)",
        ),
        (
            "551134567890",
            "+551134567890",
            "landline digits with country code",
        ),
        ("+1 (212) 555-1234", "+12125551234", "United States"),
        ("+1 (416) 555-0199", "+14165550199", "Canada"),
        ("+44 20 7946 0958", "+442079460958", "United Kingdom"),
        ("+351 912 345 678", "+351912345678", "Portugal"),
        ("+354 551 2345", "+3545512345", "Iceland, 7-digit numbers"),
    ] {
        let req = with_phone(input);
        assert_customer_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().phone.as_deref(), Some(stored), "{why}");
        assert_eq!(
            br::check_phone(stored).as_deref(),
            Ok(stored),
            "{why}: stored form re-checks"
        );
    }
    for (input, why) in [
        ("98765-4321", "no area code"),
        ("987654321", "9 digits"),
        ("(10) 98765-4321", "DDD 10 does not exist"),
        ("(20) 3456-7890", "DDD 20 does not exist"),
        ("(23) 98765-4321", "DDD 23 does not exist"),
        ("(01) 98765-4321", "DDD starting with 0"),
        ("(11) 88765-4321", "11 digits not starting with 9"),
        (
            "(11) 8765-4321",
            "8-digit number starting with 8 (old mobile form)",
        ),
        ("(11) 1234-5678", "8-digit number starting with 1"),
        ("(11) 98765-43210", "12 digits"),
        ("(11) 9876A-4321", "a letter"),
        ("onze 98765-4321", "letters"),
        ("(11) 98765_4321", "an underscore"),
        ("+55 98765-4321", "+55 without area code"),
        ("+55 (11) 98765-432", "+55 one digit short"),
        ("+55 (11) 98765-43210", "+55 one digit long"),
        ("+55 (10) 98765-4321", "+55 with a DDD that does not exist"),
        ("+55 (11) 88765-4321", "+55 mobile not starting with 9"),
        (
            "+1 (123) 456-7890",
            "North American area code starting with 1",
        ),
        (
            "+1 (212) 155-1234",
            "North American exchange starting with 1",
        ),
        ("+1 (212) 555-123", "North American number one digit short"),
        ("+0 123 4567", "country code 0"),
        ("+123456", "too short for E.164"),
        ("+1234567890123456", "longer than E.164's 15 digits"),
        ("0055 11 98765-4321", "international prefix 00 instead of +"),
        ("+", "a lone plus"),
    ] {
        let req = with_phone(input);
        assert_customer_errors(&req, &["phone"], why);
    }
}

#[test]
fn a_phone_with_a_bad_ddd_says_so() {
    assert_eq!(br::check_phone("(10) 98765-4321"), Err(Msg::PhoneDdd));
    assert_eq!(br::check_phone("+55 (26) 3456-7890"), Err(Msg::PhoneDdd));
    assert_eq!(br::check_phone("(11) 8765-4321"), Err(Msg::Phone));
    let errors = bilingual(
        |lang| with_phone("(10) 98765-4321").validate(lang),
        "bad DDD",
    );
    assert!(errors["phone"][0].contains("DDD"), "{errors:?}");
    let errors = bilingual(|lang| with_phone("98765-4321").validate(lang), "no DDD");
    assert!(errors["phone"][0].contains("(11) 98765-4321"), "{errors:?}");
    assert_eq!(br::DDDS.len(), 67);
    assert!(br::DDDS.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn state_is_one_of_the_27_ufs() {
    let ufs = [
        "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB",
        "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
    ];
    assert_eq!(br::UFS.len(), 27);
    for uf in ufs {
        for input in [uf.to_string(), uf.to_lowercase(), format!(" {uf} ")] {
            let req = with_address(AddressRequest {
                state: Some(input.clone()),
                ..Default::default()
            });
            assert_customer_errors(&req, &[], &input);
            let stored = req.check().unwrap().address.unwrap().state;
            assert_eq!(stored.as_deref(), Some(uf), "{input} is stored upper-case");
        }
    }
    for (input, why) in [
        ("XX", "not a state"),
        ("BR", "the country, not a state"),
        ("S", "one letter"),
        ("SPP", "three letters"),
        ("S P", "space inside"),
        ("São Paulo", "the full name"),
        ("35", "the IBGE code"),
    ] {
        let req = with_address(AddressRequest {
            state: s(input),
            ..Default::default()
        });
        assert_customer_errors(&req, &["address.state"], why);
    }
}

#[test]
fn zipcode_is_a_cep_of_8_digits() {
    for (input, stored, why) in [
        ("01310-100", "01310100", "masked"),
        ("01310100", "01310100", "bare"),
        ("01.310-100", "01310100", "old dotted form"),
        (" 70040-010 ", "70040010", "surrounding spaces"),
    ] {
        let req = with_address(AddressRequest {
            zipcode: s(input),
            ..Default::default()
        });
        assert_customer_errors(&req, &[], why);
        let zip = req.check().unwrap().address.unwrap().zipcode;
        assert_eq!(zip.as_deref(), Some(stored), "{why}");
    }
    for (input, why) in [
        ("0131010", "7 digits"),
        ("01310-10", "7 digits, masked"),
        ("01310-1000", "9 digits"),
        ("0131O-100", "letter O instead of zero"),
        ("01310_100", "underscore"),
        ("CEP 01310-100", "a label before it"),
    ] {
        let req = with_address(AddressRequest {
            zipcode: s(input),
            ..Default::default()
        });
        assert_customer_errors(&req, &["address.zipcode"], why);
    }
}

#[test]
fn an_empty_address_is_no_address() {
    for (address, why) in [
        (AddressRequest::default(), "empty object"),
        (
            AddressRequest {
                address: s(""),
                number: s("  "),
                city: s("   "),
                zipcode: s(""),
                ..Default::default()
            },
            "every field blank",
        ),
    ] {
        let req = with_address(address);
        assert_customer_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().address, None, "{why}");
    }
    let partial = with_address(AddressRequest {
        city: s("Recife"),
        ..Default::default()
    });
    let address = partial.check().unwrap().address.unwrap();
    assert_eq!(address.city.as_deref(), Some("Recife"));
    assert_eq!(address.zipcode, None);
}

#[test]
fn optional_texts_have_maximum_lengths() {
    let chars = |n: usize| "ã".repeat(n);
    let cases: [(CustomerRequest, &str, &str); 5] = [
        (
            CustomerRequest {
                business: Some(chars(151)),
                ..named("Ana Souza")
            },
            "business",
            "business over 150",
        ),
        (
            CustomerRequest {
                observations: Some(chars(1001)),
                ..named("Ana Souza")
            },
            "observations",
            "observations over 1000",
        ),
        (
            with_address(AddressRequest {
                address: Some(chars(151)),
                ..Default::default()
            }),
            "address.address",
            "street over 150",
        ),
        (
            with_address(AddressRequest {
                number: Some("1".repeat(21)),
                ..Default::default()
            }),
            "address.number",
            "number over 20",
        ),
        (
            with_address(AddressRequest {
                city: Some(chars(151)),
                ..Default::default()
            }),
            "address.city",
            "city over 150",
        ),
    ];
    for (req, key, why) in cases {
        assert_customer_errors(&req, &[key], why);
    }
    let at_limit = CustomerRequest {
        business: Some(chars(150)),
        observations: Some(chars(1000)),
        address: Some(AddressRequest {
            address: Some(chars(150)),
            number: Some("1".repeat(20)),
            complement: Some(chars(150)),
            neighborhood: Some(chars(150)),
            city: Some(chars(150)),
            ..Default::default()
        }),
        ..named("Ana Souza")
    };
    assert_customer_errors(&at_limit, &[], "every text at its limit");
}

#[test]
fn every_broken_customer_rule_is_reported_at_once() {
    let req = CustomerRequest {
        full_name: s("Al"),
        document: s("529.982.247-26"),
        email: s("ana@"),
        phone: s("(10) 3456-7890"),
        address: Some(AddressRequest {
            state: s("XX"),
            zipcode: s("0131010"),
            ..Default::default()
        }),
        ..Default::default()
    };
    assert_customer_errors(
        &req,
        &[
            "address.state",
            "address.zipcode",
            "document",
            "email",
            "fullName",
            "phone",
        ],
        "six broken rules",
    );
}

// ---------------------------------------------------------------- invoice --

#[test]
fn a_complete_installment_invoice_is_valid() {
    let req = installment();
    assert_invoice_errors(&req, &[], "complete INSTALLMENT request");
    let inv = req.check().unwrap();
    assert_eq!(inv.customer_id, CUSTOMER_ID);
    assert_eq!(inv.external_id, "pedido-2026-0042");
    assert_eq!(inv.due_date, date("2026-12-10"));
    assert_eq!(inv.payment_types, [PaymentType::Pix, PaymentType::Boleto]);
    assert_eq!(inv.installment_count, 3);
    assert_eq!(inv.price_cents, 15000);
    assert_eq!(inv.invoice_type, InvoiceType::Installment);
    assert_eq!(inv.frequency, None);
    assert!(!inv.price_by_customer);
    assert_eq!(
        inv.notifications,
        [
            NewNotification {
                kind: NotificationType::SendInvoiceReminder,
                channel: Channel::Email,
                period: Some(5),
            },
            NewNotification {
                kind: NotificationType::InvoiceGenerated,
                channel: Channel::WhatsApp,
                period: None,
            },
        ]
    );
    assert_eq!(
        inv.webhooks,
        [NewWebhook {
            hook_type: HookType::PaymentConfirmed,
            url: "https://api.loja.com.br/hooks/paylink".into(),
        }]
    );
    assert_eq!(
        inv.redirect_to.as_deref(),
        Some("https://loja.com.br/obrigado")
    );
}

#[test]
fn the_minimal_invoice_defaults_to_single() {
    let inv = single().check().unwrap();
    assert_eq!(inv.invoice_type, InvoiceType::Single);
    assert_eq!(inv.price_cents, 4990);
    assert_eq!(inv.installment_count, 1);
    assert!(inv.notifications.is_empty() && inv.webhooks.is_empty());
    assert_eq!((inv.description, inv.redirect_to), (None, None));
    for (t, expected) in [
        ("SINGLE", InvoiceType::Single),
        ("RECURRING", InvoiceType::Recurring),
        ("SUBSCRIPTION", InvoiceType::Subscription),
    ] {
        let req = match expected {
            InvoiceType::Recurring => recurring(),
            InvoiceType::Subscription => subscription(),
            _ => InvoiceRequest {
                invoice_type: s(t),
                ..single()
            },
        };
        assert_eq!(req.check().unwrap().invoice_type, expected, "{t}");
    }
}

#[test]
fn each_required_field_is_reported_under_its_own_key() {
    let cases: [(Breaks, &str, &str); 11] = [
        (|r| r.customer_id = None, "customerId", "customerId missing"),
        (
            |r| r.customer_id = s("  "),
            "customerId",
            "customerId blank",
        ),
        (|r| r.external_id = None, "externalId", "externalId missing"),
        (|r| r.external_id = s(""), "externalId", "externalId empty"),
        (|r| r.due_date = None, "dueDate", "dueDate missing"),
        (|r| r.due_date = s(""), "dueDate", "dueDate empty"),
        (
            |r| r.payment_types = None,
            "paymentTypes",
            "paymentTypes missing",
        ),
        (
            |r| r.payment_types = Some(vec![]),
            "paymentTypes",
            "paymentTypes empty: at least one",
        ),
        (
            |r| r.installment_count = None,
            "installmentCount",
            "installmentCount missing",
        ),
        (|r| r.price = None, "price", "price missing"),
        (
            |r| {
                r.price = None;
                r.price_by_customer = Some(false);
            },
            "price",
            "price missing, priceByCustomer false",
        ),
    ];
    for (break_it, key, why) in cases {
        for (base, kind) in [(single(), "SINGLE"), (installment(), "INSTALLMENT")] {
            let mut req = base;
            break_it(&mut req);
            assert_invoice_errors(&req, &[key], &format!("{kind}: {why}"));
        }
    }
    let required = InvoiceRequest::default().validate(Lang::En);
    assert_eq!(
        keys(&required),
        [
            "customerId",
            "dueDate",
            "externalId",
            "installmentCount",
            "paymentTypes",
            "price"
        ]
    );
    for msgs in required.values() {
        assert_eq!(msgs, &["This field is required."]);
    }
}

#[test]
fn customer_id_must_be_a_uuid() {
    let upper = CUSTOMER_ID.to_uppercase();
    let req = InvoiceRequest {
        customer_id: Some(upper),
        ..single()
    };
    assert_eq!(
        req.check().unwrap().customer_id,
        CUSTOMER_ID,
        "stored lower-case"
    );
    for (input, why) in [
        ("3f2504e0-4f89-41d3-9a0c-0305e82c330", "one character short"),
        ("3f2504e04f8941d39a0c0305e82c3301", "no hyphens"),
        (
            "3f2504e0-4f89-41d3-9a0c-0305e82c330g",
            "a non-hex character",
        ),
        ("{3f2504e0-4f89-41d3-9a0c-0305e82c3301}", "braces"),
        ("42", "a number"),
    ] {
        let req = InvoiceRequest {
            customer_id: s(input),
            ..single()
        };
        assert_invoice_errors(&req, &["customerId"], why);
    }
}

#[test]
fn external_id_has_at_most_100_characters() {
    for (len, valid) in [(1, true), (100, true), (101, false)] {
        let req = InvoiceRequest {
            external_id: Some("ã".repeat(len)),
            ..single()
        };
        let expected: &[&str] = if valid { &[] } else { &["externalId"] };
        assert_invoice_errors(&req, expected, &format!("{len} characters"));
    }
}

#[test]
fn price_is_optional_when_the_payer_sets_it() {
    for (price, why) in [
        (None, "no price"),
        (Some(1.0), "a price below the minimum is ignored"),
        (Some(10.005), "a price with 3 decimals is ignored"),
    ] {
        let req = InvoiceRequest {
            price,
            price_by_customer: Some(true),
            ..single()
        };
        assert_invoice_errors(&req, &[], why);
        let inv = req.check().unwrap();
        assert!(inv.price_by_customer, "{why}");
        assert_eq!(inv.price_cents, 0, "{why}");
    }
    let req = InvoiceRequest {
        price: None,
        price_by_customer: Some(true),
        ..installment()
    };
    assert!(
        keys(&req.validate(Lang::PtBr)).contains(&"priceByCustomer"),
        "the payer can only set the amount of a SINGLE invoice"
    );
}

#[test]
fn price_is_between_5_reais_and_the_boleto_maximum_with_two_decimals() {
    for (price, cents, why) in [
        (5.0, 500, "exactly the minimum"),
        (5.01, 501, "just above the minimum"),
        (10.07, 1007, "a decimal not exact in binary"),
        (0.1 + 0.2 + 4.7, 500, "float noise around 5.00"),
        (1234.5, 123450, "one decimal"),
        (99_999_999.99, MAX_CENTS, "exactly the maximum"),
    ] {
        let req = InvoiceRequest {
            price: Some(price),
            ..single()
        };
        assert_invoice_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().price_cents, cents, "{why}");
    }
    for (price, why) in [
        (4.99, "one cent below the minimum"),
        (0.0, "zero"),
        (-10.0, "negative"),
        (-0.01, "one cent negative"),
        (10.005, "three decimals"),
        (5.001, "three decimals at the minimum"),
        (100_000_000.0, "one real over the maximum"),
        (99_999_999.999, "over the maximum by a fraction"),
        (1e300, "huge"),
        (f64::INFINITY, "infinite"),
        (f64::NAN, "not a number"),
    ] {
        let req = InvoiceRequest {
            price: Some(price),
            ..single()
        };
        assert_invoice_errors(&req, &["price"], why);
    }
    let pt = InvoiceRequest {
        price: Some(4.99),
        ..single()
    }
    .validate(Lang::PtBr);
    assert_eq!(pt["price"], ["O valor mínimo é R$ 5,00."]);
    let en = InvoiceRequest {
        price: Some(10.005),
        ..single()
    }
    .validate(Lang::En);
    assert_eq!(en["price"], ["Use at most 2 decimal places."]);
}

#[test]
fn installment_count_depends_on_the_invoice_type() {
    for (req, count, valid, why) in [
        (single(), 1, true, "SINGLE with 1"),
        (single(), 2, false, "SINGLE must be 1"),
        (single(), 0, false, "SINGLE with 0"),
        (installment(), 2, true, "INSTALLMENT from 2"),
        (
            installment(),
            120,
            false,
            "120 installments of R$ 1,25 each",
        ),
        (installment(), 1, false, "INSTALLMENT with 1"),
        (installment(), 121, false, "INSTALLMENT over 120"),
        (installment(), 0, false, "INSTALLMENT with 0"),
        (installment(), -3, false, "negative"),
        (recurring(), 1, true, "RECURRING charges one at a time"),
        (recurring(), 12, false, "RECURRING with 12"),
        (subscription(), 1, true, "SUBSCRIPTION with 1"),
        (subscription(), 2, false, "SUBSCRIPTION with 2"),
    ] {
        let req = InvoiceRequest {
            installment_count: Some(count),
            ..req
        };
        let expected: &[&str] = if valid { &[] } else { &["installmentCount"] };
        assert_invoice_errors(&req, expected, why);
    }
    let max = InvoiceRequest {
        installment_count: Some(120),
        price: Some(600.0),
        ..installment()
    };
    assert_invoice_errors(&max, &[], "120 installments of R$ 5,00");
    assert_eq!(max.check().unwrap().installment_count, 120);
}

#[test]
fn each_installment_is_at_least_5_reais() {
    for (price, count, valid, why) in [
        (10.0, 2, true, "two of R$ 5,00"),
        (10.01, 2, true, "R$ 5,01 + R$ 5,00"),
        (9.99, 2, false, "R$ 5,00 + R$ 4,99"),
        (15.0, 3, true, "three of R$ 5,00"),
        (14.99, 3, false, "the last of three under R$ 5,00"),
        (599.99, 120, false, "120 installments just short"),
    ] {
        let req = InvoiceRequest {
            price: Some(price),
            installment_count: Some(count),
            ..installment()
        };
        let expected: &[&str] = if valid { &[] } else { &["installmentCount"] };
        assert_invoice_errors(&req, expected, why);
        if !valid {
            let en = req.validate(Lang::En);
            assert_eq!(
                en["installmentCount"],
                ["Each installment must be at least R$ 5.00."]
            );
        }
    }
    // A price that is itself wrong is reported once, on price.
    let req = InvoiceRequest {
        price: Some(4.0),
        installment_count: Some(3),
        ..installment()
    };
    assert_invoice_errors(&req, &["price"], "price below the minimum");
}

#[test]
fn an_unknown_enum_value_is_a_field_error_at_its_path() {
    let cases: [(Breaks, &str, &str); 12] = [
        (
            |r| r.invoice_type = s("INSTALMENT"),
            "invoiceType",
            "misspelt type",
        ),
        (
            |r| r.invoice_type = s("installment"),
            "invoiceType",
            "lower-case type",
        ),
        (
            |r| r.payment_types = Some(vec!["PIX".into(), "CREDIT_CARD".into()]),
            "paymentTypes[1]",
            "unknown payment type",
        ),
        (
            |r| r.payment_types = Some(vec!["pix".into()]),
            "paymentTypes[0]",
            "lower-case payment type",
        ),
        (
            |r| r.payment_types = Some(vec!["".into()]),
            "paymentTypes[0]",
            "empty payment type",
        ),
        (
            |r| r.notifications.as_mut().unwrap()[1].kind = s("INVOICE_PAID"),
            "notifications[1].type",
            "unknown notification type",
        ),
        (
            |r| r.notifications.as_mut().unwrap()[0].channel = s("email"),
            "notifications[0].channel",
            "channel names are case-sensitive",
        ),
        (
            |r| r.notifications.as_mut().unwrap()[1].channel = s("Telegram"),
            "notifications[1].channel",
            "unknown channel",
        ),
        (
            |r| r.webhooks.as_mut().unwrap()[0].hook_type = s("INVOICE_PAID"),
            "webhooks[0].hookType",
            "unknown hook type",
        ),
        (
            |r| r.notifications.as_mut().unwrap()[1].kind = None,
            "notifications[1].type",
            "notification type missing",
        ),
        (
            |r| r.notifications.as_mut().unwrap()[0].channel = None,
            "notifications[0].channel",
            "notification channel missing",
        ),
        (
            |r| r.webhooks.as_mut().unwrap()[0].hook_type = None,
            "webhooks[0].hookType",
            "hook type missing",
        ),
    ];
    for (break_it, key, why) in cases {
        let mut req = installment();
        break_it(&mut req);
        assert_invoice_errors(&req, &[key], why);
    }
    for (frequency, why) in [("DAILY", "unknown frequency"), ("monthly", "lower case")] {
        let req = InvoiceRequest {
            frequency: s(frequency),
            ..recurring()
        };
        assert_invoice_errors(&req, &["frequency"], why);
    }
    // The message lists what is allowed.
    let mut req = installment();
    req.payment_types = Some(vec!["CARD".into()]);
    let en = req.validate(Lang::En);
    assert_eq!(
        en["paymentTypes[0]"],
        ["Value not allowed. Use one of: PIX, BOLETO."]
    );
}

#[test]
fn every_wire_name_of_every_request_enum_is_accepted() {
    for t in PaymentType::NAMES {
        let req = InvoiceRequest {
            payment_types: Some(vec![t.to_string()]),
            ..single()
        };
        assert_invoice_errors(&req, &[], t);
    }
    for f in Frequency::NAMES {
        let req = InvoiceRequest {
            frequency: s(f),
            ..recurring()
        };
        assert_invoice_errors(&req, &[], f);
    }
    for t in NotificationType::NAMES {
        for c in Channel::NAMES {
            let req = InvoiceRequest {
                notifications: Some(vec![notification(t, c, None)]),
                ..single()
            };
            assert_invoice_errors(&req, &[], &format!("{t} by {c}"));
        }
    }
    for h in InvoiceHookType::NAMES {
        let req = InvoiceRequest {
            webhooks: Some(vec![webhook(h, "https://example.com/hook")]),
            ..single()
        };
        assert_invoice_errors(&req, &[], h);
    }
    // paylink's own event is the application's webhooks' only.
    let req = InvoiceRequest {
        webhooks: Some(vec![webhook(
            "PAYMENT_REVERSED",
            "https://example.com/hook",
        )]),
        ..single()
    };
    assert_invoice_errors(&req, &["webhooks[0].hookType"], "PAYMENT_REVERSED");
    let app = paylink_model::webhooks::AppWebhookRequest {
        hook_type: Some("PAYMENT_REVERSED".into()),
        url: Some("https://example.com/hook".into()),
    };
    assert_eq!(
        app.check(false).map(|w| w.hook_type),
        Ok(HookType::PaymentReversed)
    );
}

#[test]
fn a_payment_type_may_be_listed_only_once() {
    for (types, key, why) in [
        (vec!["PIX", "PIX"], "paymentTypes[1]", "PIX twice"),
        (
            vec!["BOLETO", "PIX", "BOLETO"],
            "paymentTypes[2]",
            "BOLETO again at the end",
        ),
    ] {
        let req = InvoiceRequest {
            payment_types: Some(types.into_iter().map(String::from).collect()),
            ..single()
        };
        assert_invoice_errors(&req, &[key], why);
        assert_eq!(req.validate(Lang::PtBr)[key], ["Valor repetido."], "{why}");
    }
}

#[test]
fn description_has_at_most_350_characters() {
    for (text, valid, why) in [
        ("ã".repeat(350), true, "350 two-byte characters (700 bytes)"),
        ("a".repeat(350), true, "350 ASCII characters"),
        ("ã".repeat(351), false, "351 characters"),
        ("a".repeat(351), false, "351 ASCII characters"),
        ("🧾".repeat(351), false, "351 four-byte characters"),
        (" ".repeat(400), true, "blank is no description"),
    ] {
        let req = InvoiceRequest {
            description: Some(text),
            ..single()
        };
        let expected: &[&str] = if valid { &[] } else { &["description"] };
        assert_invoice_errors(&req, expected, why);
    }
}

#[test]
fn notification_period_is_at_least_5_days_and_only_for_reminders_and_resends() {
    for (kind, period, stored, why) in [
        (
            "SEND_INVOICE_REMINDER",
            Some(5),
            Some(5),
            "reminder at the minimum",
        ),
        (
            "SEND_INVOICE_REMINDER",
            Some(30),
            Some(30),
            "reminder a month before",
        ),
        ("INVOICE_RESEND", Some(7), Some(7), "resend a week after"),
        (
            "SEND_INVOICE_REMINDER",
            None,
            Some(5),
            "reminder defaults to 5 days",
        ),
        ("INVOICE_RESEND", None, Some(5), "resend defaults to 5 days"),
        ("INVOICE_GENERATED", None, None, "no period for other types"),
        (
            "INVOICE_CONFIRM_PAYMENT",
            None,
            None,
            "no period after payment",
        ),
    ] {
        let req = InvoiceRequest {
            notifications: Some(vec![notification(kind, "SMS", period)]),
            ..single()
        };
        assert_invoice_errors(&req, &[], why);
        assert_eq!(
            req.check().unwrap().notifications[0].period,
            stored,
            "{why}"
        );
    }
    for (kind, period, why) in [
        ("SEND_INVOICE_REMINDER", 4, "one day short"),
        ("SEND_INVOICE_REMINDER", 0, "zero"),
        ("INVOICE_RESEND", -5, "negative"),
        ("INVOICE_RESEND", 366, "over a year"),
        (
            "INVOICE_GENERATED",
            10,
            "a period on a type that takes none",
        ),
        ("SEND_INVOICE_AT_DAY", 5, "at-day has no period"),
        ("INVOICE_CONFIRM_PAYMENT", 5, "after payment has no period"),
    ] {
        let mut req = installment();
        req.notifications.as_mut().unwrap()[1] = notification(kind, "Email", Some(period));
        assert_invoice_errors(&req, &["notifications[1].period"], why);
    }
    let mut req = installment();
    req.notifications.as_mut().unwrap()[0].period = Some(4);
    assert_eq!(
        req.validate(Lang::En)["notifications[0].period"],
        ["The minimum period is 5 days."]
    );
}

#[test]
fn webhook_url_must_be_https_without_credentials() {
    for (url, why) in [
        ("https://api.loja.com.br/hooks/paylink", "plain https"),
        ("HTTPS://API.LOJA.COM.BR/hook", "upper-case scheme"),
        (
            "https://api.loja.com.br:8443/hook?token=abc#x",
            "port, query and fragment",
        ),
        ("https://203.0.114.10/hook", "public IPv4"),
        ("https://[2606:4700::1111]:8443/hook", "bracketed IPv6"),
        ("https://0x08080808/hook", "public IPv4 in hex"),
        ("https://api.loja.com.br", "no path"),
    ] {
        let mut req = installment();
        req.webhooks.as_mut().unwrap()[0].url = s(url);
        assert_invoice_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().webhooks[0].url, url, "{why}");
    }
    for (url, why) in [
        ("http://api.loja.com.br/hook", "plain http"),
        ("https://user@api.loja.com.br/hook", "a user name"),
        (
            "https://user:senha@api.loja.com.br/hook",
            "user and password",
        ),
        (
            "https://api.loja.com.br@evil.example/hook",
            "host disguised as a user",
        ),
        ("ftp://api.loja.com.br/hook", "another scheme"),
        ("api.loja.com.br/hook", "no scheme"),
        ("//api.loja.com.br/hook", "scheme-relative"),
        ("https://", "no host"),
        ("https:///hook", "empty host"),
        ("https://api loja.com.br/hook", "a space in the host"),
        ("https://api.loja.com.br/a b", "a space in the path"),
        ("https://api.loja.com.br:0/hook", "port zero"),
        ("https://api.loja.com.br:99999/hook", "port out of range"),
        ("https://api.loja.com.br:/hook", "empty port"),
        (
            "https://-api.loja.com.br/hook",
            "host label starting with a hyphen",
        ),
        ("https://api_loja.com.br/hook", "underscore in the host"),
        ("https://[zz::1]/hook", "not an IPv6 address"),
        ("https://api.loja.com.br\\@evil.example", "backslash"),
        ("javascript:alert(1)", "script"),
        ("https://localhost/hook", "localhost"),
        ("https://127.0.0.1/hook", "loopback IPv4"),
        ("https://192.168.0.10/hook", "private IPv4"),
        ("https://10.1.2.3/hook", "private 10/8"),
        (
            "https://169.254.169.254/latest/meta-data",
            "link-local (cloud metadata)",
        ),
        ("https://100.64.0.1/hook", "carrier-grade NAT"),
        ("https://[::1]/hook", "loopback IPv6"),
        ("https://[fd00::1]/hook", "unique-local IPv6"),
        ("https://[::ffff:127.0.0.1]/hook", "IPv4-mapped loopback"),
        ("https://hooks/hook", "single-label host"),
        ("https://[2001:db8::1]:8443/hook", "documentation IPv6"),
        ("https://1.2.3.4.5/hook", "a number that is no IPv4 address"),
        ("https://loja.123/hook", "a name ending in a number"),
        ("https://api.localhost/hook", "under localhost"),
    ] {
        let mut req = installment();
        req.webhooks.as_mut().unwrap()[0].url = s(url);
        assert_invoice_errors(&req, &["webhooks[0].url"], why);
    }
    // Local receivers are allowed only when the server says so (tests).
    let mut req = installment();
    req.webhooks.as_mut().unwrap()[0].url = s("http://127.0.0.1:9000/hook");
    let opts = paylink_model::CheckOptions {
        allow_insecure_webhooks: true,
        ..Default::default()
    };
    assert!(req.check_with(opts).is_ok());
    assert!(req.check().is_err());
    for (url, why) in [(None, "url missing"), (s("  "), "url blank")] {
        let mut req = installment();
        req.webhooks.as_mut().unwrap()[0].url = url;
        assert_invoice_errors(&req, &["webhooks[0].url"], why);
        assert_eq!(
            req.validate(Lang::PtBr)["webhooks[0].url"],
            ["Campo obrigatório."],
            "{why}"
        );
    }
    // Errors of a later webhook are keyed by its own index.
    let mut req = installment();
    req.webhooks
        .as_mut()
        .unwrap()
        .push(webhook("INVOICE_CREATED", "http://loja.com.br/hook"));
    assert_invoice_errors(&req, &["webhooks[1].url"], "second webhook over http");
}

#[test]
fn redirect_to_must_be_an_http_or_https_url() {
    for (url, why) in [
        ("https://loja.com.br/obrigado", "https"),
        (
            "http://loja.com.br/obrigado",
            "http is allowed for a redirect",
        ),
        ("https://loja.com.br/obrigado?pedido=42", "with a query"),
    ] {
        let req = InvoiceRequest {
            redirect_to: s(url),
            ..single()
        };
        assert_invoice_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().redirect_to.as_deref(), Some(url));
    }
    for (url, why) in [
        ("javascript:alert(1)", "script"),
        ("JavaScript:alert(1)", "script, mixed case"),
        ("data:text/html,<script>alert(1)</script>", "data URL"),
        ("//evil.example/", "scheme-relative"),
        ("/obrigado", "relative path"),
        ("https://loja.com.br@evil.example/", "credentials"),
        ("loja.com.br", "no scheme"),
    ] {
        let req = InvoiceRequest {
            redirect_to: s(url),
            ..single()
        };
        assert_invoice_errors(&req, &["redirectTo"], why);
    }
}

#[test]
fn dates_are_real_iso_calendar_dates() {
    for (due, why) in [
        ("2026-12-10", "ordinary"),
        ("2028-02-29", "leap day"),
        ("2026-12-31", "end of year"),
    ] {
        let req = InvoiceRequest {
            due_date: s(due),
            ..single()
        };
        assert_invoice_errors(&req, &[], why);
        assert_eq!(req.check().unwrap().due_date.to_string(), due);
    }
    for (due, why) in [
        ("2026-02-30", "30 February"),
        ("2026-02-29", "29 February in a common year"),
        ("2026-04-31", "31 April"),
        ("2026-13-01", "month 13"),
        ("2026-00-10", "month 0"),
        ("2026-12-00", "day 0"),
        ("10/12/2026", "Brazilian dd/mm/yyyy"),
        ("12/10/2026", "American mm/dd/yyyy"),
        ("2026/12/10", "slashes"),
        ("2026-12-1", "one-digit day"),
        ("2026-12-10T00:00:00.000Z", "a date-time"),
        ("amanhã", "a word"),
    ] {
        let req = InvoiceRequest {
            due_date: s(due),
            ..single()
        };
        assert_invoice_errors(&req, &["dueDate"], why);
        assert_eq!(
            req.validate(Lang::En)["dueDate"],
            ["Invalid date (use YYYY-MM-DD)."],
            "{why}"
        );
    }
    let req = InvoiceRequest {
        end_date: s("2027-02-30"),
        ..recurring()
    };
    assert_invoice_errors(&req, &["endDate"], "an impossible end date");
}

/// A plan must end on a date: 3 installments from 9999-11-01 would need 10000-01-01 (no
/// `YYYY-MM-DD` names it), which once left the plan empty and the server answering 500.
#[test]
fn a_plan_past_the_last_nameable_day_is_a_due_date_error() {
    for (due, count, expected) in [
        ("9999-10-31", 3, &[][..]),
        ("9999-11-01", 3, &["dueDate"][..]),
        ("9999-12-31", 2, &["dueDate"][..]),
        ("9990-01-31", 120, &[][..]),
        ("9990-02-01", 120, &["dueDate"][..]),
    ] {
        let req = InvoiceRequest {
            due_date: s(due),
            installment_count: Some(count),
            price: Some(1000.0),
            ..installment()
        };
        let why = format!("{count} installments from {due}");
        assert_invoice_errors(&req, expected, &why);
        if let Ok(inv) = req.check() {
            let plan = installment_plan(inv.price_cents, inv.installment_count, inv.due_date);
            assert_eq!(plan.len(), count as usize, "{why}");
        }
    }
    let req = InvoiceRequest {
        due_date: s("9999-12-31"),
        ..installment()
    };
    assert_eq!(
        req.validate(Lang::En)["dueDate"],
        ["The last installment would fall due after 31/12/9999: choose an earlier due date."]
    );
}

#[test]
fn recurring_needs_a_frequency_and_an_end() {
    for (req, why) in [
        (recurring(), "frequency and endInstallment"),
        (
            InvoiceRequest {
                end_installment: None,
                end_date: s("2027-12-10"),
                ..recurring()
            },
            "frequency and endDate",
        ),
        (
            InvoiceRequest {
                end_date: s("2027-12-10"),
                ..recurring()
            },
            "both ends",
        ),
        (
            InvoiceRequest {
                end_installment: Some(1000),
                ..recurring()
            },
            "endInstallment at its maximum",
        ),
    ] {
        assert_invoice_errors(&req, &[], why);
    }
    let inv = recurring().check().unwrap();
    assert_eq!(inv.frequency, Some(Frequency::Monthly));
    assert_eq!(inv.end_installment, Some(12));

    for (req, key, why) in [
        (
            InvoiceRequest {
                frequency: None,
                ..recurring()
            },
            "frequency",
            "no frequency",
        ),
        (
            InvoiceRequest {
                end_installment: None,
                ..recurring()
            },
            "endDate",
            "neither endDate nor endInstallment",
        ),
        (
            InvoiceRequest {
                end_installment: Some(0),
                ..recurring()
            },
            "endInstallment",
            "endInstallment zero",
        ),
        (
            InvoiceRequest {
                end_installment: Some(1001),
                ..recurring()
            },
            "endInstallment",
            "endInstallment over 1000",
        ),
    ] {
        assert_invoice_errors(&req, &[key], why);
    }
    let no_end = InvoiceRequest {
        end_installment: None,
        ..recurring()
    };
    assert_eq!(
        no_end.validate(Lang::En)["endDate"],
        ["A recurring invoice needs an end date or an end installment."]
    );
}

#[test]
fn end_date_must_come_after_the_due_date() {
    for (end, valid, why) in [
        ("2026-12-11", true, "the next day"),
        ("2027-12-10", true, "a year later"),
        ("2026-12-10", false, "the due date itself"),
        ("2026-12-09", false, "the day before"),
        ("2025-01-01", false, "a year earlier"),
    ] {
        for base in [recurring(), subscription()] {
            let req = InvoiceRequest {
                end_date: s(end),
                ..base
            };
            let expected: &[&str] = if valid { &[] } else { &["endDate"] };
            assert_invoice_errors(&req, expected, why);
        }
    }
}

#[test]
fn periodic_fields_only_apply_to_their_invoice_types() {
    let cases: [(InvoiceRequest, &str, &str); 9] = [
        (
            InvoiceRequest {
                frequency: s("MONTHLY"),
                ..single()
            },
            "frequency",
            "frequency on SINGLE",
        ),
        (
            InvoiceRequest {
                frequency: s("MONTHLY"),
                ..installment()
            },
            "frequency",
            "frequency on INSTALLMENT",
        ),
        (
            InvoiceRequest {
                end_date: s("2027-12-10"),
                ..single()
            },
            "endDate",
            "endDate on SINGLE",
        ),
        (
            InvoiceRequest {
                end_installment: Some(12),
                ..single()
            },
            "endInstallment",
            "endInstallment on SINGLE",
        ),
        (
            InvoiceRequest {
                end_installment: Some(12),
                ..subscription()
            },
            "endInstallment",
            "endInstallment on SUBSCRIPTION",
        ),
        (
            InvoiceRequest {
                end_subscription: s("cancelamento pelo cliente"),
                ..single()
            },
            "endSubscription",
            "endSubscription on SINGLE",
        ),
        (
            InvoiceRequest {
                end_subscription: s("cancelamento pelo cliente"),
                ..recurring()
            },
            "endSubscription",
            "endSubscription on RECURRING",
        ),
        (
            InvoiceRequest {
                frequency: None,
                ..subscription()
            },
            "frequency",
            "SUBSCRIPTION needs a frequency",
        ),
        (
            InvoiceRequest {
                end_subscription: Some("ã".repeat(101)),
                ..subscription()
            },
            "endSubscription",
            "endSubscription over 100 characters",
        ),
    ];
    for (req, key, why) in cases {
        assert_invoice_errors(&req, &[key], why);
    }
    let sub = InvoiceRequest {
        end_subscription: s("cancelamento pelo cliente"),
        ..subscription()
    };
    assert_invoice_errors(&sub, &[], "endSubscription on SUBSCRIPTION");
    let inv = sub.check().unwrap();
    assert_eq!(
        inv.end_subscription.as_deref(),
        Some("cancelamento pelo cliente")
    );
    assert_eq!(inv.frequency, Some(Frequency::Yearly));
    // SUBSCRIPTION runs on with no end.
    assert_invoice_errors(&subscription(), &[], "subscription without an end");
}

#[test]
fn every_broken_invoice_rule_is_reported_at_once() {
    let mut req = installment();
    req.customer_id = s("not-a-uuid");
    req.due_date = s("10/12/2026");
    req.payment_types = Some(vec!["PIX".into(), "CARD".into()]);
    req.price = Some(10.005);
    req.description = Some("x".repeat(351));
    req.notifications.as_mut().unwrap()[0].period = Some(2);
    req.webhooks.as_mut().unwrap()[0].url = s("http://loja.com.br");
    req.redirect_to = s("javascript:alert(1)");
    assert_invoice_errors(
        &req,
        &[
            "customerId",
            "dueDate",
            "paymentTypes[1]",
            "price",
            "description",
            "notifications[0].period",
            "webhooks[0].url",
            "redirectTo",
        ],
        "eight broken rules",
    );
}

// ------------------------------------------------------------------- JSON --

#[test]
fn requests_deserialize_from_spec_shaped_json() {
    let invoice: InvoiceRequest = serde_json::from_str(
        r#"{
            "customerId": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
            "externalId": "pedido-2026-0042",
            "dueDate": "2026-12-10",
            "paymentTypes": ["PIX", "BOLETO"],
            "installmentCount": 3,
            "price": 150.30,
            "description": "Curso de programação",
            "invoiceType": "INSTALLMENT",
            "notifications": [
                {"type": "SEND_INVOICE_REMINDER", "channel": "WhatsApp", "period": 5},
                {"type": "INVOICE_GENERATED", "channel": "Email"}
            ],
            "webhooks": [
                {"hookType": "PAYMENT_CONFIRMED", "url": "https://api.loja.com.br/hooks/paylink"}
            ],
            "redirectTo": "https://loja.com.br/obrigado",
            "priceByCustomer": false
        }"#,
    )
    .unwrap();
    assert_eq!(
        invoice.notifications.as_ref().unwrap()[0].kind.as_deref(),
        Some("SEND_INVOICE_REMINDER")
    );
    assert_eq!(
        invoice.webhooks.as_ref().unwrap()[0].hook_type.as_deref(),
        Some("PAYMENT_CONFIRMED")
    );
    let inv = invoice.check().unwrap();
    assert_eq!(inv.price_cents, 15030);
    assert_eq!(inv.invoice_type, InvoiceType::Installment);
    assert_eq!(inv.notifications[0].channel, Channel::WhatsApp);
    assert_eq!(inv.notifications[1].period, None);

    let periodic: InvoiceRequest = serde_json::from_str(
        r#"{"customerId": "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "externalId": "assinatura-7",
            "dueDate": "2026-12-10", "paymentTypes": ["BOLETO"], "installmentCount": 1,
            "price": 29, "invoiceType": "RECURRING", "frequency": "FORTWEEKLY",
            "endDate": "2027-06-10", "endInstallment": 12}"#,
    )
    .unwrap();
    let inv = periodic.check().unwrap();
    assert_eq!(inv.price_cents, 2900, "an integer JSON price");
    assert_eq!(inv.frequency, Some(Frequency::Fortweekly));
    assert_eq!(inv.end_date, Some(date("2027-06-10")));

    let customer: CustomerRequest = serde_json::from_str(
        r#"{
            "fullName": "Ana Maria Souza",
            "document": "12.ABC.345/01DE-35",
            "business": "Souza Doces",
            "email": "ana@example.com",
            "phone": "+55 (11) 98765-4321",
            "observations": "VIP",
            "address": {
                "address": "Avenida Paulista", "number": "1578", "complement": "cj 12",
                "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP",
                "zipcode": "01310-100"
            }
        }"#,
    )
    .unwrap();
    let c = customer.check().unwrap();
    assert_eq!(c.document.as_deref(), Some("12ABC34501DE35"));
    assert_eq!(c.address.unwrap().zipcode.as_deref(), Some("01310100"));

    let bare: CustomerRequest =
        serde_json::from_str(r#"{"fullName": "Ana", "address": {}}"#).unwrap();
    assert_eq!(bare.check().unwrap().address, None, "empty address object");
}

#[test]
fn unknown_enum_values_and_missing_fields_are_not_parse_errors() {
    let req: InvoiceRequest = serde_json::from_str(
        r#"{
            "customerId": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
            "externalId": "pedido-1",
            "dueDate": "2026-12-10",
            "paymentTypes": ["PIX", "CREDIT_CARD"],
            "installmentCount": 1,
            "price": 10,
            "invoiceType": "WEEKLY_PLAN",
            "frequency": "DAILY",
            "notifications": [{"type": "INVOICE_PAID", "channel": "Telegram", "period": 5}],
            "webhooks": [{"hookType": "INVOICE_PAID", "url": "https://loja.com.br/hook"}]
        }"#,
    )
    .expect("unknown enum values still parse");
    assert_invoice_errors(
        &req,
        &[
            "frequency",
            "invoiceType",
            "notifications[0].channel",
            "notifications[0].type",
            "paymentTypes[1]",
            "webhooks[0].hookType",
        ],
        "each unknown value at its own path",
    );

    let empty: InvoiceRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(empty, InvoiceRequest::default());
    let nulls: InvoiceRequest =
        serde_json::from_str(r#"{"price": null, "paymentTypes": null}"#).unwrap();
    assert!(
        keys(&nulls.validate(Lang::En)).contains(&"price"),
        "null price is missing"
    );
    let customer: CustomerRequest = serde_json::from_str("{}").unwrap();
    assert_customer_errors(&customer, &["fullName"], "empty JSON object");
    let unknown_field: CustomerRequest =
        serde_json::from_str(r#"{"fullName": "Ana", "nickname": "Aninha"}"#).unwrap();
    assert_customer_errors(&unknown_field, &[], "an unknown field is ignored");
}

#[test]
fn a_validation_error_envelope_round_trips() {
    let errors = installment_without_price().validate(Lang::PtBr);
    let envelope = ErrorEnvelope {
        code: 422,
        message: "Dados inválidos.".into(),
        errors: Some(errors.clone()),
    };
    let json = serde_json::to_value(&envelope).unwrap();
    assert_eq!(json["errors"]["price"][0], "Campo obrigatório.");
    let back: ErrorEnvelope = serde_json::from_value(json).unwrap();
    assert_eq!(back.errors, Some(errors));
}

fn installment_without_price() -> InvoiceRequest {
    InvoiceRequest {
        price: None,
        ..installment()
    }
}

// ------------------------------------------------- money, plan and masks --

#[test]
fn parse_brl_reads_what_people_type() {
    for (input, cents, why) in [
        ("1.234,56", 123456, "thousands dot and decimal comma"),
        ("R$ 1.234,56", 123456, "with the symbol"),
        ("R$1234,56", 123456, "symbol glued to the number"),
        ("1234,5", 123450, "one decimal"),
        ("15", 1500, "whole reais"),
        ("0,99", 99, "centavos only"),
        ("  5,00  ", 500, "surrounding spaces"),
        ("1.000.000", 100_000_000, "grouped whole reais"),
        ("99.999.999,99", MAX_CENTS, "the maximum"),
        ("0", 0, "zero"),
    ] {
        assert_eq!(parse_brl(input), Some(cents), "{why}: {input}");
    }
    for (input, why) in [
        ("", "empty"),
        ("R$", "symbol only"),
        ("abc", "letters"),
        ("1,234", "three decimals"),
        ("1.234.56", "dot as the decimal separator"),
        ("12,3,4", "two commas"),
        ("1.23,00", "a group of two digits"),
        ("1.2345,00", "a group of four digits"),
        (",50", "no whole part"),
        ("-5", "negative"),
        ("5,-1", "negative decimals"),
        ("100.000.000,00", "over the maximum"),
        ("99999999999", "too many digits"),
        ("1 234,56", "space as a thousands separator"),
        ("US$ 10", "another currency"),
    ] {
        assert_eq!(parse_brl(input), None, "{why}: {input}");
    }
}

#[test]
fn format_brl_writes_both_languages_from_cents() {
    for (cents, pt, en, why) in [
        (0, "R$ 0,00", "R$ 0.00", "zero"),
        (5, "R$ 0,05", "R$ 0.05", "five centavos"),
        (500, "R$ 5,00", "R$ 5.00", "minimum price"),
        (123456, "R$ 1.234,56", "R$ 1,234.56", "thousands"),
        (
            100_000,
            "R$ 1.000,00",
            "R$ 1,000.00",
            "exactly one thousand",
        ),
        (12_345_678, "R$ 123.456,78", "R$ 123,456.78", "two groups"),
        (MAX_CENTS, "R$ 99.999.999,99", "R$ 99,999,999.99", "maximum"),
        (-1050, "-R$ 10,50", "-R$ 10.50", "negative"),
    ] {
        assert_eq!(format_brl(cents, Lang::PtBr), pt, "{why}");
        assert_eq!(format_brl(cents, Lang::En), en, "{why}");
        if cents >= 0 {
            assert_eq!(parse_brl(pt), Some(cents), "{why}: pt-BR text reads back");
            assert_eq!(
                format_brl_input(cents),
                pt.trim_start_matches("R$ "),
                "{why}"
            );
        }
    }
}

#[test]
fn installment_plan_splits_cents_exactly_and_clamps_month_ends() {
    let plan = installment_plan(10000, 3, date("2026-01-31"));
    let cents: Vec<i64> = plan.iter().map(|p| p.price_cents).collect();
    assert_eq!(cents, [3334, 3333, 3333], "leftover cent on the first");
    let dates: Vec<String> = plan.iter().map(|p| p.due_date.to_string()).collect();
    assert_eq!(dates, ["2026-01-31", "2026-02-28", "2026-03-31"]);

    for (price, count, first, why) in [
        (15000, 3, "2026-12-10", "even split across the new year"),
        (1001, 2, "2028-01-30", "odd cent, leap February"),
        (60000, MAX_INSTALLMENTS, "2026-05-31", "120 installments"),
        (500, 1, "2026-12-10", "single"),
    ] {
        let plan = installment_plan(price, count, date(first));
        assert_eq!(plan.len(), count as usize, "{why}");
        assert_eq!(
            plan.iter().map(|p| p.price_cents).sum::<i64>(),
            price,
            "{why}"
        );
        assert_eq!(plan[0].due_date, date(first), "{why}");
        assert!(
            plan.windows(2).all(|w| w[0].due_date < w[1].due_date),
            "{why}"
        );
    }
    let plan = installment_plan(1001, 2, date("2028-01-30"));
    assert_eq!(plan[1].due_date, date("2028-02-29"));
    assert_eq!((plan[0].price_cents, plan[1].price_cents), (501, 500));
    assert!(installment_plan(1000, 0, date("2026-12-10")).is_empty());
}

#[test]
fn mask_document_types_a_cpf_then_a_cnpj() {
    for (typed, shown, why) in [
        ("", "", "nothing yet"),
        ("5", "5", "one digit"),
        ("529", "529", "first group"),
        ("5299", "529.9", "dot after three"),
        ("529982", "529.982", "two groups"),
        ("5299822", "529.982.2", "third group starts"),
        ("529982247", "529.982.247", "three groups"),
        ("5299822472", "529.982.247-2", "hyphen before check digits"),
        ("52998224725", "529.982.247-25", "a full CPF"),
        ("529.982.247-25", "529.982.247-25", "already masked"),
        (
            "112223330001",
            "11.222.333/0001",
            "12 digits switch to the CNPJ mask",
        ),
        ("1122233300018", "11.222.333/0001-8", "13 digits"),
        ("11222333000181", "11.222.333/0001-81", "a full CNPJ"),
        (
            "112223330001819",
            "11.222.333/0001-81",
            "extra digits are dropped",
        ),
        (
            "11.222.333/0001-81",
            "11.222.333/0001-81",
            "already masked CNPJ",
        ),
        ("12A", "12.A", "a letter means CNPJ"),
        ("12abc345", "12.ABC.345", "letters are upper-cased"),
        (
            "12abc34501de35",
            "12.ABC.345/01DE-35",
            "a full alphanumeric CNPJ",
        ),
        (
            "12.abc.345/01de-35",
            "12.ABC.345/01DE-35",
            "masked lower case",
        ),
        ("529 982 247 25", "529.982.247-25", "spaces dropped"),
    ] {
        assert_eq!(mask_document(typed), shown, "{why}");
    }
    // Typing one character at a time never loses what was typed.
    let mut field = String::new();
    for c in "12ABC34501DE35".chars() {
        field.push(c);
        field = mask_document(&field);
    }
    assert_eq!(field, "12.ABC.345/01DE-35");
}

#[test]
fn mask_cep_types_progressively() {
    for (typed, shown, why) in [
        ("", "", "nothing"),
        ("0", "0", "one digit"),
        ("01310", "01310", "five digits, no hyphen yet"),
        ("013101", "01310-1", "hyphen after five"),
        ("01310100", "01310-100", "complete"),
        ("013101009", "01310-100", "extra digit dropped"),
        ("01310-100", "01310-100", "already masked"),
        ("0a1b3", "013", "letters dropped"),
    ] {
        assert_eq!(mask_cep(typed), shown, "{why}");
    }
}

#[test]
fn mask_phone_types_progressively() {
    for (typed, shown, why) in [
        ("", "", "nothing"),
        ("1", "(1", "area code opens"),
        ("11", "(11", "area code"),
        ("119", "(11) 9", "number starts"),
        ("119876", "(11) 9876", "four digits"),
        (
            "1198765",
            "(11) 9876-5",
            "hyphen after four while it may be a landline",
        ),
        ("1134567890", "(11) 3456-7890", "a landline"),
        ("11987654321", "(11) 98765-4321", "11 digits: a mobile"),
        ("119876543210", "(11) 98765-4321", "extra digit dropped"),
        ("(11) 98765-4321", "(11) 98765-4321", "already masked"),
        ("(11) 3456-7890", "(11) 3456-7890", "masked landline"),
        ("0", "0", "a trunk 0 alone stays"),
        ("011", "(11", "trunk 0 dropped"),
        ("01198765-4321", "(11) 98765-4321", "trunk 0 with a mobile"),
        ("+", "+", "plus alone"),
        ("+5", "+5", "country code starts"),
        ("+55", "+55", "country code"),
        ("+551", "+55 (1", "+55 area code opens"),
        ("+5511987654321", "+55 (11) 98765-4321", "+55 mobile"),
        ("+55 (11) 3456-7890", "+55 (11) 3456-7890", "+55 landline"),
        (
            "+551198765432109",
            "+55 (11) 98765-4321",
            "+55 extra digits dropped",
        ),
        (
            "+1 212 555 1234",
            "+12125551234",
            "foreign stays international",
        ),
        (
            "5511987654321",
            "+55 (11) 98765-4321",
            "digits with country code, as stored before",
        ),
    ] {
        assert_eq!(mask_phone(typed), shown, "{why}");
    }
    // A stored number on a screen: Brazilian ones without +55, others with their +.
    for (stored, shown) in [
        ("+5511987654321", "(11) 98765-4321"),
        ("+551134567890", "(11) 3456-7890"),
        ("5511987654321", "(11) 98765-4321"),
        ("+12125551234", "+12125551234"),
    ] {
        assert_eq!(br::display_phone(stored), shown, "{stored}");
    }
    // What the mask shows is what the rules accept, and sends what they store.
    for (masked, stored) in [
        ("(11) 98765-4321", "+5511987654321"),
        ("(11) 3456-7890", "+551134567890"),
        ("+55 (11) 98765-4321", "+5511987654321"),
        ("+12125551234", "+12125551234"),
    ] {
        assert_eq!(br::check_phone(masked).as_deref(), Ok(stored), "{masked}");
        let sent = br::phone_for_request(masked);
        assert_eq!(br::check_phone(&sent).as_deref(), Ok(stored), "{sent}");
    }
}

// ---------------------------------------------------------- pixAutomatico --

fn pix_automatico(retries: Option<bool>) -> Option<PixAutomaticoRequest> {
    Some(PixAutomaticoRequest { retries })
}

#[test]
fn pix_automatico_on_a_recurring_or_subscription_pix_invoice_is_kept_with_its_policy() {
    use paylink_model::pix_automatico::{Periodicidade, RetryPolicy};
    let req = InvoiceRequest {
        pix_automatico: pix_automatico(Some(true)),
        ..recurring()
    };
    let inv = req.check().unwrap();
    let p = inv.pix_automatico.unwrap();
    assert_eq!(p.periodicidade, Periodicidade::Mensal);
    assert_eq!(p.retry_policy, RetryPolicy::Permite3r7d);
    let req = InvoiceRequest {
        pix_automatico: pix_automatico(None),
        ..subscription()
    };
    let p = req.check().unwrap().pix_automatico.unwrap();
    assert_eq!(p.periodicidade, Periodicidade::Anual);
    assert_eq!(p.retry_policy, RetryPolicy::NaoPermite);
    assert_eq!(recurring().check().unwrap().pix_automatico, None);
}

#[test]
fn pix_automatico_bad_requests_are_errors_on_pix_automatico() {
    let cases: Vec<(&str, InvoiceRequest, &[&str])> = vec![
        (
            "a SINGLE invoice",
            InvoiceRequest {
                pix_automatico: pix_automatico(None),
                ..single()
            },
            &["pixAutomatico"],
        ),
        (
            "an INSTALLMENT invoice",
            InvoiceRequest {
                pix_automatico: pix_automatico(Some(true)),
                ..installment()
            },
            &["pixAutomatico"],
        ),
        (
            "every 14 days has no periodicity",
            InvoiceRequest {
                frequency: s("FORTWEEKLY"),
                pix_automatico: pix_automatico(None),
                ..recurring()
            },
            &["pixAutomatico"],
        ),
        (
            "every 2 months has no periodicity",
            InvoiceRequest {
                frequency: s("BIMONTHLY"),
                pix_automatico: pix_automatico(None),
                ..subscription()
            },
            &["pixAutomatico"],
        ),
        (
            "an invoice that does not accept PIX",
            InvoiceRequest {
                payment_types: Some(vec!["BOLETO".into()]),
                pix_automatico: pix_automatico(None),
                ..recurring()
            },
            &["pixAutomatico"],
        ),
        (
            "the payer sets the amount",
            InvoiceRequest {
                price_by_customer: Some(true),
                pix_automatico: pix_automatico(None),
                ..recurring()
            },
            &["pixAutomatico", "priceByCustomer"],
        ),
    ];
    for (why, req, expected) in cases {
        assert_invoice_errors(&req, expected, why);
        let errors = req.validate(Lang::En);
        assert!(
            errors["pixAutomatico"].iter().all(|m| !m.is_empty()),
            "{why}: {errors:?}"
        );
    }
    let en = InvoiceRequest {
        frequency: s("BIMONTHLY"),
        pix_automatico: pix_automatico(None),
        ..recurring()
    }
    .validate(Lang::En);
    assert_eq!(
        en["pixAutomatico"],
        ["Pix Automático has no BIMONTHLY frequency: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER or YEARLY."]
    );
    let pt = InvoiceRequest {
        price_by_customer: Some(true),
        payment_types: Some(vec!["BOLETO".into()]),
        pix_automatico: pix_automatico(None),
        ..recurring()
    }
    .validate(Lang::PtBr);
    assert_eq!(pt["pixAutomatico"].len(), 2, "{pt:?}");
}

#[test]
fn pix_automatico_needs_the_api_pix_a_company_merchant_and_a_payer_document() {
    use paylink_model::pix_automatico::Context;
    let inv = InvoiceRequest {
        pix_automatico: pix_automatico(None),
        ..recurring()
    }
    .check()
    .unwrap();
    let cnpj = "11222333000181";
    let cpf = "52998224725";
    let ok = Context {
        api_pix: true,
        merchant_document: Some(cnpj),
        payer_document: Some(cpf),
    };
    assert!(inv.check_pix_automatico(ok).is_ok());
    assert!(inv
        .check_pix_automatico(Context {
            payer_document: Some(cnpj),
            ..ok
        })
        .is_ok());
    let cases: Vec<(&str, Context<'_>, &str, &str)> = vec![
        (
            "no API Pix",
            Context {
                api_pix: false,
                ..ok
            },
            "--pix-api-url",
            "--pix-api-url",
        ),
        (
            "a merchant with a CPF",
            Context {
                merchant_document: Some(cpf),
                ..ok
            },
            "precisa ser um CNPJ",
            "must be a CNPJ",
        ),
        (
            "a merchant without a document",
            Context {
                merchant_document: None,
                ..ok
            },
            "precisa ser um CNPJ",
            "must be a CNPJ",
        ),
        (
            "a payer without a document",
            Context {
                payer_document: None,
                ..ok
            },
            "CPF ou CNPJ",
            "CPF or CNPJ",
        ),
    ];
    for (why, ctx, pt, en) in cases {
        let v = inv.check_pix_automatico(ctx).unwrap_err();
        let errors = bilingual(|l| v.render(l), why);
        assert_eq!(keys(&errors), ["pixAutomatico"], "{why}");
        assert!(errors["pixAutomatico"][0].contains(pt), "{why}: {errors:?}");
        assert!(v.render(Lang::En)["pixAutomatico"][0].contains(en), "{why}");
    }
    // An invoice that did not ask is never refused for the server's setup.
    assert!(recurring()
        .check()
        .unwrap()
        .check_pix_automatico(Context::default())
        .is_ok());
}
