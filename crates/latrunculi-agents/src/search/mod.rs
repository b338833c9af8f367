//! The search player: `alphabeta` with a node or time budget
//! (`alphabeta:nodes=N` or `alphabeta:ms=N`).
//!
//! - **Budget**: iterative deepening until `nodes` (searched positions, counted the same
//!   on every machine: same seed, same game) or `ms` (wall-clock per move) runs out; the
//!   move played is the best move of the last finished iteration (the first iteration
//!   always finishes). `depth` caps the depth (default 64).
//! - **Search** ([`engine`]): principal-variation search with aspiration windows, a
//!   depth-preferred transposition table, killer and history move ordering, late-move
//!   reductions, optional null-move pruning (off by default: immobilisation wins make
//!   zugzwang common), and a quiescence search on captures, traps, removals and moves
//!   that may immobilise the enemy Dux.
//! - **Evaluation** ([`features`], [`weights`]): a weighted sum of features the rules
//!   make matter, with weights fitted per ruleset from game results ([`tune`]) and
//!   built in from `configs/eval/`; a small deterministic noise keyed by the game's seed
//!   (`noise`, default ±3 thousandths of a logit) varies games between the same players.
//!
//! Every switch is a spec key, so that each part can be A/B tested; the defaults are the
//! configuration the A/B tables in `experiments/strength/` kept.

pub mod clock;
pub mod engine;
pub mod features;
pub mod tt;
pub mod tune;
pub mod weights;

use std::path::PathBuf;
use std::sync::Arc;

use latrunculi_rules::{Move, Position, Ruleset};

pub use engine::{Engine, SearchResult};
pub use weights::{EvalWeights, WeightsError};

use crate::{Agent, AgentError, Report};

fn bad(agent: &str, key: &str, value: &str, expected: &'static str) -> AgentError {
    AgentError::BadValue { agent: agent.to_string(), key: key.to_string(), value: value.to_string(), expected }
}

/// The score of a won game at the root; a win `k` plies away scores `WIN - k`.
pub const WIN: i32 = 100_000;

/// Score units per logit of the expected score.
pub const SCORE_PER_LOGIT: i32 = 1000;

/// Which evaluation weights the player uses.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalChoice {
    /// The built-in fitted weights of the ruleset played, else the default (`eval=fitted`).
    Fitted,
    /// [`EvalWeights::default_weights`] (`eval=default`).
    Default,
    /// [`EvalWeights::material_only`] (`eval=material`).
    Material,
    /// A weights file (`eval=PATH`, a path ending in `.toml`), read once when the spec
    /// is parsed and shared by every agent built from it; checked against the ruleset by
    /// [`SearchAgent::check_ruleset`].
    File(PathBuf, Arc<EvalWeights>),
}

/// The search player's budget per move: how far it may search (Stockfish's "search
/// limits"). At least one of `nodes` and `ms` is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Node budget per move (`nodes`).
    pub nodes: Option<u64>,
    /// Time budget per move in milliseconds (`ms`).
    pub ms: Option<u64>,
    /// Count `ms` in this thread's CPU time instead of wall-clock time (`cpu`): a
    /// search beside other work then goes as far as on an idle machine, which makes
    /// timing comparisons fair on a loaded machine. Unix only (elsewhere a spec with
    /// `cpu=1` is refused).
    pub cpu_time: bool,
    /// Depth cap in plies (`depth`).
    pub max_depth: u32,
}

impl Default for SearchLimits {
    /// No budget (a spec must set one), wall-clock time, depth cap 64.
    fn default() -> SearchLimits {
        SearchLimits { nodes: None, ms: None, cpu_time: false, max_depth: 64 }
    }
}

