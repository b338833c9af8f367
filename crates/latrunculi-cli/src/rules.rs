//! `latrunculi rules` and `latrunculi show`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use latrunculi_arena::io::write_atomic;
use latrunculi_arena::svg::{LastMove, position_svg};
use latrunculi_rules::record::GameRecord;
use latrunculi_rules::{Color, NotationWarning, PieceKind, Position, Ruleset, Setup, parse_move};

use crate::RulesetArg;

/// Arguments of `latrunculi rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Also print every parameter of each ruleset as TOML.
    #[arg(long)]
    pub verbose: bool,
    /// Only the rulesets that decide games by a piece count (`end.no_capture_result` or
    /// `end.no_moves` = "material"): those that `+end.adjudication=draw` changes.
    #[arg(long)]
    pub adjudicating: bool,
}

/// Arguments of `latrunculi show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// A position as FEN (default: the starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, in the notation of game records (docs/rules.md §2), e.g.
    /// "a1-a5 b8-b5 c1-c5xb5" (move numbers, capture lists and suffixes are optional;
    /// written ones are checked).
    #[arg(long)]
    pub moves: Option<String>,
    /// Also write an SVG picture of the final position (last move highlighted) here.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// What [`play_moves`] did: the engine's notation of every move (numbered as in a game
/// record) and the last move, for highlighting.
#[derive(Clone, Debug, Default)]
pub struct PlayedMoves {
    /// Each move as `(number text, engine notation)`, e.g. `("2.", "c1-c5xb5")` or
    /// `("1...", "b8-b5")`.
    pub moves: Vec<(String, String)>,
    /// The last move played (`None` when there were no moves).
    pub last: Option<LastMove>,
}

impl PlayedMoves {
    /// The moves as one line of movetext, e.g. `1. a1-a5 b8-b5 2. c1-c5xb5`.
    pub fn movetext(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        for (i, (number, text)) in self.moves.iter().enumerate() {
            if i == 0 || !number.ends_with("...") {
                out.push(format!("{number} {text}"));
            } else {
                out.push(text.clone());
            }
        }
        out.join(" ")
    }
}

