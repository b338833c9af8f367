//! # latrunculi-serve
//!
//! The web app of `latrunculi serve`: play any ruleset against an agent (or watch two
//! agents, or two people), study recorded games with an agent's analysis beside them,
//! and read a ruleset's parameters in words, in the browser, on top of the library. An
//! axum router on tokio; the page (one HTML, CSS and vanilla JS file, an SVG board) is
//! built into the binary.
//!
//! - [`app`]: the router, its state and every endpoint;
//! - [`game`]: games in play and the JSON views of positions;
//! - [`study`]: recorded games replayed for study;
//! - [`agents`]: agent specs bounded for the web, moves and analyses on blocking threads;
//! - [`files`]: what may be read (the repository's `data/` and `experiments/` folders);
//! - [`error`]: every error as JSON `{ "error": "..." }` with a 4xx status.
//!
//! Safe by default: [`Config::default`] binds 127.0.0.1; every input is checked and an
//! error changes nothing; agents' thinking is capped ([`agents::Limits`]).

#![warn(missing_docs)]

pub mod agents;
pub mod app;
pub mod error;
pub mod files;
pub mod game;
pub mod study;

use std::net::SocketAddr;
use std::path::PathBuf;

pub use app::{App, router};
pub use error::ServeError;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (default `127.0.0.1:8080`).
    pub addr: SocketAddr,
    /// The repository whose `data/` and `experiments/` folders may be read (default `.`).
    pub root: PathBuf,
    /// Limits on agents.
    pub limits: agents::Limits,
    /// The kinds of agent the server plays (default: those of `latrunculi-agents`; the
    /// `latrunculi` command adds `az`). A request's `eval=PATH` is refused whatever it is.
    pub players: latrunculi_agents::Players,
    /// The most games kept in memory; the oldest is dropped past it (default 1000).
    pub max_games: usize,
    /// The largest request body, uploads included, in bytes (default 32 MB).
    pub max_body: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            root: PathBuf::from("."),
            limits: agents::Limits::default(),
            players: latrunculi_agents::Players::baseline(),
            max_games: 1000,
            max_body: 32 << 20,
        }
    }
}

/// Errors of starting the server.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The runtime could not be made.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The OS error.
        source: std::io::Error,
    },
    /// The server stopped with an error.
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// Runs the server until Ctrl-C, on a runtime of its own; `ready` is called with the
/// address bound (port 0 picks a free port) before the first request is taken.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), StartError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(StartError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| StartError::Bind { addr: config.addr, source })?;
        let addr = listener.local_addr().map_err(|source| StartError::Bind { addr: config.addr, source })?;
        ready(addr);
        let app = App::new(&config);
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(StartError::Serve)
    })
}
