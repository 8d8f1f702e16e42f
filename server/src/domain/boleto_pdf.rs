//! The printable boleto: one A4 page with the recibo do pagador on top and the
//! FEBRABAN ficha de compensação below it, barcode included, as PDF bytes.
//! A pure function of [`BoletoPdf`]: no database, no HTTP. The codes come
//! from `paylink_model::boleto`; fonts (Liberation Sans, SIL OFL, see
//! `server/fonts/LICENSE`) are embedded as subsets with a ToUnicode map, so
//! every viewer draws the same page and the text can be extracted and searched.
//!
//! Long on purpose: one page laid out top to bottom, where each box's
//! coordinates follow the one above; split, the layout could not be read as
//! the page it draws. The PDF plumbing (fonts, barcode) sits at the end; the receipt
//! (`receipt_pdf`) draws its page with the same `Page` and writes it with `write_pdf`.

use std::collections::BTreeMap;

use paylink_model::boleto::{bank_code_with_dv, format_linha, itf_pattern, linha_digitavel};
use paylink_model::br::{mask_cep, mask_document};
use paylink_model::money::format_brl;
use paylink_model::{Address, Date, Lang};
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};

const REGULAR: &[u8] = include_bytes!("../../fonts/LiberationSans-Regular.ttf");
const BOLD: &[u8] = include_bytes!("../../fonts/LiberationSans-Bold.ttf");

/// Everything printed on the boleto, already decided by the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct BoletoPdf {
    /// The 44-digit barcode (`paylink_model::boleto::barcode`); the linha
    /// digitável, bank code and amount printed are all read from it.
    pub barcode: String,
    /// Shown beside the bank code (`Banco do Brasil` for 001).
    pub bank_name: String,
    pub beneficiary_name: String,
    /// CNPJ or CPF of the beneficiário (digits); `None` prints "—".
    pub beneficiary_document: Option<String>,
    /// Agência/Código do Beneficiário as the bank writes it.
    pub beneficiary_code: String,
    pub our_number: String,
    /// Número do documento: the invoice's externalId.
    pub document_number: String,
    pub document_date: Date,
    pub processing_date: Date,
    pub due_date: Date,
    pub amount_cents: i64,
    /// (−) Desconto, (+) Mora/Multa and (=) Valor cobrado: blank unless known.
    pub discount_cents: Option<i64>,
    pub fine_interest_cents: Option<i64>,
    pub charged_cents: Option<i64>,
    pub wallet: String,
    /// Espécie doc. (`RC` recibo, `DM` duplicata mercantil, ...).
    pub document_kind: String,
    pub payer_name: String,
    /// CPF or CNPJ of the pagador (digits or formatted).
    pub payer_document: Option<String>,
    pub payer_address: Option<Address>,
    /// One line each in the Instruções box (at most [`MAX_INSTRUCTIONS`] are printed).
    pub instructions: Vec<String>,
    /// The hybrid boleto: the bank's PIX code for the same charge (its BR Code, "copia e
    /// cola"), printed as a QR code beside the barcode and as text below it. `None`: a
    /// boleto only.
    pub pix: Option<String>,
}

/// Lines that fit the Instruções box.
pub const MAX_INSTRUCTIONS: usize = 6;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoletoPdfError {
    /// Not a 44-digit barcode.
    #[error("not a 44-digit boleto barcode")]
    BadBarcode,
    /// A bundled font failed to parse or subset (a build problem, not input).
    #[error("embedded font: {0}")]
    Font(String),
    /// The PIX code does not fit a QR code.
    #[error("PIX code: {0}")]
    Pix(String),
}

/// FEBRABAN's Interleaved 2 of 5: narrow element 0.33 mm, wide 3× narrow,
/// bars 13 mm tall, at least 5 mm of white either side (here the page margin
/// and the gap to the text are wider). 405 modules → 133.65 mm.
pub const ITF_NARROW_MM: f32 = 0.33;
pub const ITF_WIDE_RATIO: f32 = 3.0;
pub const ITF_HEIGHT_MM: f32 = 13.0;
pub const ITF_QUIET_MM: f32 = 6.0;
/// The hybrid boleto's QR code: its side with the 4-module quiet zone, mm. At 30 mm a
/// version 10 code (the longest dynamic BR Codes) still has modules of 0.5 mm.
pub const PIX_QR_MM: f32 = 30.0;

