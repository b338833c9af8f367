//! Agents as the web app runs them: specs read once by the player factory the server was
//! given (`latrunculi_agents::Players`, through `latrunculi_arena::agents`), then their
//! typed values bounded so that no request can make an agent think for long or read a
//! file outside the allowed folders; moves chosen and positions analysed on tokio's
//! blocking threads with a timeout.

use std::time::{Duration, Instant};

use latrunculi_agents::search::{SCORE_PER_LOGIT, WIN};
use latrunculi_agents::{Agent, AgentError, AgentSpec, PlayerSpec, Players};
use latrunculi_arena::ArenaError;
use latrunculi_rules::{Move, Position, Ruleset, splitmix64};
use serde::Serialize;

use crate::error::{ServeError, full_message};
use crate::files::Folders;

/// Limits on agents' thinking.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest an agent may think per move or analysis, in milliseconds: the search
    /// player's `ms` is clamped to it, and a blocking task past it (plus a grace) is
    /// answered with a timeout.
    pub think_ms: u64,
    /// The most simulations per move of `mcts` and `az`.
    pub max_sims: u32,
    /// The deepest fixed-depth `alphabeta:depth=N` (without a node or time budget).
    pub max_fixed_depth: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { think_ms: 3000, max_sims: 5000, max_fixed_depth: 4 }
    }
}

fn refuse(spec: &str, message: impl Into<String>) -> ServeError {
    ServeError::Agent { spec: spec.to_string(), message: message.into() }
}

/// Reads an agent spec with `players` (which must refuse weights files:
/// [`Players::without_weight_files`]) and bounds the typed value by `limits`: the search
/// player's time is clamped (`ms` at most the limit, added when only `nodes` is given),
/// simulations and fixed depths above the limits are refused, and an `az` model must be
/// a file in the allowed folders (its path is made absolute). The agent is then built
/// once for `ruleset` (a model for another board is refused).
pub fn checked_spec(
    players: &Players,
    text: &str,
    ruleset: &Ruleset,
    limits: &Limits,
    folders: &Folders,
) -> Result<AgentSpec, ServeError> {
    let mut spec = latrunculi_arena::agents::parse_spec(players, text).map_err(|e| match e {
        ArenaError::Agent { source: AgentError::Refused { message, .. }, .. } => refuse(text, message),
        e => refuse(text.trim(), full_message(&e)),
    })?;
    let sims = match spec.player() {
        PlayerSpec::Search(_) => {
            spec.cap_ms(limits.think_ms);
            None
        }
        PlayerSpec::AlphaBeta(cfg) => {
            if cfg.depth > limits.max_fixed_depth {
                return Err(refuse(
                    text,
                    format!(
                        "a fixed depth above {} may think for minutes here; use the search player with a time budget, e.g. alphabeta:ms=1000",
                        limits.max_fixed_depth
                    ),
                ));
            }
            None
        }
        PlayerSpec::Mcts(cfg) => Some(cfg.sims),
        PlayerSpec::Other(other) => {
            // The limit counts the simulations a spec asks for, not a kind's default.
            let asked = spec.get("sims").and(other.simulations());
            if let Some(model) = other.model() {
                let path = folders.resolve(&model.display().to_string())?;
                spec.set_model(path);
            }
            asked
        }
        PlayerSpec::Random | PlayerSpec::Greedy => None,
    };
    if sims.is_some_and(|n| n > limits.max_sims) {
        return Err(refuse(text, format!("at most {} simulations per move here", limits.max_sims)));
    }
    latrunculi_arena::agents::check_plays(&spec, ruleset).map_err(|e| refuse(text.trim(), full_message(&e)))?;
    Ok(spec)
}

/// Runs `work` on a blocking thread, answering [`ServeError::Timeout`] after the think
/// limit and a grace second, and [`ServeError::AgentFailed`] if it panicked.
pub async fn run_bounded<T: Send + 'static>(
    limits: &Limits,
    work: impl FnOnce() -> Result<T, ServeError> + Send + 'static,
) -> Result<T, ServeError> {
    let budget = limits.think_ms + 1000;
    match tokio::time::timeout(Duration::from_millis(budget), tokio::task::spawn_blocking(work)).await {
        Err(_) => Err(ServeError::Timeout(budget)),
        Ok(Err(join)) => Err(ServeError::AgentFailed(panic_text(join))),
        Ok(Ok(result)) => result,
    }
}

fn panic_text(join: tokio::task::JoinError) -> String {
    match join.try_into_panic() {
        Ok(p) => p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string()),
        Err(e) => e.to_string(),
    }
}