/// The search player's switches: how it searches and evaluates (Stockfish's "engine
/// options").
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Transposition-table size in megabytes (`tt`).
    pub tt_mb: u32,
    /// Quiescence search (`qs`).
    pub quiescence: bool,
    /// Principal-variation search (`pvs`).
    pub pvs: bool,
    /// Aspiration windows (`asp`).
    pub aspiration: bool,
    /// Killer moves (`killers`).
    pub killers: bool,
    /// History heuristic (`hist`).
    pub history: bool,
    /// Late-move reductions (`lmr`).
    pub lmr: bool,
    /// Null-move pruning (`null`).
    pub null_move: bool,
    /// Amplitude of the evaluation's seed-keyed noise, in score units (`noise`).
    pub noise: u32,
    /// Score units per square by which the side with at least twice the other's pieces
    /// brings its soldiers closer to the enemy pieces, counted from the root in positions
    /// without a capture on the way (`pursuit`; 0 = off; see
    /// [`features::hunt_distance`]). A search heuristic, not a fitted weight.
    pub pursuit: u32,
    /// The evaluation weights (`eval`).
    pub eval: EvalChoice,
    /// Temperature of the soft policy in score units (`soft`): with it, every root move
    /// is scored after the search and [`Report::policy`] gives the softmax of the
    /// scores over it (teacher targets for datasets); `None`: no policy, no extra nodes.
    pub soft: Option<u32>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            tt_mb: 16,
            quiescence: true,
            pvs: true,
            aspiration: true,
            killers: true,
            history: true,
            lmr: true,
            null_move: false,
            noise: 3,
            pursuit: DEFAULT_PURSUIT,
            eval: EvalChoice::Fitted,
            soft: None,
        }
    }
}

/// The typed spec of the search player (`alphabeta:nodes=N|ms=MS[,...]`): its limits
/// apart from its engine options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchSpec {
    /// The budget per move.
    pub limits: SearchLimits,
    /// The switches.
    pub options: EngineOptions,
}

/// The keys of the budgeted `alphabeta` spec, for help texts.
pub const SEARCH_KEYS: &str =
    "nodes, ms, cpu, depth, tt, qs, pvs, asp, killers, hist, lmr, null, noise, pursuit, eval, soft";

/// The default of `pursuit` (score units, 1,000 a logit, per square).
pub const DEFAULT_PURSUIT: u32 = 0;

/// The budgeted `alphabeta` spec's syntax.
pub const SEARCH_USAGE: &str = "alphabeta:nodes=N|ms=N[,cpu=0|1][,depth=D][,tt=MB][,qs=0|1][,pvs=0|1][,asp=0|1][,killers=0|1][,hist=0|1][,lmr=0|1][,null=0|1][,noise=K][,pursuit=K][,eval=fitted|default|material|PATH.toml][,soft=T]";

/// The message of a refused `eval=PATH` where weights files are not read.
pub const NO_WEIGHT_FILES: &str = "eval=PATH (a weights file) is not read here; use fitted, default or material";

