//! The messages of field errors (422 `errors`), keyed by the rule they state: the model's
//! `Msg` and the reasons Pix Automático refuses an invoice. The model maps each rule to its
//! message; the values in them (a date, an amount) come formatted for the language.

use crate::{Lang, Tr};

pub static FIELD_REQUIRED: Tr = Tr {
    pt: "Campo obrigatório.",
    en: "This field is required.",
};
pub static FIELD_CPF: Tr = Tr {
    pt: "CPF inválido: confira os dígitos.",
    en: "Invalid CPF: check the digits.",
};
pub static FIELD_CNPJ: Tr = Tr {
    pt: "CNPJ inválido: confira os dígitos.",
    en: "Invalid CNPJ: check the digits.",
};
pub static FIELD_DOCUMENT_LENGTH: Tr = Tr {
    pt: "Informe um CPF (11 dígitos) ou CNPJ (14 caracteres).",
    en: "Enter a CPF (11 digits) or a CNPJ (14 characters).",
};
pub static FIELD_EMAIL: Tr = Tr {
    pt: "E-mail inválido.",
    en: "Invalid e-mail address.",
};
pub static FIELD_PHONE: Tr = Tr {
    pt: "Telefone inválido: informe DDD e número, como (11) 98765-4321; números estrangeiros começam com +.",
    en: "Invalid phone: enter the area code and number, like (11) 98765-4321; foreign numbers start with +.",
};
pub static FIELD_PHONE_DDD: Tr = Tr {
    pt: "DDD inexistente: confira o código de área.",
    en: "No such area code (DDD) in Brazil: check it.",
};
pub static FIELD_UF: Tr = Tr {
    pt: "UF inválida: use a sigla de um dos 27 estados.",
    en: "Invalid state: use one of the 27 two-letter codes.",
};
pub static FIELD_CEP: Tr = Tr {
    pt: "CEP inválido: são 8 dígitos.",
    en: "Invalid CEP: it has 8 digits.",
};
pub static FIELD_UUID: Tr = Tr {
    pt: "Identificador inválido (UUID esperado).",
    en: "Invalid identifier (a UUID is expected).",
};
pub static FIELD_ISO_DATE: Tr = Tr {
    pt: "Data inválida (use AAAA-MM-DD).",
    en: "Invalid date (use YYYY-MM-DD).",
};
/// A date typed in a form: each language's form takes its own format.
pub static FIELD_DATE_INPUT: Tr = Tr {
    pt: "Data inválida: use dd/mm/aaaa.",
    en: "Invalid date: use yyyy-mm-dd.",
};
pub static FIELD_DATE_IN_PAST: Tr = Tr {
    pt: "A data não pode ser anterior a hoje.",
    en: "The date cannot be before today.",
};
pub static FIELD_AT_LEAST_ONE: Tr = Tr {
    pt: "Escolha pelo menos uma opção.",
    en: "Choose at least one option.",
};
pub static FIELD_DUPLICATE: Tr = Tr {
    pt: "Valor repetido.",
    en: "Duplicated value.",
};
pub static FIELD_MIN_PRICE: Tr = Tr {
    pt: "O valor mínimo é R$ 5,00.",
    en: "The minimum amount is R$ 5.00.",
};
pub static FIELD_MAX_PRICE: Tr = Tr {
    pt: "O valor máximo é R$ 99.999.999,99.",
    en: "The maximum amount is R$ 99,999,999.99.",
};
pub static FIELD_TOO_MANY_DECIMALS: Tr = Tr {
    pt: "Use no máximo 2 casas decimais.",
    en: "Use at most 2 decimal places.",
};
pub static FIELD_NEGATIVE: Tr = Tr {
    pt: "O valor não pode ser negativo.",
    en: "The amount cannot be negative.",
};
pub static FIELD_CURSOR: Tr = Tr {
    pt: "Cursor inválido: use o nextCursor da página anterior.",
    en: "Invalid cursor: use the previous page's nextCursor.",
};
pub static FIELD_DATE_IN_FUTURE: Tr = Tr {
    pt: "A data não pode ser posterior a hoje.",
    en: "The date cannot be after today.",
};
pub static FIELD_NOT_A_FILTER: Tr = Tr {
    pt: "Esta lista não tem este filtro.",
    en: "This list has no such filter.",
};
pub static FIELD_INTERNAL_HOST: Tr = Tr {
    pt: "O endereço aponta para uma rede interna; use um host público.",
    en: "The address points to an internal network; use a public host.",
};
pub static FIELD_HTTPS_URL: Tr = Tr {
    pt: "Informe uma URL HTTPS válida.",
    en: "Enter a valid HTTPS URL.",
};
pub static FIELD_URL: Tr = Tr {
    pt: "Informe uma URL http(s) válida.",
    en: "Enter a valid http(s) URL.",
};
pub static FIELD_PLAN_PAST_CALENDAR: Tr = Tr {
    pt: "A última parcela venceria depois de 31/12/9999: escolha um vencimento anterior.",
    en: "The last installment would fall due after 31/12/9999: choose an earlier due date.",
};
pub static FIELD_END_DATE_AFTER_DUE: Tr = Tr {
    pt: "A data final deve ser posterior ao vencimento.",
    en: "The end date must be after the due date.",
};
pub static FIELD_RECURRING_NEEDS_END: Tr = Tr {
    pt: "Uma cobrança recorrente precisa de data final ou parcela final.",
    en: "A recurring invoice needs an end date or an end installment.",
};
pub static FIELD_INSTALLMENT_BELOW_MIN: Tr = Tr {
    pt: "Cada parcela deve ser de pelo menos R$ 5,00.",
    en: "Each installment must be at least R$ 5.00.",
};
pub static FIELD_FIXED_BY_LINK: Tr = Tr {
    pt: "Este valor é definido pelo link de pagamento e não pode ser alterado.",
    en: "This value is set by the payment link and cannot be changed.",
};
pub static FIELD_NOT_ALLOWED_BY_LINK: Tr = Tr {
    pt: "O link de pagamento não permite este valor.",
    en: "The payment link does not allow this value.",
};
pub static FIELD_PAYMENT_TYPE_NOT_OFFERED: Tr = Tr {
    pt: "Este recebedor não aceita esta forma de pagamento.",
    en: "This merchant does not accept this payment type.",
};
pub static FIELD_CUSTOMER_NOT_FROM_LINK: Tr = Tr {
    pt: "Cliente não cadastrado por este link de pagamento.",
    en: "This customer was not registered through this payment link.",
};
pub static FIELD_POSITIVE: Tr = Tr {
    pt: "O valor deve ser maior que zero.",
    en: "The value must be more than zero.",
};
/// A fine above 2 % on a consumer (CPF): CDC art. 52 §1.
pub static FIELD_FINE_ABOVE_CDC: Tr = Tr {
    pt: "Para pagador com CPF, a multa não pode passar de 2 % (Código de Defesa do Consumidor, art. 52 §1º).",
    en: "For a payer with a CPF the fine cannot exceed 2 % (Consumer Protection Code, art. 52 §1).",
};
pub static FIELD_DISCOUNT_NOT_BELOW_AMOUNT: Tr = Tr {
    pt: "O desconto deve ser menor que o valor da cobrança.",
    en: "The discount must be less than the amount charged.",
};
pub static FIELD_DISCOUNT_AFTER_DUE: Tr = Tr {
    pt: "O prazo do desconto não pode ser depois do vencimento.",
    en: "The discount deadline cannot be after the due date.",
};
pub static FIELD_WEBHOOK_EXISTS: Tr = Tr {
    pt: "Esta URL já recebe este evento.",
    en: "This URL already receives this event.",
};
pub static FIELD_SLUG: Tr = Tr {
    pt: "Use de 1 a 64 letras minúsculas sem acento, algarismos e hifens entre eles (como curso-rust).",
    en: "Use 1 to 64 lower-case letters without accents, digits and hyphens between them (like curso-rust).",
};
pub static FIELD_SLUG_TAKEN: Tr = Tr {
    pt: "Já existe um link com este endereço: escolha outro.",
    en: "A link with this address already exists: choose another.",
};

