//! Customers (payers): the creation request, its rules, and both response forms.

use serde::{Deserialize, Serialize};

use crate::br;
use crate::errors::{Errors, Msg, Violations};
use crate::Lang;

pub const FULL_NAME_MIN: usize = 3;
pub const NAME_MAX: usize = 150;
pub const OBSERVATIONS_MAX: usize = 1000;
pub const ADDRESS_FIELD_MAX: usize = 150;

/// `POST /invoices/applications/customers` body. Every field is optional at
/// parse time so a missing one is reported as a field error, not a parse error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "A customer (payer) to create. Optional blank strings count as absent.")
)]
#[serde(rename_all = "camelCase")]
pub struct CustomerRequest {
    /// At least 3 characters (after trimming), at most 150.
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = String,
            required = true,
            min_length = 3,
            max_length = 150,
            example = "Maria da Silva"
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_name: Option<String>,
    /// CPF (11 digits) or CNPJ (14 letters/digits), formatted or not; check digits are verified.
    #[cfg_attr(feature = "openapi", schema(example = "529.982.247-25"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// Company name / legal name.
    #[cfg_attr(feature = "openapi", schema(max_length = 150))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub business: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "email"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Brazilian as people write it, DDD and number (`(11) 98765-4321`, `11987654321`);
    /// foreign numbers start with `+`. Stored and answered in E.164 (`+5511987654321`).
    #[cfg_attr(feature = "openapi", schema(example = "(11) 98765-4321"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Internal notes.
    #[cfg_attr(feature = "openapi", schema(max_length = 1000))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observations: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub address: Option<AddressRequest>,
    /// The language the payer reads: their messages and the payment page they link to.
    /// `pt-BR` (when absent) or `en`.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<crate::Lang>, example = "pt-BR")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AddressRequest {
    /// Street, avenue, etc.
    #[cfg_attr(feature = "openapi", schema(max_length = 150))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_length = 150))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complement: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_length = 150))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighborhood: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_length = 150))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// One of the 27 UFs (two letters).
    #[cfg_attr(feature = "openapi", schema(example = "SP"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// CEP: 8 digits, formatted or not.
    #[cfg_attr(feature = "openapi", schema(example = "01310-100"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zipcode: Option<String>,
}

/// A customer request that passed every rule, normalised for storage:
/// trimmed, blanks dropped, document and CEP reduced to their bare form, phone in E.164, UF upper-case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewCustomer {
    pub full_name: String,
    pub document: Option<String>,
    pub business: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub observations: Option<String>,
    pub address: Option<NewAddress>,
    pub language: Lang,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewAddress {
    pub address: Option<String>,
    pub number: Option<String>,
    pub complement: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
}

/// Trimmed text, with blank treated as absent (an empty form field).
pub(crate) fn present(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

pub(crate) fn max_chars(v: &mut Violations, path: &str, s: &str, max: usize) -> bool {
    if s.chars().count() > max {
        v.add(path, Msg::MaxChars(max));
        false
    } else {
        true
    }
}

/// Optional free text limited to `max` characters.
fn text(v: &mut Violations, path: &str, value: &Option<String>, max: usize) -> Option<String> {
    let s = present(value)?;
    max_chars(v, path, s, max).then(|| s.to_string())
}

/// Optional value with a normalising check.
fn checked(
    v: &mut Violations,
    path: &str,
    value: &Option<String>,
    check: impl Fn(&str) -> Result<String, Msg>,
) -> Option<String> {
    let s = present(value)?;
    check(s).map_err(|m| v.add(path, m)).ok()
}

impl CustomerRequest {
    pub fn check(&self) -> Result<NewCustomer, Violations> {
        let mut v = Violations::default();
        let full_name = match present(&self.full_name) {
            None => {
                v.add("fullName", Msg::Required);
                String::new()
            }
            Some(s) if s.chars().count() < FULL_NAME_MIN => {
                v.add("fullName", Msg::MinChars(FULL_NAME_MIN));
                String::new()
            }
            Some(s) => {
                max_chars(&mut v, "fullName", s, NAME_MAX);
                s.to_string()
            }
        };
        let document = checked(&mut v, "document", &self.document, br::check_document);
        let business = text(&mut v, "business", &self.business, NAME_MAX);
        let email = checked(&mut v, "email", &self.email, |s| {
            br::email_is_valid(s)
                .then(|| s.to_string())
                .ok_or(Msg::Email)
        });
        let phone = checked(&mut v, "phone", &self.phone, br::check_phone);
        let observations = text(&mut v, "observations", &self.observations, OBSERVATIONS_MAX);
        // Exactly as the schema's enum spells it.
        let language = match self.language.as_deref().map(Lang::from_code) {
            None => Lang::PtBr,
            Some(Some(l)) => l,
            Some(None) => {
                v.add("language", Msg::OneOf(&["pt-BR", "en"]));
                Lang::PtBr
            }
        };
        let address = self.address.as_ref().and_then(|a| {
            let m = ADDRESS_FIELD_MAX;
            let addr = NewAddress {
                address: text(&mut v, "address.address", &a.address, m),
                number: text(&mut v, "address.number", &a.number, 20),
                complement: text(&mut v, "address.complement", &a.complement, m),
                neighborhood: text(&mut v, "address.neighborhood", &a.neighborhood, m),
                city: text(&mut v, "address.city", &a.city, m),
                state: checked(&mut v, "address.state", &a.state, br::check_uf),
                zipcode: checked(&mut v, "address.zipcode", &a.zipcode, br::check_cep),
            };
            (addr != NewAddress::default()).then_some(addr)
        });
        if v.is_empty() {
            Ok(NewCustomer {
                full_name,
                document,
                business,
                email,
                phone,
                observations,
                address,
                language,
            })
        } else {
            Err(v)
        }
    }

    /// Every broken rule, keyed by API field path, in `lang`.
    pub fn validate(&self, lang: Lang) -> Errors {
        self.check()
            .err()
            .map(|v| v.render(lang))
            .unwrap_or_default()
    }
}

/// The address of a created customer, with its own id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Address {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub address: Option<String>,
    pub number: Option<String>,
    pub complement: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
}

/// The customer as returned by creation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub full_name: String,
    pub document: Option<String>,
    pub business: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub observations: Option<String>,
    pub address: Option<Address>,
    /// The language the payer reads (`pt-BR` unless the customer was made with `en`).
    #[serde(default)]
    pub language: Lang,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub user_id: String,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub application_id: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub deleted_at: Option<String>,
}

/// The customer nested in the invoice detail: `addressId` instead of the address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomerDetail {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub full_name: String,
    pub document: Option<String>,
    pub business: Option<String>,
    pub email: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub user_id: String,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub application_id: String,
    pub phone: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub address_id: Option<String>,
    pub observations: Option<String>,
    /// The language the payer reads (`pt-BR` unless the customer was made with `en`).
    #[serde(default)]
    pub language: Lang,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub deleted_at: Option<String>,
}

/// The customer nested in the invoice creation response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomerRef {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub full_name: String,
}

/// A link to a customer's page of charges (`/c/{token}`: every invoice of theirs with this
/// application, open ones first), as `POST …/customers/{id}/charges-link` makes it: shown once
/// (only its hash is kept), so the merchant copies it then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChargesLink {
    /// The page's address, with its random token.
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    /// When the link stops opening the page (30 days after it was made).
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub expires_at: String,
}
