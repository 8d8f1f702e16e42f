//! The merchant's calls about customers and invoices (`/api/customers…`,
//! `/api/invoices…`, the dashboard) and the payer page's data (`/api/pay/`).

use gloo_net::http::Request;
use paylink_model::actions::{ManualPaymentRequest, Resent};
use paylink_model::{
    CustomerDetail, CustomerPage, CustomerRef, CustomerRequest, Dashboard, InvoiceCreated,
    InvoiceDetail, InvoicePage, InvoiceRequest, Lang, PayerView,
};

use super::{encode, id_path, read, Client, Error};

impl Client {
    /// `POST /api/customers`. The answer is the model's `Customer`; the app
    /// reads it as a `CustomerRef` (id and name: all it shows).
    pub async fn create_customer(
        self,
        req: &CustomerRequest,
        lang: Lang,
    ) -> Result<CustomerRef, Error> {
        read(
            self.post("/api/customers", Some(encode(req)?), lang)
                .await?,
        )
    }

    /// `POST /api/invoices`.
    pub async fn create_invoice(
        self,
        req: &InvoiceRequest,
        lang: Lang,
    ) -> Result<InvoiceCreated, Error> {
        read(self.post("/api/invoices", Some(encode(req)?), lang).await?)
    }

    pub async fn get_invoice(self, id: &str, lang: Lang) -> Result<InvoiceDetail, Error> {
        read(self.get(&id_path("/api/invoices/", id, ""), lang).await?)
    }

    /// `GET /api/invoices?…`: one page of the invoice list (`query` from
    /// [`query_string`](super::query_string)).
    pub async fn list_invoices(self, query: &str, lang: Lang) -> Result<InvoicePage, Error> {
        read(self.get(&format!("/api/invoices{query}"), lang).await?)
    }

    /// `GET /api/customers/{id}`: one customer (a new charge's `?customer=`).
    pub async fn get_customer(self, id: &str, lang: Lang) -> Result<CustomerDetail, Error> {
        read(self.get(&id_path("/api/customers/", id, ""), lang).await?)
    }

    /// `POST /api/customers/{id}/charges-link`: a new link to the customer's page of charges,
    /// shown this once. `DELETE` revokes every link of theirs (204).
    pub async fn charges_link(
        self,
        id: &str,
        revoke: bool,
        lang: Lang,
    ) -> Result<Option<paylink_model::ChargesLink>, Error> {
        let path = id_path("/api/customers/", id, "/charges-link");
        if !revoke {
            return read(self.post(&path, None, lang).await?).map(Some);
        }
        let url = self.base().await + &path;
        self.send(Request::delete(&url), &path, None, lang)
            .await
            .map(|_| None)
    }

    /// `GET /api/customers?…`: one page of the customer list.
    pub async fn list_customers(self, query: &str, lang: Lang) -> Result<CustomerPage, Error> {
        read(self.get(&format!("/api/customers{query}"), lang).await?)
    }

    /// `DELETE /api/invoices/{id}`: cancels the invoice (204).
    pub async fn cancel_invoice(self, id: &str, lang: Lang) -> Result<(), Error> {
        let path = id_path("/api/invoices/", id, "");
        let url = self.base().await + &path;
        self.send(Request::delete(&url), &path, None, lang)
            .await
            .map(|_| ())
    }

    /// `POST /api/invoices/{id}/installments/{n}/payments`: installment `n`
    /// paid outside paylink; the answer is the updated detail.
    pub async fn record_payment(
        self,
        id: &str,
        n: u32,
        req: &ManualPaymentRequest,
        lang: Lang,
    ) -> Result<InvoiceDetail, Error> {
        let path = id_path("/api/invoices/", id, &format!("/installments/{n}/payments"));
        read(self.post(&path, Some(encode(req)?), lang).await?)
    }

    /// `POST /api/invoices/{id}/resend`: the charge sent to the payer again.
    pub async fn resend_invoice(self, id: &str, lang: Lang) -> Result<Resent, Error> {
        read(
            self.post(&id_path("/api/invoices/", id, "/resend"), None, lang)
                .await?,
        )
    }

    /// `GET /api/dashboard`: the month's totals and the last 12 months.
    pub async fn get_dashboard(self, lang: Lang) -> Result<Dashboard, Error> {
        read(self.get("/api/dashboard", lang).await?)
    }

    /// `GET /api/pay/{id}`: the public payer page's data.
    pub async fn get_pay(self, id: &str, lang: Lang) -> Result<PayerView, Error> {
        read(self.get(&id_path("/api/pay/", id, ""), lang).await?)
    }
}
