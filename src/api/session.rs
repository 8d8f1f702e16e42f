//! The operator's session (`/api/session`): log in, who is logged in, log out.

use gloo_net::http::Request;
use paylink_model::operator::{LoginRequest, SessionInfo};

use paylink_model::Lang;

use super::{encode, envelope_of, read, Client, Error};

impl Client {
    /// `POST /api/session`: logs the operator in (the answer is a 204 and the
    /// session cookie). Sent apart from `Client::send`, so the password is
    /// never kept as a pending creation's body.
    pub async fn login(self, req: &LoginRequest, lang: Lang) -> Result<(), Error> {
        let url = self.base().await + "/api/session";
        let body = encode(req)?;
        let resp = Request::post(&url)
            .header("Accept", "application/json")
            .header("Accept-Language", lang.code())
            .header("Content-Type", "application/json")
            .body(body)
            .map_err(|_| Error::Network)?
            .send()
            .await
            .map_err(|_| Error::Network)?;
        if resp.ok() {
            return Ok(());
        }
        let json = resp
            .text()
            .await
            .ok()
            .and_then(|t| js_sys::JSON::parse(&t).ok());
        Err(Error::Api(envelope_of(&resp, json)))
    }

    /// `GET /api/session`: who is logged in (an error when no one is; it does
    /// not send the app to the login screen, the merchant calls do).
    pub async fn get_session(self, lang: Lang) -> Result<SessionInfo, Error> {
        read(self.get("/api/session", lang).await?)
    }

    /// `DELETE /api/session`: logs out (204 whether or not there was a session).
    pub async fn logout(self) -> Result<(), Error> {
        let url = self.base().await + "/api/session";
        let resp = Request::delete(&url)
            .send()
            .await
            .map_err(|_| Error::Network)?;
        match resp.ok() {
            true => Ok(()),
            false => Err(Error::Api(envelope_of(&resp, None))),
        }
    }
}
