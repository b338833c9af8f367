//! Rule-sensitivity studies (`latrunculi sensitivity --rulesets ID,... --out FILE.toml`):
//! the experiment file of a study: each ruleset as published, then each of its `[assumed]`
//! parameters (the keys whose line in the ruleset file carries an `[assumed]` comment)
//! changed one at a time to each alternative value, and each of its other boards. Run
//! it with `latrunculi survey`; `experiments/plot_sensitivity.py` draws the tornado plots
//! from the survey's summary.csv.
//!
//! Alternatives: a boolean is flipped; a key with named values takes each other value;
//! a count takes the values in [`alternatives`]. A change the ruleset cannot play (e.g.
//! trapping with line capture) is left out with a note in the file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{ArenaError, Result};
use latrunculi_rules::ruleset::BUILTIN;
use latrunculi_rules::{BoardSize, ParamChange, RulesetError, RulesetSpec};

/// The settings of a sensitivity study (the options of `latrunculi sensitivity`).
#[derive(Clone, Debug, PartialEq)]
pub struct SensitivityStudy {
    /// Ruleset ids (their files in `rules_dir`, or the built-in ones).
    pub rulesets: Vec<String>,
    /// The agent pairing every variant is played with, `[first, second]`.
    pub pairing: [String; 2],
    /// Games per variant at most (the cap of adaptive cells).
    pub games: u32,
    /// Games every variant plays first; more in rounds of as many until the draw rate's
    /// 95% interval is ±0.05 wide (0: always `games`).
    pub min_games: u32,
    /// Hard ply cap of the games.
    pub ply_cap: u32,
    /// The experiment file to write (named in the file's comments; its `out` is this
    /// path without extension).
    pub out: PathBuf,
    /// Directory of ruleset files consulted before the built-in ones.
    pub rules_dir: PathBuf,
}

/// An `[assumed]` parameter of a ruleset file: its dotted key, its value as written and
/// the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumed {
    /// `section.key`, or `key` at the top level.
    pub key: String,
    /// The value as written (quotes removed).
    pub value: String,
    /// 1-based line number.
    pub line: usize,
}

/// The keys of a ruleset file whose line has an `[assumed]` comment.
pub fn assumed_keys(text: &str) -> Vec<Assumed> {
    let mut section = String::new();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let (code, comment) = raw.split_once('#').unwrap_or((raw, ""));
        let code = code.trim();
        if let Some(name) = code.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        if !comment.contains("[assumed]") {
            continue;
        }
        if let Some((k, v)) = code.split_once('=') {
            let key = if section.is_empty() { k.trim().to_string() } else { format!("{section}.{}", k.trim()) };
            out.push(Assumed { key, value: v.trim().trim_matches('"').to_string(), line: i + 1 });
        }
    }
    out
}

/// The named values of the parameters that take one.
fn named_values(key: &str) -> Option<&'static [&'static str]> {
    Some(match key {
        "setup.placement" => &["one-each", "two-each", "one-two-one"],
        "movement.soldier" => &["slide", "step", "step-forward-sideways"],
        "movement.dux" => &["slide", "step"],
        "movement.hop_over" => &["any", "enemy", "own-or-trapped"],
        "capture.corner" => &["none", "active", "passive"],
        "capture.dux" => &["never", "enclosure", "four-sides", "like-soldier"],
        "capture.effect" => &["remove", "trap"],
        "end.dux_immobilized" => &["off", "any-blockers", "enemy-only"],
        "end.self_immobilization" => &["illegal", "loses", "allowed"],
        "end.no_moves" => &["loses", "material", "pass"],
        "end.no_capture_result" => &["draw", "material"],
        "end.repetition" => &["off", "draw", "mover-loses", "illegal"],
        "end.material_tie" => &["draw", "white", "black"],
        "end.adjudication" => &["count", "draw"],
        "first_player" => &["white", "black"],
        _ => return None,
    })
}