const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
/// Left edge and width of both parts (A4 minus 10 mm margins).
const X0: f32 = 10.0;
const W: f32 = 190.0;
/// The right-hand column (vencimento, valores).
const RC: f32 = 48.0;
const ROW: f32 = 8.5;

fn pt(mm: f32) -> f32 {
    mm * 72.0 / 25.4
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Face {
    Regular,
    Bold,
}

enum Op {
    Text {
        face: Face,
        size: f32,
        x: f32,
        y: f32,
        text: String,
    },
    /// Filled black rectangle (bars, thick rules), mm from the top-left.
    Fill { x: f32, y: f32, w: f32, h: f32 },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        dashed: bool,
    },
}

/// A box of the form: width (mm), label, value, value in bold, value aligned
/// right (amounts and dates, as banks print them).
type Cell<'a> = (f32, &'a str, &'a str, bool, bool);

struct Font {
    data: &'static [u8],
    face: ttf_parser::Face<'static>,
}

impl Font {
    fn load(data: &'static [u8]) -> Result<Font, BoletoPdfError> {
        let face =
            ttf_parser::Face::parse(data, 0).map_err(|e| BoletoPdfError::Font(e.to_string()))?;
        Ok(Font { data, face })
    }

    /// A character the font lacks is printed as `?` rather than as a blank box.
    fn glyph(&self, c: char) -> (char, u16) {
        match self.face.glyph_index(c) {
            Some(g) => (c, g.0),
            None => ('?', self.face.glyph_index('?').map_or(0, |g| g.0)),
        }
    }

    fn width_mm(&self, text: &str, size: f32) -> f32 {
        let upem = f32::from(self.face.units_per_em());
        let units: f32 = text
            .chars()
            .map(|c| {
                let (_, g) = self.glyph(c);
                f32::from(
                    self.face
                        .glyph_hor_advance(ttf_parser::GlyphId(g))
                        .unwrap_or(0),
                )
            })
            .sum();
        units / upem * size * 25.4 / 72.0
    }
}

/// The page's drawing, in mm from the top-left, before it becomes PDF: the boleto's, and
/// the receipt's (`receipt_pdf`), which draws with the same fonts and writes the same way.
pub(super) struct Page {
    ops: Vec<Op>,
    regular: Font,
    bold: Font,
}

impl Page {
    /// An empty page with both fonts loaded.
    pub(super) fn new() -> Result<Page, BoletoPdfError> {
        Ok(Page {
            ops: Vec::new(),
            regular: Font::load(REGULAR)?,
            bold: Font::load(BOLD)?,
        })
    }

