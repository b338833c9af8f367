//! `latrunculi replay FILE [--continue-on-illegal]`: replays a game record (docs/rules.md §2)
//! move by move, printing the engine's notation of every move (captures and suffixes
//! included) beside the written one, every disagreement, the first illegal move (or,
//! with `--continue-on-illegal`, every illegal move, played as written), and the
//! result.
//!
//! Exit status: 0 when every move was legal and the recorded result agrees with (or is
//! an acceptable resignation/agreement on) the replayed game; 1 when a move was illegal
//! or could not be played, or the result contradicts the game; 2 when the file cannot
//! be read or its tags are bad (missing file, malformed tag, unknown ruleset).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use latrunculi_rules::record::GameRecord;
use latrunculi_rules::replay::{MoveStatus, ReplayOptions, ResultVerdict, replay};

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
pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let record = GameRecord::parse(&text).with_context(|| format!("{}", args.file.display()))?;
    let report = replay(&record, ReplayOptions { continue_on_illegal: args.continue_on_illegal })
        .with_context(|| format!("{}", args.file.display()))?;

    let players = match (record.tag("White"), record.tag("Black")) {
        (Some(w), Some(b)) => format!("{w} - {b}"),
        _ => args.file.display().to_string(),
    };
    let event: Vec<&str> = ["Event", "Date"].iter().filter_map(|k| record.tag(k)).collect();
    if event.is_empty() {
        println!("{players}");
    } else {
        println!("{players} ({})", event.join(", "));
    }
    println!("Ruleset: {} on {}x{}", report.ruleset, report.width, report.height);
    println!();
    println!("{:<7} {:<18} engine", "move", "written");

    let mut illegal = 0;
    let mut warnings = 0;
    for m in &report.moves {
        let engine = m.text.as_ref().map(|t| t.to_string()).unwrap_or_else(|| "-".to_string());
        println!("{:<7} {:<18} {}", m.number_text(), m.written, engine);
        for w in &m.warnings {
            warnings += 1;
            println!("        note: {w}");
        }
        match &m.status {
            MoveStatus::Legal => {}
            MoveStatus::PlayedIllegal(e) => {
                illegal += 1;
                println!("        ILLEGAL: {e}");
                println!("        (played as written: --continue-on-illegal)");
            }
            MoveStatus::Rejected(e) => {
                illegal += 1;
                println!();
                println!("error: move {}{} (line {}) cannot be played: {e}", m.number_text(), m.written, m.line);
                println!("position before it: {}", m.fen_before);
                if e.is_rule_breach() {
                    println!("(use --continue-on-illegal to play it as written and go on)");
                }
            }
        }
    }

    println!();
    if warnings > 0 {
        println!("{warnings} disagreement(s) between the record and the engine (see the notes above).");
    }
    if illegal > 0 && !report.stopped {
        println!("{illegal} illegal move(s) played as written.");
    }
    let recorded = report.recorded.map_or("no result".to_string(), |r| r.to_string());
    match report.verdict {
        ResultVerdict::Confirmed(o) => {
            println!("The rules end the game {o}; the recorded result {recorded} agrees.")
        }
        ResultVerdict::EndedUnrecorded(o) => {
            println!("The rules end the game {o}; the record gives no result.")
        }
        ResultVerdict::Resignation(r) => {
            let loser = r.winner().map_or("a player", |w| w.opponent().name());
            println!("The rules have not ended the game; the recorded {r} is taken as a resignation by {loser}.")
        }
        ResultVerdict::Agreement => {
            println!("The rules have not ended the game; the recorded draw is taken as agreed.")
        }
        ResultVerdict::Contradicted { engine, recorded } => {
            println!("error: the rules end the game {engine}, but the record says {recorded}.")
        }
        ResultVerdict::Unfinished => {
            println!("The game is unfinished: the rules have not ended it and the record gives no result.")
        }
        ResultVerdict::NotReached => {
            println!("The replay stopped before the end; the recorded result ({recorded}) was not checked.")
        }
    }
    println!("Final position: {}", report.final_fen);
    let (score, reason) = report.final_result();
    println!("Result: {score} ({reason})");
    Ok(if report.is_ok() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
