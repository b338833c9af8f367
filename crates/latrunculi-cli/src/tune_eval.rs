//! `latrunculi tune-eval`: fits the search player's evaluation weights for rulesets from
//! recorded games ([`latrunculi_arena::tune`]) and writes one weights file per ruleset
//! (`configs/eval/<id>.toml` by default, the folder the binary builds in).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use latrunculi_arena::tune::{TuneError, TuneOptions, summary, tune, write_weights};
use latrunculi_rules::Ruleset;

/// Arguments of `latrunculi tune-eval`.
#[derive(clap::Args, Debug)]
pub struct TuneEvalArgs {
    /// Built-in ruleset ids to fit (repeatable); `--all` for every built-in ruleset.
    #[arg(long = "ruleset", short = 'r')]
    pub rulesets: Vec<String>,
    /// Fit every built-in ruleset that has enough games (others are reported and skipped).
    #[arg(long)]
    pub all: bool,
    /// Games CSVs, or folders searched recursively for files named `games.csv`
    /// (repeatable; default: `experiments`).
    #[arg(long = "games", default_value = "experiments")]
    pub games: Vec<PathBuf>,
    /// Folder the weights files are written to, one `<id>.toml` per ruleset.
    #[arg(long, default_value = "configs/eval")]
    pub out: PathBuf,
    /// Most positions sampled per ruleset (spread evenly over its games' plies).
    #[arg(long, default_value_t = 60_000)]
    pub max_positions: usize,
    /// Every this-many-th game (by seed) is held out to measure the fit.
    #[arg(long, default_value_t = 5)]
    pub hold_out_every: u64,
    /// Fit every sampled position, not only quiet ones (where the side to move has no
    /// capture, trap or removal; the default, since the search evaluates where its
    /// quiescence search stands pat).
    #[arg(long)]
    pub all_positions: bool,
    /// Only games whose two players both match one of these specs (repeatable; a
    /// trailing `*` matches any rest, e.g. `--player 'alphabeta:nodes=*'`); default: all.
    #[arg(long = "player")]
    pub players: Vec<String>,
}

/// Every `games.csv` under `p` (or `p` itself if it is a file), sorted.
fn games_files(p: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if p.is_file() {
        out.push(p.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(p).with_context(|| format!("cannot read {}", p.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            games_files(&path, out)?;
        } else if path.file_name().is_some_and(|n| n == latrunculi_arena::io::games::FILE) {
            out.push(path);
        }
    }
    Ok(())
}

/// Runs `latrunculi tune-eval`.
pub fn run(args: &TuneEvalArgs) -> anyhow::Result<ExitCode> {
    let ids: Vec<String> =
        if args.all { Ruleset::builtin_ids().map(str::to_string).collect() } else { args.rulesets.clone() };
    if ids.is_empty() {
        bail!("name rulesets with --ruleset ID (repeatable) or give --all");
    }
    let mut files = Vec::new();
    for g in &args.games {
        games_files(g, &mut files)?;
    }
    if files.is_empty() {
        bail!("no games.csv found in {:?}", args.games);
    }
    let command =
        std::iter::once("latrunculi".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let opts = TuneOptions {
        games: files,
        max_positions: args.max_positions,
        hold_out_every: args.hold_out_every,
        quiet: !args.all_positions,
        players: args.players.clone(),
        command,
        ..TuneOptions::default()
    };
    let mut skipped = 0;
    for id in &ids {
        let rs = Ruleset::builtin(id).with_context(|| format!("--ruleset {id}"))?;
        match tune(&rs, &opts) {
            Ok(r) => {
                let path = args.out.join(format!("{id}.toml"));
                write_weights(&path, &r.weights).with_context(|| format!("cannot write {}", path.display()))?;
                eprint!("{}", summary(&r.weights));
                eprintln!("  -> {}", path.display());
            }
            Err(e @ TuneError::TooFew { .. }) if args.all => {
                eprintln!("skipped: {e}");
                skipped += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
    if skipped > 0 {
        eprintln!("{skipped} rulesets skipped for lack of games");
    }
    Ok(ExitCode::SUCCESS)
}