/// The agent's seed for the ply `ply` of a game with seed `seed`.
pub fn ply_seed(seed: u64, ply: usize) -> u64 {
    splitmix64(seed ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Chooses the move of `spec` in `pos` (not over), building the agent afresh.
pub fn choose(spec: &AgentSpec, ruleset: &Ruleset, pos: &Position, seed: u64) -> Result<Move, ServeError> {
    let mut agent = build(spec, ruleset)?;
    agent.new_game(seed);
    Ok(agent.select(pos))
}

fn build(spec: &AgentSpec, ruleset: &Ruleset) -> Result<Box<dyn Agent>, ServeError> {
    spec.build(Some(ruleset)).map_err(|e| refuse(&spec.to_string(), full_message(&e)))
}

/// A move with a weight (a visit share or a prior).
#[derive(Clone, Debug, Serialize)]
pub struct WeightedMove {
    /// The move in the game's notation.
    pub text: String,
    /// Start square.
    pub from: String,
    /// End square.
    pub to: String,
    /// The weight, from 0 to 1.
    pub p: f32,
}

/// An agent's analysis of a position.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// The agent's canonical spec (after the limits).
    pub agent: String,
    /// `white` or `black`: the side the values are for.
    pub side: String,
    /// The move the agent chooses.
    pub best: Option<String>,
    /// The search player's score for the side to move, in its units (1000 per logit of
    /// the expected score; ±100000 minus the plies for a forced win or loss).
    pub score: Option<i32>,
    /// The score in words: `+0.42` (logits) or `wins in 5 plies`.
    pub score_text: Option<String>,
    /// Depth of the last finished iteration of the search.
    pub depth: Option<u32>,
    /// Positions searched.
    pub nodes: Option<u64>,
    /// The principal variation in the game's notation.
    pub pv: Vec<String>,
    /// The network's value of the position for the side to move, -1 to 1.
    pub value: Option<f32>,
    /// The network's priors of the legal moves, largest first.
    pub priors: Vec<WeightedMove>,
    /// The search's visit shares of the root moves, largest first.
    pub visits: Vec<WeightedMove>,
    /// Per square (rank 1 first, file a first), the summed weight of the moves that end
    /// there (the priors if any, else the visit shares): the page's heat map.
    pub heat: Vec<f32>,
    /// What this agent does not give (e.g. `random` gives no evaluation).
    pub note: Option<String>,
    /// Milliseconds the analysis took.
    pub ms: u64,
}

fn weighted(pos: &Position, moves: Option<Vec<(Move, f32)>>) -> Vec<WeightedMove> {
    let mut out: Vec<WeightedMove> = moves
        .unwrap_or_default()
        .into_iter()
        .map(|(mv, p)| WeightedMove {
            text: pos.move_to_string(mv).unwrap_or_else(|| format!("{}-{}", mv.from, mv.to)),
            from: mv.from.to_string(),
            to: mv.to.to_string(),
            p,
        })
        .collect();
    out.sort_by(|a, b| b.p.total_cmp(&a.p));
    out
}

/// The score in words.
pub fn score_text(score: i32) -> String {
    if score.abs() > WIN - 1000 {
        let plies = WIN - score.abs();
        if score > 0 { format!("wins in {plies} plies") } else { format!("loses in {plies} plies") }
    } else {
        format!("{:+.2}", score as f64 / SCORE_PER_LOGIT as f64)
    }
}

/// Analyses `pos` (not over) with `spec`: the search player (`alphabeta` with a budget)
/// gives its score, depth, nodes and principal variation; other agents give their
/// choice and, where they have them, their visit shares, the network's value and
/// priors (the `az` agent).
pub fn analyse(spec: &AgentSpec, ruleset: &Ruleset, pos: &Position, seed: u64) -> Result<Analysis, ServeError> {
    let start = Instant::now();
    let mut a =
        Analysis { agent: spec.to_string(), side: pos.side_to_move().name().to_string(), ..Analysis::default() };
    let mut agent = build(spec, ruleset)?;
    agent.new_game(seed);
    let mv = agent.select(pos);
    let r = agent.report();
    a.best = pos.move_to_string(mv);
    if let PlayerSpec::Search(_) = spec.player() {
        a.score = r.score;
        a.score_text = r.score.map(score_text);
        a.depth = r.depth;
        a.nodes = r.nodes;
        let mut p = pos.clone();
        for mv in r.line {
            match p.move_to_string(mv) {
                Some(t) if !p.is_over() => {
                    a.pv.push(t);
                    p.play(mv);
                }
                _ => break,
            }
        }
    } else {
        a.value = r.value;
        a.priors = weighted(pos, r.priors);
        a.visits = weighted(pos, r.policy);
        if a.value.is_none() && a.priors.is_empty() && a.visits.is_empty() {
            a.note = Some(format!(
                "{} gives no evaluation, only its move; ask alphabeta:ms=N for a score and line, or an az model for a value and policy",
                spec.name()
            ));
        }
    }
    let rules = pos.rules();
    let (w, h) = (rules.width as usize, rules.height as usize);
    let mut heat = vec![0.0f32; w * h];
    let source = if a.priors.is_empty() { &a.visits } else { &a.priors };
    for m in source {
        if let Ok(sq) = m.to.parse::<latrunculi_rules::Square>() {
            let i = sq.rank() as usize * w + sq.file() as usize;
            if let Some(cell) = heat.get_mut(i) {
                *cell += m.p;
            }
        }
    }
    if source.is_empty() {
        heat.clear();
    }
    a.heat = heat;
    a.ms = start.elapsed().as_millis() as u64;
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders() -> Folders {
        Folders::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
    }

    /// The players of the web app: the baseline kinds, weights files refused.
    fn checked_spec(text: &str, rs: &Ruleset, limits: &Limits, folders: &Folders) -> Result<AgentSpec, ServeError> {
        super::checked_spec(&Players::baseline().without_weight_files(), text, rs, limits, folders)
    }

    #[test]
    fn specs_are_bounded() {
        let rs = Ruleset::builtin("xxi").expect("xxi");
        let limits = Limits::default();
        let f = folders();
        assert_eq!(checked_spec(" random ", &rs, &limits, &f).expect("random").to_string(), "random");
        let s = checked_spec("alphabeta:ms=999999", &rs, &limits, &f).expect("clamped");
        assert_eq!(s.get("ms"), Some("3000"));
        let s = checked_spec("alphabeta:nodes=5000", &rs, &limits, &f).expect("capped");
        assert_eq!(s.get("ms"), Some("3000"));
        let e = checked_spec("alphabeta:depth=9", &rs, &limits, &f).expect_err("deep").to_string();
        assert!(e.contains("alphabeta:ms="), "{e}");
        let e = checked_spec("mcts:sims=100000", &rs, &limits, &f).expect_err("many").to_string();
        assert!(e.contains("5000"), "{e}");
        let e = checked_spec("alphabeta:ms=10,eval=/etc/x.toml", &rs, &limits, &f).expect_err("a file").to_string();
        assert!(e.contains("eval=PATH"), "{e}");
        let e = checked_spec("alphabeta:nodes=10,eval=experiments/none.toml", &rs, &limits, &f).expect_err("a file");
        assert!(e.to_string().contains("eval=PATH (a weights file) is not read here"), "{e}");
        let e = checked_spec("az:model=/etc/passwd", &rs, &limits, &f).expect_err("outside").to_string();
        assert!(e.contains("/etc/passwd"), "{e}");
        let e = checked_spec("alphazero", &rs, &limits, &f).expect_err("unknown").to_string();
        assert!(e.contains("unknown agent"), "{e}");
        let e = checked_spec("mcts:sims=100000,c=-1", &rs, &limits, &f).expect_err("bad").to_string();
        assert!(e.contains("'c'"), "the spec is read before it is bounded: {e}");
    }

    #[test]
    fn the_typed_value_is_bounded_with_its_text() {
        let rs = Ruleset::builtin("xxi").expect("xxi");
        let (limits, f) = (Limits::default(), folders());
        let s = checked_spec("alphabeta:ms=999999,nodes=50,qs=0", &rs, &limits, &f).expect("clamped");
        assert_eq!(s.to_string(), "alphabeta:nodes=50,qs=0,ms=3000");
        let PlayerSpec::Search(search) = s.player() else { panic!("the search player: {s:?}") };
        assert_eq!((search.limits.ms, search.limits.nodes, search.options.quiescence), (Some(3000), Some(50), false));
        let s = checked_spec("alphabeta:ms=20", &rs, &limits, &f).expect("under the limit");
        let PlayerSpec::Search(search) = s.player() else { panic!("the search player: {s:?}") };
        assert_eq!((s.to_string().as_str(), search.limits.ms), ("alphabeta:ms=20", Some(20)));
        let s = checked_spec("alphabeta:depth=4", &rs, &limits, &f).expect("the deepest fixed depth allowed");
        assert_eq!(s.to_string(), "alphabeta:depth=4");
    }

    #[test]
    fn the_search_player_gives_a_score_and_a_line() {
        let rs = Ruleset::builtin("xxi").expect("xxi");
        let spec = checked_spec("alphabeta:nodes=2000", &rs, &Limits::default(), &folders()).expect("spec");
        let a = analyse(&spec, &rs, &Position::new(&rs), 1).expect("analysis");
        assert!(a.best.is_some() && a.score.is_some() && a.depth.unwrap_or(0) >= 1);
        assert_eq!(a.pv.first(), a.best.as_ref());
        let spec = checked_spec("mcts:sims=50", &rs, &Limits::default(), &folders()).expect("spec");
        let a = analyse(&spec, &rs, &Position::new(&rs), 1).expect("analysis");
        assert!(!a.visits.is_empty() && a.heat.len() == 80);
        assert!((a.heat.iter().sum::<f32>() - 1.0).abs() < 1e-3);
        let spec = checked_spec("random", &rs, &Limits::default(), &folders()).expect("spec");
        assert!(analyse(&spec, &rs, &Position::new(&rs), 1).expect("analysis").note.is_some());
    }

    #[test]
    fn scores_read_as_logits_or_wins() {
        assert_eq!(score_text(420), "+0.42");
        assert_eq!(score_text(WIN - 5), "wins in 5 plies");
        assert_eq!(score_text(-(WIN - 2)), "loses in 2 plies");
    }
}
