//! The player factory: [`Players`] knows the kinds of agent a program plays, parses
//! specs of them into typed values ([`AgentSpec`]) and lists them for help texts.
//!
//! The kinds of this crate ([`BASELINE_KINDS`]) are always there; a kind defined in
//! another crate (the AlphaZero player of `latrunculi-az`, which needs burn) is added
//! with [`Players::with`] by the program that is put together with it. There is no
//! global list of kinds: whoever runs the games makes its `Players` and hands it to the
//! code that reads specs, and a kind keeps its own state (e.g. the networks it has
//! loaded) in the instance added.

use std::fmt;
use std::sync::Arc;

use crate::search::SearchSpec;
use crate::spec::{AgentKind, AgentOption, AgentSpec, KindSpec, PlayerSpec, RawSpec};
use crate::{AgentError, AlphaBetaConfig, MctsConfig, alphabeta};

/// A kind of agent defined outside this crate: its description and how its specs are
/// read into a typed value.
pub trait PlayerKind: Send + Sync {
    /// What the kind is and what its specs may say.
    fn kind(&self) -> &AgentKind;
    /// Reads the typed options of a spec of this kind (its keys are checked already).
    fn parse(&self, raw: &RawSpec) -> Result<Arc<dyn KindSpec>, AgentError>;
}

/// The kinds of agent a program plays: the factory of [`AgentSpec`]s. Cheap to clone.
#[derive(Clone)]
pub struct Players {
    extra: Vec<Arc<dyn PlayerKind>>,
    weight_files: bool,
}

impl fmt::Debug for Players {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Players").field("kinds", &self.names()).field("weight_files", &self.weight_files).finish()
    }
}

impl Default for Players {
    fn default() -> Players {
        Players::baseline()
    }
}

impl Players {
    /// The kinds of this crate only ([`BASELINE_KINDS`]).
    pub fn baseline() -> Players {
        Players { extra: Vec::new(), weight_files: true }
    }

    /// These kinds and `kind`; a kind whose name is taken is refused.
    pub fn with(mut self, kind: Arc<dyn PlayerKind>) -> Result<Players, AgentError> {
        let name = kind.kind().name;
        if self.kind(name).is_some() {
            return Err(AgentError::NameTaken { name: name.to_string() });
        }
        self.extra.push(kind);
        Ok(self)
    }

    /// The same kinds, but a spec that names a weights file (`eval=PATH.toml`) is refused
    /// instead of read (for a server that reads no file a request names).
    pub fn without_weight_files(mut self) -> Players {
        self.weight_files = false;
        self
    }

    /// Every kind: [`BASELINE_KINDS`], then those added by [`Players::with`] in order.
    pub fn kinds(&self) -> Vec<&AgentKind> {
        let mut all: Vec<&AgentKind> = BASELINE_KINDS.to_vec();
        all.extend(self.extra.iter().map(|k| k.kind()));
        all
    }

    /// The kind named `name`, if known.
    pub fn kind(&self, name: &str) -> Option<&AgentKind> {
        self.kinds().into_iter().find(|k| k.name == name)
    }

    /// Whether a kind is named `name`.
    pub fn has(&self, name: &str) -> bool {
        self.kind(name).is_some()
    }

