//! The widget reads what the server writes: one round trip per response type.
//! Each answer is written with serde_json (as the server's handlers do), parsed
//! by the browser's `JSON.parse` (as `api` does) and read with `api::read`;
//! what comes out must equal what went in, amounts exact to the cent. A key
//! renamed on one side only, or an amount that loses a cent, fails here.
#![cfg(target_arch = "wasm32")]

use paylink_model::*;
use paylink_widget::api::{self, Error};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Server-written JSON, as the widget reads it.
fn through_the_wire<W: Serialize, R: DeserializeOwned>(written: &W) -> Result<R, Error> {
    let text = serde_json::to_string(written).expect("the server writes it");
    api::read(js_sys::JSON::parse(&text).expect("valid JSON"))
}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: T) {
    assert_eq!(through_the_wire::<T, T>(&value), Ok(value));
}

const ID: &str = "3f2c1a9e-8b7d-4c6e-9f01-23456789abcd";

#[wasm_bindgen_test]
fn a_customer_answer_is_read_as_its_reference() {
    let customer = Customer {
        id: ID.into(),
        full_name: "Maria da Silva".into(),
        document: Some("52998224725".into()),
        business: None,
        email: Some("maria@example.com".into()),
        phone: Some("11987654321".into()),
        observations: None,
        address: Some(Address {
            id: ID.into(),
            address: Some("Rua das Flores".into()),
            number: Some("12".into()),
            complement: None,
            neighborhood: Some("Centro".into()),
            city: Some("São Paulo".into()),
            state: Some("SP".into()),
            zipcode: Some("01001000".into()),
        }),
        language: Lang::En,
        user_id: ID.into(),
        application_id: ID.into(),
        created_at: "2026-11-25T10:00:00.000Z".into(),
        deleted_at: None,
    };
    assert_eq!(
        through_the_wire::<_, CustomerRef>(&customer),
        Ok(CustomerRef {
            id: ID.into(),
            full_name: "Maria da Silva".into()
        })
    );
}

#[wasm_bindgen_test]
fn an_invoice_creation_answer_round_trips() {
    round_trip(InvoiceCreated {
        id: ID.into(),
        description: Some("Curso".into()),
        invoice_type: InvoiceType::Installment,
        price: 100_007,
        due_date: "2026-12-01T00:00:00.000Z".into(),
        installment_count: 2,
        customer: CustomerRef {
            id: ID.into(),
            full_name: "Maria".into(),
        },
        installments: vec![InstallmentCreated {
            id: ID.into(),
            installment: 1,
            price: 50_004,
            price_paid: 0,
            status: InstallmentStatus::WaitingPayment,
            due_date: "2026-12-01T00:00:00.000Z".into(),
        }],
        payment_types: vec![PaymentTypeCreated {
            invoice_id: ID.into(),
            kind: PaymentType::Pix,
        }],
        url: "https://pay.example/pay/x".into(),
        external_id: "PL-1".into(),
        created_at: "2026-11-25T10:00:00.000Z".into(),
        price_by_customer: false,
        fine: Some(Fine {
            kind: Some("PERCENTAGE".into()),
            value: Some(2.0),
        }),
        interest: Some(Interest { value: Some(1.0) }),
        discount: Some(Discount {
            kind: Some("FIXED".into()),
            value: Some(10.5),
            until_date: Some("2026-11-28".into()),
        }),
    });
}

fn notification(kind: NotificationType, period: Option<u32>) -> NotificationConfig {
    NotificationConfig {
        id: ID.into(),
        kind,
        channel: Channel::WhatsApp,
        period,
        created_at: "2026-11-25T10:00:00.000Z".into(),
        sends: vec![NotificationSend {
            installment: Some(1),
            due_at: "2026-11-28T12:00:00.000Z".into(),
            status: "sent".into(),
            sent_at: Some("2026-11-28T12:00:01.000Z".into()),
            channel: Some(Channel::WhatsApp),
            to: Some("(11) 9****-4321".into()),
            provider_id: Some("wamid.HBgLNTUxMTk4NzY1NDMyMRUCABEYEjA".into()),
            provider_status: Some(ProviderStatus::Read),
            provider_status_at: Some("2026-11-28T12:03:00.000Z".into()),
            last_error: None,
        }],
    }
}

