//! Agent specs and the registry of agent kinds.
//!
//! An agent spec names a kind and sets some of its options: `random`, `mcts:sims=200`,
//! `alphabeta:depth=3,tt=64`. [`AgentSpec`] is the one parser of that grammar
//! ([`FromStr`]) and the one writer of it ([`Display`](fmt::Display), the canonical form: no spaces,
//! the options in the order given). Every spec is checked against the registry of agent
//! kinds when it is parsed, so an [`AgentSpec`] names a known kind with valid options;
//! [`AgentSpec::build`] then makes a fresh agent from it, once per game.
//!
//! The registry holds one [`AgentKind`] per kind: its name, its options with their
//! meaning, and its builder. The kinds of this crate ([`BASELINE_KINDS`]) are always
//! there; a crate that defines another kind (the AlphaZero player of `latrunculi-az`,
//! which needs burn) adds it with [`register`]. Adding an agent is one [`AgentKind`]
//! next to the agent and one entry in [`BASELINE_KINDS`] (or one [`register`] call);
//! help texts and error messages list the kinds from the registry ([`valid_agents`]).
//!
//! Grammar: `NAME[:KEY=VALUE[,KEY=VALUE]...]`. Names and keys are case-sensitive;
//! spaces around names, keys and values are ignored; empty parts between commas are
//! skipped. A list of specs (`--vs greedy,mcts:sims=100,depth=5,random`) is read by
//! [`AgentSpec::parse_list`]: a part without `:` that holds `=` is an option of the spec
//! before it.

use std::fmt;
use std::str::FromStr;
use std::sync::RwLock;

use latrunculi_rules::Ruleset;

use crate::{
    Agent, AgentError, AlphaBetaAgent, AlphaBetaConfig, GreedyAgent, MctsAgent, MctsConfig, RandomAgent, SearchAgent,
    SearchConfig, alphabeta,
};

/// One option of an agent kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentOption {
    /// The key, e.g. `sims`.
    pub key: &'static str,
    /// The placeholder of its value in the usage string, e.g. `N`.
    pub value: &'static str,
    /// Whether every spec of the kind must set it.
    pub required: bool,
    /// What it sets, with its default (for help texts).
    pub meaning: &'static str,
}

/// Builds an agent from a spec of its kind, for games of a ruleset when one is given
/// (kinds that load a network for a board need it).
pub type BuildAgent = fn(&AgentSpec, Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError>;

/// Checks the option values of a spec of its kind (the keys are checked already).
pub type CheckOptions = fn(&AgentSpec) -> Result<(), AgentError>;

/// A kind of agent: what a spec may say and how the agent is built.
#[derive(Clone, Copy, Debug)]
pub struct AgentKind {
    /// The name that starts its specs, e.g. `mcts`.
    pub name: &'static str,
    /// One line on what it is (for help texts).
    pub summary: &'static str,
    /// Its options, required ones first, in the order of the usage string.
    pub options: &'static [AgentOption],
    /// A usage string written by hand, for kinds whose options the generated one cannot
    /// say (`alphabeta`: `depth` or a budget); `None`: generated from the options.
    pub usage_text: Option<&'static str>,
    /// Checks option values without building anything.
    pub check: CheckOptions,
    /// Builds a fresh agent.
    pub build: BuildAgent,
}

impl AgentKind {
    /// The spec syntax, e.g. `mcts:sims=N[,depth=D][,c=C]`.
    pub fn usage(&self) -> String {
        if let Some(text) = self.usage_text {
            return text.to_string();
        }
        let mut out = self.name.to_string();
        let mut first = true;
        for opt in self.options.iter().filter(|o| o.required) {
            out.push(if first { ':' } else { ',' });
            first = false;
            out.push_str(&format!("{}={}", opt.key, opt.value));
        }
        for opt in self.options.iter().filter(|o| !o.required) {
            out.push_str(&format!("[{}{}={}]", if first { ":" } else { "," }, opt.key, opt.value));
            first = false;
        }
        out
    }

    /// Its keys for error messages, e.g. `sims, depth, c`.
    pub fn keys(&self) -> String {
        self.options.iter().map(|o| o.key).collect::<Vec<_>>().join(", ")
    }
}

/// The kinds of this crate, in the order help texts list them.
pub const BASELINE_KINDS: &[&AgentKind] = &[&RANDOM, &GREEDY, &MCTS, &ALPHABETA];

fn registry() -> &'static RwLock<Vec<&'static AgentKind>> {
    static KINDS: RwLock<Vec<&'static AgentKind>> = RwLock::new(Vec::new());
    &KINDS
}

/// Every registered kind: [`BASELINE_KINDS`], then those added by [`register`] in the
/// order they were added.
pub fn kinds() -> Vec<&'static AgentKind> {
    let mut all: Vec<&'static AgentKind> = BASELINE_KINDS.to_vec();
    if let Ok(extra) = registry().read() {
        all.extend(extra.iter().copied());
    }
    all
}