/// A text shorter than `n` characters.
pub fn min_chars(l: Lang, n: usize) -> String {
    match l {
        Lang::PtBr => format!("Use pelo menos {n} caracteres."),
        Lang::En => format!("Use at least {n} characters."),
    }
}

/// A text longer than `n` characters.
pub fn max_chars(l: Lang, n: usize) -> String {
    match l {
        Lang::PtBr => format!("Use no máximo {n} caracteres."),
        Lang::En => format!("Use at most {n} characters."),
    }
}

/// A value not among `allowed` (the wire's values, the same in both languages).
pub fn one_of(l: Lang, allowed: &[&str]) -> String {
    let allowed = allowed.join(", ");
    match l {
        Lang::PtBr => format!("Valor não permitido. Use um destes: {allowed}."),
        Lang::En => format!("Value not allowed. Use one of: {allowed}."),
    }
}

/// A whole number outside `from..=to`.
pub fn int_range(l: Lang, from: i64, to: i64) -> String {
    match l {
        Lang::PtBr => format!("Use um número inteiro entre {from} e {to}."),
        Lang::En => format!("Use a whole number between {from} and {to}."),
    }
}

/// A date before the one in the parameter `other` (`dueTo` before `dueFrom`).
pub fn not_before(l: Lang, other: &str) -> String {
    match l {
        Lang::PtBr => format!("Não pode ser anterior a {other}."),
        Lang::En => format!("Must not be before {other}."),
    }
}

