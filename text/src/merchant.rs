//! The merchant app's customer and invoice forms, the invoice's detail and the app's frame
//! (tagline, language switch, not-found page).

use crate::Tr;

pub static TAGLINE: Tr = Tr {
    pt: "Cobranças por PIX e boleto",
    en: "Invoices paid by PIX and boleto",
};
pub static LANGUAGE: Tr = Tr {
    pt: "Idioma",
    en: "Language",
};
pub static NEW_CUSTOMER: Tr = Tr {
    pt: "Novo cliente",
    en: "New customer",
};
pub static CREATE_CUSTOMER: Tr = Tr {
    pt: "Cadastrar cliente",
    en: "Create customer",
};
pub static HAVE_CUSTOMER: Tr = Tr {
    pt: "Cliente já cadastrado: criar cobrança",
    en: "A customer I already have: create an invoice",
};
pub static CUSTOMER_HINT: Tr = Tr {
    pt: "Digite o nome, o CPF/CNPJ ou o e-mail e escolha na lista.",
    en: "Type the name, CPF/CNPJ or e-mail and choose from the list.",
};
pub static EXTERNAL_ID: Tr = Tr {
    pt: "ID externo (seu sistema)",
    en: "External ID (your system)",
};
pub static PAYMENT_TYPES: Tr = Tr {
    pt: "Formas de pagamento",
    en: "Payment methods",
};
pub static INSTALLMENT_COUNT: Tr = Tr {
    pt: "Número de parcelas",
    en: "Number of installments",
};
pub static FREQUENCY_LABEL: Tr = Tr {
    pt: "Frequência",
    en: "Frequency",
};
pub static END_DATE: Tr = Tr {
    pt: "Data final",
    en: "End date",
};
pub static END_INSTALLMENT: Tr = Tr {
    pt: "Parcela final",
    en: "Last installment",
};
pub static END_SUBSCRIPTION: Tr = Tr {
    pt: "Término da assinatura",
    en: "Subscription end",
};
pub static PIX_AUTOMATICO_OFFER: Tr = Tr {
    pt: "Pix Automático: o pagador autoriza uma vez e o banco dele paga cada cobrança",
    en: "Pix Automático: the payer authorizes once and their bank pays each charge",
};
pub static PIX_AUTOMATICO_RETRIES: Tr = Tr {
    pt: "Tentar de novo uma cobrança que falhar (até 3 vezes em 7 dias)",
    en: "Try a failed charge again (up to 3 times within 7 days)",
};
pub static DESCRIPTION: Tr = Tr {
    pt: "Descrição para o pagador",
    en: "Description for the payer",
};
pub static NOTIFICATIONS: Tr = Tr {
    pt: "Notificações ao pagador",
    en: "Payer notifications",
};
pub static CHANNEL: Tr = Tr {
    pt: "Canal",
    en: "Channel",
};
pub static PERIOD_DAYS: Tr = Tr {
    pt: "Dias (mínimo 5)",
    en: "Days (at least 5)",
};
pub static ADD_NOTIFICATION: Tr = Tr {
    pt: "Adicionar notificação",
    en: "Add notification",
};
pub static REDIRECT_TO: Tr = Tr {
    pt: "Redirecionar após o pagamento (URL)",
    en: "Redirect after payment (URL)",
};
pub static PREVIEW: Tr = Tr {
    pt: "Prévia das parcelas",
    en: "Installment preview",
};
pub static PREVIEW_EMPTY: Tr = Tr {
    pt: "Informe valor e vencimento para ver as parcelas.",
    en: "Enter an amount and a due date to see the installments.",
};
pub static CREATE_INVOICE: Tr = Tr {
    pt: "Criar cobrança",
    en: "Create invoice",
};
pub static BACK_TO_CUSTOMER: Tr = Tr {
    pt: "Voltar ao cadastro de cliente",
    en: "Back to the customer form",
};
pub static PRICE_FORMAT: Tr = Tr {
    pt: "Valor inválido: use o formato 1.234,56.",
    en: "Invalid amount: use the format 1.234,56.",
};
pub static INVOICE: Tr = Tr {
    pt: "Cobrança",
    en: "Invoice",
};
pub static AMOUNT_BY_PAYER: Tr = Tr {
    pt: "Definido pelo pagador",
    en: "Set by the payer",
};
pub static CONTACT: Tr = Tr {
    pt: "Contato",
    en: "Contact",
};
pub static INSTALLMENTS: Tr = Tr {
    pt: "Parcelas",
    en: "Installments",
};
pub static PAID: Tr = Tr {
    pt: "Pago",
    en: "Paid",
};
pub static TOTAL: Tr = Tr {
    pt: "Total",
    en: "Total",
};
pub static ACCEPTED: Tr = Tr {
    pt: "Formas de pagamento aceitas",
    en: "Accepted payment methods",
};
pub static PAYMENT_LINK: Tr = Tr {
    pt: "Link de pagamento",
    en: "Payment link",
};
pub static COPY_LINK: Tr = Tr {
    pt: "Copiar link",
    en: "Copy link",
};
pub static COPIED: Tr = Tr {
    pt: "Copiado.",
    en: "Copied.",
};
pub static COPY_FAILED: Tr = Tr {
    pt: "Não foi possível copiar; selecione o link e copie manualmente.",
    en: "Could not copy; select the link and copy it by hand.",
};
pub static CONFIGURED_NOTIFICATIONS: Tr = Tr {
    pt: "Notificações configuradas",
    en: "Configured notifications",
};
pub static CONFIGURED_WEBHOOKS: Tr = Tr {
    pt: "Webhooks configurados",
    en: "Configured webhooks",
};
pub static NOTIFICATION_SENDS: Tr = Tr {
    pt: "Envios de notificações",
    en: "Notification sends",
};
pub static SENT_TO: Tr = Tr {
    pt: "Para",
    en: "To",
};
pub static WHEN: Tr = Tr {
    pt: "Quando",
    en: "When",
};
pub static PROVIDER_ID: Tr = Tr {
    pt: "ID no provedor",
    en: "Provider id",
};
pub static NONE: Tr = Tr {
    pt: "Nenhum.",
    en: "None.",
};
pub static LOADING: Tr = Tr {
    pt: "Carregando…",
    en: "Loading…",
};
pub static LOADING_CUSTOMER: Tr = Tr {
    pt: "Carregando o cliente…",
    en: "Loading the customer…",
};
pub static DAYS: Tr = Tr {
    pt: "Dias",
    en: "Days",
};
pub static NOT_FOUND: Tr = Tr {
    pt: "Página não encontrada.",
    en: "Page not found.",
};
pub static GO_HOME: Tr = Tr {
    pt: "Criar uma cobrança",
    en: "Create an invoice",
};
pub static TERMS: Tr = Tr {
    pt: "Multa, juros e desconto (opcionais)",
    en: "Fine, interest and discount (optional)",
};
pub static FINE_TYPE: Tr = Tr {
    pt: "Tipo de multa",
    en: "Fine type",
};
pub static FINE_VALUE: Tr = Tr {
    pt: "Multa (% ou R$)",
    en: "Fine (% or R$)",
};
pub static INTEREST_VALUE: Tr = Tr {
    pt: "Juros de mora (% ao mês)",
    en: "Late interest (% a month)",
};
pub static DISCOUNT_TYPE: Tr = Tr {
    pt: "Tipo de desconto",
    en: "Discount type",
};
pub static DISCOUNT_VALUE: Tr = Tr {
    pt: "Desconto (% ou R$)",
    en: "Discount (% or R$)",
};
pub static DISCOUNT_UNTIL: Tr = Tr {
    pt: "Desconto até",
    en: "Discount until",
};
pub static PERCENTAGE: Tr = Tr {
    pt: "Percentual (%)",
    en: "Percentage (%)",
};
pub static FIXED_AMOUNT: Tr = Tr {
    pt: "Valor fixo (R$)",
    en: "Fixed amount (R$)",
};
pub static NUMBER_FORMAT: Tr = Tr {
    pt: "Número inválido: use o formato 2,5 ou 1.234,56.",
    en: "Invalid number: use the format 2,5 or 1.234,56.",
};
pub static FINE: Tr = Tr {
    pt: "Multa",
    en: "Fine",
};
pub static INTEREST: Tr = Tr {
    pt: "Juros de mora",
    en: "Late interest",
};
pub static DISCOUNT: Tr = Tr {
    pt: "Desconto",
    en: "Discount",
};
pub static PER_MONTH: Tr = Tr {
    pt: "ao mês",
    en: "a month",
};
pub static UNTIL: Tr = Tr {
    pt: "até",
    en: "until",
};

