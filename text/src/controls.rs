//! The shared form controls (`paylink-ui`): the customer's fields and what a form says while
//! sending or after a failed call.

use crate::Tr;

pub static DOCUMENT: Tr = Tr {
    pt: "CPF ou CNPJ",
    en: "CPF or CNPJ",
};
pub static BUSINESS: Tr = Tr {
    pt: "Razão social",
    en: "Company name",
};
pub static OBSERVATIONS: Tr = Tr {
    pt: "Observações internas",
    en: "Internal notes",
};
pub static PAYER_LANGUAGE: Tr = Tr {
    pt: "Idioma das mensagens ao cliente",
    en: "Language of the customer's messages",
};
pub static STREET: Tr = Tr {
    pt: "Logradouro",
    en: "Street",
};
pub static NUMBER: Tr = Tr {
    pt: "Número",
    en: "Number",
};
pub static COMPLEMENT: Tr = Tr {
    pt: "Complemento",
    en: "Complement",
};
pub static NEIGHBORHOOD: Tr = Tr {
    pt: "Bairro",
    en: "Neighborhood",
};
pub static CITY: Tr = Tr {
    pt: "Cidade",
    en: "City",
};
pub static STATE: Tr = Tr {
    pt: "UF",
    en: "State",
};
pub static ZIPCODE: Tr = Tr {
    pt: "CEP",
    en: "Postal code (CEP)",
};
pub static SELECT: Tr = Tr {
    pt: "Selecione",
    en: "Select",
};
pub static SENDING: Tr = Tr {
    pt: "Enviando…",
    en: "Sending…",
};
pub static FIX_ERRORS: Tr = Tr {
    pt: "Corrija os campos indicados.",
    en: "Fix the fields shown.",
};
pub static NETWORK: Tr = Tr {
    pt: "Falha de conexão. Verifique a rede e tente de novo.",
    en: "Connection failed. Check the network and try again.",
};
pub static BAD_RESPONSE: Tr = Tr {
    pt: "Resposta inesperada do servidor.",
    en: "Unexpected response from the server.",
};
