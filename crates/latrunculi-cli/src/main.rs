//! `latrunculi`: the command-line front end of the toolkit. Each subcommand lives in its
//! own module, which parses its arguments, calls `latrunculi_arena` (or the engine,
//! simulator and AlphaZero crates) and prints; this file only parses arguments and
//! dispatches.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use latrunculi_arena::game::RulesetChoice;
use latrunculi_rules::{BoardSize, RulesetSpec};

mod bench;
mod dataset;
mod errors;
mod eval;
mod ladder;
mod metrics;
mod play;
mod replay;
mod rules;
mod sensitivity;
mod serve;
mod survey;
mod tablebase;
mod train;
mod tune_eval;
mod verdicts;

/// One line of `latrunculi -h`: what the tool is.
const ABOUT: &str = "Ludus Latrunculorum research toolkit: a rules engine for 42 reconstructions, players, \
surveys and verdicts, Elo ladders, endgame tables, datasets, AlphaZero training and a web app";

/// The description of `latrunculi --help`: what the tool is and which commands do what.
const LONG_ABOUT: &str = "\
Ludus Latrunculorum research toolkit. It plays the Roman game of little soldiers under each of the
42 published reconstructions (12 from the sources, 30 of the Ludii game system), every one a ruleset
id with each uncertain rule a parameter, and asks which of them make a playable game.

  rules engine   rules, show, replay: the rulesets, positions (diagram, FEN, SVG), game records
                 checked move by move
  players        random, greedy, mcts, alphabeta (by depth, or the search player by nodes or
                 time), az (a trained network)
  experiments    play, survey, eval, ladder, metrics, sensitivity, verdicts: games between players,
                 draw-rate surveys, scores and Elo with SPRT, rating ladders, game-design metrics,
                 rule sensitivity, and which reconstructions are drawish or decisive
  learning       dataset, train, tune-eval: training datasets (.npy), AlphaZero training, the
                 search player's evaluation weights
  endgames       tablebase: exact endgame tables (build, probe a position, summary as CSV)
  web app        serve: play, watch and study games in the browser
  speed          bench, bench-az

`latrunculi COMMAND --help` gives a command's options; the repository's README.md and
docs/usage.md describe every command and its output files.";

/// Ludus Latrunculorum research toolkit: the top-level command line.
#[derive(Parser, Debug)]
#[command(name = "latrunculi", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the rulesets: id, board, pieces, source.
    Rules(rules::RulesArgs),
    /// Print the starting position of a ruleset (or a position given as FEN).
    Show(rules::ShowArgs),
    /// Replay a game record, checking every move, capture and suffix.
    Replay(replay::ReplayArgs),
    /// Random-playout speed of the rules engine, one core and all cores.
    Bench(bench::BenchArgs),
    /// Play games between two agents; one CSV row per game.
    Play(play::PlayArgs),
    /// Run an experiment file: every (ruleset, pairing) cell, resumable; games.csv and summary.csv.
    Survey(survey::SurveyArgs),
    /// Train an AlphaZero network by self-play (resumable); checkpoints and train_log.csv.
    Train(train::TrainArgs),
    /// Throughput of the AlphaZero network and of batched search in self-play.
    BenchAz(bench::BenchAzArgs),
    /// One agent against opponents: score, Elo and 95% intervals per pairing; optional SPRT.
    Eval(eval::EvalArgs),
    /// Round robin between many agents; maximum-likelihood Elo ratings (random = 0) and a plot.
    Ladder(ladder::LadderArgs),
    /// Games between two agents as a training dataset: games.jsonl and .npy arrays (data/README.md).
    Dataset(dataset::DatasetArgs),
    /// Game-design metrics with 95% intervals per cell of a games CSV (replays every game).
    Metrics(metrics::MetricsArgs),
    /// Write the experiment file of a rule-sensitivity study: every [assumed] parameter changed in turn.
    Sensitivity(sensitivity::SensitivityArgs),
    /// Fit the search player's evaluation weights per ruleset from recorded games (configs/eval/).
    TuneEval(tune_eval::TuneEvalArgs),
    /// Play and study games in the browser: a local web app (http://127.0.0.1:8080/).
    Serve(serve::ServeArgs),
    /// Games split by how they ended (play, count, draw) per cell with 95% intervals, and a verdict per ruleset.
    Verdicts(verdicts::VerdictsArgs),
    /// Endgame tables: exact values of every position with few pieces (build, probe, summary).
    Tablebase(tablebase::TablebaseArgs),
}

