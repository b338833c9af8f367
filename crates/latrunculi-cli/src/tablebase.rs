//! `latrunculi tablebase`: build endgame tables, probe a position, summarise tables as
//! CSV (crates/latrunculi-tablebase; docs/tablebase.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use latrunculi_rules::{Color, Position, Setup};
use latrunculi_tablebase::{BuildEvent, Material, Shard, Table, Tablebase, Wdl};

use crate::RulesetArg;

/// Plies of a drawing line that `probe` prints.
const DRAW_LINE: usize = 16;

/// Arguments of `latrunculi tablebase`.
#[derive(clap::Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    pub command: TablebaseCommand,
}

/// The `tablebase` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum TablebaseCommand {
    /// Build the tables of every material of up to N pieces on the board (resumable).
    Build(BuildArgs),
    /// The value, distances and best line of a position.
    Probe(ProbeArgs),
    /// One CSV row per ruleset and material of a tablebase directory.
    Summary(SummaryArgs),
}

/// Arguments of `latrunculi tablebase build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Largest number of pieces on the board (both sides, soldiers and Duxes).
    #[arg(long, default_value_t = 3)]
    pub pieces: u32,
    /// Tablebase directory (the ruleset's tables go in a folder of their own inside it).
    #[arg(long)]
    pub out: PathBuf,
    /// Build only shard K of N of each size's materials (`K/N`); run every shard of N-1
    /// pieces before any shard of N pieces.
    #[arg(long)]
    pub shard: Option<String>,
}

/// Arguments of `latrunculi tablebase probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Tablebase directory (as given to `build --out`).
    #[arg(long)]
    pub dir: PathBuf,
    /// The position: FEN or text diagram, as `latrunculi show --fen` reads it.
    #[arg(long)]
    pub fen: String,
    /// Longest line printed, in plies (a drawing line: at most 16).
    #[arg(long, default_value_t = 200)]
    pub max_line: usize,
}

/// Arguments of `latrunculi tablebase summary`.
#[derive(clap::Args, Debug)]
pub struct SummaryArgs {
    /// Tablebase directory.
    #[arg(long)]
    pub dir: PathBuf,
}

/// Runs `latrunculi tablebase`.
pub fn run(args: &TablebaseArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        TablebaseCommand::Build(a) => build(a),
        TablebaseCommand::Probe(a) => probe(a),
        TablebaseCommand::Summary(a) => summary(a),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let rs = args.ruleset.load()?;
    let label = args.ruleset.choice().label(&rs)?;
    let shard: Option<Shard> = args.shard.as_deref().map(str::parse).transpose()?;
    if args.pieces == 0 {
        bail!("--pieces must be at least 1");
    }
    let (hs, hd) = rs.in_hand();
    if hs + hd > 0 {
        eprintln!("{label}: pieces start in hand; the tables cover the movement phase (no pieces in hand)");
    }
    let tb = Tablebase::open(&args.out, &rs, &label);
    eprintln!("{label}: tables up to {} pieces in {}", args.pieces, tb.dir().display());
    let t0 = std::time::Instant::now();
    let (mut built, mut skipped, mut positions) = (0u32, 0u32, 0u64);
    let mut bar: Option<ProgressBar> = None;
    let mut on_event = |e: BuildEvent| match e {
        BuildEvent::Start { material, size } => {
            let b = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{msg:>8} {bar:40} {pos}/{len} numbers {elapsed_precise}") {
                b.set_style(style);
            }
            b.set_message(material.to_string());
            bar = Some(b);
        }
        BuildEvent::Progress { done } => {
            if let Some(b) = &bar {
                b.set_position(done);
            }
        }
        BuildEvent::Done { material, skipped: was_there, positions: n, seconds } => {
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
            if was_there {
                skipped += 1;
                eprintln!("{material:>8}: already built, kept");
            } else {
                built += 1;
                positions += n;
                let rate = n as f64 / seconds.max(1e-9);
                eprintln!("{material:>8}: {n} positions in {seconds:.2} s ({rate:.0} positions/s)");
            }
        }
    };
    tb.build(args.pieces, shard, &mut on_event)?;
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "{label}: {built} materials built ({positions} positions, {secs:.1} s, {:.0} positions/s), {skipped} kept",
        positions as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

