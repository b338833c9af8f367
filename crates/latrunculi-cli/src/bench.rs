//! `latrunculi bench` (being written).

use std::process::ExitCode;

/// Arguments of `latrunculi bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

/// Runs `latrunculi bench`.
pub fn run(_args: &BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("bench is not implemented yet")
}
