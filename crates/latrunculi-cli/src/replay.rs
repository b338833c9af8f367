//! `latrunculi replay FILE` (being written).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `latrunculi replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The game record.
    pub file: PathBuf,
    /// Keep going after an illegal move (playing it as written where possible).
    #[arg(long)]
    pub continue_on_illegal: bool,
}

/// Runs `latrunculi replay`.
pub fn run(_args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("replay is not implemented yet")
}
