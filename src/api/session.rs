//! The operator's session (`/api/session`): log in, who is logged in, log out.

use gloo_net::http::Request;
use paylink_model::operator::{LoginRequest, SessionInfo};
use paylink_model::Lang;
use paylink_ui::api::{self, Body};

use super::{encode, parsed, read, Client, Error};

impl Client {
    /// `POST /api/session`: logs the operator in (the answer is a 204 and the
    /// session cookie). Sent with no idempotency key, so the password is never
    /// kept as a pending creation's body.
    pub async fn login(self, req: &LoginRequest, lang: Lang) -> Result<(), Error> {
        let url = self.base().await + "/api/session";
        let body = Body::plain(encode(req)?);
        parsed(api::send(Request::post(&url), lang, Some(body)).await).map(drop)
    }

    /// `GET /api/session`: who is logged in (an error when no one is; it does
    /// not send the app to the login screen, the merchant calls do).
    pub async fn get_session(self, lang: Lang) -> Result<SessionInfo, Error> {
        read(self.get("/api/session", lang).await?)
    }

    /// `DELETE /api/session`: logs out (204 whether or not there was a session).
    pub async fn logout(self) -> Result<(), Error> {
        let url = self.base().await + "/api/session";
        parsed(api::send(Request::delete(&url), Lang::default(), None).await).map(drop)
    }
}
