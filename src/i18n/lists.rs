//! The list screens' texts (`/invoices`, `/customers`) and the merchant
//! navigation, in pt-BR and English. Kept apart from [`super::K`] so the
//! forms' keys and these grow without touching each other.

use paylink_model::{InvoiceState, Lang};

/// Keys of the list screens' texts. `LK::Invoices.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LK {
    Nav,
    Webhooks,
    Dashboard,
    NewCharge,
    Invoices,
    Customers,
    Links,
    Filters,
    Status,
    AnyStatus,
    PixAutomatico,
    AnyPixAutomatico,
    DueFrom,
    DueTo,
    Search,
    SearchInvoicesHint,
    SearchCustomersHint,
    Filter,
    Clear,
    NextPage,
    FirstPage,
    ExportCsv,
    Pages,
    NoInvoices,
    NoCustomers,
    FixFilters,
    ExternalId,
    Customer,
    DueDate,
    Amount,
    Name,
    Document,
    Email,
    Phone,
    InvoicesOf,
    NewChargeFor,
}

impl LK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use LK::*;
        match self {
            Nav => ("Navegação", "Navigation"),
            Webhooks => ("Webhooks", "Webhooks"),
            Dashboard => ("Painel", "Dashboard"),
            NewCharge => ("Nova cobrança", "New invoice"),
            Invoices => ("Faturas", "Invoices"),
            Customers => ("Clientes", "Customers"),
            Links => ("Links de pagamento", "Payment links"),
            Filters => ("Filtros", "Filters"),
            Status => ("Situação", "Status"),
            AnyStatus => ("Não canceladas", "Not cancelled"),
            PixAutomatico => ("Pix Automático", "Pix Automático"),
            AnyPixAutomatico => ("Com ou sem", "With or without"),
            DueFrom => ("Vencimento a partir de", "Due from"),
            DueTo => ("Vencimento até", "Due until"),
            Search => ("Buscar", "Search"),
            SearchInvoicesHint => (
                "Nome, documento ou e-mail do cliente, ou identificador externo",
                "Customer's name, document or e-mail, or external id",
            ),
            SearchCustomersHint => ("Nome, documento ou e-mail", "Name, document or e-mail"),
            Filter => ("Filtrar", "Filter"),
            Clear => ("Limpar filtros", "Clear filters"),
            NextPage => ("Próxima página", "Next page"),
            FirstPage => ("Primeira página", "First page"),
            ExportCsv => ("Baixar planilha (CSV)", "Download spreadsheet (CSV)"),
            Pages => ("Páginas", "Pages"),
            NoInvoices => ("Nenhuma fatura encontrada.", "No invoices found."),
            NoCustomers => ("Nenhum cliente encontrado.", "No customers found."),
            FixFilters => (
                "Corrija os filtros destacados.",
                "Fix the highlighted filters.",
            ),
            ExternalId => ("Identificador externo", "External id"),
            Customer => ("Cliente", "Customer"),
            DueDate => ("Vencimento", "Due date"),
            Amount => ("Valor", "Amount"),
            Name => ("Nome", "Name"),
            Document => ("CPF/CNPJ", "CPF/CNPJ"),
            Email => ("E-mail", "E-mail"),
            Phone => ("Telefone", "Phone"),
            InvoicesOf => ("Faturas de {name}", "Invoices of {name}"),
            NewChargeFor => ("Nova cobrança para {name}", "New invoice for {name}"),
        }
    }
}

/// An invoice's state as the list shows it.
pub fn state(lang: Lang, s: InvoiceState) -> &'static str {
    let (pt, en) = match s {
        InvoiceState::Open => ("Em aberto", "Open"),
        InvoiceState::Paid => ("Paga", "Paid"),
        InvoiceState::Overdue => ("Vencida", "Overdue"),
        InvoiceState::Cancelled => ("Cancelada", "Cancelled"),
    };
    if lang == Lang::PtBr {
        pt
    } else {
        en
    }
}
