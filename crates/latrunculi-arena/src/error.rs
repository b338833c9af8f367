//! The errors of the arena. Messages name files, lines and values, never a command-line
//! flag: the variants that concern a setting of a run ([`Setting`]) carry it, so that the
//! `latrunculi` binary can phrase them with its flags and the Python package with its
//! keyword arguments.

use std::path::PathBuf;

use latrunculi_agents::AgentError;

/// A setting of a run, as the caller gave it (a flag of the binary, an argument of the
/// Python package, a field of a spec struct).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The number of games.
    Games,
    /// The ply cap.
    PlyCap,
    /// The White agent of a dataset.
    White,
    /// The Black agent of a dataset.
    Black,
    /// The anchor of a ladder's ratings.
    Anchor,
    /// The prior of virtual draws of a ladder's rating fit.
    PriorDraws,
    /// The sequential test of an evaluation.
    Sprt,
    /// Continue an interrupted run.
    Resume,
    /// Replace an existing output file.
    Force,
    /// The games file of an evaluation.
    GamesOut,
    /// The output folder.
    Out,
    /// The base seed.
    Seed,
    /// The shard folders of a ladder merge.
    Merge,
    /// The shard of a run (`K/N`).
    Shard,
}

impl Setting {
    /// The setting's name in the library's own messages, e.g. `ply_cap`.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Games => "games",
            Setting::PlyCap => "ply_cap",
            Setting::White => "white",
            Setting::Black => "black",
            Setting::Anchor => "anchor",
            Setting::PriorDraws => "prior_draws",
            Setting::Sprt => "sprt",
            Setting::Resume => "resume",
            Setting::Force => "force",
            Setting::GamesOut => "games_out",
            Setting::Out => "out",
            Setting::Seed => "seed",
            Setting::Merge => "merge",
            Setting::Shard => "shard",
        }
    }
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Errors of the arena: bad settings, bad agent specs, files that cannot be read or
/// written or do not hold what they should, and runs that cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A setting that must be at least 1 is 0.
    #[error("{setting} must be at least 1")]
    AtLeastOne {
        /// The setting.
        setting: Setting,
    },
    /// A setting whose value is not valid.
    #[error("{setting} '{value}' {message}")]
    BadSetting {
        /// The setting.
        setting: Setting,
        /// The value given.
        value: String,
        /// What is wrong and what is valid, as a predicate (`is not of the form ...`).
        message: String,
    },
    /// An agent spec given for a setting (the White agent, the anchor) is not valid.
    #[error("{setting}")]
    SettingAgent {
        /// The setting.
        setting: Setting,
        /// The spec's error.
        #[source]
        source: Box<ArenaError>,
    },
    /// A bad agent spec, or an agent that cannot be built (e.g. a model for another
    /// board).
    #[error("bad agent spec '{spec}'")]
    Agent {
        /// The spec as given.
        spec: String,
        /// What is wrong.
        #[source]
        source: AgentError,
    },
    /// An `az` spec where the player factory has no `az` kind.
    #[error(
        "agent spec '{spec}': these players have no networks (the az kind is added where the program is put together: the latrunculi command and the Python package have it)"
    )]
    NoNetworks {
        /// The spec.
        spec: String,
    },
    /// A ruleset that cannot be found or read.
    #[error(transparent)]
    Ruleset(#[from] latrunculi_rules::RulesetError),
    /// A file or folder that cannot be read, written or created.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// `read`, `write`, `create` or `open`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A file that does not hold what it should (names the line where one is at fault).
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Content {
        /// The file.
        path: PathBuf,
        /// The 1-based line, if one is at fault.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A bad experiment file (names the key or table at fault).
    #[error("{0}")]
    Experiment(String),
    /// A game that could not be played or recorded (names the game).
    #[error("{0}")]
    Game(String),
    /// The output file exists and replacing it was not asked for.
    #[error("{} already exists; choose another path or allow replacing it", path.display())]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// Resuming needs the games file, which was not given.
    #[error("resuming needs a games file: the games written there are what a resumed run keeps")]
    ResumeNeedsGamesFile,
    /// The output folder holds an interrupted run and resuming was not asked for.
    #[error("{} holds an interrupted run ({} exists); resume it, or remove the directory", dir.display(), journal.display())]
    Interrupted {
        /// The folder.
        dir: PathBuf,
        /// The journal of the interrupted run.
        journal: PathBuf,
    },
    /// The output folder already holds a finished result.
    #[error("{} already holds a dataset ({} exists); choose another output folder or remove that directory first", dir.display(), marker.display())]
    Finished {
        /// The folder.
        dir: PathBuf,
        /// The file that marks it finished.
        marker: PathBuf,
    },
    /// The output path exists and is no folder.
    #[error("{} exists and is not a directory", dir.display())]
    NotADirectory {
        /// The path.
        dir: PathBuf,
    },
    /// The output folder holds results of another run.
    #[error("{}{}: {message}; choose another output folder", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    OtherRun {
        /// The file that shows it.
        path: PathBuf,
        /// The 1-based line, if one shows it.
        line: Option<usize>,
        /// What differs.
        message: String,
    },
    /// An experiment folder whose fingerprint is another experiment's.
    #[error(
        "{} holds games of another experiment (use another output folder, or delete the folder to start over). Differences:\n{diff}",
        dir.display()
    )]
    OtherExperiment {
        /// The folder.
        dir: PathBuf,
        /// The differing fingerprint lines.
        diff: String,
    },
    /// An experiment folder whose stopping rule changed but which is not resumed.
    #[error("{0}")]
    StopRuleChanged(String),
    /// The anchor of a ladder is not among its agents.
    #[error("the anchor '{anchor}' is not in {}; add it or choose another anchor", file.display())]
    AnchorNotListed {
        /// The anchor's canonical spec.
        anchor: String,
        /// The agents file.
        file: PathBuf,
    },
    /// Ratings asked of a shard's folder.
    #[error("a shard has no ratings: merge the shards and rate the merged folder")]
    ShardHasNoRatings,
    /// A folder given as a shard that is none.
    #[error("{} is not a ladder shard (no shard.txt; a shard is run with a shard K/N)", dir.display())]
    NotAShard {
        /// The folder.
        dir: PathBuf,
    },
    /// A shard that has not finished.
    #[error("{} (shard {k}/{n}) {state}; finish it by resuming it", dir.display())]
    ShardUnfinished {
        /// The shard's folder.
        dir: PathBuf,
        /// Its index (1-based).
        k: u32,
        /// The number of shards.
        n: u32,
        /// What it holds, e.g. `has no pairings.csv yet`.
        state: String,
    },
    /// A merge given no shard folders.
    #[error("a merge needs the folders of the shards")]
    MergeNeedsShards,
    /// A merge missing some shards.
    #[error("shards {missing} are missing from the merge")]
    ShardsMissing {
        /// The missing shards, e.g. `2/4, 3/4`.
        missing: String,
    },
    /// The rating fit failed.
    #[error("cannot fit ratings")]
    Fit(#[source] crate::elo::FitError),
    /// An agent that cannot be rated.
    #[error("cannot rate '{agent}'")]
    Unrated {
        /// The agent.
        agent: String,
        /// Why.
        #[source]
        source: crate::elo::FitError,
    },
    /// A step of a run, with the error it met (e.g. a ruleset of an experiment file, a
    /// ply of a game).
    #[error("{context}")]
    Context {
        /// Where it happened.
        context: String,
        /// What happened.
        #[source]
        source: Box<ArenaError>,
    },
    /// A cell whose verdict cannot be given (see [`crate::verdict`]).
    #[error(transparent)]
    Verdict(#[from] crate::verdict::VerdictError),
    /// A CSV row that cannot be written or read.
    #[error("CSV: {0}")]
    Csv(#[from] csv::Error),
    /// Text that cannot be formatted.
    #[error("formatting: {0}")]
    Fmt(#[from] std::fmt::Error),
    /// A JSON value that cannot be written or read.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Another run writes into the folder.
    #[error(
        "another latrunculi run is writing into {} (it holds {}): wait for it to finish or stop it, then run this again",
        dir.display(),
        lock.display()
    )]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
}

/// Results of the arena.
pub type Result<T, E = ArenaError> = std::result::Result<T, E>;

impl ArenaError {
    /// An [`ArenaError::Io`].
    pub fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ArenaError {
        let path = path.into();
        move |source| ArenaError::Io { action, path, source }
    }

    /// An [`ArenaError::Content`] for `path` (at 1-based `line`, if given).
    pub fn content(path: impl Into<PathBuf>, line: Option<usize>, message: impl Into<String>) -> ArenaError {
        ArenaError::Content { path: path.into(), line, message: message.into() }
    }

    /// This error with the step where it happened.
    pub fn context(self, context: impl Into<String>) -> ArenaError {
        ArenaError::Context { context: context.into(), source: Box::new(self) }
    }
}

/// [`ArenaError::context`] for results.
pub trait ResultExt<T> {
    /// Adds the step where an error happened.
    fn context_with(self, context: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: Into<ArenaError>> ResultExt<T> for std::result::Result<T, E> {
    fn context_with(self, context: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| e.into().context(context()))
    }
}

/// The message of an error and of every error under it, joined by `: ` (the way the
/// binary prints errors), for callers that show one line.
pub fn full_message(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}