fn probe(args: &ProbeArgs) -> anyhow::Result<ExitCode> {
    let rs = args.ruleset.load()?;
    let label = args.ruleset.choice().label(&rs)?;
    let pos = Position::from_setup(&rs, &Setup::parse(&args.fen)?)?;
    if pos.is_placement_phase() {
        bail!("pieces are still in hand: the tables cover only positions with every piece placed");
    }
    let tb = Tablebase::open(&args.dir, &rs, &label);
    let material = Material::of(&pos);
    let Some(p) = tb.probe(&pos)? else {
        bail!(
            "no table for material {material} in {} (build it: latrunculi tablebase build --ruleset {label} --pieces {} --out {})",
            tb.dir().display(),
            material.pieces(),
            args.dir.display()
        );
    };
    let mover = pos.side_to_move();
    println!("ruleset: {label} ({}x{}), material {material}", rs.width, rs.height);
    println!("fen: {}", pos.to_setup().to_fen());
    let who = |wdl: Wdl| match wdl {
        Wdl::Win => Some(mover),
        Wdl::Loss => Some(mover.opponent()),
        Wdl::Draw => None,
    };
    match who(p.wdl) {
        None => println!("value: draw"),
        Some(w) => {
            println!("value: {} for {mover} (to move): {w} wins in {}", p.wdl, plies(p.distance));
            println!("dtz: {} to the next capture or the end, the win kept", plies(p.dtz));
            let limit = rs.end.no_capture_limit;
            let left = limit.saturating_sub(pos.plies_since_capture());
            if limit > 0 && p.dtz > left {
                println!(
                    "cursed: the no-capture limit ({limit} plies, {left} left) comes first with best play on both sides"
                );
            }
        }
    }
    // A drawn line never ends: show its start only.
    let plies = if p.wdl == Wdl::Draw { args.max_line.min(DRAW_LINE) } else { args.max_line };
    let line = tb.line(&pos, plies)?;
    let mut q = tb_position(&pos)?;
    let mut text = Vec::new();
    for mv in line {
        text.push(q.move_to_string(mv).unwrap_or_else(|| format!("{mv:?}")));
        q.play(mv);
    }
    let shown = if text.is_empty() { "(none)".to_string() } else { text.join(" ") };
    if p.wdl == Wdl::Draw && !text.is_empty() {
        println!("line: {shown} ... (the first {} plies of a drawing line)", text.len());
    } else {
        println!("line: {shown}");
    }
    if let Some(o) = q.outcome() {
        println!("end: {o}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `1 ply`, `7 plies`.
fn plies(n: u32) -> String {
    if n == 1 { "1 ply".to_string() } else { format!("{n} plies") }
}

/// The position under the tablebase rules (no-capture limit and repetition off), for
/// writing the line.
fn tb_position(pos: &Position) -> anyhow::Result<Position> {
    if pos.is_over() {
        return Ok(pos.clone());
    }
    Ok(pos.with_rules({
        let mut r = *pos.rules();
        r.end.no_capture_limit = 0;
        r.end.repetition = latrunculi_rules::ruleset::Repetition::Off;
        r
    })?)
}

fn summary(args: &SummaryArgs) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    let dirs = std::fs::read_dir(&args.dir).with_context(|| format!("reading {}", args.dir.display()))?;
    for d in dirs {
        let d = d.with_context(|| format!("reading {}", args.dir.display()))?.path();
        if !d.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let f = f.with_context(|| format!("reading {}", d.display()))?.path();
            if f.extension().is_some_and(|e| e == "lttb") {
                rows.push(row(&f)?);
            }
        }
    }
    rows.sort();
    println!("ruleset,material,pieces,positions,white_wins,draws,white_losses,longest_win");
    for (label, pieces, material, rest) in rows {
        println!("{label},{material},{pieces},{rest}");
    }
    Ok(ExitCode::SUCCESS)
}

fn row(path: &Path) -> anyhow::Result<(String, u32, String, String)> {
    let h = Table::read_header(path)?;
    let w = h.counts[Color::White.index()];
    Ok((
        h.label,
        h.material.pieces(),
        h.material.to_string(),
        format!("{},{},{},{},{}", w.positions, w.wins, w.draws, w.losses, w.longest_win),
    ))
}
