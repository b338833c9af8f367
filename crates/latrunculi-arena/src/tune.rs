//! Fitting the search player's evaluation weights for one ruleset from recorded games
//! (`latrunculi tune-eval`): replay every game of the ruleset in the games CSVs given,
//! take a sample of its positions with the side to move's final score, fit a logistic
//! regression of the score on the [`features`](latrunculi_agents::search::features)
//! (Texel-style tuning), and report the held-out log-loss against a material-only fit.
//!
//! Games are split into training and held-out sets by their seed (one game's positions
//! are never on both sides); the sample is a deterministic function of the files.

use std::path::{Path, PathBuf};

use latrunculi_agents::search::features::{FEATURE_NAMES, NUM_FEATURES, features_of, idx};
use latrunculi_agents::search::tune::{ALL_FEATURES, Sample, constant_log_loss, fit, log_loss, material_only};
use latrunculi_agents::search::weights::{EvalWeights, FitInfo};
use latrunculi_rules::{Color, Position, Ruleset, parse_move, splitmix64};
use rayon::prelude::*;
use serde::Deserialize;

use crate::error::{ArenaError, full_message};
use crate::io::games::{GamesReader, Located};

/// Errors of [`tune`]. Each names the file and line where one is involved.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A games file could not be read.
    #[error("{file}: cannot read: {message}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
    /// A row of a games file is malformed.
    #[error("{file}: line {line}: {message}")]
    Row {
        /// The file.
        file: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A recorded move is not legal in the replayed game.
    #[error("{file}: line {line}: ply {ply} ({token}): {message}")]
    Move {
        /// The file.
        file: String,
        /// The 1-based line.
        line: usize,
        /// The 1-based ply.
        ply: usize,
        /// The move as written.
        token: String,
        /// Why it is refused.
        message: String,
    },
    /// Too few positions to fit.
    #[error(
        "only {found} positions of ruleset '{ruleset}' (params_hash {hash}) in the games given; at least {needed} are needed"
    )]
    TooFew {
        /// The ruleset id.
        ruleset: String,
        /// Its parameter hash.
        hash: String,
        /// Positions found.
        found: usize,
        /// Positions needed.
        needed: usize,
    },
}

/// What [`tune`] reads and how it samples.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Games CSVs to read (rows of other rulesets are skipped).
    pub games: Vec<PathBuf>,
    /// At most this many positions (spread evenly over the games' plies).
    pub max_positions: usize,
    /// Every this-many-th game (by seed) is held out.
    pub hold_out_every: u64,
    /// Ridge penalty of the fit.
    pub ridge: f64,
    /// The command line, recorded in the weights file.
    pub command: String,
    /// Fit only quiet positions: those where the side to move captures, traps or
    /// removes nothing with any move. The search evaluates positions where its
    /// quiescence search stands pat, and resolves the side to move's captures itself;
    /// fitted on every position, the `threat` feature soaks up the value of the
    /// capture about to be made and outweighs material. `threat` is left out of a
    /// quiet fit (it is 0 there).
    pub quiet: bool,
    /// Only games whose two players both match one of these specs (a trailing `*`
    /// matches any rest, e.g. `alphabeta:nodes=*`); empty: every game.
    pub players: Vec<String>,
}

/// Whether `spec` matches `pattern` (exactly, or by prefix where the pattern ends in `*`).
pub fn spec_matches(pattern: &str, spec: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => spec.starts_with(prefix),
        None => spec == pattern,
    }
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            games: Vec::new(),
            max_positions: 60_000,
            hold_out_every: 5,
            ridge: 1e-4,
            command: String::new(),
            quiet: true,
            players: Vec::new(),
        }
    }
}

/// The columns of a games CSV that `tune` reads ([`Row`]).
const ROW_COLUMNS: [&str; 8] = ["ruleset", "white", "black", "params_hash", "seed", "winner", "plies", "moves"];

/// What `tune` reads of a game row.
#[derive(Deserialize)]
struct Row {
    ruleset: String,
    white: String,
    black: String,
    params_hash: String,
    seed: u64,
    winner: String,
    plies: u32,
    moves: String,
}

/// One game to replay.
struct Game {
    file: String,
    line: usize,
    seed: u64,
    winner: Option<Color>,
    moves: String,
}

/// The fitted weights and the figures of the fit.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The weights, with their [`FitInfo`].
    pub weights: EvalWeights,
}

