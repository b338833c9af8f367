//! Replays the recorded games in `data/games/xxi/` (two real Latrunculi XXI games): every move, capture and
//! suffix must be confirmed, the rule-16 violation in Carrillo–Cetina must be named, and
//! both games must end in their recorded results.

use latrunculi_rules::notation::{MoveError, RuleBreach, parse_token};
use latrunculi_rules::record::GameRecord;
use latrunculi_rules::replay::{MoveStatus, ReplayOptions, ReplayReport, ResultVerdict};
use latrunculi_rules::{Color, Outcome, Reason, Square};

fn record(name: &str) -> GameRecord {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/xxi/").to_string() + name;
    GameRecord::from_file(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{e}"))
}

fn run(name: &str, continue_on_illegal: bool) -> ReplayReport {
    latrunculi_rules::replay(&record(name), ReplayOptions { continue_on_illegal }).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

/// The written token without its quality mark.
fn core(token: &str) -> String {
    token.trim_end_matches(['!', '?']).to_string()
}

/// Every played move: the engine writes exactly what the record writes (captures in the
/// same order, same suffix), and there are no warnings.
fn assert_record_confirmed(report: &ReplayReport) {
    for m in &report.moves {
        assert!(m.warnings.is_empty(), "{}{} {}: {:?}", m.number_text(), m.written, m.line, m.warnings);
        if let Some(text) = &m.text {
            assert_eq!(text.to_string(), core(&m.written), "{} {}", m.number_text(), m.written);
            let written = parse_token(&m.written).expect("token");
            assert_eq!(written.suffix, text.suffix, "{} {}", m.number_text(), m.written);
        }
    }
}

#[test]
fn carrillo_cetina_stops_at_the_rule_16_violation() {
    let report = run("carrillo-cetina-2016-07.txt", false);
    assert!(report.stopped);
    assert_eq!(report.verdict, ResultVerdict::NotReached);
    assert!(!report.is_ok());
    let last = report.moves.last().expect("moves");
    assert_eq!((last.number, last.side, last.written.as_str()), (9, Color::Black, "Df5-f2?!"));
    let MoveStatus::Rejected(err) = &last.status else { panic!("9...Df5-f2 should be rejected: {:?}", last.status) };
    assert_eq!(
        err,
        &MoveError::Illegal {
            dux: true,
            from: sq("f5"),
            to: sq("f2"),
            breaches: vec![RuleBreach::DuxSingleCombat { dux: sq("f5"), enemy: sq("g5") }]
        }
    );
    assert!(err.to_string().contains("rule 16"), "{err}");
    // Everything before it is legal and confirmed.
    assert_eq!(report.moves.len(), 18);
    assert_record_confirmed(&report);
}

#[test]
fn carrillo_cetina_finishes_when_continuing_past_the_violation() {
    let report = run("carrillo-cetina-2016-07.txt", true);
    assert!(!report.stopped);
    let illegal: Vec<_> = report.illegal_moves().collect();
    assert_eq!(illegal.len(), 1);
    assert_eq!((illegal[0].number, illegal[0].side), (9, Color::Black));
    assert!(matches!(&illegal[0].status, MoveStatus::PlayedIllegal(e) if e.to_string().contains("rule 16")));
    let last = report.moves.last().expect("moves");
    assert_eq!((last.number, last.side), (16, Color::White));
    assert_eq!(last.text.as_ref().map(|t| t.to_string()).as_deref(), Some("f6-f4#"));
    let win = Outcome { winner: Some(Color::White), reason: Reason::Immobilized };
    assert_eq!(report.outcome, Some(win));
    assert_eq!(report.verdict, ResultVerdict::Confirmed(win));
    assert_eq!(report.final_result(), ("1-0".to_string(), "immobilized".to_string()));
    assert_eq!(report.moves.len(), 31);
    assert_record_confirmed(&report);
    // The run is still not clean: a move broke a rule.
    assert!(!report.is_ok());
}

#[test]
fn joyce_carrillo_replays_cleanly() {
    for continue_on_illegal in [false, true] {
        let report = run("joyce-carrillo-2016-08.txt", continue_on_illegal);
        assert!(!report.stopped);
        assert_eq!(report.illegal_moves().count(), 0);
        assert_eq!(report.warnings().count(), 0);
        assert_eq!(report.moves.len(), 36);
        assert_record_confirmed(&report);
        let last = report.moves.last().expect("moves");
        assert_eq!((last.number, last.side), (18, Color::Black));
        assert_eq!(last.text.as_ref().map(|t| t.to_string()).as_deref(), Some("h4-f4#"));
        let win = Outcome { winner: Some(Color::Black), reason: Reason::Immobilized };
        assert_eq!(report.verdict, ResultVerdict::Confirmed(win));
        assert_eq!(report.final_result(), ("0-1".to_string(), "immobilized".to_string()));
        assert!(report.is_ok());
    }
}
