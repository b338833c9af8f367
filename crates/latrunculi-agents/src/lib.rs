//! # latrunculi-agents
//!
//! Baseline players for every ruleset of `latrunculi-rules`, built from a spec string
//! with [`parse_agent`]:
//!
//! | spec | agent |
//! |---|---|
//! | `random` | [`RandomAgent`]: a uniformly random legal move |
//! | `greedy` | [`GreedyAgent`]: one-ply lookahead on captures, avoiding immediate losses |
//! | `mcts:sims=N[,depth=D][,c=C]` | [`MctsAgent`]: UCT with material-scored random rollouts |
//! | `alphabeta:depth=N[,tt=MB]` | [`AlphaBetaAgent`]: negamax with alpha-beta, iterative deepening and a transposition table |
//!
//! Every agent is deterministic given the seed of [`Agent::new_game`]: the same seed and
//! the same positions give the same moves.

#![warn(missing_docs)]

pub mod alphabeta;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod search;

pub use alphabeta::{AlphaBetaAgent, AlphaBetaConfig};
pub use game::{PlayOutError, play_out};
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, MctsConfig, uct_simulations_per_second};
pub use random::RandomAgent;
pub use search::{SearchAgent, SearchConfig};

use latrunculi_rules::{Move, Position};

/// A player: chooses a move in a position that is not over.
pub trait Agent: Send {
    /// The spec string this agent was made from (e.g. "mcts:sims=200").
    fn spec(&self) -> &str;
    /// Starts a new game; every random choice of the game derives from `seed`.
    fn new_game(&mut self, seed: u64);
    /// Chooses a legal move; `pos` is not over and has at least one legal move.
    fn select(&mut self, pos: &Position) -> Move;
    /// The visit distribution of the root of the last [`Agent::select`]: each root move
    /// the search visited with its share of the root children's visits (the
    /// probabilities sum to 1). `None` for agents that do not search by visits, before
    /// the first `select` of a game, and when the last `select` did not search (e.g. a
    /// forced move).
    fn last_policy(&self) -> Option<Vec<(Move, f32)>> {
        None
    }
}

/// Normalises `(move, visits)` pairs into a visit distribution: moves with no visit are
/// left out; `None` if no move was visited. Helper for [`Agent::last_policy`].
pub fn visit_distribution(visits: impl IntoIterator<Item = (Move, u32)>) -> Option<Vec<(Move, f32)>> {
    let visited: Vec<(Move, u32)> = visits.into_iter().filter(|&(_, n)| n > 0).collect();
    let total: u64 = visited.iter().map(|&(_, n)| n as u64).sum();
    if total == 0 {
        return None;
    }
    Some(visited.into_iter().map(|(mv, n)| (mv, (n as f64 / total as f64) as f32)).collect())
}

/// The agent specs [`parse_agent`] accepts, for error messages and help texts.
pub const VALID_AGENTS: &str =
    "random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB], alphabeta:nodes=N|ms=N[,...]";

/// Errors in an agent spec. Each message names the offending part and what is valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// The spec is empty.
    #[error("empty agent spec (valid agents: {VALID_AGENTS})")]
    Empty,
    /// The agent name is not known.
    #[error("unknown agent '{name}' (valid agents: {VALID_AGENTS})")]
    UnknownAgent {
        /// The name given.
        name: String,
    },
    /// An agent that takes no parameters was given some.
    #[error("agent '{agent}' takes no parameters, got '{params}' (valid agents: {VALID_AGENTS})")]
    NoParameters {
        /// The agent name.
        agent: String,
        /// The parameter text given.
        params: String,
    },
    /// A parameter that is not `key=value`.
    #[error("agent '{agent}': parameter '{part}' is not key=value (valid keys: {valid})")]
    Malformed {
        /// The agent name.
        agent: String,
        /// The offending parameter text.
        part: String,
        /// The keys the agent accepts.
        valid: &'static str,
    },
    /// A key the agent does not know.
    #[error("agent '{agent}': unknown key '{key}' (valid keys: {valid})")]
    UnknownKey {
        /// The agent name.
        agent: String,
        /// The key given.
        key: String,
        /// The keys the agent accepts.
        valid: &'static str,
    },
    /// A key given twice.
    #[error("agent '{agent}': key '{key}' given more than once")]
    DuplicateKey {
        /// The agent name.
        agent: String,
        /// The repeated key.
        key: String,
    },
    /// A required key is missing.
    #[error("agent '{agent}': missing key '{key}' (spec: {usage})")]
    MissingKey {
        /// The agent name.
        agent: String,
        /// The missing key.
        key: &'static str,
        /// The agent's spec syntax.
        usage: &'static str,
    },
    /// A value that does not parse or is out of range.
    #[error("agent '{agent}': bad value '{value}' for key '{key}' (expected {expected})")]
    BadValue {
        /// The agent name.
        agent: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is expected.
        expected: &'static str,
    },
}

