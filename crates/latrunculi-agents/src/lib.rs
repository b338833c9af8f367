//! # latrunculi-agents
//!
//! Baseline players for every ruleset of `latrunculi-rules`, built from an agent spec
//! ([`AgentSpec`]: the text of the [`spec`] module read once into a typed [`PlayerSpec`]
//! by the player factory [`Players`], which knows the kinds a program plays):
//!
//! | spec | agent |
//! |---|---|
//! | `random` | [`RandomAgent`]: a uniformly random legal move |
//! | `greedy` | [`GreedyAgent`]: one-ply lookahead on captures, avoiding immediate losses |
//! | `mcts:sims=N[,depth=D][,c=C]` | [`MctsAgent`]: UCT with material-scored random rollouts |
//! | `alphabeta:depth=N[,tt=MB]` | [`AlphaBetaAgent`]: negamax with alpha-beta, iterative deepening and a transposition table |
//!
//! A program that plays kinds of other crates too (the `az` network player of
//! `latrunculi-az`) adds them to its [`Players`] with [`Players::with`] and hands that
//! factory to the code that reads specs; nothing is global.
//!
//! Every agent is deterministic given the seed of [`Agent::new_game`]: the same seed and
//! the same positions give the same moves.

#![warn(missing_docs)]

pub mod alphabeta;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod mcts;
pub mod players;
pub mod random;
pub mod search;
pub mod spec;

pub use alphabeta::{AlphaBetaAgent, AlphaBetaConfig};
pub use game::{PlayOutError, play_out};
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, MctsConfig, uct_simulations_per_second};
pub use players::{BASELINE_KINDS, PlayerKind, Players};
pub use random::RandomAgent;
pub use search::{EngineOptions, SearchAgent, SearchLimits, SearchSpec};
pub use spec::{AgentKind, AgentOption, AgentSpec, KindSpec, PlayerSpec, RawSpec};

use latrunculi_rules::{Move, Position};

/// A player: chooses a move in a position that is not over.
pub trait Agent: Send {
    /// The spec string this agent was made from (e.g. "mcts:sims=200").
    fn spec(&self) -> &str;
    /// Starts a new game; every random choice of the game derives from `seed`.
    fn new_game(&mut self, seed: u64);
    /// Chooses a legal move; `pos` is not over and has at least one legal move.
    fn select(&mut self, pos: &Position) -> Move;
    /// What the agent found when it chose its last move ([`Report`]); the empty report
    /// before the first [`Agent::select`] of a game.
    fn report(&self) -> Report;
}

/// What an agent found when it chose a move: the move and, where the agent has them, the
/// figures of its search. A field an agent does not give is `None` (the line: empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The move chosen; `None` before the first [`Agent::select`] of a game.
    pub mv: Option<Move>,
    /// The search's score for the side to move, in the agent's units (the search player
    /// and the fixed-depth player: 1,000 a logit, decided games near ±100,000).
    pub score: Option<i32>,
    /// The principal line from the position searched, starting with the move chosen
    /// (the search player; empty for the others and for a forced move).
    pub line: Vec<Move>,
    /// The policy over the root moves, summing to 1: the visit distribution of agents
    /// that search by visits (each root move the search visited with its share of the
    /// root children's visits), the search player's soft policy with `soft`. `None` for
    /// the others and when the agent did not search (e.g. a forced move).
    pub policy: Option<Vec<(Move, f32)>>,
    /// The value of the root for the side that was to move, from -1 (a sure loss) to 1
    /// (a sure win), for agents that estimate one (the network player: the
    /// visit-weighted mean of its root children's values; the search player: its score
    /// as `tanh(score / 2000)`).
    pub value: Option<f32>,
    /// The prior of each root move (the network's policy over the legal moves, summing to
    /// 1), for agents guided by a policy.
    pub priors: Option<Vec<(Move, f32)>>,
    /// Positions searched for this move, for agents that count them.
    pub nodes: Option<u64>,
    /// The deepest finished iteration of the search (0 for a forced move), for agents
    /// that deepen iteratively.
    pub depth: Option<u32>,
}

impl Report {
    /// The report of a move chosen without a search's figures.
    pub fn of_move(mv: Move) -> Report {
        Report { mv: Some(mv), ..Report::default() }
    }
}

/// Normalises `(move, visits)` pairs into a visit distribution: moves with no visit are
/// left out; `None` if no move was visited. Helper for [`Report::policy`].
pub fn visit_distribution(visits: impl IntoIterator<Item = (Move, u32)>) -> Option<Vec<(Move, f32)>> {
    let visited: Vec<(Move, u32)> = visits.into_iter().filter(|&(_, n)| n > 0).collect();
    let total: u64 = visited.iter().map(|&(_, n)| n as u64).sum();
    if total == 0 {
        return None;
    }
    Some(visited.into_iter().map(|(mv, n)| (mv, (n as f64 / total as f64) as f32)).collect())
}

/// Errors in an agent spec. Each message names the offending part and what is valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// The spec is empty.
    #[error("empty agent spec (valid agents: {valid})")]
    Empty {
        /// The usage of every kind known.
        valid: String,
    },
    /// The agent name is not known.
    #[error("unknown agent '{name}' (valid agents: {valid})")]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The usage of every kind known.
        valid: String,
    },
    /// An agent that takes no parameters was given some.
    #[error("agent '{agent}' takes no parameters, got '{params}' (valid agents: {valid})")]
    NoParameters {
        /// The agent name.
        agent: String,
        /// The parameter text given.
        params: String,
        /// The usage of every kind known.
        valid: String,
    },
    /// A parameter that is not `key=value`.
    #[error("agent '{agent}': parameter '{part}' is not key=value (valid keys: {valid})")]
    Malformed {
        /// The agent name.
        agent: String,
        /// The offending parameter text.
        part: String,
        /// The keys the agent accepts.
        valid: String,
    },
    /// A key the agent does not know.
    #[error("agent '{agent}': unknown key '{key}' (valid keys: {valid})")]
    UnknownKey {
        /// The agent name.
        agent: String,
        /// The key given.
        key: String,
        /// The keys the agent accepts.
        valid: String,
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
        usage: String,
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
    /// An empty part in a list of specs.
    #[error("empty agent spec in '{list}'")]
    EmptyInList {
        /// The list.
        list: String,
    },
    /// A `key=value` part of a list of specs that follows no spec.
    #[error("'{part}' in '{list}' looks like a parameter but follows no agent spec")]
    OptionWithoutAgent {
        /// The part.
        part: String,
        /// The list.
        list: String,
    },
    /// A kind added under a name another kind has.
    #[error("agent kind '{name}' is registered already")]
    NameTaken {
        /// The name.
        name: String,
    },
    /// An option refused where the spec is read (e.g. a weights file by a server that
    /// reads no file a request names).
    #[error("agent '{agent}': {message}")]
    Refused {
        /// The agent name.
        agent: String,
        /// What is refused, and what to use instead.
        message: &'static str,
    },
    /// A valid spec whose agent cannot be made (e.g. its model file cannot be read or
    /// was trained for another board).
    #[error("{message}")]
    Build {
        /// The canonical spec.
        spec: String,
        /// What went wrong.
        message: String,
    },
}

/// Parses an agent spec of a kind of this crate ([`Players::baseline`]) and builds the
/// agent (these kinds need no ruleset to be built).
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, AgentError> {
    Players::baseline().parse(spec)?.build(None)
}