#[wasm_bindgen_test]
fn an_invoice_detail_round_trips() {
    round_trip(InvoiceDetail {
        id: ID.into(),
        external_id: "PL-2".into(),
        description: None,
        invoice_type: InvoiceType::Recurring,
        price: 1_234_599,
        price_by_customer: false,
        due_date: "2026-12-01T00:00:00.000Z".into(),
        end_date: Some("2027-06-01T00:00:00.000Z".into()),
        end_installment: Some(6),
        end_subscription: None,
        frequency: Some(Frequency::Monthly),
        installment_count: 6,
        customer: CustomerDetail {
            id: ID.into(),
            full_name: "João".into(),
            document: None,
            business: Some("ACME".into()),
            email: None,
            user_id: ID.into(),
            application_id: ID.into(),
            phone: None,
            address_id: Some(ID.into()),
            observations: None,
            language: Lang::PtBr,
            created_at: "2026-11-25T10:00:00.000Z".into(),
            deleted_at: None,
        },
        redirect_to: Some("https://shop.example/ok".into()),
        installments: vec![Installment {
            id: ID.into(),
            invoice_id: ID.into(),
            installment: 1,
            price: 1_234_599,
            price_paid: 1_234_599,
            due_date: "2026-12-01T00:00:00.000Z".into(),
            status: InstallmentStatus::Confirmed,
            created_at: "2026-11-25T10:00:00.000Z".into(),
            updated_at: Some("2026-11-26T10:00:00.000Z".into()),
            deleted_at: None,
            last_view_at: None,
            paid_at: Some("2026-11-26T10:00:00.000Z".into()),
            payment_received_at: None,
            views_count: 3,
            pix_charge: Some(PixCharge {
                state: PixChargeState::Refused,
                reasons: vec!["O CPF ou CNPJ do devedor está cancelado.".into()],
            }),
            price_returned: 1_000_001,
            devolucoes: vec![Devolucao {
                id: "D1".into(),
                end_to_end_id: format!("E{}", "1".repeat(31)),
                rtr_id: Some(format!("D{}", "2".repeat(31))),
                amount: 1_000_001,
                natureza: DevolucaoNatureza::MedFraude,
                status: DevolucaoStatus::Devolvido,
                requested_at: Some("2026-11-27T10:00:00.000Z".into()),
                settled_at: None,
            }],
        }],
        items: vec![],
        notification_before_due_date: vec![notification(
            NotificationType::SendInvoiceReminder,
            Some(3),
        )],
        notification_after_due_date: vec![],
        notification_after_payment: vec![notification(
            NotificationType::InvoiceConfirmPayment,
            None,
        )],
        notification_send_types: vec![],
        webhooks: vec![WebhookConfig {
            id: ID.into(),
            hook_type: HookType::PaymentConfirmed,
            url: "https://shop.example/hook".into(),
            created_at: "2026-11-25T10:00:00.000Z".into(),
        }],
        payment_types: vec![PaymentTypeDetail {
            invoice_id: ID.into(),
            payment_type_accepted: PaymentType::Boleto,
        }],
        created_at: "2026-11-25T10:00:00.000Z".into(),
        url: "https://pay.example/pay/y".into(),
        fine: None,
        interest: None,
        discount: None,
        pix_automatico: Some(PixAutomaticoDetail {
            status: PixAutomaticoStatus::Approved,
            id_rec: Some("RR1234567820261125abcdefghijk".into()),
            periodicity: pix_automatico::Periodicidade::Mensal,
            retry_policy: pix_automatico::RetryPolicy::Permite3r7d,
            reasons: vec![],
            cycles: vec![paylink_model::PixAutomaticoCycle {
                installment: 2,
                due_date: "2026-12-25".into(),
                status: "ATIVA".into(),
                attempts: vec![paylink_model::CycleAttempt {
                    date: "2026-12-25".into(),
                    kind: "AGND".into(),
                    status: "REJEITADA".into(),
                    reason_code: Some("AM02".into()),
                    reason: Some("Saldo insuficiente.".into()),
                }],
                reasons: vec![],
            }],
        }),
    });
}