    fn names(&self) -> Vec<&'static str> {
        self.kinds().iter().map(|k| k.name).collect()
    }

    /// The usage of every kind, comma-separated (for help texts and errors):
    /// `random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB] | ...`, and
    /// more where more kinds are added.
    pub fn valid_agents(&self) -> String {
        self.kinds().iter().map(|k| k.usage()).collect::<Vec<_>>().join(", ")
    }

    /// Parses an agent spec into its typed value (see [`crate::spec`]), checking every
    /// option; a weights file (`eval=PATH.toml`) is read here, once.
    pub fn parse(&self, text: &str) -> Result<AgentSpec, AgentError> {
        let (raw, kind) = RawSpec::read(text, |name| self.kind(name), || self.valid_agents())?;
        let player = match kind.name {
            "random" => PlayerSpec::Random,
            "greedy" => PlayerSpec::Greedy,
            "mcts" => PlayerSpec::Mcts(mcts_config(&raw)?),
            "alphabeta" => alphabeta_spec(&raw, self.weight_files)?,
            name => {
                let other = self.extra.iter().find(|k| k.kind().name == name).expect("the kind was found by name");
                PlayerSpec::Other(other.parse(&raw)?)
            }
        };
        raw.check_required(kind)?;
        Ok(AgentSpec::new(raw, player))
    }

    /// Reads specs from lists such as `greedy,mcts:sims=100,depth=5` (one list per
    /// argument): parts are separated by commas, and a part that has no `:` but holds
    /// `=` is an option of the spec before it in the same list.
    pub fn parse_list(&self, lists: &[String]) -> Result<Vec<AgentSpec>, AgentError> {
        let mut texts: Vec<String> = Vec::new();
        for list in lists {
            let mut in_list = 0;
            for part in list.split(',').map(str::trim) {
                if part.is_empty() {
                    return Err(AgentError::EmptyInList { list: list.clone() });
                }
                if !part.contains(':') && part.contains('=') {
                    let last = texts
                        .last_mut()
                        .filter(|_| in_list > 0)
                        .ok_or_else(|| AgentError::OptionWithoutAgent { part: part.to_string(), list: list.clone() })?;
                    last.push(',');
                    last.push_str(part);
                } else {
                    texts.push(part.to_string());
                    in_list += 1;
                }
            }
        }
        texts.iter().map(|t| self.parse(t)).collect()
    }
}

/// The kinds of this crate, in the order help texts list them.
pub const BASELINE_KINDS: &[&AgentKind] = &[&RANDOM, &GREEDY, &MCTS, &ALPHABETA];

fn mcts_config(spec: &RawSpec) -> Result<MctsConfig, AgentError> {
    let mut cfg = MctsConfig::default();
    if let Some(n) = spec.positive("sims")? {
        cfg.sims = n;
    }
    if let Some(d) = spec.non_negative("depth")? {
        cfg.rollout_depth = d;
    }
    if let Some(c) =
        spec.value("c", "a finite number >= 0", |v| v.parse::<f64>().ok().filter(|c| c.is_finite() && *c >= 0.0))?
    {
        cfg.c = c;
    }
    Ok(cfg)
}

fn alphabeta_config(spec: &RawSpec) -> Result<AlphaBetaConfig, AgentError> {
    let mut cfg = AlphaBetaConfig::default();
    if let Some(d) = spec.positive("depth")? {
        if d > alphabeta::MAX_DEPTH {
            return Err(spec.bad_value("depth", "an integer from 1 to 64"));
        }
        cfg.depth = d;
    }
    if let Some(mb) = spec.non_negative("tt")? {
        if mb > 65_536 {
            return Err(spec.bad_value("tt", "megabytes from 0 to 65536"));
        }
        cfg.tt_mb = mb;
    }
    Ok(cfg)
}

/// Reads an `alphabeta` spec: with `nodes` or `ms` the search player, without them the
/// fixed-depth player (`depth` required, no search-only key).
fn alphabeta_spec(spec: &RawSpec, weight_files: bool) -> Result<PlayerSpec, AgentError> {
    if spec.get("nodes").is_some() || spec.get("ms").is_some() {
        return SearchSpec::read(spec, weight_files).map(PlayerSpec::Search);
    }
    if let Some((k, _)) = spec.options().iter().find(|(k, _)| !matches!(*k, "depth" | "tt")) {
        return Err(AgentError::MissingKey {
            agent: format!("alphabeta (key '{k}' belongs to the budgeted search)"),
            key: "nodes",
            usage: crate::search::SEARCH_USAGE.to_string(),
        });
    }
    if spec.get("depth").is_none() {
        return Err(AgentError::MissingKey {
            agent: "alphabeta".to_string(),
            key: "depth",
            usage: "alphabeta:depth=N[,tt=MB] or alphabeta:nodes=N|ms=N[,...]".to_string(),
        });
    }
    alphabeta_config(spec).map(PlayerSpec::AlphaBeta)
}

/// `random`: a uniformly random legal move.
pub static RANDOM: AgentKind =
    AgentKind { name: "random", summary: "a uniformly random legal move", usage_text: None, options: &[] };