/// Adds a kind to the registry. Registering the same kind again does nothing; a kind
/// whose name is taken by another kind is refused.
pub fn register(kind: &'static AgentKind) -> Result<(), AgentError> {
    let taken = kinds().into_iter().find(|k| k.name == kind.name);
    match taken {
        Some(k) if std::ptr::eq(k, kind) => Ok(()),
        Some(_) => Err(AgentError::NameTaken { name: kind.name.to_string() }),
        None => {
            if let Ok(mut extra) = registry().write()
                && !extra.iter().any(|k| k.name == kind.name)
            {
                extra.push(kind);
            }
            Ok(())
        }
    }
}

/// The kind named `name`, if registered.
pub fn kind(name: &str) -> Option<&'static AgentKind> {
    kinds().into_iter().find(|k| k.name == name)
}

/// The usage of every registered kind, comma-separated (for help texts and errors):
/// `random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB] | ...`, and more
/// where more are registered.
pub fn valid_agents() -> String {
    kinds().iter().map(|k| k.usage()).collect::<Vec<_>>().join(", ")
}

/// An agent spec: a registered kind and its options, checked against the kind. Made by
/// [`FromStr`]; written in canonical form by [`Display`](fmt::Display).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    name: String,
    options: Vec<(&'static str, String)>,
}

impl AgentSpec {
    /// The kind's name, e.g. `mcts`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The options as given: (key, value), in order.
    pub fn options(&self) -> &[(&'static str, String)] {
        &self.options
    }

    /// The value of option `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }

    /// The kind of this spec.
    pub fn kind(&self) -> Result<&'static AgentKind, AgentError> {
        kind(&self.name).ok_or_else(|| AgentError::UnknownAgent { name: self.name.clone(), valid: valid_agents() })
    }

    /// Builds a fresh agent (its [`Agent::spec`] is this spec's canonical form), for
    /// games of `ruleset` where given (agents that load a network need it).
    pub fn build(&self, ruleset: Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError> {
        (self.kind()?.build)(self, ruleset)
    }

    /// A [`AgentError::BadValue`] for option `key` of this spec.
    pub fn bad_value(&self, key: &str, expected: &'static str) -> AgentError {
        AgentError::BadValue {
            agent: self.name.clone(),
            key: key.to_string(),
            value: self.get(key).unwrap_or_default().to_string(),
            expected,
        }
    }

    /// Option `key` parsed by `parse`, which refuses values that do not parse or are out
    /// of range (`expected` says what is valid); `None` if the option is not set.
    pub fn value<T>(
        &self,
        key: &str,
        expected: &'static str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, AgentError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => parse(v).map(Some).ok_or_else(|| self.bad_value(key, expected)),
        }
    }

    /// Option `key` as a positive integer, if set.
    pub fn positive(&self, key: &str) -> Result<Option<u32>, AgentError> {
        self.value(key, "a positive integer", |v| v.parse::<u32>().ok().filter(|&n| n > 0))
    }

    /// Option `key` as a non-negative integer, if set.
    pub fn non_negative(&self, key: &str) -> Result<Option<u32>, AgentError> {
        self.value(key, "a non-negative integer", |v| v.parse::<u32>().ok())
    }