    fn font(&self, face: Face) -> &Font {
        match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        }
    }

    /// Text whose baseline is at `y`; cut with "…" to fit `max_w` mm.
    pub(super) fn text(&mut self, face: Face, size: f32, x: f32, y: f32, text: &str, max_w: f32) {
        let font = self.font(face);
        let mut s: String = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .map(|c| font.glyph(c).0)
            .collect();
        if font.width_mm(&s, size) > max_w {
            while !s.is_empty() && font.width_mm(&format!("{s}…"), size) > max_w {
                s.pop();
            }
            s = format!("{}…", s.trim_end());
        }
        self.ops.push(Op::Text {
            face,
            size,
            x,
            y,
            text: s,
        });
    }

    pub(super) fn text_right(&mut self, face: Face, size: f32, right: f32, y: f32, text: &str) {
        let w = self.font(face).width_mm(text, size);
        self.text(face, size, right - w, y, text, w + 1.0);
    }

    pub(super) fn hline(&mut self, x: f32, y: f32, w: f32, width: f32) {
        self.ops.push(Op::Line {
            x1: x,
            y1: y,
            x2: x + w,
            y2: y,
            width,
            dashed: false,
        });
    }

    fn vline(&mut self, x: f32, y: f32, h: f32) {
        self.ops.push(Op::Line {
            x1: x,
            y1: y,
            x2: x,
            y2: y + h,
            width: 0.2,
            dashed: false,
        });
    }

    /// A labelled box of the form: small label at the top, value below it.
    fn field(&mut self, x: f32, y: f32, (w, label, value, bold, right): Cell<'_>) {
        self.text(Face::Regular, 5.5, x + 1.0, y + 2.4, label, w - 2.0);
        let face = if bold { Face::Bold } else { Face::Regular };
        if right {
            self.text_right(face, 8.5, x + w - 1.0, y + ROW - 1.6, value);
        } else {
            self.text(face, 8.5, x + 1.0, y + ROW - 1.6, value, w - 2.0);
        }
    }

    /// A row of boxes with vertical rules between them and a rule below.
    fn row(&mut self, y: f32, cells: &[Cell<'_>]) {
        let mut x = X0;
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                self.vline(x, y, ROW);
            }
            self.field(x, y, *cell);
            x += cell.0;
        }
        self.hline(X0, y + ROW, W, 0.2);
    }

    /// Bank name, `001-9` between thick rules, and the text at the right.
    /// FEBRABAN: the code's digits 5 mm tall, the linha digitável's 3.5 to 4 mm
    /// (Liberation Sans digits are 0.72 em tall: 19 pt and 13 pt come close).
    fn header(&mut self, y: f32, bank_name: &str, bank_code: &str, right: &str, right_size: f32) {
        self.text(Face::Bold, 10.0, X0 + 1.0, y + 7.6, bank_name, CODE_X - 2.0);
        for x in [CODE_X, CODE_X + CODE_W] {
            self.ops.push(Op::Fill {
                x: X0 + x,
                y: y + 1.0,
                w: 1.0,
                h: 8.0,
            });
        }
        let w = self.bold.width_mm(bank_code, CODE_PT);
        self.text(
            Face::Bold,
            CODE_PT,
            X0 + CODE_X + 0.5 + (CODE_W - w) / 2.0,
            y + 8.0,
            bank_code,
            CODE_W,
        );
        self.text_right(Face::Bold, right_size, X0 + W, y + 8.0, right);
        self.ops.push(Op::Fill {
            x: X0,
            y: y + 9.2,
            w: W,
            h: 0.5,
        });
    }
}

/// Where the bank code's box starts (after the bank's name) and its width, mm.
const CODE_X: f32 = 35.0;
const CODE_W: f32 = 23.0;
const CODE_PT: f32 = 19.0;
const LINHA_PT: f32 = 13.0;

fn money(cents: Option<i64>) -> String {
    cents.map_or_else(String::new, |c| format_brl(c, Lang::PtBr))
}

fn document(d: &Option<String>) -> String {
    d.as_deref()
        .filter(|d| !d.trim().is_empty())
        .map_or_else(|| "—".to_string(), mask_document)
}

fn address_lines(a: &Address) -> (String, String) {
    let join = |parts: &[&Option<String>], sep: &str| {
        parts
            .iter()
            .filter_map(|p| p.as_deref().map(str::trim).filter(|s| !s.is_empty()))
            .collect::<Vec<_>>()
            .join(sep)
    };
    let street = join(&[&a.address, &a.number, &a.complement], ", ");
    let street = join(&[&Some(street), &a.neighborhood], " — ");
    let city = join(&[&a.city, &a.state], "/");
    let cep = a.zipcode.as_deref().map(|z| format!("CEP {}", mask_cep(z)));
    (street, join(&[&cep, &Some(city)], " — "))
}