/// A payment received before its invoice was created, on `day` (formatted for `l`).
pub fn before_invoice_created(l: Lang, day: &str) -> String {
    match l {
        Lang::PtBr => format!("A data não pode ser anterior à criação da cobrança ({day})."),
        Lang::En => format!("The date cannot be before the invoice was created ({day})."),
    }
}

/// A payment above `due` (an amount formatted for `l`), what the installment costs.
pub fn above_amount_due(l: Lang, due: &str) -> String {
    match l {
        Lang::PtBr => format!("O valor não pode passar do devido nesta parcela ({due})."),
        Lang::En => format!("The amount cannot exceed what is due on this installment ({due})."),
    }
}

/// A field that only applies when `cond` (a condition on the wire's names, as `type is RECURRING`).
pub fn only_when(l: Lang, cond: &str) -> String {
    match l {
        Lang::PtBr => format!("Só se aplica quando {cond}."),
        Lang::En => format!("Only applies when {cond}."),
    }
}

/// A notification's period shorter than `days`.
pub fn period_min(l: Lang, days: i64) -> String {
    match l {
        Lang::PtBr => format!("O período mínimo é de {days} dias."),
        Lang::En => format!("The minimum period is {days} days."),
    }
}

/// A percentage above its ceiling, `bp` hundredths of a percent: `2`, `2,50` (pt-BR) or
/// `2.50` (en).
pub fn percent_max(l: Lang, bp: i64) -> String {
    let (whole, frac) = (bp / 100, bp % 100);
    match l {
        Lang::PtBr if frac == 0 => format!("O máximo é {whole} %."),
        Lang::PtBr => format!("O máximo é {whole},{frac:02} %."),
        Lang::En if frac == 0 => format!("The maximum is {whole} %."),
        Lang::En => format!("The maximum is {whole}.{frac:02} %."),
    }
}

/// The application has `n` webhooks, as many as it may.
pub fn webhook_limit(l: Lang, n: usize) -> String {
    match l {
        Lang::PtBr => {
            format!("A aplicação já tem {n} webhooks, o máximo: remova um antes de adicionar outro.")
        }
        Lang::En => format!(
            "The application already has {n} webhooks, the most it may have: remove one before adding another."
        ),
    }
}

/// A JSON value of the wrong type; `what` is the expected one in English (`a number`).
pub fn wrong_type(l: Lang, what: &str) -> String {
    let what = expected(l, what);
    match l {
        Lang::PtBr => format!("Tipo inválido: esperado {what}."),
        Lang::En => format!("Wrong type: expected {what}."),
    }
}

