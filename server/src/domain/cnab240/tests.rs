//! CNAB 240 against records written by hand from the FEBRABAN layout's tables: each expected
//! record is its fields in layout order, with their positions, so a field at the wrong place
//! or of the wrong width fails here (the writer is never used to make an expectation).

use super::*;

/// A record from its fields in order; the positions in the comments are the layout's.
fn rec(fields: &[&str]) -> String {
    let r: String = fields.concat();
    assert_eq!(
        r.len(),
        240,
        "a hand-written record is 240 characters: {r:?}"
    );
    r
}
fn sp(n: usize) -> String {
    " ".repeat(n)
}
fn zeros(n: usize) -> String {
    "0".repeat(n)
}
fn pad(s: &str, n: usize) -> String {
    format!("{s:<n$}")
}

fn date(y: i32, m: u8, d: u8) -> Date {
    Date::new(y, m, d).unwrap()
}

fn beneficiary() -> Beneficiary {
    Beneficiary {
        bank_code: "001".into(),
        bank_name: "Banco do Brasil S.A.".into(),
        document: "12.345.678/0001-95".into(),
        name: "Loja Exemplo Ltda".into(),
        agreement: "1234567".into(),
        agency: "1234".into(),
        agency_dv: "5".into(),
        account: "123456".into(),
        account_dv: "7".into(),
        wallet: 1,
    }
}

fn boleto() -> Boleto {
    Boleto {
        our_number: "12345670000000001".into(),
        document_number: "pedido-1".into(),
        company_reference: "inst-uuid-1".into(),
        due: date(2027, 1, 31),
        issued: date(2027, 1, 10),
        amount_cents: 33334,
        payer: Payer {
            document: "529.982.247-25".into(),
            name: "Maria da Silva".into(),
            street: "Av. Paulista, 1000".into(),
            district: "Bela Vista".into(),
            zipcode: "01310-100".into(),
            city: "São Paulo".into(),
            state: "SP".into(),
        },
        interest_per_day_cents: Some(11),
        fine: Some(Amount::Percent(200)),
        discount: Some((Amount::Fixed(1000), date(2027, 1, 25))),
        messages: vec!["Não receber após 60 dias".into()],
    }
}