/// Draws the boleto and returns the PDF file.
pub fn render(b: &BoletoPdf) -> Result<Vec<u8>, BoletoPdfError> {
    let linha = linha_digitavel(&b.barcode).ok_or(BoletoPdfError::BadBarcode)?;
    let linha = format_linha(&linha);
    let pattern = itf_pattern(&b.barcode).ok_or(BoletoPdfError::BadBarcode)?;
    let bank_code = bank_code_with_dv(&b.barcode[0..3]).ok_or(BoletoPdfError::BadBarcode)?;
    let mut p = Page::new()?;
    let due = b.due_date.format_br();
    let amount = format_brl(b.amount_cents, Lang::PtBr);
    let beneficiary = format!(
        "{} — CNPJ/CPF: {}",
        b.beneficiary_name,
        document(&b.beneficiary_document)
    );
    let payer = format!(
        "{} — CPF/CNPJ: {}",
        b.payer_name,
        document(&b.payer_document)
    );
    let (street, city) = b
        .payer_address
        .as_ref()
        .map(address_lines)
        .unwrap_or_default();
    let (discount, fine, charged) = (
        money(b.discount_cents),
        money(b.fine_interest_cents),
        money(b.charged_cents),
    );
    let left = W - RC;

    // Recibo do pagador: what the payer keeps.
    let mut y = 10.0;
    p.header(y, &b.bank_name, &bank_code, "Recibo do Pagador", 10.0);
    y += 10.0;
    p.row(
        y,
        &[
            (95.0, "Beneficiário", &beneficiary, false, false),
            (
                47.0,
                "Agência/Código do Beneficiário",
                &b.beneficiary_code,
                false,
                false,
            ),
            (RC, "Vencimento", &due, true, true),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (95.0, "Pagador", &payer, false, false),
            (47.0, "Nosso Número", &b.our_number, false, false),
            (RC, "(=) Valor do Documento", &amount, true, true),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (
                40.0,
                "Número do Documento",
                &b.document_number,
                false,
                false,
            ),
            (
                30.0,
                "Data do Documento",
                &b.document_date.format_br(),
                false,
                false,
            ),
            (18.0, "Espécie", "R$", false, false),
            (18.0, "Carteira", &b.wallet, false, false),
            (36.0, "(−) Desconto", &discount, false, true),
            (RC, "(+) Mora/Multa", &fine, false, true),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (left, "Linha Digitável", &linha, false, false),
            (RC, "(=) Valor Cobrado", &charged, true, true),
        ],
    );
    y += ROW;
    p.text_right(Face::Regular, 6.0, X0 + W, y + 3.0, "Autenticação Mecânica");

    // The cut between the two parts.
    y += 12.0;
    p.ops.push(Op::Line {
        x1: X0,
        y1: y,
        x2: X0 + W,
        y2: y,
        width: 0.2,
        dashed: true,
    });
    p.text_right(
        Face::Regular,
        5.5,
        X0 + W,
        y - 1.0,
        "Corte na linha pontilhada",
    );

    // Ficha de compensação: what the bank keeps.
    y += 6.0;
    p.header(y, &b.bank_name, &bank_code, &linha, LINHA_PT);
    y += 10.0;
    p.row(
        y,
        &[
            (
                left,
                "Local de Pagamento",
                "Pagável em qualquer banco",
                false,
                false,
            ),
            (RC, "Vencimento", &due, true, true),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (left, "Beneficiário", &beneficiary, false, false),
            (
                RC,
                "Agência/Código do Beneficiário",
                &b.beneficiary_code,
                false,
                true,
            ),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (
                28.0,
                "Data do Documento",
                &b.document_date.format_br(),
                false,
                false,
            ),
            (
                36.0,
                "Número do Documento",
                &b.document_number,
                false,
                false,
            ),
            (20.0, "Espécie Doc.", &b.document_kind, false, false),
            (14.0, "Aceite", "N", false, false),
            (
                44.0,
                "Data Processamento",
                &b.processing_date.format_br(),
                false,
                false,
            ),
            (RC, "Nosso Número", &b.our_number, false, true),
        ],
    );
    y += ROW;
    p.row(
        y,
        &[
            (28.0, "Uso do Banco", "", false, false),
            (22.0, "Carteira", &b.wallet, false, false),
            (16.0, "Espécie", "R$", false, false),
            (34.0, "Quantidade", "", false, false),
            (42.0, "Valor", "", false, false),
            (RC, "(=) Valor do Documento", &amount, true, true),
        ],
    );
    y += ROW;
    // Instruções on the left, the five amount boxes on the right.
    let boxes = [
        ("(−) Desconto/Abatimento", discount.as_str(), false),
        ("(−) Outras Deduções", "", false),
        ("(+) Mora/Multa", fine.as_str(), false),
        ("(+) Outros Acréscimos", "", false),
        ("(=) Valor Cobrado", charged.as_str(), true),
    ];
    p.vline(X0 + left, y, ROW * boxes.len() as f32);
    p.text(
        Face::Regular,
        5.5,
        X0 + 1.0,
        y + 2.4,
        "Instruções (texto de responsabilidade do beneficiário)",
        left - 2.0,
    );
    for (i, line) in b.instructions.iter().take(MAX_INSTRUCTIONS).enumerate() {
        p.text(
            Face::Regular,
            8.0,
            X0 + 1.5,
            y + 6.5 + i as f32 * 5.8,
            line,
            left - 3.0,
        );
    }
    for (i, (label, value, bold)) in boxes.iter().enumerate() {
        let by = y + i as f32 * ROW;
        p.field(X0 + left, by, (RC, label, value, *bold, true));
        if i + 1 < boxes.len() {
            p.hline(X0 + left, by + ROW, RC, 0.2);
        }
    }
    y += ROW * boxes.len() as f32;
    p.hline(X0, y, W, 0.2);
    // Pagador: name and document, then the address.
    p.text(Face::Regular, 5.5, X0 + 1.0, y + 2.4, "Pagador", 30.0);
    p.text(Face::Regular, 8.5, X0 + 1.5, y + 6.0, &payer, W - 3.0);
    p.text(Face::Regular, 8.0, X0 + 1.5, y + 10.0, &street, W - 3.0);
    p.text(Face::Regular, 8.0, X0 + 1.5, y + 14.0, &city, W - 3.0);
    p.text(
        Face::Regular,
        5.5,
        X0 + 1.0,
        y + 18.0,
        "Sacador/Avalista",
        30.0,
    );
    y += 19.5;
    p.ops.push(Op::Fill {
        x: X0,
        y,
        w: W,
        h: 0.5,
    });
    p.text_right(
        Face::Regular,
        6.0,
        X0 + W,
        y + 3.2,
        "Autenticação Mecânica — Ficha de Compensação",
    );

    // The barcode, bottom left, after its quiet zone.
    let top = y + 5.0;
    let mut x = X0 + ITF_QUIET_MM;
    for (i, wide) in pattern.iter().enumerate() {
        let w = if *wide {
            ITF_NARROW_MM * ITF_WIDE_RATIO
        } else {
            ITF_NARROW_MM
        };
        if i % 2 == 0 {
            p.ops.push(Op::Fill {
                x,
                y: top,
                w,
                h: ITF_HEIGHT_MM,
            });
        }
        x += w;
    }
    if let Some(code) = b.pix.as_deref() {
        pix_block(&mut p, code, top)?;
    }
    write_pdf(&p, &format!("Boleto {}", b.document_number), Lang::PtBr)
}