use crate::{around, Around, Lang};

/// "Cliente cadastrado: {name}", around the customer's name.
pub fn customer_created(l: Lang) -> Around {
    match l {
        Lang::PtBr => around("Cliente cadastrado: ", ""),
        Lang::En => around("Customer created: ", ""),
    }
}

/// "Cobrança para {name}", around the customer's name.
pub fn charge_for(l: Lang) -> Around {
    match l {
        Lang::PtBr => around("Cobrança para ", ""),
        Lang::En => around("Invoice for ", ""),
    }
}

/// Where to find a customer already had, around the link to the customer list.
pub fn pick_customer(l: Lang) -> Around {
    match l {
        Lang::PtBr => around(
            "Cliente já cadastrado? Encontre-o em ",
            " e escolha \u{201c}Nova cobrança\u{201d}.",
        ),
        Lang::En => around(
            "A customer you already have? Find them in ",
            " and choose \u{201c}New invoice\u{201d}.",
        ),
    }
}

/// The heading of the invoice form's notification row `n` (from 1).
pub fn notification_n(l: Lang, n: usize) -> String {
    match l {
        Lang::PtBr => format!("Notificação {n}"),
        Lang::En => format!("Notification {n}"),
    }
}

/// The heading of the invoice form's webhook row `n` (from 1).
pub fn webhook_n(l: Lang, n: usize) -> String {
    match l {
        Lang::PtBr => format!("Webhook {n}"),
        Lang::En => format!("Webhook {n}"),
    }
}