/// The alternative values of an `[assumed]` parameter, as TOML value text: the other
/// named values; the other boolean; for counts, `end.no_capture_limit` halved, doubled and
/// 0 (no limit), `end.lose_at_soldiers` 0 and 1, `end.repetition_count` 2 and 3,
/// `setup.soldiers_in_hand` one fewer and one more, other counts halved and doubled.
/// Board sizes give none (the other boards are variants of their own).
pub fn alternatives(a: &Assumed) -> Vec<String> {
    if matches!(a.key.as_str(), "width" | "height") {
        return Vec::new();
    }
    if let Some(names) = named_values(&a.key) {
        return names.iter().filter(|n| **n != a.value).map(|n| format!("\"{n}\"")).collect();
    }
    match a.value.as_str() {
        "true" => return vec!["false".into()],
        "false" => return vec!["true".into()],
        _ => {}
    }
    let Ok(v) = a.value.parse::<i64>() else { return Vec::new() };
    let mut alts: Vec<i64> = match a.key.as_str() {
        "end.no_capture_limit" => vec![v / 2, v * 2, 0],
        "end.lose_at_soldiers" => vec![0, 1],
        "end.repetition_count" => vec![2, 3],
        "setup.soldiers_in_hand" => vec![v - 1, v + 1],
        _ => vec![v / 2, v * 2],
    };
    alts.retain(|&x| x != v && x >= 0);
    alts.dedup();
    alts.iter().map(|x| x.to_string()).collect()
}

/// The text of a ruleset's file: `DIR/<id>.toml` if present, else the built-in text.
fn ruleset_text(id: &str, dir: &Path) -> Result<(String, String)> {
    let p = dir.join(format!("{id}.toml"));
    if p.is_file() {
        let t = std::fs::read_to_string(&p).map_err(ArenaError::io("read", &p))?;
        return Ok((t, p.display().to_string()));
    }
    match BUILTIN.iter().find(|(i, _)| *i == id) {
        Some((_, t)) => Ok((t.to_string(), format!("configs/rulesets/{id}.toml"))),
        None => Err(ArenaError::Experiment(format!("unknown ruleset '{id}' (see the list of rulesets)"))),
    }
}