/// `greedy`: one-ply lookahead on captures, avoiding immediate losses.
pub static GREEDY: AgentKind = AgentKind {
    name: "greedy",
    summary: "one-ply lookahead on captures, avoiding immediate losses",
    usage_text: None,
    options: &[],
};

/// `mcts:sims=N[,depth=D][,c=C]`: UCT with material-scored random rollouts.
pub static MCTS: AgentKind = AgentKind {
    name: "mcts",
    summary: "UCT with material-scored random rollouts",
    usage_text: None,
    options: &[
        AgentOption { key: "sims", value: "N", required: true, meaning: "simulations per move" },
        AgentOption { key: "depth", value: "D", required: false, meaning: "rollout plies before scoring (default 40)" },
        AgentOption { key: "c", value: "C", required: false, meaning: "UCT exploration constant (default 1.4)" },
    ],
};
/// `alphabeta:depth=N[,tt=MB]`: negamax with alpha-beta, iterative deepening to a fixed
/// depth and a transposition table; `alphabeta:nodes=N` or `alphabeta:ms=N`: the search
/// player ([`crate::search`]), iterative deepening under a node or time budget.
pub static ALPHABETA: AgentKind = AgentKind {
    name: "alphabeta",
    summary: "alpha-beta: to a fixed depth (depth=N), or the search player under a node or time budget (nodes=N or ms=N)",
    usage_text: Some(
        "alphabeta:depth=N[,tt=MB] | alphabeta:nodes=N|ms=MS[,cpu=0|1][,depth=N][,tt=MB][,qs=0|1][,pvs=0|1][,asp=0|1][,killers=0|1][,hist=0|1][,lmr=0|1][,null=0|1][,noise=K][,pursuit=K][,eval=fitted|default|material|PATH.toml][,soft=T]",
    ),
    options: &[
        AgentOption {
            key: "depth",
            value: "N",
            required: false,
            meaning: "search depth in plies (1 to 64); without nodes or ms the fixed-depth player, which needs it; with them a depth cap (default 64)",
        },
        AgentOption {
            key: "tt",
            value: "MB",
            required: false,
            meaning: "transposition table in megabytes (0 to 65536, default 16)",
        },
        AgentOption { key: "nodes", value: "N", required: false, meaning: "node budget per move: the search player" },
        AgentOption {
            key: "ms",
            value: "MS",
            required: false,
            meaning: "time budget per move in milliseconds: the search player",
        },
        AgentOption {
            key: "cpu",
            value: "0|1",
            required: false,
            meaning: "1: ms counts this thread's CPU time, not wall-clock time, so that other work on the machine does not shorten the search (default 0; needs ms)",
        },
        AgentOption { key: "qs", value: "0|1", required: false, meaning: "quiescence search (default 1)" },
        AgentOption { key: "pvs", value: "0|1", required: false, meaning: "principal-variation search (default 1)" },
        AgentOption { key: "asp", value: "0|1", required: false, meaning: "aspiration windows (default 1)" },
        AgentOption { key: "killers", value: "0|1", required: false, meaning: "killer moves (default 1)" },
        AgentOption { key: "hist", value: "0|1", required: false, meaning: "history heuristic (default 1)" },
        AgentOption { key: "lmr", value: "0|1", required: false, meaning: "late-move reductions (default 1)" },
        AgentOption { key: "null", value: "0|1", required: false, meaning: "null-move pruning (default 0)" },
        AgentOption {
            key: "noise",
            value: "K",
            required: false,
            meaning: "seed-keyed evaluation noise in thousandths of a logit (default 3)",
        },
        AgentOption {
            key: "pursuit",
            value: "K",
            required: false,
            meaning: "where one side has twice the other's pieces, thousandths of a logit for it per square its soldiers close in on the enemy pieces since the root, without a capture on the way (default 0: off)",
        },
        AgentOption {
            key: "eval",
            value: "W",
            required: false,
            meaning: "evaluation weights: fitted (default), default, material or a weights file PATH.toml",
        },
        AgentOption {
            key: "soft",
            value: "T",
            required: false,
            meaning: "score every root move after the search and give the softmax of the scores at temperature T (thousandths of a logit) as the move's policy, e.g. for dataset targets (default: none)",
        },
    ],
};

#[cfg(test)]
mod tests;
