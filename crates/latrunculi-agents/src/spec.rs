//! Agent specs: the text that names a player, read once into a typed value.
//!
//! An agent spec names a kind and sets some of its options: `random`, `mcts:sims=200`,
//! `alphabeta:depth=3,tt=64`. [`Players::parse`](crate::Players::parse) is the one parser
//! of that grammar: it checks the name and keys against the kinds it knows and reads the
//! options into a [`PlayerSpec`] (a typed value per kind: [`MctsConfig`],
//! [`AlphaBetaConfig`], the search player's [`SearchSpec`] with its limits apart from its
//! engine options, or a kind-defined value for kinds of other crates). The result, an
//! [`AgentSpec`], keeps that value with the options as written; [`Display`](fmt::Display)
//! writes its canonical form (no spaces, the options in the order given), and
//! [`AgentSpec::build`] makes a fresh agent from it for every game without reading the
//! text again (a weights file named by `eval=PATH.toml` is read once, when the spec is
//! parsed, and shared by every agent built from it).
//!
//! Grammar: `NAME[:KEY=VALUE[,KEY=VALUE]...]`. Names and keys are case-sensitive;
//! spaces around names, keys and values are ignored; empty parts between commas are
//! skipped. A list of specs (`--vs greedy,mcts:sims=100,depth=5,random`) is read by
//! [`Players::parse_list`](crate::Players::parse_list): a part without `:` that holds `=`
//! is an option of the spec before it.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::Arc;

use latrunculi_rules::Ruleset;

