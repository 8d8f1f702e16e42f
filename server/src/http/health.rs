//! `/healthz` (the database answers) and `/readyz` (this server takes new
//! clients: a load balancer's signal, 503 from SIGTERM on).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::{FromRef, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::{AppError, Reason};
use crate::http::Service;

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
{
    Router::new().route("/healthz", get(health_get))
}

/// 200 once the database answers; 503 envelope otherwise.
async fn health_get(State(state): State<Service>) -> Result<Json<Value>, AppError> {
    state
        .db
        .ping()
        .await
        .map_err(|e| AppError::new(Reason::Unavailable).because(e))?;
    Ok(Json(json!({ "status": "ok" })))
}

/// Whether this server takes new clients: true from the start, false once
/// `serve` begins to stop (it keeps answering for the drain delay, so a load
/// balancer reading `/readyz` moves new clients off first).
#[derive(Clone, Debug)]
pub struct Readiness(Arc<AtomicBool>);

impl Default for Readiness {
    fn default() -> Self {
        Readiness(Arc::new(AtomicBool::new(true)))
    }
}

impl Readiness {
    pub fn set_draining(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    pub fn is_ready(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// `/readyz`, for a state with a [`Readiness`] part.
pub fn ready_router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Readiness: FromRef<S>,
{
    Router::new().route("/readyz", get(ready_get))
}

/// 200 while serving; the 503 envelope once the server is stopping.
async fn ready_get(State(readiness): State<Readiness>) -> Result<Json<Value>, AppError> {
    if !readiness.is_ready() {
        return Err(AppError::new(Reason::Unavailable));
    }
    Ok(Json(json!({ "status": "ready" })))
}
