//! The bank's errors as BACEN's document writes them (`Problema`, RFC 7807
//! `application/problem+json`): `type` under `https://pix.bcb.gov.br/api/v2/error/`, `title`,
//! `status`, `detail` and, for a refused body, `violacoes`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

#[derive(Debug)]
pub struct Problem {
    status: StatusCode,
    body: Value,
}

impl Problem {
    fn new(status: StatusCode, kind: &str, title: &str, detail: &str) -> Problem {
        Problem {
            status,
            body: json!({
                "type": format!("https://pix.bcb.gov.br/api/v2/error/{kind}"),
                "title": title,
                "status": status.as_u16(),
                "detail": detail,
            }),
        }
    }

    pub fn not_found() -> Problem {
        Problem::new(
            StatusCode::NOT_FOUND,
            "NaoEncontrado",
            "Não Encontrado",
            "Entidade não encontrada.",
        )
    }

    pub fn denied() -> Problem {
        Problem::new(
            StatusCode::FORBIDDEN,
            "AcessoNegado",
            "Acesso Negado",
            "Requisição de participante autenticado que viola alguma regra de autorização.",
        )
    }

    pub fn unavailable() -> Problem {
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ServicoIndisponivel",
            "Serviço Indisponível",
            "Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.",
        )
    }

    /// A 400 of `kind` (`CobVOperacaoInvalida`, `PixDevolucaoInvalida`, ...) with its violations
    /// as `(propriedade, razao)`.
    pub fn invalid(kind: &str, detail: &str, violations: &[(&str, &str)]) -> Problem {
        let mut p = Problem::new(
            StatusCode::BAD_REQUEST,
            kind,
            "Requisição inválida.",
            detail,
        );
        if !violations.is_empty() {
            p.body["violacoes"] = violations
                .iter()
                .map(|(prop, reason)| json!({"propriedade": prop, "razao": reason}))
                .collect();
        }
        p
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "application/problem+json")],
            self.body.to_string(),
        )
            .into_response()
    }
}
