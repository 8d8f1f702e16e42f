use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::{AppError, Reason};
use crate::http::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(health_get))
}

/// 200 once the database answers; 503 envelope otherwise.
async fn health_get(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<Json<Value>, AppError> {
    state
        .db
        .ping()
        .await
        .map_err(|e| AppError::new(Reason::Unavailable).because(e))?;
    Ok(Json(json!({ "status": "ok" })))
}