    /// Reads specs from lists such as `greedy,mcts:sims=100,depth=5` (one list per
    /// argument): parts are separated by commas, and a part that has no `:` but holds
    /// `=` is an option of the spec before it in the same list.
    pub fn parse_list(lists: &[String]) -> Result<Vec<AgentSpec>, AgentError> {
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
        texts.iter().map(|t| t.parse()).collect()
    }
}

impl FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<AgentSpec, AgentError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(AgentError::Empty);
        }
        let (name, params) = match trimmed.split_once(':') {
            Some((n, p)) => (n.trim(), p),
            None => (trimmed, ""),
        };
        let kind =
            kind(name).ok_or_else(|| AgentError::UnknownAgent { name: name.to_string(), valid: valid_agents() })?;
        if kind.options.is_empty() && !params.trim().is_empty() {
            return Err(AgentError::NoParameters {
                agent: name.to_string(),
                params: params.to_string(),
                valid: valid_agents(),
            });
        }
        let mut options: Vec<(&'static str, String)> = Vec::new();
        for part in params.split(',') {
            if part.trim().is_empty() {
                continue;
            }
            let Some((k, v)) = part.split_once('=') else {
                return Err(AgentError::Malformed {
                    agent: name.to_string(),
                    part: part.to_string(),
                    valid: kind.keys(),
                });
            };
            let (k, v) = (k.trim(), v.trim());
            let Some(opt) = kind.options.iter().find(|o| o.key == k) else {
                return Err(AgentError::UnknownKey { agent: name.to_string(), key: k.to_string(), valid: kind.keys() });
            };
            if options.iter().any(|(x, _)| *x == opt.key) {
                return Err(AgentError::DuplicateKey { agent: name.to_string(), key: opt.key.to_string() });
            }
            options.push((opt.key, v.to_string()));
        }
        let spec = AgentSpec { name: name.to_string(), options };
        (kind.check)(&spec)?;
        if let Some(missing) = kind.options.iter().find(|o| o.required && spec.get(o.key).is_none()) {
            return Err(AgentError::MissingKey { agent: name.to_string(), key: missing.key, usage: kind.usage() });
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical form: `name` or `name:key=value,key=value`, options in the order
    /// given, no spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

fn no_options(_: &AgentSpec) -> Result<(), AgentError> {
    Ok(())
}

/// `random`: a uniformly random legal move.
pub static RANDOM: AgentKind = AgentKind {
    name: "random",
    summary: "a uniformly random legal move",
    usage_text: None,
    options: &[],
    check: no_options,
    build: |spec, _| Ok(Box::new(RandomAgent::new(&spec.to_string()))),
};

/// `greedy`: one-ply lookahead on captures, avoiding immediate losses.
pub static GREEDY: AgentKind = AgentKind {
    name: "greedy",
    summary: "one-ply lookahead on captures, avoiding immediate losses",
    usage_text: None,
    options: &[],
    check: no_options,
    build: |spec, _| Ok(Box::new(GreedyAgent::new(&spec.to_string()))),
};

fn mcts_config(spec: &AgentSpec) -> Result<MctsConfig, AgentError> {
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
    check: |spec| mcts_config(spec).map(|_| ()),
    build: |spec, _| Ok(Box::new(MctsAgent::new(&spec.to_string(), mcts_config(spec)?))),
};

fn alphabeta_config(spec: &AgentSpec) -> Result<AlphaBetaConfig, AgentError> {
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

/// Whether an `alphabeta` spec has a node or time budget (then it is the search player).
fn has_budget(spec: &AgentSpec) -> bool {
    spec.get("nodes").is_some() || spec.get("ms").is_some()
}

/// The search player's configuration from a budgeted `alphabeta` spec.
fn search_config(spec: &AgentSpec) -> Result<SearchConfig, AgentError> {
    let pairs: Vec<(&str, &str)> = spec.options().iter().map(|(k, v)| (*k, v.as_str())).collect();
    SearchConfig::from_pairs(&pairs)
}

/// Checks an `alphabeta` spec: with `nodes` or `ms` the search player's keys, without
/// them the fixed-depth player's (`depth` required, no search-only key).
fn alphabeta_check(spec: &AgentSpec) -> Result<(), AgentError> {
    if has_budget(spec) {
        return search_config(spec).map(|_| ());
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
    alphabeta_config(spec).map(|_| ())
}

fn alphabeta_build(spec: &AgentSpec, ruleset: Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError> {
    alphabeta_check(spec)?;
    if !has_budget(spec) {
        return Ok(Box::new(AlphaBetaAgent::new(&spec.to_string(), alphabeta_config(spec)?)));
    }
    let agent = SearchAgent::new(&spec.to_string(), search_config(spec)?);
    if let Some(rs) = ruleset {
        agent
            .check_ruleset(rs)
            .map_err(|e| AgentError::Build { spec: spec.to_string(), message: format!("{spec}: {e}") })?;
    }
    Ok(Box::new(agent))
}

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
    check: alphabeta_check,
    build: alphabeta_build,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn usage_strings_come_from_the_options() {
        assert_eq!(MCTS.usage(), "mcts:sims=N[,depth=D][,c=C]");
        assert!(
            ALPHABETA.usage().starts_with("alphabeta:depth=N[,tt=MB] | alphabeta:nodes=N|ms=MS"),
            "{}",
            ALPHABETA.usage()
        );
        assert_eq!(RANDOM.usage(), "random");
        assert!(
            valid_agents().starts_with(
                "random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB] | alphabeta:nodes=N"
            )
        );
    }

    #[test]
    fn the_canonical_form_drops_spaces_and_keeps_the_order() {
        assert_eq!(spec(" mcts : depth = 3 , sims = 5 ,").to_string(), "mcts:depth=3,sims=5");
        assert_eq!(spec("random:").to_string(), "random");
        for text in ["random", "greedy", "mcts:sims=200", "mcts:sims=10,depth=5,c=0.7", "alphabeta:depth=2,tt=1"] {
            let s = spec(text);
            assert_eq!(s.to_string(), text);
            assert_eq!(spec(&s.to_string()), s, "the canonical form reads back as the same spec");
        }
    }

    #[test]
    fn options_are_checked_when_parsed() {
        assert!(matches!("mcts:sims=0".parse::<AgentSpec>(), Err(AgentError::BadValue { .. })));
        assert!(matches!("alphabeta:depth=65".parse::<AgentSpec>(), Err(AgentError::BadValue { .. })));
        assert!(matches!("alphabeta:tt=1".parse::<AgentSpec>(), Err(AgentError::MissingKey { key: "depth", .. })));
        assert!(matches!("nope".parse::<AgentSpec>(), Err(AgentError::UnknownAgent { .. })));
        assert_eq!(spec("mcts:sims=5,c=0.5").get("c"), Some("0.5"));
    }

    #[test]
    fn lists_join_options_to_the_spec_before_them() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let specs = AgentSpec::parse_list(&v(&["greedy,mcts:sims=1000,depth=20,alphabeta:depth=2", "random"])).unwrap();
        let texts: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
        assert_eq!(texts, v(&["greedy", "mcts:sims=1000,depth=20", "alphabeta:depth=2", "random"]));
        assert!(matches!(AgentSpec::parse_list(&v(&["sims=3,greedy"])), Err(AgentError::OptionWithoutAgent { .. })));
        assert!(matches!(AgentSpec::parse_list(&v(&["greedy,,random"])), Err(AgentError::EmptyInList { .. })));
        assert!(AgentSpec::parse_list(&v(&["mcts:sims=3", "depth=2"])).is_err(), "options do not cross lists");
    }

    #[test]
    fn a_taken_name_cannot_be_registered() {
        static OTHER: AgentKind = AgentKind {
            name: "random",
            summary: "another kind of the same name",
            usage_text: None,
            options: &[],
            check: no_options,
            build: |_, _| Err(AgentError::Empty),
        };
        assert!(register(&RANDOM).is_ok(), "the same kind again is no change");
        assert!(matches!(register(&OTHER), Err(AgentError::NameTaken { .. })));
    }

    #[test]
    fn a_built_agent_reports_the_canonical_spec() {
        let s = spec("alphabeta: depth=1 ");
        assert_eq!(s.build(None).unwrap().spec(), "alphabeta:depth=1");
    }
}