/// Options shared by commands that take a ruleset.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesetArg {
    /// Ruleset label: an id (see `latrunculi rules`) or a ruleset .toml file, optionally
    /// `@WxH` and `+key=value` changes, as the `ruleset` column of results writes it (e.g.
    /// `xxi@12x8`, `kowalski+end.no_capture_limit=120`).
    #[arg(long, short = 'r')]
    pub ruleset: RulesetSpec,
    /// Board as WxH (e.g. 12x8), for rulesets that allow several sizes (or `@WxH` in the label).
    #[arg(long)]
    pub board: Option<BoardSize>,
    /// Directory of ruleset files consulted before the built-in ones.
    #[arg(long, default_value = latrunculi_rules::DEFAULT_RULES_DIR)]
    pub rules_dir: PathBuf,
}

impl RulesetArg {
    /// The options as the library's [`RulesetChoice`].
    pub fn choice(&self) -> RulesetChoice {
        RulesetChoice { ruleset: self.ruleset.clone(), board: self.board, rules_dir: self.rules_dir.clone() }
    }

    /// Resolves the ruleset ([`RulesetSpec::resolve`] on `--ruleset` with `--board`, files
    /// in `--rules-dir` first).
    pub fn load(&self) -> anyhow::Result<latrunculi_rules::Ruleset> {
        Ok(self.choice().load()?)
    }
}

/// The subcommands that take agent specs; their help lists the agent kinds.
const AGENT_COMMANDS: [&str; 5] = ["play", "eval", "ladder", "dataset", "survey"];

/// The kinds of agent this program plays: those of `latrunculi-agents` and the `az`
/// network player. Made once in `main` and handed to every command that reads specs.
fn players() -> latrunculi_agents::Players {
    latrunculi_az::players()
}

/// The command line: the derived one, with the agent kinds of `players` in the help of
/// the commands that take agent specs.
fn command(players: &latrunculi_agents::Players) -> clap::Command {
    let agents = format!("Agent specs (from the registry of agent kinds): {}", players.valid_agents());
    let mut command = Cli::command();
    for name in AGENT_COMMANDS {
        command = command.mut_subcommand(name, |c| c.after_help(agents.clone()));
    }
    command
}

/// The status with which a write to a closed pipe ends the process: 0, as when a reader
/// stops early (`latrunculi rules | head -1`), or the status of the error being reported.
#[cfg(unix)]
static CLOSED_PIPE_STATUS: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Makes a write to a closed pipe end the process quietly, with status
/// [`CLOSED_PIPE_STATUS`].
///
/// Rust starts a program with SIGPIPE ignored, so such a write fails with `EPIPE` and
/// `println!` panics ("failed printing to stdout: Broken pipe", status 101). The writes are
/// everywhere (this crate's `println!`s, the progress lines of the arena and training
/// crates), so rather than check each write's error, the signal gets a handler: apart from
/// `serve` (which puts SIGPIPE back to ignored, see [`ignore_closed_pipe`]) the process
/// writes to no pipe or socket but its standard streams, so SIGPIPE means that their reader
/// has gone, and what is left to print has no one to read it. The handler exits with status
/// 0 rather than restoring the default action (death by the signal, status 141), because a
/// shell with `set -o pipefail`, as the project's scripts run, would report that as the
/// pipeline's failure, though `head` got what it asked for; while an error is being
/// reported it exits with the error's status, so that a failure never turns into success.
/// Files being written are left as a kill leaves them, which every resumable command
/// recovers from.
#[cfg(unix)]
fn exit_quietly_on_closed_pipe() {
    extern "C" fn exit_quietly(_signal: libc::c_int) {
        let status = CLOSED_PIPE_STATUS.load(std::sync::atomic::Ordering::SeqCst);
        // SAFETY: an atomic load and `_exit` are async-signal-safe, and `_exit` touches
        // nothing of the interrupted code.
        unsafe { libc::_exit(status) }
    }
    // SAFETY: a zeroed `sigaction` is a valid value (no flags, no mask) that `sigemptyset`
    // then initialises; the handler is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = exit_quietly as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGPIPE, &action, std::ptr::null_mut());
    }
}

