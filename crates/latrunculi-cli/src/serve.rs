//! `latrunculi serve`: the web app (crates/latrunculi-serve) on a local port.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_serve::Config;
use latrunculi_serve::agents::Limits;

/// Arguments of `latrunculi serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default serves this machine only. Give 0.0.0.0 to let
    /// other machines in (there is no login).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The repository whose data/ and experiments/ folders the Study view may open.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// The longest an agent may think per move or analysis, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    pub think_ms: u64,
}

/// Runs `latrunculi serve` until Ctrl-C.
pub fn run(args: &ServeArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    let config = Config {
        addr: SocketAddr::new(args.bind, args.port),
        root: args.root.clone(),
        limits: Limits { think_ms: args.think_ms.max(1), ..Limits::default() },
        players: players.clone(),
        ..Config::default()
    };
    latrunculi_serve::run(config, |addr| {
        println!("latrunculi serve: open http://{addr}/ (Ctrl-C stops it)");
    })?;
    Ok(ExitCode::SUCCESS)
}