#[wasm_bindgen_test]
fn a_payer_view_round_trips() {
    round_trip(PayerView {
        id: ID.into(),
        merchant_name: "Loja".into(),
        description: Some("Pedido 7".into()),
        price: 30_010,
        price_by_customer: false,
        customer_name: "Maria".into(),
        installments: vec![PayerInstallment {
            pix_pending: true,
            pix_unavailable: true,
            pix_automatico: false,
            returned: Some(DevolucaoNatureza::MedOperacional),
            pay_again: true,
            installment: 1,
            price: 30_010,
            price_paid: 0,
            due_date: "2026-12-01T00:00:00.000Z".into(),
            status: InstallmentStatus::WaitingPayment,
            pix: Some(PixCode {
                payload: "000201...6304ABCD".into(),
                qr_svg: "<svg></svg>".into(),
            }),
            boleto: None,
            amount_due: None,
            receipt: Some(paylink_model::receipt::Receipt {
                code: "7KQ2-M9XD-4RTA-0BZC".into(),
                merchant_name: "Loja".into(),
                merchant_document: Some("12.345.678/0001-95".into()),
                payer_name: "Maria".into(),
                payer_document: Some("***.982.247-**".into()),
                amount: 30_010,
                paid_at: "2026-12-01T18:03:00.000Z".into(),
                method: Some(PaymentType::Pix),
                reference: Some("E12345678202612011503abcdefghijk".into()),
                installment: 1,
                installment_count: Some(1),
                reversed: true,
            }),
        }],
        payment_types: vec![PaymentType::Pix, PaymentType::Boleto],
        redirect_to: None,
        url: "https://pay.example/pay/z".into(),
        next_open: Some(1),
        sandbox: true,
        fine: None,
        interest: None,
        discount: None,
        pix_automatico: Some(PayerPixAutomatico {
            pays_first: true,
            payload: "000201...80...6304ABCD".into(),
            qr_svg: "<svg></svg>".into(),
            contract: "assinatura-7".into(),
            amount: 4_990,
            periodicity: pix_automatico::Periodicidade::Mensal,
            first_due: "2026-12-01".into(),
            last_due: None,
            retry_policy: pix_automatico::RetryPolicy::NaoPermite,
        }),
        pix_automatico_again: Some(paylink_model::PixAutomaticoAgain::Declined),
        pix_at_night: true,
    });
}

#[wasm_bindgen_test]
fn a_payment_link_round_trips_with_and_without_a_price() {
    let link = PaymentLink {
        slug: "curso-de-rust".into(),
        name: "Curso de Rust".into(),
        description: "Acesso por 12 meses".into(),
        price: Some(30_000),
        price_by_customer: false,
        payment_types: vec![PaymentType::Pix],
        invoice_type: InvoiceType::Installment,
        max_installments: 3,
        due_date: "2026-11-28".into(),
        redirect_to: None,
        fine: None,
        interest: None,
        discount: None,
    };
    round_trip(link.clone());
    round_trip(PaymentLink {
        price: None,
        price_by_customer: true,
        ..link
    });
}

#[wasm_bindgen_test]
fn an_error_envelope_round_trips_with_its_field_errors() {
    let mut errors = Errors::new();
    errors.insert("address.zipcode".into(), vec!["CEP inválido".into()]);
    errors.insert(
        "notifications[0].period".into(),
        vec!["a".into(), "b".into()],
    );
    round_trip(ErrorEnvelope {
        code: 422,
        message: "Dados inválidos".into(),
        errors: Some(errors),
    });
    round_trip(ErrorEnvelope {
        code: 404,
        message: "Não encontrado".into(),
        errors: None,
    });
}

#[wasm_bindgen_test]
fn an_answer_that_breaks_the_contract_is_a_bad_response() {
    // A mistyped key, a missing key, a field error that is not a list.
    let parse = |text: &str| js_sys::JSON::parse(text).unwrap();
    assert_eq!(
        api::read::<CustomerRef>(parse(r#"{"id":"x","fullName":1}"#)),
        Err(Error::BadResponse)
    );
    assert_eq!(
        api::read::<CustomerRef>(parse(r#"{"id":"x"}"#)),
        Err(Error::BadResponse)
    );
    assert_eq!(
        api::read::<ErrorEnvelope>(parse(
            r#"{"code":422,"message":"m","errors":{"a":"not a list"}}"#
        )),
        Err(Error::BadResponse)
    );
    // An amount with a fraction of a cent, then a wrong enum value.
    let mut view = serde_json::to_value(PaymentLink {
        slug: "s".into(),
        name: "n".into(),
        description: String::new(),
        price: Some(100),
        price_by_customer: false,
        payment_types: vec![PaymentType::Pix],
        invoice_type: InvoiceType::Single,
        max_installments: 1,
        due_date: "2026-11-28".into(),
        redirect_to: None,
        fine: None,
        interest: None,
        discount: None,
    })
    .unwrap();
    view["price"] = serde_json::json!(10.005);
    let json = js_sys::JSON::parse(&view.to_string()).unwrap();
    assert_eq!(api::read::<PaymentLink>(json), Err(Error::BadResponse));
    view["price"] = serde_json::json!(10.05);
    view["invoiceType"] = serde_json::json!("MONTHLY");
    let json = js_sys::JSON::parse(&view.to_string()).unwrap();
    assert_eq!(api::read::<PaymentLink>(json), Err(Error::BadResponse));
}
