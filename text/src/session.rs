//! The login screen and the operator's name in the navigation.

use crate::Tr;

pub static LOG_IN: Tr = Tr {
    pt: "Entrar",
    en: "Log in",
};
pub static INTRO: Tr = Tr {
    pt: "Entre com a sua conta de operador para usar as telas do lojista.",
    en: "Log in with your operator account to use the merchant's screens.",
};
pub static PASSWORD: Tr = Tr {
    pt: "Senha",
    en: "Password",
};
pub static LOG_OUT: Tr = Tr {
    pt: "Sair",
    en: "Log out",
};
pub static WRONG_CREDENTIALS: Tr = Tr {
    pt: "E-mail ou senha incorretos. Confira e tente novamente.",
    en: "Wrong e-mail or password. Check them and try again.",
};
pub static THROTTLED: Tr = Tr {
    pt: "Muitas tentativas erradas: o login está bloqueado por alguns minutos.",
    en: "Too many failed attempts: logging in is blocked for a few minutes.",
};

use crate::{around, Around, Lang};

/// "Conectado como {name}", around the operator's name.
pub fn logged_in_as(l: Lang) -> Around {
    match l {
        Lang::PtBr => around("Conectado como ", ""),
        Lang::En => around("Logged in as ", ""),
    }
}
