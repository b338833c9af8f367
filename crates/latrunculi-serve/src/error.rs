//! The errors of the web app. Every one becomes a JSON answer `{ "error": "..." }` with
//! a 4xx status naming what was wrong (5xx only for an agent that ran past its time or
//! failed inside), and none changes a game.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// What went wrong with a request.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A body that is not the JSON the endpoint takes, or a missing or bad field.
    #[error("{0}")]
    BadRequest(String),
    /// A ruleset label that cannot be read or resolved, or names a file.
    #[error("ruleset '{label}': {message}")]
    Ruleset {
        /// The label as given.
        label: String,
        /// Why it cannot be used.
        message: String,
    },
    /// A malformed FEN, or one the ruleset cannot play.
    #[error("FEN '{fen}': {message}")]
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        message: String,
    },
    /// An agent spec that cannot be read or is refused here.
    #[error("agent '{spec}': {message}")]
    Agent {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// A move that cannot be read or is not legal in the game's position.
    #[error("move '{token}' ({side} to move, ply {ply}): {message}")]
    IllegalMove {
        /// The move as given.
        token: String,
        /// The side to move.
        side: String,
        /// Plies played so far.
        ply: u32,
        /// Why it cannot be played.
        message: String,
    },
    /// A request that does not fit the game's state (over, not an agent's turn, ...).
    #[error("{0}")]
    Conflict(String),
    /// No game with this id (never made, or dropped to make room).
    #[error("no game '{0}' (games are kept in memory while the server runs; start a new one)")]
    NoGame(String),
    /// A file path outside the data and experiment folders, or not allowed.
    #[error("path '{path}': {message}")]
    Path {
        /// The path as given.
        path: String,
        /// Why it is refused.
        message: String,
    },
    /// A file that does not exist.
    #[error("no file '{0}' in the data or experiment folders")]
    NoFile(String),
    /// A games CSV or record that cannot be read.
    #[error("{source_name}: {message}")]
    BadFile {
        /// The file (path, or `upload`).
        source_name: String,
        /// What is wrong, naming the line or row.
        message: String,
    },
    /// A body larger than the server takes.
    #[error("the request is too large: {0}")]
    TooLarge(String),
    /// An agent that did not answer within its time.
    #[error("the agent did not answer within {0} ms")]
    Timeout(u64),
    /// An agent that failed while thinking (a bug, reported with the position).
    #[error("the agent failed: {0}")]
    AgentFailed(String),
    /// A route that does not exist.
    #[error("no such endpoint: {0}")]
    NoRoute(String),
}

impl ServeError {
    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ServeError::BadRequest(_)
            | ServeError::Ruleset { .. }
            | ServeError::Fen { .. }
            | ServeError::Agent { .. }
            | ServeError::BadFile { .. } => StatusCode::BAD_REQUEST,
            ServeError::IllegalMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ServeError::Conflict(_) => StatusCode::CONFLICT,
            ServeError::NoGame(_) | ServeError::NoFile(_) | ServeError::NoRoute(_) => StatusCode::NOT_FOUND,
            ServeError::Path { .. } => StatusCode::FORBIDDEN,
            ServeError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServeError::Timeout(_) => StatusCode::SERVICE_UNAVAILABLE,
            ServeError::AgentFailed(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        (self.status(), Json(serde_json::json!({ "error": self.to_string() }))).into_response()
    }
}

/// The message of an error and of every error under it, joined by `: `.
pub fn full_message(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    out
}
