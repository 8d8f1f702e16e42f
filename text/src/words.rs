//! Words more than one screen shows (column headings, field labels, buttons), once.

use crate::Tr;

pub static FULL_NAME: Tr = Tr {
    pt: "Nome completo",
    en: "Full name",
};
pub static NEW_INVOICE: Tr = Tr {
    pt: "Nova cobrança",
    en: "New invoice",
};
pub static DUE_DATE: Tr = Tr {
    pt: "Vencimento",
    en: "Due date",
};
pub static INVOICE_TYPE: Tr = Tr {
    pt: "Tipo de cobrança",
    en: "Invoice type",
};
pub static PRICE: Tr = Tr {
    pt: "Valor (R$)",
    en: "Amount (R$)",
};
pub static PRICE_BY_CUSTOMER: Tr = Tr {
    pt: "O pagador define o valor",
    en: "The payer sets the amount",
};
pub static EVENT: Tr = Tr {
    pt: "Evento",
    en: "Event",
};
pub static WEBHOOKS: Tr = Tr {
    pt: "Webhooks",
    en: "Webhooks",
};
pub static WEBHOOK_URL: Tr = Tr {
    pt: "URL (HTTPS)",
    en: "URL (HTTPS)",
};
pub static ADD_WEBHOOK: Tr = Tr {
    pt: "Adicionar webhook",
    en: "Add webhook",
};
pub static REMOVE: Tr = Tr {
    pt: "Remover",
    en: "Remove",
};
pub static AMOUNT: Tr = Tr {
    pt: "Valor",
    en: "Amount",
};
pub static CUSTOMER: Tr = Tr {
    pt: "Cliente",
    en: "Customer",
};
pub static INSTALLMENT: Tr = Tr {
    pt: "Parcela",
    en: "Installment",
};
pub static STATUS: Tr = Tr {
    pt: "Situação",
    en: "Status",
};
pub static LAST_ERROR: Tr = Tr {
    pt: "Último erro",
    en: "Last error",
};
pub static ADDRESS: Tr = Tr {
    pt: "Endereço",
    en: "Address",
};
pub static EMAIL: Tr = Tr {
    pt: "E-mail",
    en: "E-mail",
};
pub static PHONE: Tr = Tr {
    pt: "Telefone",
    en: "Phone",
};
pub static ACTIONS: Tr = Tr {
    pt: "Ações",
    en: "Actions",
};
pub static BACK: Tr = Tr {
    pt: "Voltar",
    en: "Back",
};
pub static DASHBOARD: Tr = Tr {
    pt: "Painel",
    en: "Dashboard",
};
pub static PAYMENT_LINKS: Tr = Tr {
    pt: "Links de pagamento",
    en: "Payment links",
};
pub static NAME: Tr = Tr {
    pt: "Nome",
    en: "Name",
};
pub static ACTIVE: Tr = Tr {
    pt: "Ativo",
    en: "Active",
};