#[test]
fn a_remessa_of_one_boleto_is_the_layout_record_by_record() {
    let text = remessa(&beneficiary(), 1, (date(2027, 1, 10), 93000), &[boleto()], &[]).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines.len(), 8, "7 records, each ending in CR LF");
    assert_eq!(lines[7], "");

    let header_file = rec(&[
        "001", "0000", "0", &sp(9), // 1-3 bank, 4-7 batch, 8 type, 9-17
        "2", "12345678000195", // 18 CNPJ, 19-32
        &pad("1234567", 20), // 33-52 convênio
        "01234", "5", "000000123456", "7", " ", // 53-72 agency, account
        &pad("LOJA EXEMPLO LTDA", 30), &pad("BANCO DO BRASIL S.A.", 30), // 73-132
        &sp(10), "1", "10012027", "093000", "000001", "103", "00000", // 133-171
        &sp(69), // 172-240
    ]);
    assert_eq!(lines[0], header_file);

    let header_batch = rec(&[
        "001", "0001", "1", "R", "01", "  ", "060", " ", // 1-17
        "2", "012345678000195", &pad("1234567", 20), // 18-53
        "01234", "5", "000000123456", "7", " ", // 54-73
        &pad("LOJA EXEMPLO LTDA", 30), &sp(40), &sp(40), // 74-183
        "00000001", "10012027", "00000000", &sp(33), // 184-240
    ]);
    assert_eq!(lines[1], header_batch);

    let p = rec(&[
        "001", "0001", "3", "00001", "P", " ", "01", // 1-17
        "01234", "5", "000000123456", "7", " ", // 18-37
        &pad("12345670000000001", 20), "1", "1", "1", "2", "2", // 38-62
        &pad("PEDIDO-1", 15), "31012027", "000000000033334", // 63-100
        "00000", "0", "02", "N", "10012027", // 101-117
        "1", "01022027", "000000000000011", // 118-141 juros per day
        "1", "25012027", "000000000001000", // 142-165 discount
        &zeros(15), &zeros(15), &pad("INST-UUID-1", 25), // 166-220
        "3", "00", "1", "060", "09", &zeros(10), " ", // 221-240
    ]);
    assert_eq!(lines[2], p);

    let q = rec(&[
        "001", "0001", "3", "00002", "Q", " ", "01", // 1-17
        "1", "000052998224725", &pad("MARIA DA SILVA", 40), // 18-73
        &pad("AV. PAULISTA, 1000", 40), &pad("BELA VISTA", 15), // 74-128
        "01310", "100", &pad("SAO PAULO", 15), "SP", // 129-153
        "0", &zeros(15), &sp(40), "000", &sp(20), &sp(8), // 154-240
    ]);
    assert_eq!(lines[3], q);

    let r = rec(&[
        "001", "0001", "3", "00003", "R", " ", "01", // 1-17
        "0", "00000000", &zeros(15), "0", "00000000", &zeros(15), // 18-65
        "2", "01022027", "000000000000200", &sp(10), // 66-99 fine 2,00 %
        &pad("NAO RECEBER APOS 60 DIAS", 40), &sp(40), &sp(20), &sp(8), // 100-207
        "000", "00000", " ", &zeros(12), " ", " ", " ", &sp(9), // 208-240
    ]);
    assert_eq!(lines[4], r);

    let trailer_batch = rec(&[
        "001", "0001", "5", &sp(9), "000005", // 1-23 records in the batch
        "000001", "00000000000033334", // 24-46 simple collection
        "000000", &zeros(17), "000000", &zeros(17), "000000", &zeros(17), // 47-115
        &sp(8), &sp(117), // 116-240
    ]);
    assert_eq!(lines[5], trailer_batch);

    let trailer_file = rec(&[
        "001", "9999", "9", &sp(9), "000001", "000007", "000000", &sp(205),
    ]);
    assert_eq!(lines[6], trailer_file);
}

#[test]
fn a_write_off_is_one_segment_p_with_movement_02_counted_in_the_trailers() {
    let w = WriteOff {
        our_number: "12345670000000002".into(),
        document_number: "pedido-2".into(),
        company_reference: "inst-uuid-2".into(),
        due: date(2027, 2, 28),
        amount_cents: 5000,
    };
    let text = remessa(&beneficiary(), 3, (date(2027, 1, 10), 0), &[boleto()], &[w]).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines.len(), 9, "8 records: the boleto's P, Q, R and the write-off's P");

    let p = rec(&[
        "001", "0001", "3", "00004", "P", " ", "02", // 1-17: 4th of the batch, pedido de baixa
        "01234", "5", "000000123456", "7", " ", // 18-37
        &pad("12345670000000002", 20), "1", "1", "1", "2", "2", // 38-62
        &pad("PEDIDO-2", 15), "28022027", "000000000005000", // 63-100
        "00000", "0", "02", "N", "00000000", // 101-117
        "3", "00000000", &zeros(15), // 118-141 no juros
        "0", "00000000", &zeros(15), // 142-165 no discount
        &zeros(15), &zeros(15), &pad("INST-UUID-2", 25), // 166-220
        "3", "00", "1", "060", "09", &zeros(10), " ", // 221-240
    ]);
    assert_eq!(lines[5], p);

    let trailer_batch = rec(&[
        "001", "0001", "5", &sp(9), "000006", // 1-23: header, 4 details, trailer
        "000002", "00000000000038334", // 24-46: two titles, 333,34 + 50,00
        "000000", &zeros(17), "000000", &zeros(17), "000000", &zeros(17), // 47-115
        &sp(8), &sp(117), // 116-240
    ]);
    assert_eq!(lines[6], trailer_batch);
    let trailer_file = rec(&[
        "001", "9999", "9", &sp(9), "000001", "000008", "000000", &sp(205),
    ]);
    assert_eq!(lines[7], trailer_file);
}