/// Puts SIGPIPE back to ignored, as Rust starts a program, for `serve`: a web server must
/// outlive a client that goes away (its sockets are written with `MSG_NOSIGNAL` on Linux
/// anyway; this covers every other platform and any pipe it may write).
#[cfg(unix)]
fn ignore_closed_pipe() {
    // SAFETY: setting a signal's disposition to SIG_IGN is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Sets the status of the process should the error being reported find its pipe closed.
fn reporting_error(status: i32) {
    #[cfg(unix)]
    CLOSED_PIPE_STATUS.store(status, std::sync::atomic::Ordering::SeqCst);
    #[cfg(not(unix))]
    let _ = status;
}

fn main() -> ExitCode {
    #[cfg(unix)]
    exit_quietly_on_closed_pipe();
    let players = players();
    let cli = match command(&players).try_get_matches().and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version (status 0) or a usage error (status 2).
            reporting_error(e.exit_code());
            e.exit()
        }
    };
    // A backend named by LATRUNCULI_DEVICE that this build lacks is an error before any
    // command that may run a network starts, never a silent run on the CPU.
    let uses_network = matches!(
        cli.command,
        Command::Play(_)
            | Command::Survey(_)
            | Command::Train(_)
            | Command::BenchAz(_)
            | Command::Eval(_)
            | Command::Ladder(_)
            | Command::Dataset(_)
            | Command::Serve(_)
    );
    if uses_network && let Err(e) = latrunculi_az::device::selected() {
        reporting_error(2);
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Rules(a) => rules::run_rules(&a),
        Command::Show(a) => rules::run_show(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Play(a) => play::run(&a, &players),
        Command::Survey(a) => survey::run(&a, &players),
        Command::Train(a) => train::run_train(&a),
        Command::BenchAz(a) => bench::run_az(&a),
        Command::Eval(a) => eval::run(&a, &players),
        Command::Ladder(a) => ladder::run(&a, &players),
        Command::Dataset(a) => dataset::run(&a, &players),
        Command::Metrics(a) => metrics::run(&a),
        Command::Sensitivity(a) => sensitivity::run(&a),
        Command::TuneEval(a) => tune_eval::run(&a),
        Command::Verdicts(a) => verdicts::run(&a),
        Command::Tablebase(a) => tablebase::run(&a),
        Command::Serve(a) => {
            #[cfg(unix)]
            ignore_closed_pipe();
            serve::run(&a, &players)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            reporting_error(2);
            eprintln!("error: {}", errors::message(&e));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_of_agent_commands_lists_the_registered_kinds() {
        let mut command = command(&players());
        for name in AGENT_COMMANDS {
            let help = command.find_subcommand_mut(name).expect("a subcommand").render_long_help().to_string();
            assert!(help.contains("mcts:sims=N[,depth=D][,c=C]") && help.contains("az:model=PATH"), "{name}: {help}");
        }
        let rules = command.find_subcommand_mut("rules").expect("rules").render_long_help().to_string();
        assert!(!rules.contains("Agent specs"), "commands without agents do not list them");
    }

    #[test]
    fn the_top_level_help_names_every_command_in_its_description() {
        let mut command = command(&players());
        let help = command.render_long_help().to_string();
        let description = help.split("Usage:").next().expect("a description before the usage");
        let words = description.split_whitespace().collect::<Vec<_>>().join(" ");
        let builtin = latrunculi_rules::Ruleset::all_builtin().len();
        assert!(words.contains(&format!("each of the {builtin} published reconstructions")), "{description}");
        assert!(ABOUT.contains(&format!("for {builtin} reconstructions")), "{ABOUT}");
        let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
        for name in names.iter().filter(|n| *n != "help") {
            let listed = description.split(|c: char| !(c.is_alphanumeric() || c == '-')).any(|w| w == name);
            assert!(listed, "the description of --help does not name `{name}`:\n{description}");
        }
        let short = command.render_help().to_string();
        assert!(short.starts_with(ABOUT), "{short}");
    }
}
