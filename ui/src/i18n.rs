//! The words of the shared controls, in pt-BR and English: the customer's
//! field labels and what a form says while sending or after a failed call.

use paylink_model::Lang;

/// `U::FullName.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum U {
    FullName,
    Document,
    Business,
    Email,
    Phone,
    Observations,
    PayerLanguage,
    AddressLegend,
    Street,
    Number,
    Complement,
    Neighborhood,
    City,
    State,
    Zipcode,
    Select,
    Sending,
    FixErrors,
    Network,
    BadResponse,
}

impl U {
    pub fn t(self, l: Lang) -> &'static str {
        use U::*;
        let (pt, en) = match self {
            FullName => ("Nome completo", "Full name"),
            Document => ("CPF ou CNPJ", "CPF or CNPJ"),
            Business => ("Razão social", "Company name"),
            Email => ("E-mail", "E-mail"),
            Phone => ("Telefone", "Phone"),
            Observations => ("Observações internas", "Internal notes"),
            PayerLanguage => (
                "Idioma das mensagens ao cliente",
                "Language of the customer's messages",
            ),
            AddressLegend => ("Endereço", "Address"),
            Street => ("Logradouro", "Street"),
            Number => ("Número", "Number"),
            Complement => ("Complemento", "Complement"),
            Neighborhood => ("Bairro", "Neighborhood"),
            City => ("Cidade", "City"),
            State => ("UF", "State"),
            Zipcode => ("CEP", "Postal code (CEP)"),
            Select => ("Selecione", "Select"),
            Sending => ("Enviando…", "Sending…"),
            FixErrors => ("Corrija os campos indicados.", "Fix the fields shown."),
            Network => (
                "Falha de conexão. Verifique a rede e tente de novo.",
                "Connection failed. Check the network and try again.",
            ),
            BadResponse => (
                "Resposta inesperada do servidor.",
                "Unexpected response from the server.",
            ),
        };
        match l {
            Lang::PtBr => pt,
            Lang::En => en,
        }
    }
}