/// Parses an agent spec: `random`, `greedy`, `mcts:sims=N[,depth=D][,c=C]`,
/// `alphabeta:depth=N[,tt=MB]`. Names and keys are case-sensitive; spaces around
/// names, keys and values are ignored.
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, AgentError> {
    let trimmed = spec.trim();
    if trimmed.is_empty() {
        return Err(AgentError::Empty);
    }
    let (name, params) = match trimmed.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p)),
        None => (trimmed, None),
    };
    let no_params = |agent: &str| -> Result<(), AgentError> {
        match params {
            Some(p) if !p.trim().is_empty() => {
                Err(AgentError::NoParameters { agent: agent.to_string(), params: p.to_string() })
            }
            _ => Ok(()),
        }
    };
    match name {
        "random" => {
            no_params(name)?;
            Ok(Box::new(RandomAgent::new(trimmed)))
        }
        "greedy" => {
            no_params(name)?;
            Ok(Box::new(GreedyAgent::new(trimmed)))
        }
        "mcts" => {
            const VALID: &str = "sims, depth, c";
            const USAGE: &str = "mcts:sims=N[,depth=D][,c=C]";
            let kv = key_values(name, params.unwrap_or(""), &["sims", "depth", "c"], VALID)?;
            let mut cfg = MctsConfig::default();
            let mut have_sims = false;
            for (k, v) in kv {
                match k {
                    "sims" => {
                        cfg.sims = positive(name, k, v)?;
                        have_sims = true;
                    }
                    "depth" => cfg.rollout_depth = non_negative(name, k, v)?,
                    _ => {
                        cfg.c = v
                            .parse::<f64>()
                            .ok()
                            .filter(|c| c.is_finite() && *c >= 0.0)
                            .ok_or_else(|| bad(name, k, v, "a finite number >= 0"))?
                    }
                }
            }
            if !have_sims {
                return Err(AgentError::MissingKey { agent: name.to_string(), key: "sims", usage: USAGE });
            }
            Ok(Box::new(MctsAgent::new(trimmed, cfg)))
        }
        "alphabeta" => {
            const VALID: &str = "depth, tt (fixed depth); nodes, ms, depth, tt, qs, pvs, asp, killers, hist, lmr, null, noise, eval (budgeted search)";
            const USAGE: &str = "alphabeta:depth=N[,tt=MB] or alphabeta:nodes=N|ms=N[,...]";
            const KEYS: [&str; 13] =
                ["depth", "tt", "nodes", "ms", "qs", "pvs", "asp", "killers", "hist", "lmr", "null", "noise", "eval"];
            let kv = key_values(name, params.unwrap_or(""), &KEYS, VALID)?;
            // A node or time budget selects the search player; `depth` alone the
            // fixed-depth player, exactly as before budgets existed.
            if kv.iter().any(|(k, _)| *k == "nodes" || *k == "ms") {
                let cfg = SearchConfig::from_pairs(&kv)?;
                return Ok(Box::new(SearchAgent::new(trimmed, cfg)));
            }
            if let Some((k, _)) = kv.iter().find(|(k, _)| !matches!(*k, "depth" | "tt")) {
                return Err(AgentError::MissingKey {
                    agent: format!("{name} (key '{k}' needs a budget)"),
                    key: "nodes",
                    usage: search::SEARCH_USAGE,
                });
            }
            let mut cfg = AlphaBetaConfig::default();
            let mut have_depth = false;
            for (k, v) in kv {
                match k {
                    "depth" => {
                        let d = positive(name, k, v)?;
                        if d > alphabeta::MAX_DEPTH {
                            return Err(bad(name, k, v, "an integer from 1 to 64"));
                        }
                        cfg.depth = d;
                        have_depth = true;
                    }
                    _ => {
                        let mb = non_negative(name, k, v)?;
                        if mb > 65_536 {
                            return Err(bad(name, k, v, "megabytes from 0 to 65536"));
                        }
                        cfg.tt_mb = mb;
                    }
                }
            }
            if !have_depth {
                return Err(AgentError::MissingKey { agent: name.to_string(), key: "depth", usage: USAGE });
            }
            Ok(Box::new(AlphaBetaAgent::new(trimmed, cfg)))
        }
        _ => Err(AgentError::UnknownAgent { name: name.to_string() }),
    }
}

/// A [`AgentError::BadValue`] for `key=value` of `agent`.
pub fn bad(agent: &str, key: &str, value: &str, expected: &'static str) -> AgentError {
    AgentError::BadValue { agent: agent.to_string(), key: key.to_string(), value: value.to_string(), expected }
}

/// Parses a positive integer parameter, or a [`AgentError::BadValue`].
pub fn positive(agent: &str, key: &str, value: &str) -> Result<u32, AgentError> {
    value.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| bad(agent, key, value, "a positive integer"))
}

fn non_negative(agent: &str, key: &str, value: &str) -> Result<u32, AgentError> {
    value.parse::<u32>().map_err(|_| bad(agent, key, value, "a non-negative integer"))
}

/// Splits an agent's parameters `k=v,k=v`, checking keys against `keys` (`valid` lists
/// them for error messages) and rejecting malformed parts and duplicates. Agents built
/// outside this crate (e.g. `az`) parse their specs with it too.
pub fn key_values<'a>(
    agent: &str,
    params: &'a str,
    keys: &[&'static str],
    valid: &'static str,
) -> Result<Vec<(&'static str, &'a str)>, AgentError> {
    let mut out: Vec<(&'static str, &'a str)> = Vec::new();
    for part in params.split(',') {
        if part.trim().is_empty() {
            continue;
        }
        let Some((k, v)) = part.split_once('=') else {
            return Err(AgentError::Malformed { agent: agent.to_string(), part: part.to_string(), valid });
        };
        let (k, v) = (k.trim(), v.trim());
        let Some(&key) = keys.iter().find(|&&x| x == k) else {
            return Err(AgentError::UnknownKey { agent: agent.to_string(), key: k.to_string(), valid });
        };
        if out.iter().any(|(x, _)| *x == key) {
            return Err(AgentError::DuplicateKey { agent: agent.to_string(), key: key.to_string() });
        }
        out.push((key, v));
    }
    Ok(out)
}
