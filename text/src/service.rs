//! The fixed messages of the server's error envelope (`{code, message}`), one per refusal
//! (`Reason` in the server's `error.rs`), in the language the request asked for.

use crate::Tr;

pub static UNAUTHORIZED: Tr = Tr {
    pt: "Token ausente ou inválido.",
    en: "Missing or invalid token.",
};
pub static ROUTE_NOT_FOUND: Tr = Tr {
    pt: "Rota não encontrada.",
    en: "Route not found.",
};
pub static METHOD_NOT_ALLOWED: Tr = Tr {
    pt: "Método não permitido nesta rota.",
    en: "Method not allowed on this route.",
};
pub static INVOICE_NOT_FOUND: Tr = Tr {
    pt: "Fatura não encontrada.",
    en: "Invoice not found.",
};
pub static CUSTOMER_NOT_FOUND: Tr = Tr {
    pt: "Cliente não encontrado.",
    en: "Customer not found.",
};
pub static INVALID_CUSTOMER_ID: Tr = Tr {
    pt: "O id do cliente deve ser um UUID.",
    en: "The customer id must be a UUID.",
};
pub static INVALID_INVOICE_ID: Tr = Tr {
    pt: "O id da fatura deve ser um UUID.",
    en: "The invoice id must be a UUID.",
};
pub static MALFORMED_PATH: Tr = Tr {
    pt: "Caminho da URL malformado (um trecho não é UTF-8 válido?).",
    en: "Malformed URL path (a segment that is not valid UTF-8?).",
};
pub static MALFORMED_JSON: Tr = Tr {
    pt: "JSON malformado no corpo da requisição.",
    en: "Malformed JSON in the request body.",
};
pub static MALFORMED_QUERY: Tr = Tr {
    pt: "Parâmetros de consulta malformados (um deles repetido?).",
    en: "Malformed query parameters (one given twice?).",
};
pub static NOT_AN_OBJECT: Tr = Tr {
    pt: "O corpo deve ser um objeto JSON.",
    en: "The body must be a JSON object.",
};
pub static UNSUPPORTED_MEDIA_TYPE: Tr = Tr {
    pt: "Envie o corpo com Content-Type: application/json.",
    en: "Send the body with Content-Type: application/json.",
};
pub static PAYLOAD_TOO_LARGE: Tr = Tr {
    pt: "Corpo da requisição maior que 1 MiB.",
    en: "Request body larger than 1 MiB.",
};
pub static INVALID_DATA: Tr = Tr {
    pt: "Dados inválidos: confira os campos indicados.",
    en: "Invalid data: check the fields listed.",
};
pub static INTERNAL_ERROR: Tr = Tr {
    pt: "Erro interno. Tente novamente.",
    en: "Internal error. Please try again.",
};
pub static SERVICE_UNAVAILABLE: Tr = Tr {
    pt: "Serviço indisponível no momento. Tente novamente.",
    en: "Service unavailable right now. Please try again.",
};
pub static PROXY_NOT_CONFIGURED: Tr = Tr {
    pt: "O proxy não tem um token configurado.",
    en: "The proxy has no token configured.",
};
pub static UPSTREAM_UNREACHABLE: Tr = Tr {
    pt: "O serviço de cobrança não respondeu.",
    en: "The invoicing service could not be reached.",
};
pub static UPSTREAM_TIMEOUT: Tr = Tr {
    pt: "O serviço de cobrança demorou demais para responder.",
    en: "The invoicing service took too long to answer.",
};
pub static BAD_IDEMPOTENCY_KEY: Tr = Tr {
    pt: "Idempotency-Key inválida: use de 1 a 255 caracteres ASCII visíveis.",
    en: "Invalid Idempotency-Key: use 1 to 255 visible ASCII characters.",
};
pub static IDEMPOTENCY_KEY_REUSED: Tr = Tr {
    pt: "Esta Idempotency-Key já foi usada com outra requisição.",
    en: "This Idempotency-Key was already used with a different request.",
};
pub static LOGIN_REQUIRED: Tr = Tr {
    pt: "Faça login como operador para continuar.",
    en: "Log in as an operator to continue.",
};
pub static BAD_CREDENTIALS: Tr = Tr {
    pt: "E-mail ou senha incorretos.",
    en: "Wrong e-mail or password.",
};
pub static LOGIN_THROTTLED: Tr = Tr {
    pt: "Muitas tentativas de login erradas. Aguarde alguns minutos e tente novamente.",
    en: "Too many failed logins. Wait a few minutes and try again.",
};
pub static CROSS_ORIGIN: Tr = Tr {
    pt: "Requisição recusada: ela não veio de uma página deste servidor.",
    en: "Request refused: it did not come from a page of this server.",
};
pub static LINK_NOT_FOUND: Tr = Tr {
    pt: "Link de pagamento não encontrado.",
    en: "Payment link not found.",
};
pub static TOO_MANY_REQUESTS: Tr = Tr {
    pt: "Muitas requisições deste endereço. Aguarde e tente novamente.",
    en: "Too many requests from this address. Wait and try again.",
};
pub static HEADERS_TOO_LARGE: Tr = Tr {
    pt: "Os cabeçalhos da requisição são grandes demais.",
    en: "The request's headers are too large.",
};
pub static TOO_MANY_CONNECTIONS: Tr = Tr {
    pt: "O servidor está com conexões demais. Tente novamente em instantes.",
    en: "The server has too many connections. Try again in a moment.",
};
pub static INSTALLMENT_NOT_FOUND: Tr = Tr {
    pt: "Esta fatura não tem parcela com esse número.",
    en: "This invoice has no installment with that number.",
};
pub static NO_SUCH_RECEIPT: Tr = Tr {
    pt: "Comprovante não encontrado.",
    en: "Receipt not found.",
};
pub static NO_OPEN_BOLETO: Tr = Tr {
    pt: "Esta parcela não tem boleto em aberto (já paga, cancelada ou sem boleto).",
    en: "This installment has no open boleto (already paid, cancelled or not by boleto).",
};
pub static ALREADY_PAID: Tr = Tr {
    pt: "Esta parcela já está paga.",
    en: "This installment is already paid.",
};
pub static NOTHING_TO_RESEND: Tr = Tr {
    pt: "Nenhuma parcela está aguardando pagamento: não há o que reenviar.",
    en: "No installment is waiting for payment: there is nothing to send again.",
};
pub static NO_CHANNEL: Tr = Tr {
    pt: "A fatura não tem notificações (e-mail, WhatsApp ou SMS) por onde reenviar.",
    en: "The invoice has no notifications (e-mail, WhatsApp or SMS) to send it again through.",
};
pub static NOTHING_TO_PAY: Tr = Tr {
    pt: "Todas as parcelas já estão pagas.",
    en: "Every installment is already paid.",
};
pub static NOT_PAID: Tr = Tr {
    pt: "Esta parcela não está paga: não há pagamento a estornar.",
    en: "This installment is not paid: there is no payment to reverse.",
};
pub static METHOD_NOT_ACCEPTED: Tr = Tr {
    pt: "Esta fatura não aceita essa forma de pagamento.",
    en: "This invoice does not accept that payment method.",
};
pub static INVOICE_CANCELLED: Tr = Tr {
    pt: "Esta cobrança foi cancelada pelo lojista: não há nada a pagar.",
    en: "This charge was cancelled by the merchant: there is nothing to pay.",
};
pub static WEBHOOK_NOT_FOUND: Tr = Tr {
    pt: "Webhook não encontrado.",
    en: "Webhook not found.",
};
pub static DELIVERY_NOT_FOUND: Tr = Tr {
    pt: "Entrega não encontrada.",
    en: "Delivery not found.",
};
pub static DELIVERY_IN_FLIGHT: Tr = Tr {
    pt: "Esta entrega ainda não foi tentada ou está sendo enviada agora: aguarde o resultado.",
    en: "This delivery has not been tried yet or is being sent right now: wait for its outcome.",
};
pub static BAD_SIGNATURE: Tr = Tr {
    pt: "Assinatura ou token de verificação ausente ou inválido.",
    en: "Missing or invalid signature or verify token.",
};