#[test]
fn a_boleto_without_fine_interest_or_discount_says_none_in_their_codes() {
    let mut b = boleto();
    b.interest_per_day_cents = None;
    b.fine = None;
    b.discount = None;
    let text = remessa(&beneficiary(), 7, (date(2027, 1, 10), 0), &[b], &[]).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        &lines[2][117..141],
        "300000000000000000000000",
        "juros: code 3, no date, no value"
    );
    assert_eq!(
        &lines[2][141..165],
        "000000000000000000000000",
        "discount: code 0"
    );
    assert_eq!(
        &lines[4][65..89],
        "000000000000000000000000",
        "fine: code 0"
    );
    assert_eq!(&lines[0][157..163], "000007", "the file's sequence number");
}

#[test]
fn values_that_do_not_fit_are_refused_before_anything_is_written() {
    let mut b = boleto();
    b.our_number = "1".repeat(21);
    let e = remessa(&beneficiary(), 1, (date(2027, 1, 10), 0), &[boleto(), b], &[]).unwrap_err();
    assert!(e.message.contains("nosso número"), "{e:?}");
    let mut b = boleto();
    b.amount_cents = 0;
    assert!(remessa(&beneficiary(), 1, (date(2027, 1, 10), 0), &[b], &[]).is_err());
}

fn retorno_header() -> String {
    rec(&[
        "001", "0000", "0", &sp(9), "2", "12345678000195", &pad("1234567", 20), "01234", "5", "000000123456",
        "7", " ", &pad("LOJA EXEMPLO LTDA", 30), &pad("BANCO DO BRASIL S.A.", 30), &sp(10), "2", "01022027",
        "060000", "000042", "103", "00000", &sp(69),
    ])
}

fn retorno_batch_header() -> String {
    rec(&[
        "001", "0001", "1", "T", "01", "  ", "060", " ", "2", "012345678000195", &pad("1234567", 20),
        "01234", "5", "000000123456", "7", " ", &pad("LOJA EXEMPLO LTDA", 30), &sp(40), &sp(40), "00000042",
        "01022027", "00000000", &sp(33),
    ])
}

/// Segment T (1-17 fixed part, then 18-240) of a boleto with movement `code`.
fn segment_t(seq: &str, code: &str, our_number: &str, reference: &str, reasons: &str) -> String {
    rec(&[
        "001", "0001", "3", seq, "T", " ", code, // 1-17
        "01234", "5", "000000123456", "7", " ", &pad(our_number, 20), // 18-57
        "1", &pad("PEDIDO-1", 15), "31012027", "000000000033334", // 58-96
        "001", "01234", "5", &pad(reference, 25), "09", // 97-132
        "1", "000052998224725", &pad("MARIA DA SILVA", 40), &zeros(10), // 133-198
        "000000000000250", &pad(reasons, 10), &sp(17), // 199-240
    ])
}

/// Segment U of a boleto with movement `code`, paid `paid` on 31/01/2027, credited 01/02/2027.
fn segment_u(seq: &str, code: &str, paid: &str, paid_on: &str, credited_on: &str) -> String {
    rec(&[
        "001", "0001", "3", seq, "U", " ", code, // 1-17
        &zeros(15), &zeros(15), &zeros(15), &zeros(15), // 18-77 juros, desconto, abatimento, IOF
        paid, &zeros(15), &zeros(15), &zeros(15), // 78-137 pago, líquido, despesas, créditos
        paid_on, credited_on, &sp(4), "00000000", &zeros(15), // 138-180
        &sp(30), "000", &sp(20), &sp(7), // 181-240
    ])
}

