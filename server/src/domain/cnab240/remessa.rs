//! The remessa: a file that registers boletos at the bank (header, one batch of segments P, Q
//! and R per boleto, trailers), from the merchant's agreement and the boletos to register, and
//! asks the bank to write off (baixa) boletos that must no longer be paid (a segment P each).

use paylink_model::Date;

use super::{inscription_kind, Record};

/// The merchant (beneficiário) and its collection agreement at the bank.
#[derive(Clone, Debug)]
pub struct Beneficiary {
    /// Three-digit bank code (`001`).
    pub bank_code: String,
    pub bank_name: String,
    /// CNPJ or CPF, digits.
    pub document: String,
    pub name: String,
    /// Convênio / código do beneficiário (up to 20 characters).
    pub agreement: String,
    /// Agency (up to 5 digits) and its check digit.
    pub agency: String,
    pub agency_dv: String,
    /// Account (up to 12 digits) and its check digit.
    pub account: String,
    pub account_dv: String,
    /// Carteira, as the bank codes it in segment P (one digit in the common layout: 1 = simples).
    pub wallet: u8,
}

/// The payer (pagador) as segment Q carries it.
#[derive(Clone, Debug, Default)]
pub struct Payer {
    pub document: String,
    pub name: String,
    pub street: String,
    pub district: String,
    /// CEP, 8 digits.
    pub zipcode: String,
    pub city: String,
    pub state: String,
}

/// How a fine (multa) or a discount is stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// Cents.
    Fixed(i64),
    /// Hundredths of a percent (`200` = 2,00 %).
    Percent(i64),
}

/// One boleto to register.
#[derive(Clone, Debug)]
pub struct Boleto {
    /// Nosso número as the bank's layout writes it (up to 20 characters).
    pub our_number: String,
    /// Número do documento: the merchant's reference (the invoice's externalId), up to 15.
    pub document_number: String,
    /// Identificação do título na empresa (25): paylink writes the installment's id here so a
    /// retorno can be matched even where a bank rewrites the nosso número.
    pub company_reference: String,
    pub due: Date,
    pub issued: Date,
    pub amount_cents: i64,
    pub payer: Payer,
    /// Juros de mora per day, in cents (code 1 of the layout), from the day after `due`.
    pub interest_per_day_cents: Option<i64>,
    /// Multa, from the day after `due`.
    pub fine: Option<Amount>,
    /// Discount for payment on or before the date.
    pub discount: Option<(Amount, Date)>,
    /// Up to two lines for the payer (segment R, messages 3 and 4).
    pub messages: Vec<String>,
}

/// A registered boleto the bank must write off (pedido de baixa): its invoice was cancelled or
/// the installment was paid another way, so a payer must not be able to pay it at the bank.
#[derive(Clone, Debug)]
pub struct WriteOff {
    pub our_number: String,
    pub document_number: String,
    pub company_reference: String,
    pub due: Date,
    pub amount_cents: i64,
}

/// Why a remessa cannot be written: a value that does not fit its field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("boleto {our_number}: {message}")]
pub struct RemessaError {
    pub our_number: String,
    pub message: String,
}

const SERVICE_COLLECTION: u64 = 1;
const FILE_LAYOUT_VERSION: u64 = 103;
const BATCH_LAYOUT_VERSION: u64 = 60;
/// "Código de movimento remessa" 01: entrada de títulos.
const MOVEMENT_REGISTER: u64 = 1;
/// "Código de movimento remessa" 02: pedido de baixa.
const MOVEMENT_WRITE_OFF: u64 = 2;
/// Espécie do título 02: duplicata mercantil (DM), the common choice for goods and services.
const KIND_DM: u64 = 2;
/// Código da moeda 09: real.
const CURRENCY_REAL: u64 = 9;