/// What a JSON value was expected to be, in `l`, from its English words (`a whole number`);
/// words without a translation are given back as they are.
///
/// ```
/// use paylink_text::{expected, Lang};
/// assert_eq!(expected(Lang::PtBr, "a whole number"), "um número inteiro");
/// assert_eq!(expected(Lang::En, "a whole number"), "a whole number");
/// ```
pub fn expected(l: Lang, what: &str) -> &str {
    let pt = match what {
        "a number" => "um número",
        "a whole number" => "um número inteiro",
        "a string" => "um texto",
        "a boolean" => "verdadeiro ou falso",
        "an array" => "uma lista",
        "an object" => "um objeto",
        other => other,
    };
    match l {
        Lang::PtBr => pt,
        Lang::En => what,
    }
}

// Why an invoice cannot be charged through Pix Automático.
pub static PIX_AUTOMATICO_NO_API_PIX: Tr = Tr {
    pt: "O Pix Automático precisa da API Pix de um banco: inicie o paylink com --pix-api-url.",
    en: "Pix Automático needs a bank's API Pix: start paylink with --pix-api-url.",
};
pub static PIX_AUTOMATICO_MERCHANT_NOT_COMPANY: Tr = Tr {
    pt: "Só empresas recebem por Pix Automático: o documento do recebedor (--merchant-document) precisa ser um CNPJ.",
    en: "Only companies receive through Pix Automático: the merchant's document (--merchant-document) must be a CNPJ.",
};
pub static PIX_AUTOMATICO_PAYER_WITHOUT_DOCUMENT: Tr = Tr {
    pt: "O cliente precisa de CPF ou CNPJ para autorizar o Pix Automático.",
    en: "The customer needs a CPF or CNPJ to authorize Pix Automático.",
};
pub static PIX_AUTOMATICO_PRICE_BY_CUSTOMER: Tr = Tr {
    pt: "O Pix Automático cobra um valor fixo: não se aplica quando priceByCustomer é true.",
    en: "Pix Automático charges a fixed amount: it does not apply when priceByCustomer is true.",
};
pub static PIX_AUTOMATICO_PIX_NOT_ACCEPTED: Tr = Tr {
    pt: "O Pix Automático precisa que a cobrança aceite PIX (paymentTypes).",
    en: "Pix Automático needs the invoice to accept PIX (paymentTypes).",
};

/// A frequency (its wire name, `BIMONTHLY`) with no periodicity in Pix Automático.
pub fn pix_automatico_no_periodicity(l: Lang, frequency: &str) -> String {
    match l {
        Lang::PtBr => format!("O Pix Automático não tem a frequência {frequency}: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER ou YEARLY."),
        Lang::En => format!("Pix Automático has no {frequency} frequency: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER or YEARLY."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The texts as `paylink-model` wrote them before they were moved here (tests in model/,
    // server/ and the browser compare them byte for byte).
    #[test]
    fn the_messages_are_the_ones_the_model_wrote() {
        assert_eq!(FIELD_REQUIRED.t(Lang::PtBr), "Campo obrigatório.");
        assert_eq!(FIELD_REQUIRED.t(Lang::En), "This field is required.");
        assert_eq!(min_chars(Lang::PtBr, 3), "Use pelo menos 3 caracteres.");
        assert_eq!(min_chars(Lang::En, 3), "Use at least 3 characters.");
        assert_eq!(
            one_of(Lang::PtBr, &["PIX", "BOLETO"]),
            "Valor não permitido. Use um destes: PIX, BOLETO."
        );
        assert_eq!(
            one_of(Lang::En, &["PIX", "BOLETO"]),
            "Value not allowed. Use one of: PIX, BOLETO."
        );
        assert_eq!(percent_max(Lang::PtBr, 250), "O máximo é 2,50 %.");
        assert_eq!(percent_max(Lang::En, 1000), "The maximum is 10 %.");
        assert_eq!(
            wrong_type(Lang::PtBr, "a whole number"),
            "Tipo inválido: esperado um número inteiro."
        );
        assert_eq!(
            wrong_type(Lang::En, "a whole number"),
            "Wrong type: expected a whole number."
        );
        assert_eq!(
            wrong_type(Lang::PtBr, "a date"),
            "Tipo inválido: esperado a date."
        );
    }
}