fn retorno_file(details: &[String]) -> String {
    let mut lines = vec![retorno_header(), retorno_batch_header()];
    lines.extend(details.iter().cloned());
    let count = format!("{:06}", details.len() + 2);
    lines.push(rec(&["001", "0001", "5", &sp(9), &count, &sp(217)]));
    let total = format!("{:06}", lines.len() + 1);
    lines.push(rec(&[
        "001", "9999", "9", &sp(9), "000001", &total, "000000", &sp(205),
    ]));
    lines.join("\r\n") + "\r\n"
}

#[test]
fn a_retorno_reports_registrations_payments_and_write_offs() {
    let file = retorno_file(&[
        segment_t("00001", "02", "12345670000000002", "INST-UUID-2", ""),
        segment_u("00002", "02", &zeros(15), "31012027", "00000000"),
        segment_t("00003", "06", "12345670000000001", "INST-UUID-1", ""),
        segment_u("00004", "06", "000000000033334", "31012027", "01022027"),
        segment_t("00005", "09", "12345670000000003", "INST-UUID-3", ""),
        segment_u("00006", "09", &zeros(15), "01022027", "00000000"),
        segment_t("00007", "03", "12345670000000004", "INST-UUID-4", "A1B2"),
        segment_u("00008", "03", &zeros(15), "01022027", "00000000"),
    ]);
    let notices = retorno(&file).unwrap();
    assert_eq!(notices.len(), 4);
    assert_eq!(notices[0].movement, Movement::Registered);
    assert_eq!(notices[0].our_number, "12345670000000002");
    assert_eq!(notices[0].line, 3);
    assert_eq!(
        notices[1].movement,
        Movement::Paid {
            paid_cents: 33334,
            paid_on: date(2027, 1, 31),
            credited_on: Some(date(2027, 2, 1)),
        }
    );
    assert_eq!(notices[1].company_reference, "INST-UUID-1");
    assert_eq!(notices[1].amount_cents, 33334);
    assert_eq!(notices[2].movement, Movement::WrittenOff);
    assert_eq!(
        notices[3].movement,
        Movement::Rejected {
            reasons: "A1B2".into()
        }
    );
}

#[test]
fn a_damaged_retorno_names_its_line_and_yields_nothing() {
    let good = [
        segment_t("00001", "06", "12345670000000001", "INST-UUID-1", ""),
        segment_u("00002", "06", "000000000033334", "31012027", "01022027"),
    ];
    // A record one character short.
    let mut short = good.to_vec();
    short[1].pop();
    let e = retorno(&retorno_file(&short)).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    // A payment whose date is not a date.
    let bad_date = [
        good[0].clone(),
        segment_u("00002", "06", "000000000033334", "31132027", "01022027"),
    ];
    let e = retorno(&retorno_file(&bad_date)).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("data da ocorrência"), "{e}");
    // A paid amount that is not a number.
    let bad_amount = [
        good[0].clone(),
        segment_u("00002", "06", "00000000003333X", "31012027", "01022027"),
    ];
    assert!(retorno(&retorno_file(&bad_amount))
        .unwrap_err()
        .message
        .contains("valor pago"));
    // Segment U alone, and T alone.
    let e = retorno(&retorno_file(&good[1..])).unwrap_err();
    assert_eq!(e.line, 3);
    let e = retorno(&retorno_file(&good[..1])).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    // A file cut before its trailer.
    let whole = retorno_file(&good);
    let cut: Vec<&str> = whole.split("\r\n").take(5).collect();
    let e = retorno(&cut.join("\r\n")).unwrap_err();
    assert!(e.message.contains("trailer"), "{e}");
    // A remessa is not a retorno.
    let sent = remessa(&beneficiary(), 1, (date(2027, 1, 10), 0), &[boleto()], &[]).unwrap();
    let e = retorno(&sent).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(retorno("").is_err());
}