/// A remessa registering `boletos` and writing off `write_offs`, file number `sequence`,
/// written at `generated` (`(date, hhmmss)`), lines ending in CR LF as banks expect.
pub fn remessa(
    b: &Beneficiary,
    sequence: u32,
    generated: (Date, u32),
    boletos: &[Boleto],
    write_offs: &[WriteOff],
) -> Result<String, RemessaError> {
    for t in boletos {
        check(t)?;
    }
    for w in write_offs {
        if w.our_number.is_empty() || w.our_number.len() > 20 {
            return Err(RemessaError {
                our_number: w.our_number.clone(),
                message: "nosso número must have 1 to 20 characters".into(),
            });
        }
    }
    let (date, time) = generated;
    let mut lines = Vec::new();

    // Header de arquivo (registro 0).
    let mut r = Record::new();
    r.digits(1, 3, &b.bank_code)
        .num(4, 7, 0)
        .num(8, 8, 0)
        .num(18, 18, inscription_kind(&b.document))
        .digits(19, 32, &b.document)
        .text(33, 52, &b.agreement)
        .digits(53, 57, &b.agency)
        .text(58, 58, &b.agency_dv)
        .digits(59, 70, &b.account)
        .text(71, 71, &b.account_dv)
        .text(73, 102, &b.name)
        .text(103, 132, &b.bank_name)
        .num(143, 143, 1)
        .date(144, Some(date))
        .num(152, 157, time as u64)
        .num(158, 163, sequence as u64)
        .num(164, 166, FILE_LAYOUT_VERSION)
        .num(167, 171, 0);
    lines.push(r.finish());

    // Header de lote (registro 1): one batch of simple collection.
    let mut r = Record::new();
    r.digits(1, 3, &b.bank_code)
        .num(4, 7, 1)
        .num(8, 8, 1)
        .text(9, 9, "R")
        .num(10, 11, SERVICE_COLLECTION)
        .num(14, 16, BATCH_LAYOUT_VERSION)
        .num(18, 18, inscription_kind(&b.document))
        .digits(19, 33, &b.document)
        .text(34, 53, &b.agreement)
        .digits(54, 58, &b.agency)
        .text(59, 59, &b.agency_dv)
        .digits(60, 71, &b.account)
        .text(72, 72, &b.account_dv)
        .text(74, 103, &b.name)
        .num(184, 191, sequence as u64)
        .date(192, Some(date))
        .num(200, 207, 0);
    lines.push(r.finish());

    let mut in_batch = 0u64;
    let mut total_cents = 0u64;
    for t in boletos {
        for segment in [segment_p(b, t), segment_q(b, t), segment_r(b, t)] {
            in_batch += 1;
            let mut r = segment;
            r.num(9, 13, in_batch);
            lines.push(r.finish());
        }
        total_cents += t.amount_cents as u64;
    }
    // A pedido de baixa needs only its segment P (the title is already at the bank).
    for w in write_offs {
        in_batch += 1;
        let mut r = segment_p_write_off(b, w);
        r.num(9, 13, in_batch);
        lines.push(r.finish());
        total_cents += w.amount_cents as u64;
    }

    // Trailer de lote (registro 5): header + details + trailer; totals of simple collection.
    let mut r = Record::new();
    r.digits(1, 3, &b.bank_code)
        .num(4, 7, 1)
        .num(8, 8, 5)
        .num(18, 23, in_batch + 2)
        .num(24, 29, (boletos.len() + write_offs.len()) as u64)
        .num(30, 46, total_cents)
        .num(47, 52, 0)
        .num(53, 69, 0)
        .num(70, 75, 0)
        .num(76, 92, 0)
        .num(93, 98, 0)
        .num(99, 115, 0);
    lines.push(r.finish());

    // Trailer de arquivo (registro 9): one batch; every record of the file.
    let mut r = Record::new();
    r.digits(1, 3, &b.bank_code)
        .num(4, 7, 9999)
        .num(8, 8, 9)
        .num(18, 23, 1)
        .num(24, 29, lines.len() as u64 + 1)
        .num(30, 35, 0);
    lines.push(r.finish());

    let mut out = lines.join("\r\n");
    out.push_str("\r\n");
    Ok(out)
}

fn check(t: &Boleto) -> Result<(), RemessaError> {
    let fail = |message: &str| {
        Err(RemessaError {
            our_number: t.our_number.clone(),
            message: message.to_string(),
        })
    };
    if t.our_number.is_empty() || t.our_number.len() > 20 {
        return fail("nosso número must have 1 to 20 characters");
    }
    if !(1..=999_999_999_999_999).contains(&t.amount_cents) {
        return fail("the amount does not fit the layout's 15 digits");
    }
    let fits = |a: &Amount| match *a {
        Amount::Fixed(c) | Amount::Percent(c) => (0..=999_999_999_999_999).contains(&c),
    };
    if t.fine.as_ref().is_some_and(|a| !fits(a))
        || t.discount.as_ref().is_some_and(|(a, _)| !fits(a))
        || t.interest_per_day_cents
            .is_some_and(|c| !(0..=999_999_999_999_999).contains(&c))
    {
        return fail("a fine, interest or discount does not fit the layout's 15 digits");
    }
    Ok(())
}

/// The fields every detail record starts with (positions 1-17); the sequence is set later.
fn detail(b: &Beneficiary, segment: &str, movement: Option<u64>) -> Record {
    let mut r = Record::new();
    r.digits(1, 3, &b.bank_code)
        .num(4, 7, 1)
        .num(8, 8, 3)
        .text(14, 14, segment);
    if let Some(m) = movement {
        r.num(16, 17, m);
    }
    r
}

