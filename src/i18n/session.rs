//! The login screen's and the operator's texts (`/login`, the name and the
//! logout button in the merchant navigation), in pt-BR and English. Kept
//! apart from [`super::K`] so these grow without touching the forms' keys.

use paylink_model::Lang;

/// Keys of the session texts. `SK::LogIn.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SK {
    Title,
    Intro,
    Email,
    Password,
    LogIn,
    LogOut,
    LoggedInAs,
    WrongCredentials,
    Throttled,
}

impl SK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use SK::*;
        match self {
            Title => ("Entrar", "Log in"),
            Intro => (
                "Entre com a sua conta de operador para usar as telas do lojista.",
                "Log in with your operator account to use the merchant's screens.",
            ),
            Email => ("E-mail", "E-mail"),
            Password => ("Senha", "Password"),
            LogIn => ("Entrar", "Log in"),
            LogOut => ("Sair", "Log out"),
            LoggedInAs => ("Conectado como {name}", "Logged in as {name}"),
            WrongCredentials => (
                "E-mail ou senha incorretos. Confira e tente novamente.",
                "Wrong e-mail or password. Check them and try again.",
            ),
            Throttled => (
                "Muitas tentativas erradas: o login está bloqueado por alguns minutos.",
                "Too many failed attempts: logging in is blocked for a few minutes.",
            ),
        }
    }
}