/// The hybrid boleto's PIX: the QR code at the right of the barcode (which ends 140 mm in),
/// its caption, and the copia-e-cola text on lines below the barcode.
fn pix_block(p: &mut Page, code: &str, top: f32) -> Result<(), BoletoPdfError> {
    let qr = qrcode::QrCode::with_error_correction_level(code.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| BoletoPdfError::Pix(e.to_string()))?;
    let n = qr.width();
    let module = PIX_QR_MM / (n + 8) as f32;
    let (qx, qy) = (X0 + W - PIX_QR_MM, top - 1.0);
    for (i, color) in qr.to_colors().iter().enumerate() {
        if *color == qrcode::Color::Dark {
            p.ops.push(Op::Fill {
                x: qx + (4 + i % n) as f32 * module,
                y: qy + (4 + i / n) as f32 * module,
                w: module,
                h: module,
            });
        }
    }
    let caption = "Pague com PIX";
    let cw = p.bold.width_mm(caption, 7.0);
    p.text(
        Face::Bold,
        7.0,
        qx + (PIX_QR_MM - cw) / 2.0,
        qy + PIX_QR_MM + 2.5,
        caption,
        PIX_QR_MM,
    );
    let width = W - PIX_QR_MM - 4.0;
    let mut y = top + ITF_HEIGHT_MM + 5.0;
    p.text(
        Face::Regular,
        5.5,
        X0 + 1.0,
        y,
        "PIX Copia e Cola (o mesmo valor, pago na hora)",
        width,
    );
    // Pushed as they are: `Page::text` folds spaces, and a space the code has at a line's
    // edge would be lost from what the payer copies.
    for text in wrap(&p.regular, code, 6.5, width) {
        y += 3.2;
        p.ops.push(Op::Text {
            face: Face::Regular,
            size: 6.5,
            x: X0 + 1.0,
            y,
            text,
        });
    }
    Ok(())
}

/// `text` cut into lines no wider than `max_w` mm, anywhere (a BR Code has no spaces to
/// break at, and a payer copies it whole from the PDF's text).
fn wrap(font: &Font, text: &str, size: f32, max_w: f32) -> Vec<String> {
    let mut lines = vec![String::new()];
    for c in text.chars().map(|c| font.glyph(c).0) {
        let line = lines.last_mut().expect("never empty");
        line.push(c);
        if font.width_mm(line, size) > max_w {
            line.pop();
            lines.push(c.to_string());
        }
    }
    lines
}