fn segment_p(b: &Beneficiary, t: &Boleto) -> Record {
    let mut r = detail(b, "P", Some(MOVEMENT_REGISTER));
    r.digits(18, 22, &b.agency)
        .text(23, 23, &b.agency_dv)
        .digits(24, 35, &b.account)
        .text(36, 36, &b.account_dv)
        .text(38, 57, &t.our_number)
        .num(58, 58, b.wallet as u64)
        // Forma de cadastramento 1 (com cadastramento), documento 1 (tradicional),
        // emissão 2 (beneficiário emite), distribuição 2 (beneficiário distribui).
        .num(59, 59, 1)
        .text(60, 60, "1")
        .num(61, 61, 2)
        .text(62, 62, "2")
        .text(63, 77, &t.document_number)
        .date(78, Some(t.due))
        .num(86, 100, t.amount_cents as u64)
        .num(101, 105, 0)
        .text(106, 106, "0")
        .num(107, 108, KIND_DM)
        .text(109, 109, "N")
        .date(110, Some(t.issued));
    // Juros de mora: code 1 = value per day, from the day after the due date; 3 = none.
    match t.interest_per_day_cents {
        Some(c) if c > 0 => r
            .num(118, 118, 1)
            .date(119, t.due.add_days(1))
            .num(127, 141, c as u64),
        _ => r.num(118, 118, 3).date(119, None).num(127, 141, 0),
    };
    // Desconto 1: code 1 = fixed value until the date, 2 = percentage until the date; 0 = none.
    match t.discount {
        Some((Amount::Fixed(c), until)) => r
            .num(142, 142, 1)
            .date(143, Some(until))
            .num(151, 165, c as u64),
        Some((Amount::Percent(p), until)) => r
            .num(142, 142, 2)
            .date(143, Some(until))
            .num(151, 165, p as u64),
        None => r.num(142, 142, 0).date(143, None).num(151, 165, 0),
    };
    r.num(166, 180, 0)
        .num(181, 195, 0)
        .text(196, 220, &t.company_reference)
        // Protesto 3 (não protestar), baixa 1 (baixar/devolver) after 60 days.
        .num(221, 221, 3)
        .num(222, 223, 0)
        .num(224, 224, 1)
        .text(225, 227, "060")
        .num(228, 229, CURRENCY_REAL)
        .num(230, 239, 0);
    r
}

/// Segment P of a pedido de baixa: the title as registered (nosso número, document, due date,
/// amount), movement 02, without interest, discount or issue date.
fn segment_p_write_off(b: &Beneficiary, w: &WriteOff) -> Record {
    let title = Boleto {
        our_number: w.our_number.clone(),
        document_number: w.document_number.clone(),
        company_reference: w.company_reference.clone(),
        due: w.due,
        issued: w.due,
        amount_cents: w.amount_cents,
        payer: Payer::default(),
        interest_per_day_cents: None,
        fine: None,
        discount: None,
        messages: Vec::new(),
    };
    let mut r = segment_p(b, &title);
    r.num(16, 17, MOVEMENT_WRITE_OFF).date(110, None);
    r
}

fn segment_q(b: &Beneficiary, t: &Boleto) -> Record {
    let p = &t.payer;
    let zip: String = p.zipcode.chars().filter(char::is_ascii_digit).collect();
    let (zip5, zip3) = if zip.len() == 8 {
        (&zip[..5], &zip[5..])
    } else {
        ("00000", "000")
    };
    let mut r = detail(b, "Q", Some(MOVEMENT_REGISTER));
    r.num(18, 18, inscription_kind(&p.document))
        .digits(19, 33, &p.document)
        .text(34, 73, &p.name)
        .text(74, 113, &p.street)
        .text(114, 128, &p.district)
        .text(129, 133, zip5)
        .text(134, 136, zip3)
        .text(137, 151, &p.city)
        .text(152, 153, &p.state)
        .num(154, 154, 0)
        .num(155, 169, 0)
        .num(210, 212, 0);
    r
}

fn segment_r(b: &Beneficiary, t: &Boleto) -> Record {
    let mut r = detail(b, "R", Some(MOVEMENT_REGISTER));
    // Descontos 2 and 3: none.
    r.num(18, 18, 0)
        .date(19, None)
        .num(27, 41, 0)
        .num(42, 42, 0)
        .date(43, None)
        .num(51, 65, 0);
    // Multa: code 1 = fixed value, 2 = percentage, from the day after the due date; 0 = none.
    match t.fine {
        Some(Amount::Fixed(c)) => r
            .num(66, 66, 1)
            .date(67, t.due.add_days(1))
            .num(75, 89, c as u64),
        Some(Amount::Percent(p)) => r
            .num(66, 66, 2)
            .date(67, t.due.add_days(1))
            .num(75, 89, p as u64),
        None => r.num(66, 66, 0).date(67, None).num(75, 89, 0),
    };
    let message = |i: usize| t.messages.get(i).map_or("", String::as_str);
    r.text(100, 139, message(0))
        .text(140, 179, message(1))
        .num(208, 210, 0)
        .num(211, 215, 0)
        .num(217, 228, 0);
    r
}
