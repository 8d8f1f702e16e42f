//! The payment links screen's calls (`/api/payment-links…`, the proxy's
//! routes under the operator's session): list, create, read one with its QR
//! code, turn one off or on.

use paylink_model::link_spec::{LinkList, LinkRequest, MerchantLink};
use paylink_model::Lang;

use super::{encode, id_path, read, Client, Error};

impl Client {
    /// `GET /api/payment-links`: every link, with what each brought in.
    pub async fn list_links(self, lang: Lang) -> Result<LinkList, Error> {
        read(self.get("/api/payment-links", lang).await?)
    }

    /// `POST /api/payment-links`.
    pub async fn create_link(self, req: &LinkRequest, lang: Lang) -> Result<MerchantLink, Error> {
        read(
            self.post("/api/payment-links", Some(encode(req)?), lang)
                .await?,
        )
    }

    /// `GET /api/payment-links/{slug}`: the link with the QR code of its page.
    pub async fn get_link(self, slug: &str, lang: Lang) -> Result<MerchantLink, Error> {
        read(
            self.get(&id_path("/api/payment-links/", slug, ""), lang)
                .await?,
        )
    }

    /// `POST /api/payment-links/{slug}/deactivate` or `…/reactivate`.
    pub async fn set_link_active(
        self,
        slug: &str,
        active: bool,
        lang: Lang,
    ) -> Result<MerchantLink, Error> {
        let tail = if active { "/reactivate" } else { "/deactivate" };
        read(
            self.post(&id_path("/api/payment-links/", slug, tail), None, lang)
                .await?,
        )
    }
}