/// Fits the evaluation weights of `ruleset` from the games in `opts.games`.
pub fn tune(ruleset: &Ruleset, opts: &TuneOptions) -> Result<TuneReport, TuneError> {
    let hash = format!("{:016x}", ruleset.params_hash());
    let games = read_games(ruleset, &hash, &opts.games, &opts.players)?;
    let total_plies: u64 = games.iter().map(|g| g.moves.split_whitespace().count() as u64).sum();
    // About half the positions of a game are quiet: sample twice as densely then.
    let wanted = if opts.quiet { 2 * opts.max_positions.max(1) } else { opts.max_positions.max(1) };
    let stride = total_plies.div_ceil(wanted as u64).max(1);
    let per_game: Vec<(bool, Vec<Sample>)> = games
        .par_iter()
        .map(|g| {
            let held_out = splitmix64(g.seed) % opts.hold_out_every.max(2) == 0;
            samples_of(ruleset, g, stride, opts.quiet).map(|s| (held_out, s))
        })
        .collect::<Result<_, _>>()?;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (held_out, s) in per_game {
        if held_out { test.extend(s) } else { train.extend(s) }
    }
    const NEEDED: usize = 200;
    if train.len() < NEEDED || test.is_empty() {
        return Err(TuneError::TooFew {
            ruleset: ruleset.id.clone(),
            hash,
            found: train.len() + test.len(),
            needed: NEEDED,
        });
    }
    let mut mask = ALL_FEATURES;
    if opts.quiet {
        mask[idx::THREAT] = false;
    }
    let w = fit(&train, &mask, opts.ridge);
    let as_material = |s: &[Sample]| -> Vec<Sample> {
        s.iter().map(|x| Sample { features: material_only(&x.features), score: x.score }).collect()
    };
    let wm = fit(&as_material(&train), &ALL_FEATURES, opts.ridge);
    let mean = train.iter().map(|s| s.score).sum::<f64>() / train.len() as f64;
    let mut sources: Vec<String> = opts.games.iter().map(|p| p.display().to_string()).collect();
    sources.sort();
    let fit_info = FitInfo {
        games: games.len() as u64,
        positions: train.len() as u64,
        held_out: test.len() as u64,
        log_loss: round4(log_loss(&test, &w)),
        log_loss_material: round4(log_loss(&as_material(&test), &wm)),
        log_loss_constant: round4(constant_log_loss(&test, mean)),
        command: opts.command.clone(),
        sources,
    };
    Ok(TuneReport { weights: EvalWeights { ruleset: ruleset.id.clone(), weights: w, fit: Some(fit_info) } })
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The games of `ruleset` (same id and `params_hash`) in `files`, in file order.
fn read_games(ruleset: &Ruleset, hash: &str, files: &[PathBuf], players: &[String]) -> Result<Vec<Game>, TuneError> {
    let chosen = |spec: &str| players.is_empty() || players.iter().any(|p| spec_matches(p, spec));
    let mut games = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let to_tune = |e: ArenaError| match e {
            ArenaError::Content { line: Some(line), message, .. } => {
                TuneError::Row { file: file.clone(), line, message }
            }
            ArenaError::Content { line: None, message, .. } => TuneError::Read { file: file.clone(), message },
            ArenaError::Io { source, .. } => TuneError::Read { file: file.clone(), message: source.to_string() },
            e => TuneError::Read { file: file.clone(), message: full_message(&e) },
        };
        let reader = GamesReader::open(path).map_err(to_tune)?;
        for row in reader.rows_of::<Row>(&ROW_COLUMNS).map_err(to_tune)? {
            let Located { line, value: row, .. } = row.map_err(to_tune)?;
            if row.ruleset != ruleset.id || row.params_hash != hash || !chosen(&row.white) || !chosen(&row.black) {
                continue;
            }
            let winner = match row.winner.as_str() {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                "draw" => None,
                other => {
                    return Err(TuneError::Row {
                        file: file.clone(),
                        line,
                        message: format!("winner '{other}' is not white, black or draw"),
                    });
                }
            };
            if row.moves.split_whitespace().count() != row.plies as usize {
                return Err(TuneError::Row {
                    file: file.clone(),
                    line,
                    message: format!("{} moves recorded for {} plies", row.moves.split_whitespace().count(), row.plies),
                });
            }
            games.push(Game { file: file.clone(), line, seed: row.seed, winner, moves: row.moves });
        }
    }
    Ok(games)
}

/// Replays `g` and returns the features of every `stride`-th unfinished position
/// (offset by the game's seed; only quiet ones if `quiet`) with the side to move's
/// final score.
fn samples_of(ruleset: &Ruleset, g: &Game, stride: u64, quiet: bool) -> Result<Vec<Sample>, TuneError> {
    let mut pos = Position::new(ruleset);
    pos.set_ply_cap(u32::MAX);
    let offset = splitmix64(g.seed ^ 0x7E57) % stride;
    let mut out = Vec::new();
    for (i, token) in g.moves.split_whitespace().enumerate() {
        if (i as u64) % stride == offset && !pos.is_over() {
            let me = pos.side_to_move();
            let score = match g.winner {
                None => 0.5,
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
            };
            let features = features_of(&pos);
            if !quiet || features[idx::THREAT] == 0.0 {
                out.push(Sample { features, score });
            }
        }
        let parsed = parse_move(ruleset, &pos, token).map_err(|e| TuneError::Move {
            file: g.file.clone(),
            line: g.line,
            ply: i + 1,
            token: token.to_string(),
            message: e.to_string(),
        })?;
        pos.play(parsed.mv);
    }
    Ok(out)
}