/// One embedded font: its subset, and each used character's new glyph id.
struct Embedded {
    glyphs: BTreeMap<char, u16>,
    subset: Vec<u8>,
    widths: Vec<f32>,
}

fn embed(font: &Font, chars: impl Iterator<Item = char>) -> Result<Embedded, BoletoPdfError> {
    let mut remapper = subsetter::GlyphRemapper::new();
    let mut glyphs = BTreeMap::new();
    for c in chars {
        let (_, old) = font.glyph(c);
        glyphs.insert(c, remapper.remap(old));
    }
    let subset = subsetter::subset(font.data, 0, &remapper)
        .map_err(|e| BoletoPdfError::Font(e.to_string()))?;
    let upem = f32::from(font.face.units_per_em());
    let widths = remapper
        .remapped_gids()
        .map(|old| {
            f32::from(
                font.face
                    .glyph_hor_advance(ttf_parser::GlyphId(old))
                    .unwrap_or(0),
            ) * 1000.0
                / upem
        })
        .collect();
    Ok(Embedded {
        glyphs,
        subset,
        widths,
    })
}

fn deflate(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(data).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

/// The page as a PDF file titled `title`, in language `lang`: its fonts embedded as subsets of
/// the characters drawn, with a ToUnicode map so its text can be extracted.
pub(super) fn write_pdf(page: &Page, title: &str, lang: Lang) -> Result<Vec<u8>, BoletoPdfError> {
    let used = |face: Face| {
        page.ops.iter().filter_map(move |op| match op {
            Op::Text { face: f, text, .. } if *f == face => Some(text.chars()),
            _ => None,
        })
    };
    let regular = embed(&page.regular, used(Face::Regular).flatten())?;
    let bold = embed(&page.bold, used(Face::Bold).flatten())?;

    let mut next = 1;
    let mut id = || {
        next += 1;
        Ref::new(next - 1)
    };
    let (catalog, pages, page_id, content_id, info_id) = (id(), id(), id(), id(), id());
    let mut pdf = Pdf::new();
    pdf.catalog(catalog)
        .pages(pages)
        .lang(pdf_writer::TextStr(lang.code()));
    pdf.pages(pages).kids([page_id]).count(1);
    pdf.document_info(info_id)
        .title(pdf_writer::TextStr(title))
        .creator(pdf_writer::TextStr("paylink"));

    let mut content = Content::new();
    for op in &page.ops {
        match op {
            Op::Fill { x, y, w, h } => {
                content.rect(pt(*x), pt(PAGE_H - y - h), pt(*w), pt(*h));
                content.fill_nonzero();
            }
            Op::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                dashed,
            } => {
                content.save_state();
                content.set_line_width(pt(*width));
                if *dashed {
                    content.set_dash_pattern([pt(1.5), pt(1.0)], 0.0);
                }
                content.move_to(pt(*x1), pt(PAGE_H - y1));
                content.line_to(pt(*x2), pt(PAGE_H - y2));
                content.stroke();
                content.restore_state();
            }
            Op::Text {
                face,
                size,
                x,
                y,
                text,
            } => {
                let (name, emb) = match face {
                    Face::Regular => (Name(b"F1"), &regular),
                    Face::Bold => (Name(b"F2"), &bold),
                };
                let codes: Vec<u8> = text
                    .chars()
                    .flat_map(|c| emb.glyphs.get(&c).copied().unwrap_or(0).to_be_bytes())
                    .collect();
                content.begin_text();
                content.set_font(name, *size);
                content.next_line(pt(*x), pt(PAGE_H - y));
                content.show(Str(&codes));
                content.end_text();
            }
        }
    }
    let content = deflate(&content.finish());
    pdf.stream(content_id, &content).filter(Filter::FlateDecode);

    let mut page_w = pdf.page(page_id);
    page_w
        .media_box(Rect::new(0.0, 0.0, pt(PAGE_W), pt(PAGE_H)))
        .parent(pages)
        .contents(content_id);
    let font_ids = [
        (id(), id(), id(), id(), id()),
        (id(), id(), id(), id(), id()),
    ];
    {
        let mut resources = page_w.resources();
        let mut fonts = resources.fonts();
        fonts.pair(Name(b"F1"), font_ids[0].0);
        fonts.pair(Name(b"F2"), font_ids[1].0);
    }
    page_w.finish();

    for ((type0, cid, descriptor, file, cmap), (emb, font, base)) in font_ids.into_iter().zip([
        (&regular, &page.regular, "AAAAAA+LiberationSans"),
        (&bold, &page.bold, "AAAAAB+LiberationSans-Bold"),
    ]) {
        let base = Name(base.as_bytes());
        let info = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        pdf.type0_font(type0)
            .base_font(base)
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);
        let mut cid_font = pdf.cid_font(cid);
        cid_font
            .subtype(CidFontType::Type2)
            .base_font(base)
            .system_info(info)
            .font_descriptor(descriptor)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        cid_font.widths().consecutive(0, emb.widths.iter().copied());
        cid_font.finish();
        let face = &font.face;
        let scale = 1000.0 / f32::from(face.units_per_em());
        let bbox = face.global_bounding_box();
        pdf.font_descriptor(descriptor)
            .name(base)
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                f32::from(bbox.x_min) * scale,
                f32::from(bbox.y_min) * scale,
                f32::from(bbox.x_max) * scale,
                f32::from(bbox.y_max) * scale,
            ))
            .italic_angle(0.0)
            .ascent(f32::from(face.ascender()) * scale)
            .descent(f32::from(face.descender()) * scale)
            .cap_height(f32::from(face.capital_height().unwrap_or(face.ascender())) * scale)
            .stem_v(80.0)
            .font_file2(file);
        let subset = deflate(&emb.subset);
        pdf.stream(file, &subset).filter(Filter::FlateDecode);
        let mut map = UnicodeCmap::new(Name(b"Custom"), info);
        for (c, g) in &emb.glyphs {
            map.pair(*g, *c);
        }
        let map = map.finish();
        pdf.cmap(cmap, &map);
    }
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use paylink_model::boleto::{barcode, BoletoConfig};

    fn sample() -> BoletoPdf {
        let due = Date::parse_iso("2026-12-10").unwrap();
        let cfg = BoletoConfig {
            bank_code: "001".into(),
            agreement: "1234567".into(),
            wallet: "17".into(),
        };
        BoletoPdf {
            barcode: barcode(&cfg, 123_456, due, 42).unwrap(),
            bank_name: "Banco do Brasil".into(),
            beneficiary_name: "Loja Exemplo".into(),
            beneficiary_document: Some("11222333000181".into()),
            beneficiary_code: "1234567".into(),
            our_number: "12345670000000042".into(),
            document_number: "pedido-1".into(),
            document_date: Date::parse_iso("2026-11-25").unwrap(),
            processing_date: Date::parse_iso("2026-11-25").unwrap(),
            due_date: due,
            amount_cents: 123_456,
            discount_cents: None,
            fine_interest_cents: None,
            charged_cents: None,
            wallet: "17".into(),
            document_kind: "RC".into(),
            payer_name: "Maria da Silva".into(),
            payer_document: Some("52998224725".into()),
            payer_address: Some(Address {
                id: String::new(),
                address: Some("Av. Paulista".into()),
                number: Some("1000".into()),
                complement: None,
                neighborhood: Some("Bela Vista".into()),
                city: Some("São Paulo".into()),
                state: Some("SP".into()),
                zipcode: Some("01310100".into()),
            }),
            instructions: vec!["Não receber após 30 dias do vencimento.".into()],
            pix: None,
        }
    }

    /// The texts drawn on `p`, in order.
    fn texts(p: &Page) -> Vec<&str> {
        p.ops
            .iter()
            .filter_map(|op| match op {
                Op::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_hybrid_boleto_carries_the_pix_code_as_qr_and_as_text() {
        let code = "00020101021226990014br.gov.bcb.pix2577qrpix.bb.com.br/api/v2/cobv/\
                    8b4f1c2e9d7a4e3fa6b5c4d3e2f1a0b95204000053039865802BR5912Loja Exemplo\
                    6009SAO PAULO62070503***6304ABCD";
        let mut b = sample();
        let plain = render(&b).unwrap();
        b.pix = Some(code.into());
        let pdf = render(&b).unwrap();
        assert!(pdf.len() > plain.len());
        let mut p = Page::new().unwrap();
        pix_block(&mut p, code, 200.0).unwrap();
        let texts = texts(&p);
        assert_eq!(texts[0], "Pague com PIX");
        // The code's lines, read in order, are the code: nothing cut, nothing added.
        assert!(texts.len() >= 4, "{texts:?}");
        assert_eq!(texts[2..].concat(), code);
        // The QR's modules stay in the right-hand column, clear of the barcode, on the page.
        for op in &p.ops {
            if let Op::Fill { x, y, w, h } = op {
                assert!(*x >= X0 + ITF_QUIET_MM + 133.65 + ITF_QUIET_MM, "{x}");
                assert!(x + w <= X0 + W && y + h <= PAGE_H - 10.0);
            }
        }
    }

    #[test]
    fn renders_a_small_pdf_with_both_fonts_embedded() {
        let pdf = render(&sample()).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&pdf);
        assert_eq!(text.matches("/FontFile2").count(), 2);
        assert_eq!(text.matches("/ToUnicode").count(), 2);
        // Subsets, not the 400 KB fonts.
        assert!(pdf.len() < 80_000, "{} bytes", pdf.len());
    }

    #[test]
    fn refuses_a_barcode_that_is_not_44_digits() {
        let mut b = sample();
        b.barcode.pop();
        assert_eq!(render(&b), Err(BoletoPdfError::BadBarcode));
    }

    #[test]
    fn the_barcode_is_drawn_to_febraban_dimensions() {
        // 4 start + 44 × (2 wide + 3 narrow) + stop (wide + 2 narrow) modules.
        let modules = 4.0 + 44.0 * (2.0 * ITF_WIDE_RATIO + 3.0) + (ITF_WIDE_RATIO + 2.0);
        let length = modules * ITF_NARROW_MM;
        assert!((length - 133.65).abs() < 0.01, "{length}");
        assert!(X0 + ITF_QUIET_MM + length + ITF_QUIET_MM <= PAGE_W);
    }

    #[test]
    fn long_text_is_cut_to_its_box_and_unknown_characters_become_question_marks() {
        let mut p = Page::new().unwrap();
        let long = "Maria ".repeat(40);
        p.text(Face::Regular, 8.5, 0.0, 0.0, &long, 50.0);
        p.text(Face::Regular, 8.5, 0.0, 0.0, "Curso 🎸\nde violão", 100.0);
        let texts = texts(&p);
        assert!(texts[0].ends_with('…') && texts[0].starts_with("Maria Maria"));
        let w = p.regular.width_mm(texts[0], 8.5);
        assert!(w <= 50.0 && w > 45.0, "{w} mm");
        assert_eq!(texts[1], "Curso ? de violão");
        // and the page with them still renders.
        let mut b = sample();
        b.payer_name = long;
        b.instructions = vec!["Curso 🎸 de violão".into(); 10];
        assert!(render(&b).unwrap().starts_with(b"%PDF-"));
    }

    #[test]
    fn the_header_fits_the_linha_digitavel_and_the_bank_code() {
        let bold = Font::load(BOLD).unwrap();
        let linha = "00190.00009 01234.567004 00000.042176 5 16560000123456";
        let room = W - CODE_X - CODE_W - 2.0;
        assert!(
            bold.width_mm(linha, LINHA_PT) <= room,
            "{} > {room}",
            bold.width_mm(linha, LINHA_PT)
        );
        assert!(bold.width_mm("001-9", CODE_PT) <= CODE_W - 1.0);
    }

    #[test]
    fn address_lines_skip_what_is_missing() {
        let a = Address {
            address: Some("Rua A".into()),
            number: Some("10".into()),
            city: Some("Recife".into()),
            state: Some("PE".into()),
            zipcode: Some("50000000".into()),
            id: String::new(),
            complement: None,
            neighborhood: None,
        };
        assert_eq!(
            address_lines(&a),
            (
                "Rua A, 10".to_string(),
                "CEP 50000-000 — Recife/PE".to_string()
            )
        );
        let none = Address {
            address: None,
            number: None,
            city: None,
            state: None,
            zipcode: None,
            ..a
        };
        assert_eq!(address_lines(&none), (String::new(), String::new()));
    }
}