impl SearchSpec {
    /// Reads the options of a budgeted `alphabeta` spec (one of `nodes` and `ms` at
    /// least; see [`SEARCH_USAGE`]), in the order given. A weights file (`eval=PATH`) is
    /// read here when `weight_files` allows it, else refused.
    pub(crate) fn read(spec: &crate::spec::RawSpec, weight_files: bool) -> Result<SearchSpec, AgentError> {
        const NAME: &str = "alphabeta";
        let mut s = SearchSpec::default();
        let (limits, opts) = (&mut s.limits, &mut s.options);
        let flag = |k: &str, v: &str| match v {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(bad(NAME, k, v, "0 or 1")),
        };
        let count = |k: &str, v: &str, max: u64| {
            v.parse::<u64>().ok().filter(|&n| n >= 1 && n <= max).ok_or_else(|| bad(NAME, k, v, "a positive integer"))
        };
        let up_to = |k: &str, v: &str, max: u32, expected: &'static str| {
            v.parse::<u32>().ok().filter(|&n| n <= max).ok_or_else(|| bad(NAME, k, v, expected))
        };
        for (k, v) in spec.options() {
            let (k, v) = (*k, v.as_str());
            match k {
                "nodes" => limits.nodes = Some(count(k, v, 1 << 40)?),
                "ms" => limits.ms = Some(count(k, v, 3_600_000)?),
                "cpu" => {
                    limits.cpu_time = flag(k, v)?;
                    if limits.cpu_time && clock::thread_cpu_time().is_none() {
                        return Err(bad(NAME, k, v, "0 here: this system gives no thread CPU time"));
                    }
                }
                "depth" => {
                    limits.max_depth = v
                        .parse::<u32>()
                        .ok()
                        .filter(|d| (1..=engine::MAX_PLY as u32 / 2).contains(d))
                        .ok_or_else(|| bad(NAME, k, v, "an integer from 1 to 64"))?
                }
                "tt" => {
                    opts.tt_mb = v
                        .parse::<u32>()
                        .ok()
                        .filter(|&mb| mb <= 65_536)
                        .ok_or_else(|| bad(NAME, k, v, "megabytes from 0 to 65536"))?
                }
                "qs" => opts.quiescence = flag(k, v)?,
                "pvs" => opts.pvs = flag(k, v)?,
                "asp" => opts.aspiration = flag(k, v)?,
                "killers" => opts.killers = flag(k, v)?,
                "hist" => opts.history = flag(k, v)?,
                "lmr" => opts.lmr = flag(k, v)?,
                "null" => opts.null_move = flag(k, v)?,
                "noise" => opts.noise = up_to(k, v, 10_000, "an integer from 0 to 10000")?,
                "pursuit" => opts.pursuit = up_to(k, v, 1_000, "an integer from 0 to 1000")?,
                "soft" => opts.soft = Some(count(k, v, 100_000)? as u32),
                "eval" => {
                    opts.eval = match v {
                        "fitted" => EvalChoice::Fitted,
                        "default" => EvalChoice::Default,
                        "material" => EvalChoice::Material,
                        path if path.ends_with(".toml") => {
                            if !weight_files {
                                return Err(AgentError::Refused { agent: NAME.to_string(), message: NO_WEIGHT_FILES });
                            }
                            let w = EvalWeights::load(std::path::Path::new(path)).map_err(|e| AgentError::Build {
                                spec: format!("{NAME}:...,eval={v}"),
                                message: format!("agent '{NAME}': eval={v}: {e}"),
                            })?;
                            EvalChoice::File(PathBuf::from(path), Arc::new(w))
                        }
                        _ => return Err(bad(NAME, k, v, "fitted, default, material or a weights file PATH.toml")),
                    }
                }
                _ => {
                    return Err(AgentError::UnknownKey {
                        agent: NAME.to_string(),
                        key: k.to_string(),
                        valid: SEARCH_KEYS.to_string(),
                    });
                }
            }
        }
        if limits.nodes.is_none() && limits.ms.is_none() {
            return Err(AgentError::MissingKey {
                agent: NAME.to_string(),
                key: "nodes",
                usage: SEARCH_USAGE.to_string(),
            });
        }
        if limits.cpu_time && limits.ms.is_none() {
            return Err(bad(NAME, "cpu", "1", "0 without ms=N (cpu=1 says how ms counts time)"));
        }
        Ok(s)
    }
}

/// Totals over the moves of a search player, added up from its [`Report`]s by whoever
/// measures it ([`SearchStats::add`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Moves chosen by a search (forced moves not counted).
    pub searches: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Sum over searches of the deepest finished iteration.
    pub depth_sum: u64,
    /// Wall-clock seconds spent searching.
    pub seconds: f64,
}

impl SearchStats {
    /// Adds the move of `report` (a move chosen by a search, depth ≥ 1; forced moves are
    /// not counted), which took `seconds`.
    pub fn add(&mut self, report: &Report, seconds: f64) {
        if let (Some(depth @ 1..), Some(nodes)) = (report.depth, report.nodes) {
            self.searches += 1;
            self.nodes += nodes;
            self.depth_sum += depth as u64;
            self.seconds += seconds;
        }
    }

    /// Mean depth reached per search.
    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.searches.max(1) as f64
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// Nodes per search.
    pub fn nodes_per_search(&self) -> f64 {
        self.nodes as f64 / self.searches.max(1) as f64
    }
}