/// Plays `moves` (movetext as in game records: tokens such as `d1-d5xc5`, `De6-i6`,
/// `@e4`, `xe4`, with optional move numbers, comments and suffixes) on `pos` under
/// `ruleset`, checking every move with the record parser. A token that cannot be read,
/// is not legal, or whose written captures, traps or suffix disagree with what the move
/// really does is an error naming its 1-based position in `moves`, its text and why;
/// `pos` is then left after the moves before it. Omitted capture lists and suffixes are
/// fine.
pub fn play_moves(ruleset: &Ruleset, pos: &mut Position, moves: &str) -> anyhow::Result<PlayedMoves> {
    let record = GameRecord::parse(moves).context("--moves cannot be read as movetext")?;
    if let Some((key, _)) = record.tags.first() {
        anyhow::bail!("--moves takes moves only, not tags such as [{key} ...]");
    }
    let mut played = PlayedMoves::default();
    for (i, rm) in record.moves.iter().enumerate() {
        let side = pos.side_to_move();
        let number = pos.ply() / 2 + 1;
        let number_text = if side == Color::White { format!("{number}.") } else { format!("{number}...") };
        let at = || format!("move {} '{}' ({number_text} {side} to move)", i + 1, rm.token);
        let pm = parse_move(ruleset, pos, &rm.token).map_err(|e| anyhow::anyhow!("{} cannot be played: {e}", at()))?;
        // Captures and traps may be left out; anything written must be right.
        let wrong: Vec<String> = pm
            .warnings
            .iter()
            .filter(|w| match w {
                NotationWarning::Captures { written, .. } | NotationWarning::Traps { written, .. } => {
                    !written.is_empty()
                }
                NotationWarning::Suffix { .. } => true,
                NotationWarning::MoveNumber { .. } | NotationWarning::MoveSide { .. } => false,
            })
            .map(|w| w.to_string())
            .collect();
        if !wrong.is_empty() {
            anyhow::bail!(
                "{} is written wrongly: {}",
                at(),
                wrong.join("; ").replace("the record writes", "it writes")
            );
        }
        let fx = pos.play(pm.mv);
        let text = pm.text.to_string();
        played.last = Some(LastMove::new(pm.mv, &fx, format!("{number_text} {text}")));
        played.moves.push((number_text, text));
    }
    Ok(played)
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
    let mut all = Ruleset::all_builtin();
    if args.adjudicating {
        all.retain(|rs| rs.end.adjudicates());
    }
    let w = all.iter().map(|r| r.id.len()).max().unwrap_or(2);
    println!("{:<w$} {:<7} {:<12} source", "id", "board", "pieces");
    for rs in all {
        println!("{:<w$} {:<7} {:<12} {}", rs.id, format!("{}x{}", rs.width, rs.height), pieces_text(&rs), rs.source);
        if args.verbose {
            println!("{}", rs.to_toml());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `latrunculi show`.
pub fn run_show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let rs = args.ruleset.load()?;
    let mut pos = match &args.fen {
        None => Position::new(&rs),
        Some(f) => Position::from_setup(&rs, &Setup::parse(f)?)?,
    };
    let played = match &args.moves {
        None => PlayedMoves::default(),
        Some(m) => play_moves(&rs, &mut pos, m)?,
    };
    println!("{} — {} ({}x{})", rs.id, rs.name, rs.width, rs.height);
    if !played.moves.is_empty() {
        println!("After: {}", played.movetext());
    }
    print!("{}", pos.to_setup().diagram());
    println!("FEN: {}", pos.to_setup().to_fen());
    if let Some(o) = pos.outcome() {
        println!("Game over: {o}");
    }
    if let Some(path) = &args.svg {
        write_atomic(path, &position_svg(&pos, played.last.as_ref()))?;
        println!("SVG written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_arena::svg::check_balanced;

    fn xxi() -> (Ruleset, Position) {
        let rs = Ruleset::builtin("xxi").expect("builtin");
        let pos = Position::new(&rs);
        (rs, pos)
    }

    fn err(moves: &str) -> String {
        let (rs, mut pos) = xxi();
        format!("{:#}", play_moves(&rs, &mut pos, moves).expect_err("should fail"))
    }

    #[test]
    fn moves_are_played_and_the_last_one_is_kept() {
        let (rs, mut pos) = xxi();
        // Move numbers and a written capture are accepted as records write them.
        let played = play_moves(&rs, &mut pos, "1.a1-a5 b8-b5 2.c1-c5xb5").expect("legal");
        assert_eq!(played.movetext(), "1. a1-a5 b8-b5 2. c1-c5xb5");
        let last = played.last.expect("a last move");
        assert_eq!(last.text, "2. c1-c5xb5");
        assert_eq!(last.captured, vec!["b5".parse().expect("square")]);
        assert_eq!(pos.to_setup().to_fen(), "s1ssssssss/4d5/10/S1S7/10/10/5D4/1S1SSSSSSS b - 0 3");
        // The capture list may be left out.
        let (rs, mut pos) = xxi();
        let played = play_moves(&rs, &mut pos, "a1-a5 b8-b5 c1-c5").expect("legal");
        assert_eq!(played.moves.last().map(|m| m.1.as_str()), Some("c1-c5xb5"));
        // A correct suffix is accepted: e1-e6 ends next to the black Dux (a hit).
        let (rs, mut pos) = xxi();
        assert!(play_moves(&rs, &mut pos, "e1-e6*").is_ok());
        // No moves: nothing to highlight.
        let (rs, mut pos) = xxi();
        assert!(play_moves(&rs, &mut pos, "").expect("empty").last.is_none());
    }

    #[test]
    fn bad_moves_name_their_number_text_and_reason() {
        // Unreachable (b8-c7 is not on a line).
        let e = err("e1-e6 b8-c7");
        assert!(e.contains("move 2 'b8-c7'") && e.contains("impossible"), "{e}");
        // Wrong side / no piece.
        let e = err("a1-a5 a1-a2");
        assert!(e.contains("move 2 'a1-a2'") && e.contains("no piece on a1"), "{e}");
        let e = err("a8-a5");
        assert!(e.contains("move 1 'a8-a5'") && e.contains("black"), "{e}");
        // Malformed.
        let e = err("a1-a5 b8b5");
        assert!(e.contains("move 2 'b8b5'") && e.contains("malformed"), "{e}");
        // A wrong capture list or suffix.
        let e = err("a1-a5 b8-b5 c1-c5xb6");
        assert!(e.contains("move 3 'c1-c5xb6'") && e.contains("xb6") && e.contains("xb5"), "{e}");
        let e = err("a1-a5#");
        assert!(e.contains("move 1 'a1-a5#'") && e.contains("no suffix"), "{e}");
        // A Dux move written without D.
        let e = err("f2-f5");
        assert!(e.contains("move 1 'f2-f5'") && e.contains("Dux"), "{e}");
        // Moves after the end of the game (3.d1-d7 immobilises the black Dux).
        let e = err("e1-e6 b8-b4 Df2-f7 g8-g7 d1-d7 a8-a7");
        assert!(e.contains("move 6 'a8-a7'") && e.contains("over"), "{e}");
        // Tags are not moves.
        assert!(err("[Ruleset \"xxi\"]\ne1-e6").contains("tags"));
    }

    #[test]
    fn show_writes_the_svg_atomically() {
        let dir = std::env::temp_dir().join(format!("latrunculi-show-test-{}", std::process::id()));
        let path = dir.join("sub").join("pos.svg");
        let args = ShowArgs {
            ruleset: RulesetArg {
                ruleset: "xxi".parse().expect("a label"),
                board: None,
                rules_dir: PathBuf::from("no-such-dir-for-tests"),
            },
            fen: None,
            moves: Some("a1-a5 b8-b5 c1-c5xb5".to_string()),
            svg: Some(path.clone()),
        };
        run_show(&args).expect("runs");
        let svg = std::fs::read_to_string(&path).expect("written");
        check_balanced(&svg).expect("balanced");
        assert!(svg.contains(r#"class="capture-mark" data-square="b5""#));
        assert!(svg.contains(r#"class="last-from" data-square="c1""#));
        assert!(svg.contains(r#"class="last-to" data-square="c5""#));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.join("sub")).expect("dir").flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("pos.svg")]);
        // An illegal move is an error, and nothing is written.
        let bad = ShowArgs { moves: Some("a1-a5 b8-c7".to_string()), svg: Some(dir.join("bad.svg")), ..args };
        let e = format!("{:#}", run_show(&bad).expect_err("illegal"));
        assert!(e.contains("move 2 'b8-c7'"), "{e}");
        assert!(!dir.join("bad.svg").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
