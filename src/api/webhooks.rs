//! The webhooks screens' calls (`/api/webhooks…`, `/api/deliveries…`):
//! endpoints, the signing secret, deliveries and a redelivery.

use gloo_net::http::Request;

use paylink_model::webhooks::{
    AppWebhook, AppWebhookList, AppWebhookRequest, Delivery, DeliveryPage, SigningSecret,
};
use paylink_model::Lang;

use super::{encode, id_path, read, Client, Error};

impl Client {
    /// `GET /api/webhooks`: the application's webhooks (never the secret).
    pub async fn list_webhooks(self, lang: Lang) -> Result<AppWebhookList, Error> {
        read(self.get("/api/webhooks", lang).await?)
    }

    /// `POST /api/webhooks`: the webhook, with the signing secret when it made it.
    pub async fn add_webhook(
        self,
        req: &AppWebhookRequest,
        lang: Lang,
    ) -> Result<AppWebhook, Error> {
        read(self.post("/api/webhooks", Some(encode(req)?), lang).await?)
    }

    /// `DELETE /api/webhooks/{id}` (204).
    pub async fn remove_webhook(self, id: &str, lang: Lang) -> Result<(), Error> {
        let path = id_path("/api/webhooks/", id, "");
        let url = self.base().await + &path;
        self.send(Request::delete(&url), &path, None, lang)
            .await
            .map(|_| ())
    }

    /// `POST /api/webhooks/secret`: a new signing secret, shown this once.
    pub async fn rotate_webhook_secret(self, lang: Lang) -> Result<SigningSecret, Error> {
        read(self.post("/api/webhooks/secret", None, lang).await?)
    }

    /// `GET /api/deliveries?…`: one page of deliveries.
    pub async fn list_deliveries(self, query: &str, lang: Lang) -> Result<DeliveryPage, Error> {
        read(self.get(&format!("/api/deliveries{query}"), lang).await?)
    }

    /// `POST /api/deliveries/{id}/redeliver`: the delivery, due again now.
    pub async fn redeliver(self, id: &str, lang: Lang) -> Result<Delivery, Error> {
        read(
            self.post(&id_path("/api/deliveries/", id, "/redeliver"), None, lang)
                .await?,
        )
    }
}