/// The label of the button that removes the row headed `row`.
pub fn remove_row(l: Lang, row: &str) -> String {
    match l {
        Lang::PtBr => format!("Remover {row}"),
        Lang::En => format!("Remove {row}"),
    }
}

/// How many customers a search found, with its plural ("Nenhum cliente encontrado.",
/// "1 cliente encontrado.", "3 clientes encontrados.").
pub fn customers_found(l: Lang, n: usize) -> String {
    match (l, n) {
        (Lang::PtBr, 0) => "Nenhum cliente encontrado.".into(),
        (Lang::PtBr, 1) => "1 cliente encontrado.".into(),
        (Lang::PtBr, n) => format!("{n} clientes encontrados."),
        (Lang::En, 0) => "No customer found.".into(),
        (Lang::En, 1) => "1 customer found.".into(),
        (Lang::En, n) => format!("{n} customers found."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(customers_found(Lang::PtBr, 1), "1 cliente encontrado.");
        assert_eq!(customers_found(Lang::PtBr, 2), "2 clientes encontrados.");
        assert_eq!(customers_found(Lang::En, 0), "No customer found.");
        assert_eq!(customers_found(Lang::En, 5), "5 customers found.");
    }

    #[test]
    fn a_value_goes_where_the_language_puts_it() {
        assert_eq!(
            pick_customer(Lang::En),
            Around {
                before: "A customer you already have? Find them in ",
                after: " and choose \u{201c}New invoice\u{201d}."
            }
        );
        assert_eq!(
            remove_row(Lang::PtBr, "Notificação 2"),
            "Remover Notificação 2"
        );
    }
}