use crate::search::SearchSpec;
use crate::{
    Agent, AgentError, AlphaBetaAgent, AlphaBetaConfig, GreedyAgent, MctsAgent, MctsConfig, Players, RandomAgent,
    SearchAgent,
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

/// What a kind of agent is and what its specs may say (for the parser, help texts and
/// error messages).
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

/// The typed options of a spec of a kind defined outside this crate (made by its
/// [`PlayerKind`](crate::PlayerKind)), which builds the kind's agents.
pub trait KindSpec: fmt::Debug + Send + Sync {
    /// Builds a fresh agent whose [`Agent::spec`] is `spec` (the canonical form), for
    /// games of `ruleset` where given.
    fn build(&self, spec: &str, ruleset: Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError>;
    /// Simulations per move, for kinds that count them (so that a caller can bound them).
    fn simulations(&self) -> Option<u32> {
        None
    }
    /// The model file the agent reads when it is built, for kinds that read one (`model`).
    fn model(&self) -> Option<&std::path::Path> {
        None
    }
    /// The same options with the model file `path` instead (e.g. a path made absolute);
    /// `None` for kinds without a model file.
    fn with_model(&self, path: std::path::PathBuf) -> Option<Arc<dyn KindSpec>> {
        let _ = path;
        None
    }
}

/// The typed value of an agent spec: one variant per kind of this crate, and
/// [`PlayerSpec::Other`] for the kinds of other crates.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// `mcts:sims=N[,depth=D][,c=C]`.
    Mcts(MctsConfig),
    /// `alphabeta:depth=N[,tt=MB]`: the fixed-depth player.
    AlphaBeta(AlphaBetaConfig),
    /// `alphabeta:nodes=N|ms=MS[,...]`: the search player, its limits apart from its
    /// engine options.
    Search(SearchSpec),
    /// A kind defined by another crate (e.g. the `az` network player).
    Other(Arc<dyn KindSpec>),
}

/// A spec read by name and keys only: the kind's name and its options as written
/// (trimmed), the keys checked against the kind. Kinds read their typed options from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawSpec {
    name: String,
    options: Vec<(&'static str, String)>,
}

impl RawSpec {
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
    /// of range (`expected` says what is valid), if set.
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

    /// Reads `text` by name and keys against `kind_of` (which finds a kind by name; an
    /// unknown name is [`AgentError::UnknownAgent`] listing `valid`).
    pub(crate) fn read<'k>(
        text: &str,
        kind_of: impl Fn(&str) -> Option<&'k AgentKind>,
        valid: impl Fn() -> String,
    ) -> Result<(RawSpec, &'k AgentKind), AgentError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(AgentError::Empty { valid: valid() });
        }
        let (name, params) = match trimmed.split_once(':') {
            Some((n, p)) => (n.trim(), p),
            None => (trimmed, ""),
        };
        let kind = kind_of(name).ok_or_else(|| AgentError::UnknownAgent { name: name.to_string(), valid: valid() })?;
        if kind.options.is_empty() && !params.trim().is_empty() {
            return Err(AgentError::NoParameters {
                agent: name.to_string(),
                params: params.to_string(),
                valid: valid(),
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
        Ok((RawSpec { name: name.to_string(), options }, kind))
    }

    /// A [`AgentError::MissingKey`] for the first required option of `kind` not set.
    pub(crate) fn check_required(&self, kind: &AgentKind) -> Result<(), AgentError> {
        match kind.options.iter().find(|o| o.required && self.get(o.key).is_none()) {
            Some(missing) => {
                Err(AgentError::MissingKey { agent: self.name.clone(), key: missing.key, usage: kind.usage() })
            }
            None => Ok(()),
        }
    }

    /// Sets option `key` to `value`: in place where it is set, else last.
    fn set(&mut self, key: &'static str, value: String, in_place: bool) {
        match self.options.iter_mut().find(|(k, _)| *k == key).filter(|_| in_place) {
            Some(o) => o.1 = value,
            None => {
                self.options.retain(|(k, _)| *k != key);
                self.options.push((key, value));
            }
        }
    }
}

impl fmt::Display for RawSpec {
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

/// An agent spec: its options as written ([`RawSpec`], for the canonical form) and their
/// typed value ([`PlayerSpec`]). Made by [`Players::parse`](crate::Players::parse) (or
/// [`FromStr`], for the kinds of this crate); written in canonical form by
/// [`Display`](fmt::Display). Two specs are equal when their canonical forms are.
#[derive(Clone, Debug)]
pub struct AgentSpec {
    raw: RawSpec,
    player: PlayerSpec,
}

impl AgentSpec {
    /// A spec of options `raw` and typed value `player` (which the kind read from `raw`).
    pub(crate) fn new(raw: RawSpec, player: PlayerSpec) -> AgentSpec {
        AgentSpec { raw, player }
    }

    /// The kind's name, e.g. `mcts`.
    pub fn name(&self) -> &str {
        self.raw.name()
    }

    /// The options as given: (key, value), in order.
    pub fn options(&self) -> &[(&'static str, String)] {
        self.raw.options()
    }

    /// The value of option `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.raw.get(key)
    }

    /// The typed value.
    pub fn player(&self) -> &PlayerSpec {
        &self.player
    }

    /// Builds a fresh agent (its [`Agent::spec`] is this spec's canonical form), for
    /// games of `ruleset` where given (the search player checks a weights file's ruleset
    /// against it; agents that load a network need it).
    pub fn build(&self, ruleset: Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError> {
        let text = self.to_string();
        Ok(match &self.player {
            PlayerSpec::Random => Box::new(RandomAgent::new(&text)),
            PlayerSpec::Greedy => Box::new(GreedyAgent::new(&text)),
            PlayerSpec::Mcts(cfg) => Box::new(MctsAgent::new(&text, *cfg)),
            PlayerSpec::AlphaBeta(cfg) => Box::new(AlphaBetaAgent::new(&text, *cfg)),
            PlayerSpec::Search(s) => {
                let agent = SearchAgent::new(&text, s.clone());
                if let Some(rs) = ruleset {
                    agent
                        .check_ruleset(rs)
                        .map_err(|e| AgentError::Build { spec: text.clone(), message: format!("{text}: {e}") })?;
                }
                Box::new(agent)
            }
            PlayerSpec::Other(o) => o.build(&text, ruleset)?,
        })
    }

    /// Caps the search player's time budget at `max_ms` milliseconds per move (setting
    /// it where only a node budget is given); the option `ms` is written last. No change
    /// for other kinds.
    pub fn cap_ms(&mut self, max_ms: u64) {
        if let PlayerSpec::Search(s) = &mut self.player {
            let ms = s.limits.ms.unwrap_or(u64::MAX).min(max_ms);
            s.limits.ms = Some(ms);
            self.raw.set("ms", ms.to_string(), false);
        }
    }

    /// The same spec with the model file `path` (kinds that read one, see
    /// [`KindSpec::model`]); the option `model` keeps its place. No change for others.
    pub fn set_model(&mut self, path: std::path::PathBuf) {
        if let PlayerSpec::Other(o) = &self.player
            && let Some(new) = o.with_model(path.clone())
        {
            self.player = PlayerSpec::Other(new);
            self.raw.set("model", path.display().to_string(), true);
        }
    }
}

impl PartialEq for AgentSpec {
    fn eq(&self, other: &AgentSpec) -> bool {
        self.raw == other.raw
    }
}

impl Eq for AgentSpec {}

impl Hash for AgentSpec {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.raw.hash(state);
    }
}

impl FromStr for AgentSpec {
    type Err = AgentError;

    /// Parses a spec of a kind of this crate ([`Players::baseline`]); a program that
    /// plays other kinds too parses with its own [`Players`].
    fn from_str(text: &str) -> Result<AgentSpec, AgentError> {
        Players::baseline().parse(text)
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical form: `name` or `name:key=value,key=value`, options in the order
    /// given, no spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.raw.fmt(f)
    }
}