/// A plain-text summary of a fit: the weights and the held-out log-losses.
pub fn summary(w: &EvalWeights) -> String {
    let mut s = format!("ruleset {}\n", w.ruleset);
    for i in 0..NUM_FEATURES {
        s += &format!("  {:<14} {:+.4}\n", FEATURE_NAMES[i], w.weights[i]);
    }
    if let Some(f) = &w.fit {
        s += &format!(
            "  {} games, {} positions fitted, {} held out; held-out log-loss {:.4} (material only {:.4}, constant {:.4})\n",
            f.games, f.positions, f.held_out, f.log_loss, f.log_loss_material, f.log_loss_constant
        );
    }
    s
}

/// Writes `w` to `path` atomically (its folder is made if missing).
pub fn write_weights(path: &Path, w: &EvalWeights) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    latrunculi_files::write_atomic(path, w.to_toml().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_csv(dir: &Path) -> PathBuf {
        // Self-play of the fixed-depth player on kowalski gives decided games.
        use latrunculi_agents::parse_agent;
        let rs = Ruleset::builtin("kowalski").unwrap();
        let mut text = String::from("ruleset,params_hash,game,seed,white,black,winner,reason,plies,moves\n");
        for g in 0..24u64 {
            let mut p = Position::new(&rs);
            p.set_ply_cap(120);
            let mut a = [parse_agent("greedy").unwrap(), parse_agent("alphabeta:depth=1").unwrap()];
            a[0].new_game(g);
            a[1].new_game(g + 100);
            let mut moves = Vec::new();
            while !p.is_over() {
                let i = if (p.side_to_move() == Color::White) == (g % 2 == 0) { 0 } else { 1 };
                let mv = a[i].select(&p);
                moves.push(p.move_to_string(mv).unwrap());
                p.play(mv);
            }
            let o = p.outcome().unwrap();
            let winner = match o.winner {
                Some(Color::White) => "white",
                Some(Color::Black) => "black",
                None => "draw",
            };
            text += &format!(
                "kowalski,{:016x},{g},{g},x,y,{winner},{},{},{}\n",
                rs.params_hash(),
                o.reason,
                moves.len(),
                moves.join(" ")
            );
        }
        let path = dir.join("games.csv");
        std::fs::write(&path, text).unwrap();
        path
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("latrunculi-tune-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_fit_on_recorded_games_writes_a_file_the_player_loads() {
        let dir = scratch("fit");
        let games = games_csv(&dir);
        let rs = Ruleset::builtin("kowalski").unwrap();
        // Every position: a capture the side to move can make now tells who wins.
        let opts = TuneOptions {
            games: vec![games.clone()],
            max_positions: 5_000,
            command: "test".into(),
            quiet: false,
            ..Default::default()
        };
        let r = tune(&rs, &opts).unwrap();
        let f = r.weights.fit.clone().unwrap();
        assert_eq!(f.games, 24);
        assert!(f.positions > 200 && f.held_out > 0);
        assert!(r.weights.weights[idx::THREAT] > 0.0, "a capture at hand is good: {:?}", r.weights.weights);
        assert!(f.log_loss.is_finite() && f.log_loss_material.is_finite() && f.log_loss_constant.is_finite());
        // Quiet positions only: fewer of them, and no weight on the threat feature.
        let quiet = tune(&rs, &TuneOptions { quiet: true, ..opts.clone() }).unwrap();
        let qf = quiet.weights.fit.clone().unwrap();
        assert!(qf.positions > 0 && qf.positions < f.positions * 2, "{} quiet of {}", qf.positions, f.positions);
        assert_eq!(quiet.weights.weights[idx::THREAT], 0.0);
        // Only the games of named players: none here is named `nobody`.
        let none = tune(&rs, &TuneOptions { players: vec!["nobody".into()], ..opts.clone() });
        assert!(matches!(none, Err(TuneError::TooFew { found: 0, .. })), "{none:?}");
        let again = tune(&rs, &opts).unwrap();
        assert_eq!(again.weights, r.weights, "deterministic");
        let path = dir.join("eval").join("kowalski.toml");
        write_weights(&path, &r.weights).unwrap();
        let back = EvalWeights::load_for(&path, "kowalski").unwrap();
        assert_eq!(back.ruleset, "kowalski");
        assert!(EvalWeights::load_for(&path, "xxi").is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_illegal_recorded_move_names_the_file_line_and_ply() {
        let dir = scratch("bad");
        let games = games_csv(&dir);
        let text = std::fs::read_to_string(&games).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut fields: Vec<String> = lines[3].split(',').map(str::to_string).collect();
        let mut moves: Vec<&str> = fields[9].split(' ').collect();
        moves[4] = "a1-a1";
        fields[9] = moves.join(" ");
        lines[3] = fields.join(",");
        std::fs::write(&games, lines.join("\n") + "\n").unwrap();
        let rs = Ruleset::builtin("kowalski").unwrap();
        let opts = TuneOptions { games: vec![games], ..Default::default() };
        let e = tune(&rs, &opts).unwrap_err().to_string();
        assert!(e.contains("games.csv") && e.contains("line 4") && e.contains("ply 5") && e.contains("a1-a1"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
