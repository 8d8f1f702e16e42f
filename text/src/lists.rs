//! The list screens (`/invoices`, `/customers`): filters, paging, columns; and the merchant's
//! navigation.

use crate::Tr;

pub static NAV: Tr = Tr {
    pt: "Navegação",
    en: "Navigation",
};
pub static INVOICES: Tr = Tr {
    pt: "Faturas",
    en: "Invoices",
};
pub static CUSTOMERS: Tr = Tr {
    pt: "Clientes",
    en: "Customers",
};
pub static FILTERS: Tr = Tr {
    pt: "Filtros",
    en: "Filters",
};
pub static ANY_STATUS: Tr = Tr {
    pt: "Não canceladas",
    en: "Not cancelled",
};
pub static PIX_AUTOMATICO: Tr = Tr {
    pt: "Pix Automático",
    en: "Pix Automático",
};
pub static ANY_PIX_AUTOMATICO: Tr = Tr {
    pt: "Com ou sem",
    en: "With or without",
};
pub static DUE_FROM: Tr = Tr {
    pt: "Vencimento a partir de",
    en: "Due from",
};
pub static DUE_TO: Tr = Tr {
    pt: "Vencimento até",
    en: "Due until",
};
pub static SEARCH: Tr = Tr {
    pt: "Buscar",
    en: "Search",
};
pub static SEARCH_INVOICES_HINT: Tr = Tr {
    pt: "Nome, documento ou e-mail do cliente, ou identificador externo",
    en: "Customer's name, document or e-mail, or external id",
};
pub static SEARCH_CUSTOMERS_HINT: Tr = Tr {
    pt: "Nome, documento ou e-mail",
    en: "Name, document or e-mail",
};
pub static FILTER: Tr = Tr {
    pt: "Filtrar",
    en: "Filter",
};
pub static CLEAR: Tr = Tr {
    pt: "Limpar filtros",
    en: "Clear filters",
};
pub static NEXT_PAGE: Tr = Tr {
    pt: "Próxima página",
    en: "Next page",
};
pub static FIRST_PAGE: Tr = Tr {
    pt: "Primeira página",
    en: "First page",
};
pub static EXPORT_CSV: Tr = Tr {
    pt: "Baixar planilha (CSV)",
    en: "Download spreadsheet (CSV)",
};
pub static PAGES: Tr = Tr {
    pt: "Páginas",
    en: "Pages",
};
pub static NO_INVOICES: Tr = Tr {
    pt: "Nenhuma fatura encontrada.",
    en: "No invoices found.",
};
pub static NO_CUSTOMERS: Tr = Tr {
    pt: "Nenhum cliente encontrado.",
    en: "No customers found.",
};
pub static FIX_FILTERS: Tr = Tr {
    pt: "Corrija os filtros destacados.",
    en: "Fix the highlighted filters.",
};
pub static LIST_EXTERNAL_ID: Tr = Tr {
    pt: "Identificador externo",
    en: "External id",
};
pub static LIST_DOCUMENT: Tr = Tr {
    pt: "CPF/CNPJ",
    en: "CPF/CNPJ",
};

use crate::Lang;

/// The label of the link to customer `name`'s invoices.
pub fn invoices_of(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Faturas de {name}"),
        Lang::En => format!("Invoices of {name}"),
    }
}

/// The label of the button that charges customer `name`.
pub fn new_charge_for(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Nova cobrança para {name}"),
        Lang::En => format!("New invoice for {name}"),
    }
}

/// A customer row's button: a new link to the customer's page of charges, copied.
pub static COPY_CHARGES_LINK: Tr = Tr {
    pt: "Copiar link das cobranças",
    en: "Copy the charges link",
};

/// A customer row's button: every link to the customer's page of charges ended.
pub static REVOKE_CHARGES_LINKS: Tr = Tr {
    pt: "Revogar links",
    en: "Revoke links",
};

/// What revoking the customer's links did.
pub static CHARGES_LINKS_REVOKED: Tr = Tr {
    pt: "Links revogados.",
    en: "Links revoked.",
};

/// Beside a new charges link shown: it is on the clipboard too.
pub static LINK_COPIED: Tr = Tr {
    pt: "(copiado)",
    en: "(copied)",
};
