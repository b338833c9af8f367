//! `latrunculi rules` and `latrunculi show`.

use std::process::ExitCode;

use latrunculi_rules::{Color, PieceKind, Position, Ruleset, Setup};

use crate::RulesetArg;

/// Arguments of `latrunculi rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Also print every parameter of each ruleset as TOML.
    #[arg(long)]
    pub verbose: bool,
}

/// Arguments of `latrunculi show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// A position as FEN (default: the starting position).
    #[arg(long)]
    pub fen: Option<String>,
}

/// Describes the pieces of a ruleset's start: e.g. `12+D` or `16+D in hand`.
pub fn pieces_text(rs: &Ruleset) -> String {
    let (hs, hd) = rs.in_hand();
    if hs > 0 {
        return format!("{hs}{} in hand", if hd > 0 { "+D" } else { "" });
    }
    let pieces = rs.initial_pieces().unwrap_or_default();
    let n = |k| pieces.iter().filter(|(c, pk, _)| *c == Color::White && *pk == k).count();
    let d = n(PieceKind::Dux);
    format!("{}{}", n(PieceKind::Soldier), if d > 0 { "+D" } else { "" })
}

/// Runs `latrunculi rules`.
pub fn run_rules(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    println!("{:<18} {:<7} {:<12} source", "id", "board", "pieces");
    for rs in Ruleset::all_builtin() {
        println!("{:<18} {:<7} {:<12} {}", rs.id, format!("{}x{}", rs.width, rs.height), pieces_text(&rs), rs.source);
        if args.verbose {
            println!("{}", rs.to_toml());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `latrunculi show`.
pub fn run_show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let rs = args.ruleset.load()?;
    let pos = match &args.fen {
        None => Position::new(&rs),
        Some(f) => Position::from_setup(&rs, &Setup::parse(f)?)?,
    };
    println!("{} — {} ({}x{})", rs.id, rs.name, rs.width, rs.height);
    print!("{}", pos.to_setup().diagram());
    println!("FEN: {}", pos.to_setup().to_fen());
    if let Some(o) = pos.outcome() {
        println!("Game over: {o}");
    }
    Ok(ExitCode::SUCCESS)
}