/// The experiment file (TOML text) of the sensitivity study `args`.
pub fn experiment(args: &SensitivityStudy) -> Result<String> {
    let mut t = String::new();
    writeln!(t, "# Rule sensitivity (issue 11): each ruleset as published, then each [assumed] parameter of its")?;
    writeln!(t, "# file changed one at a time, and its other boards; one pairing; adaptive cells.")?;
    writeln!(
        t,
        "# Written by: latrunculi sensitivity --rulesets {} --pairing {},{} --games {} --min-games {} --ply-cap {} --out {}",
        args.rulesets.join(","),
        args.pairing[0],
        args.pairing[1],
        args.games,
        args.min_games,
        args.ply_cap,
        args.out.display()
    )?;
    writeln!(t, "# Run: latrunculi survey --config {}; plot: experiments/plot_sensitivity.py", args.out.display())?;
    writeln!(t, "rulesets = [")?;
    for id in &args.rulesets {
        let (text, file) = ruleset_text(id, &args.rules_dir)?;
        let spec: RulesetSpec = id.parse().map_err(RulesetError::from)?;
        let base = spec.resolve(Some(&args.rules_dir))?;
        writeln!(t, "    \"{id}\",  # as published ({file})")?;
        for a in assumed_keys(&text) {
            for v in alternatives(&a) {
                let mut changed = spec.clone();
                changed.changes.push(ParamChange { key: a.key.clone(), value: v.trim_matches('"').to_string() });
                let label = changed.to_string();
                match changed.resolve(Some(&args.rules_dir)) {
                    Ok(rs) if rs.params_hash() != base.params_hash() => {
                        writeln!(t, "    \"{label}\",  # [assumed] {} = {} (line {})", a.key, a.value, a.line)?;
                    }
                    Ok(_) => {}
                    Err(e) => writeln!(t, "    # left out, {label}: {e}")?,
                }
            }
        }
        for b in &base.other_boards {
            let on_board = b
                .parse::<BoardSize>()
                .map_err(RulesetError::from)
                .and_then(|board| Ok(spec.clone().with_board(Some(board))?))
                .and_then(|s| s.resolve(Some(&args.rules_dir)).map(|_| s));
            match on_board {
                Ok(s) => writeln!(t, "    \"{s}\",  # another board of the source")?,
                Err(e) => writeln!(t, "    # left out, {id}@{b}: {e}")?,
            }
        }
    }
    writeln!(t, "]")?;
    writeln!(t, "pairings = [[\"{}\", \"{}\"]]", args.pairing[0], args.pairing[1])?;
    writeln!(t, "games = {}", args.games)?;
    if args.min_games > 0 && args.min_games < args.games {
        writeln!(t, "min_games = {}", args.min_games)?;
        writeln!(t, "half_width = 0.05")?;
    }
    writeln!(t, "seed = 1")?;
    writeln!(t, "ply_cap = {}", args.ply_cap)?;
    writeln!(t, "out = \"{}\"", args.out.with_extension("").display())?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assumed_keys_are_read_with_their_section() {
        let text = "id = \"x\"\nwidth = 8   # [assumed]\n[end]\nno_moves = \"loses\" # [assumed]\n# [assumed] a note\nlose_at_soldiers = 0\n";
        let keys = assumed_keys(text);
        assert_eq!(keys.len(), 2);
        assert_eq!((keys[0].key.as_str(), keys[0].value.as_str(), keys[0].line), ("width", "8", 2));
        assert_eq!((keys[1].key.as_str(), keys[1].value.as_str(), keys[1].line), ("end.no_moves", "loses", 4));
        assert_eq!(alternatives(&keys[1]), vec!["\"material\"", "\"pass\""]);
        assert!(alternatives(&keys[0]).is_empty());
        let limit = Assumed { key: "end.no_capture_limit".into(), value: "60".into(), line: 1 };
        assert_eq!(alternatives(&limit), vec!["30", "120", "0"]);
        let flag = Assumed { key: "movement.hop_chain".into(), value: "false".into(), line: 1 };
        assert_eq!(alternatives(&flag), vec!["true"]);
    }

    #[test]
    fn every_variant_of_the_kowalski_study_loads_and_differs() {
        let args = SensitivityStudy {
            rulesets: vec!["kowalski".into(), "xxi".into()],
            pairing: ["greedy".into(), "greedy".into()],
            games: 100,
            min_games: 20,
            ply_cap: 300,
            out: PathBuf::from("/tmp/x.toml"),
            rules_dir: PathBuf::from("/nonexistent"),
        };
        let text = experiment(&args).unwrap();
        let survey = crate::survey::Survey::from_toml_str(
            &text,
            Path::new("/nonexistent"),
            &latrunculi_agents::Players::baseline(),
        )
        .unwrap();
        let labels: Vec<&str> = survey.rulesets.iter().map(|(l, _)| l.as_str()).collect();
        // kowalski's file marks self_immobilization and no_capture_limit [assumed].
        for want in [
            "kowalski",
            "kowalski+end.self_immobilization=loses",
            "kowalski+end.self_immobilization=allowed",
            "kowalski+end.no_capture_limit=30",
            "kowalski+end.no_capture_limit=120",
            "kowalski+end.no_capture_limit=0",
            "xxi",
            "xxi@12x8",
            "xxi@8x8",
        ] {
            assert!(labels.contains(&want), "{want} missing from {labels:?}");
        }
        let hashes: std::collections::BTreeSet<u64> = survey.rulesets.iter().map(|(_, r)| r.params_hash()).collect();
        assert_eq!(hashes.len(), labels.len(), "every variant plays other rules");
    }
}