/// The search player (spec `alphabeta:nodes=N` or `alphabeta:ms=N`, see the module
/// docs).
#[derive(Clone, Debug)]
pub struct SearchAgent {
    spec: String,
    engine: Option<Engine>,
    cfg: SearchSpec,
    last: Option<SearchResult>,
    seed: u64,
}

impl SearchAgent {
    /// A search agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str, cfg: SearchSpec) -> SearchAgent {
        SearchAgent { spec: spec.to_string(), engine: None, cfg, last: None, seed: 0 }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchSpec {
        &self.cfg
    }

    /// An error if the weights file given with `eval=PATH` is for another ruleset.
    pub fn check_ruleset(&self, ruleset: &Ruleset) -> Result<(), WeightsError> {
        if let EvalChoice::File(path, w) = &self.cfg.options.eval {
            w.check_ruleset(&ruleset.id, &path.display().to_string())?;
        }
        Ok(())
    }

    /// The weights this agent evaluates `pos` with.
    pub fn weights_for(&self, pos: &Position) -> EvalWeights {
        match &self.cfg.options.eval {
            EvalChoice::Fitted => EvalWeights::for_rules(pos.rules()),
            EvalChoice::Default => EvalWeights::default_weights(),
            EvalChoice::Material => EvalWeights::material_only(),
            EvalChoice::File(_, w) => EvalWeights::clone(w),
        }
    }

    /// Searches `pos` (not over) and returns the full result.
    pub fn search(&mut self, pos: &Position) -> SearchResult {
        if self.engine.is_none() {
            let mut e = Engine::new(self.cfg.clone(), self.weights_for(pos).weights);
            e.new_game(self.seed);
            self.engine = Some(e);
        }
        let engine = self.engine.as_mut().expect("engine made above");
        let r = engine.search(pos);
        self.last = Some(r.clone());
        r
    }

    /// The soft policy of the last search (see [`EngineOptions::soft`]): the softmax of
    /// the root scores over the temperature, or `None` without `soft` or root scores.
    fn soft_policy(&self) -> Option<Vec<(Move, f32)>> {
        let t = self.cfg.options.soft? as f64;
        let r = self.last.as_ref()?;
        if r.root_scores.is_empty() {
            return None;
        }
        let top = r.root_scores.iter().map(|&(_, s)| s).max()? as f64;
        let weights: Vec<f64> = r.root_scores.iter().map(|&(_, s)| ((s as f64 - top) / t).exp()).collect();
        let total: f64 = weights.iter().sum();
        Some(r.root_scores.iter().zip(&weights).map(|(&(m, _), w)| (m, (w / total) as f32)).collect())
    }
}

impl Agent for SearchAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        // The weights depend on the ruleset, known at the first move.
        self.engine = None;
        self.last = None;
    }

    fn select(&mut self, pos: &Position) -> Move {
        self.search(pos).best
    }

    /// The last search's move, score, principal line, nodes and depth; its soft policy
    /// with `soft`; and its score as an expected result for the side to move,
    /// `tanh(score / (2 · SCORE_PER_LOGIT))`, which is `2p − 1` for the expected score `p`
    /// the evaluation's logit scale stands for (a found win 1, a found loss −1).
    fn report(&self) -> Report {
        let Some(r) = &self.last else { return Report::default() };
        Report {
            mv: Some(r.best),
            score: Some(r.score),
            line: r.pv.clone(),
            policy: self.soft_policy(),
            value: Some(value_of_score(r.score)),
            priors: None,
            nodes: Some(r.nodes),
            depth: Some(r.depth),
        }
    }
}

/// A search score as a value from -1 to 1 for the side it is for: `tanh(score / 2000)`
/// (scores are [`SCORE_PER_LOGIT`] units per logit of the expected score `p`, and
/// `tanh(x / 2) = 2 · sigmoid(x) − 1`).
pub fn value_of_score(score: i32) -> f32 {
    (score as f64 / (2.0 * SCORE_PER_LOGIT as f64)).tanh() as f32
}

#[cfg(test)]
mod tests;
