//! Evaluation (`latrunculi eval`): one agent against a list of opponents, colours
//! alternated, with scores, Elo differences and their 95% intervals per pairing (columns
//! documented in `experiments/README.md`), and an optional sequential test that stops a
//! pairing early.
//!
//! Reproducibility: game `i` of every pairing has the seed [`game_seed`]`(seed, i)` and
//! the evaluated agent plays White in even games and Black in odd ones, so the pairings
//! share their openings' random choices. With `--sprt` the games are still played in
//! index order (in parallel chunks) and the test is applied game by game in that order:
//! the stopping game does not depend on the number of threads.

use std::path::Path;

use latrunculi_agents::{AgentSpec, Players};
use latrunculi_rules::Ruleset;
use rayon::prelude::*;

use crate::elo::{Sprt, SprtDecision, Wdl};
use crate::error::{ArenaError, Result, Setting};
use crate::game::{GameJob, GameRow, RulesetChoice, colours, game_seed, play_game, progress_bar};
use crate::io::{games, write_atomic};

/// The columns of an eval CSV, in order.
pub const EVAL_COLUMNS: [&str; 17] = [
    "ruleset",
    "agent",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "score_lo",
    "score_hi",
    "elo",
    "elo_lo",
    "elo_hi",
    "mean_plies",
    "sprt",
    "llr",
    "seed",
];

/// Parses `ELO0,ELO1`.
pub fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let bad = |message: String| ArenaError::BadSetting { setting: Setting::Sprt, value: text.to_string(), message };
    let (a, b) = text
        .split_once(',')
        .and_then(|(a, b)| Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?)))
        .ok_or_else(|| bad("is not of the form ELO0,ELO1 (e.g. 0,50)".to_string()))?;
    Sprt::new(a, b, alpha, beta).map_err(|e| bad(format!("is not a valid test: {e}")))
}

/// The result of game `index` of a pairing for the evaluated agent (White in even games).
pub fn agent_result(row: &GameRow, index: u32) -> Wdl {
    let agent_colour = if index % 2 == 0 { "white" } else { "black" };
    match row.winner.as_str() {
        "draw" => Wdl { draws: 1, ..Wdl::default() },
        w if w == agent_colour => Wdl { wins: 1, ..Wdl::default() },
        _ => Wdl { losses: 1, ..Wdl::default() },
    }
}

/// Formats a number for a CSV cell: `inf` / `-inf` for infinities.
pub fn num(x: f64, decimals: usize) -> String {
    if x == f64::INFINITY {
        "inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// One pairing's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingSummary {
    /// The opponent's canonical spec.
    pub opponent: String,
    /// The agent's results.
    pub wdl: Wdl,
    /// Mean plies of the games.
    pub mean_plies: f64,
    /// The SPRT decision (`None` without `--sprt`) and its log-likelihood ratio.
    pub sprt: Option<(SprtDecision, f64)>,
}

/// The CSV line of a pairing (no newline).
pub fn summary_line(label: &str, agent: &str, seed: u64, s: &PairingSummary) -> Result<String> {
    let (lo, hi) = s.wdl.score_interval();
    let (elo_lo, elo_hi) = s.wdl.elo_interval();
    let cells = vec![
        label.to_string(),
        agent.to_string(),
        s.opponent.clone(),
        s.wdl.games().to_string(),
        s.wdl.wins.to_string(),
        s.wdl.draws.to_string(),
        s.wdl.losses.to_string(),
        num(s.wdl.score(), 4),
        num(lo, 4),
        num(hi, 4),
        num(s.wdl.elo(), 1),
        num(elo_lo, 1),
        num(elo_hi, 1),
        num(s.mean_plies, 1),
        s.sprt.map(|(d, _)| d.name().to_string()).unwrap_or_default(),
        s.sprt.map(|(_, l)| num(l, 4)).unwrap_or_default(),
        seed.to_string(),
    ];
    let mut w =
        csv::WriterBuilder::new().has_headers(false).terminator(csv::Terminator::Any(b'\n')).from_writer(vec![]);
    w.write_record(&cells)?;
    let bytes = w.into_inner().map_err(|e| ArenaError::Game(format!("cannot write a CSV row: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

/// Most games played in parallel between two looks at the results (SPRT, partial output).
pub const CHUNK: u32 = 16;

/// Games played in parallel between two looks at the results: one per thread of the
/// rayon pool, at most [`CHUNK`], so that an interruption loses at most one round of
/// games (a 1,000-ply game of the search player takes minutes; with one thread the files
/// are written after every game). The results do not depend on it.
pub fn chunk_size() -> u32 {
    (rayon::current_num_threads() as u32).clamp(1, CHUNK)
}

/// A pairing's games so far, in game order, with the agent's results and the state of
/// the sequential test.
#[derive(Default)]
struct PairingTally {
    rows: Vec<GameRow>,
    wdl: Wdl,
    decision: Option<(SprtDecision, f64)>,
}

impl PairingTally {
    /// Adds the next game; true once the sequential test has decided.
    fn push(&mut self, row: GameRow, sprt: Option<&Sprt>) -> bool {
        self.wdl = self.wdl + agent_result(&row, row.game);
        self.rows.push(row);
        let Some(t) = sprt else { return false };
        let d = t.decide(&self.wdl);
        self.decision = Some((d, t.llr(&self.wdl)));
        d != SprtDecision::Continue
    }
}

/// The summary of a pairing's games (in game order), given the agent's results over
/// them and the state of the sequential test.
fn summarise(opponent: &str, wdl: Wdl, rows: &[GameRow], sprt: Option<(SprtDecision, f64)>) -> PairingSummary {
    let mean_plies =
        if rows.is_empty() { 0.0 } else { rows.iter().map(|r| r.plies as f64).sum::<f64>() / rows.len() as f64 };
    PairingSummary { opponent: opponent.to_string(), wdl, mean_plies, sprt }
}

/// The summary of a pairing played without a sequential test, from its games in game
/// order (the agent White in even games): what [`play_pairing`] returns for them.
pub fn summarise_games(opponent: &str, rows: &[GameRow]) -> PairingSummary {
    let wdl = rows.iter().fold(Wdl::default(), |w, r| w + agent_result(r, r.game));
    summarise(opponent, wdl, rows, None)
}

/// Plays one pairing (agent first) and returns its summary and games, continuing from
/// `resumed`, the pairing's first games as an earlier run played them (game indices
/// `0..resumed.len()`; empty for a fresh pairing). Games are played in parallel chunks
/// of [`chunk_size`]; after each chunk but the last, `on_chunk` sees the results so far (to
/// save partial output). With a sequential test the games after the deciding one are
/// dropped.
#[allow(clippy::too_many_arguments)]
pub fn play_pairing(
    rs: &Ruleset,
    label: &str,
    agent: &AgentSpec,
    opponent: &AgentSpec,
    games: u32,
    seed: u64,
    ply_cap: u32,
    sprt: Option<&Sprt>,
    resumed: Vec<GameRow>,
    on_game: &(dyn Fn() + Sync),
    on_chunk: &mut dyn FnMut(&PairingSummary, &[GameRow]) -> Result<()>,
) -> Result<(PairingSummary, Vec<GameRow>)> {
    let opponent_text = opponent.to_string();
    let summarise = |wdl, rows: &[GameRow], sprt| summarise(&opponent_text, wdl, rows, sprt);
    let chunk = chunk_size();
    let mut tally = PairingTally::default();
    for row in resumed {
        if tally.push(row, sprt) {
            return Ok((summarise(tally.wdl, &tally.rows, tally.decision), tally.rows));
        }
    }
    let mut start = tally.rows.len() as u32;
    // The resumed games are saved before any new game is played: the files were
    // rewritten with the earlier pairings' games only, and an interruption during the
    // first chunk must not lose these.
    if start > 0 && start < games {
        on_chunk(&summarise(tally.wdl, &tally.rows, tally.decision), &tally.rows)?;
    }
    'chunks: while start < games {
        let end = (start + chunk).min(games);
        let new: Vec<GameRow> = (start..end)
            .into_par_iter()
            .map(|game| {
                let (white, black) = colours(agent, opponent, game, true);
                let job = GameJob { ruleset: rs, label, game, seed: game_seed(seed, game), white, black, ply_cap };
                let row = play_game(&job);
                on_game();
                row
            })
            .collect::<Result<_>>()?;
        for row in new {
            if tally.push(row, sprt) {
                break 'chunks;
            }
        }
        start = end;
        if start < games {
            on_chunk(&summarise(tally.wdl, &tally.rows, tally.decision), &tally.rows)?;
        }
    }
    Ok((summarise(tally.wdl, &tally.rows, tally.decision), tally.rows))
}

/// Refuses to replace `path` unless `force`.
pub fn check_new_file(path: &Path, force: bool) -> Result<()> {
    if path.exists() && !force {
        return Err(ArenaError::Exists { path: path.to_path_buf() });
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
    }
    Ok(())
}

/// Reads the games an interrupted `eval` wrote to `path`, split by pairing, checking that
/// they are the games this run plays first (ruleset, players and colours, game index,
/// seed, ply cap; a pairing is complete at `--games` games or where its SPRT decided).
fn read_resumable(path: &Path, plan: &EvalPlan) -> Result<Vec<Vec<GameRow>>> {
    let (label, opponents, sprt) = (plan.label.as_str(), &plan.opponents, plan.sprt.as_ref());
    let agent = plan.agent.to_string();
    let bad = |line: Option<usize>, message: String| ArenaError::content(path, line, message);
    let reader = games::GamesReader::open(path)?;
    if !reader.has_all_columns_in_order() {
        return Err(bad(None, "the first line is not the games header; cannot resume".into()));
    }
    let mut out: Vec<Vec<GameRow>> = Vec::with_capacity(opponents.len());
    let mut tally = PairingTally::default();
    for row in reader.rows()? {
        let games::Located { line, value: row, .. } = row.map_err(|e| match e {
            ArenaError::Content { path, line, message } => {
                ArenaError::Content { path, line, message: format!("not a game row ({message}); cannot resume") }
            }
            e => e,
        })?;
        let Some(opponent) = opponents.get(out.len()) else {
            return Err(bad(Some(line), "more games than this run's pairings play; cannot resume".into()));
        };
        let g = tally.rows.len() as u32;
        let opponent = opponent.to_string();
        let (white, black) = colours(agent.as_str(), opponent.as_str(), g, true);
        let want_seed = game_seed(plan.seed, g);
        if row.ruleset != label
            || row.game != g
            || row.white != white
            || row.black != black
            || row.seed != want_seed
            || row.plies > plan.ply_cap
        {
            return Err(bad(
                Some(line),
                format!(
                    "game {} of {} ({} vs {}, seed {}, {} plies), but this run's next game is {g} of {label} \
                     ({white} vs {black}, seed {want_seed}, ply cap {}); cannot resume",
                    row.game, row.ruleset, row.white, row.black, row.seed, row.plies, plan.ply_cap
                ),
            ));
        }
        let decided = tally.push(row, sprt);
        if tally.rows.len() as u32 >= plan.games || decided {
            out.push(std::mem::take(&mut tally).rows);
        }
    }
    // The pairing the run stopped in, then nothing for the pairings not begun.
    out.push(tally.rows);
    out.resize_with(opponents.len(), Vec::new);
    Ok(out)
}

/// What an evaluation plays: everything but its output files.
#[derive(Clone, Debug)]
pub struct EvalPlan {
    /// The ruleset (board applied).
    pub ruleset: Ruleset,
    /// Its label.
    pub label: String,
    /// The agent under test.
    pub agent: AgentSpec,
    /// The opponents, in order.
    pub opponents: Vec<AgentSpec>,
    /// Games per pairing (the maximum, with a sequential test).
    pub games: u32,
    /// Base seed.
    pub seed: u64,
    /// Ply cap.
    pub ply_cap: u32,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
}

impl EvalPlan {
    /// Checks the settings of `latrunculi eval`: the ruleset loads, at least one game, a
    /// positive ply cap, a sequential test `ELO0,ELO1` ([`parse_sprt`]) that makes sense,
    /// and agent and opponent specs (read by `players`; opponent lists as
    /// [`Players::parse_list`] reads them) that build agents for the ruleset.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: &Players,
        ruleset: &RulesetChoice,
        agent: &str,
        vs: &[String],
        games: u32,
        seed: u64,
        ply_cap: u32,
        sprt: Option<&str>,
        alpha: f64,
        beta: f64,
    ) -> Result<EvalPlan> {
        let rs = ruleset.load()?;
        let label = ruleset.label(&rs)?;
        if games == 0 {
            return Err(ArenaError::AtLeastOne { setting: Setting::Games });
        }
        if ply_cap == 0 {
            return Err(ArenaError::AtLeastOne { setting: Setting::PlyCap });
        }
        let sprt = sprt.map(|t| parse_sprt(t, alpha, beta)).transpose()?;
        let agent = crate::agents::spec_for(players, agent, &rs)?;
        let opponents = crate::agents::parse_list(players, vs)?;
        for o in &opponents {
            crate::agents::check_plays(o, &rs)?;
        }
        Ok(EvalPlan { ruleset: rs, label, agent, opponents, games, seed, ply_cap, sprt })
    }

    /// Prepares the output files: with `resume`, reads the games already in `games_out`
    /// (required; see [`EvalPlan::play`]) and returns them per opponent; otherwise refuses
    /// existing files unless `force` and returns no games.
    pub fn start(&self, out: &Path, games_out: Option<&Path>, force: bool, resume: bool) -> Result<Vec<Vec<GameRow>>> {
        let mut resumed: Vec<Vec<GameRow>> = vec![Vec::new(); self.opponents.len()];
        if resume {
            let g = games_out.ok_or(ArenaError::ResumeNeedsGamesFile)?;
            if g.exists() {
                resumed = read_resumable(g, self)?;
                let kept: usize = resumed.iter().map(Vec::len).sum();
                eprintln!("resuming: {kept} games already in {}", g.display());
            }
        } else {
            check_new_file(out, force)?;
            if let Some(g) = games_out {
                check_new_file(g, force)?;
            }
        }
        Ok(resumed)
    }

    /// Plays every pairing, continuing from `resumed` (from [`EvalPlan::start`]), with a
    /// progress bar per pairing. `out` (one row per pairing, the columns of
    /// [`EVAL_COLUMNS`]) and `games_out` (every game) are rewritten after every chunk of
    /// games, so an interrupted pairing keeps a row with the games it finished; after
    /// each pairing `on_pairing` sees its summary. Returns the summaries in order.
    pub fn play(
        &self,
        out: &Path,
        games_out: Option<&Path>,
        resumed: Vec<Vec<GameRow>>,
        on_pairing: &mut dyn FnMut(&PairingSummary),
    ) -> Result<Vec<PairingSummary>> {
        let label = self.label.as_str();
        let agent_text = self.agent.to_string();
        let agent = agent_text.as_str();
        let mut csv_text = format!("{}\n", EVAL_COLUMNS.join(","));
        let mut games_text = games::header().into_bytes();
        let mut summaries = Vec::new();
        for (opponent, resumed) in self.opponents.iter().zip(resumed) {
            let bar = progress_bar(self.games as u64, resumed.len() as u64);
            bar.set_message(opponent.to_string());
            // Partial results are written after every chunk: an interrupted pairing keeps a
            // row with the games it finished.
            let mut save = |summary: &PairingSummary, rows: &[GameRow]| -> Result<()> {
                let text = format!("{csv_text}{}\n", summary_line(label, agent, self.seed, summary)?);
                write_atomic(out, text.as_bytes())?;
                if let Some(g) = games_out {
                    let mut bytes = games_text.clone();
                    for r in rows {
                        bytes.extend(r.to_csv_line()?);
                    }
                    write_atomic(g, &bytes)?;
                }
                Ok(())
            };
            let (summary, rows) = play_pairing(
                &self.ruleset,
                label,
                &self.agent,
                opponent,
                self.games,
                self.seed,
                self.ply_cap,
                self.sprt.as_ref(),
                resumed,
                &|| bar.inc(1),
                &mut save,
            )?;
            save(&summary, &rows)?;
            bar.finish_and_clear();
            csv_text.push_str(&summary_line(label, agent, self.seed, &summary)?);
            csv_text.push('\n');
            for r in &rows {
                games_text.extend(r.to_csv_line()?);
            }
            on_pairing(&summary);
            summaries.push(summary);
        }
        Ok(summaries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    #[test]
    fn sprt_option_parses_and_rejects_nonsense() {
        let t = parse_sprt("0, 50", 0.05, 0.1).unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (0.0, 50.0, 0.05, 0.1));
        assert!(parse_sprt("50", 0.05, 0.05).is_err());
        assert!(parse_sprt("50,0", 0.05, 0.05).is_err());
        assert!(parse_sprt("a,b", 0.05, 0.05).is_err());
    }

    #[test]
    fn results_are_counted_for_the_agent_whatever_its_colour() {
        let rs = Ruleset::builtin("petteia-xxi").unwrap();
        let (summary, rows) = play_pairing(
            &rs,
            "petteia-xxi",
            &spec("greedy"),
            &spec("random"),
            8,
            5,
            400,
            None,
            Vec::new(),
            &|| (),
            &mut |_, _| Ok(()),
        )
        .unwrap();
        assert_eq!(rows.len(), 8);
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.game, i as u32);
            assert_eq!(
                (r.white.as_str(), r.black.as_str()),
                if i % 2 == 0 { ("greedy", "random") } else { ("random", "greedy") }
            );
        }
        let greedy_wins = rows
            .iter()
            .filter(|r| (r.winner == "white" && r.white == "greedy") || (r.winner == "black" && r.black == "greedy"))
            .count() as u64;
        assert_eq!(summary.wdl.wins, greedy_wins);
        assert_eq!(summary.wdl.draws, rows.iter().filter(|r| r.winner == "draw").count() as u64);
        assert_eq!(summary.wdl.games(), 8);
        // Greedy captures what random leaves hanging.
        assert!(summary.wdl.score() > 0.5, "{:?}", summary.wdl);
    }

    /// A resumed pairing's games reach `on_chunk` (the files) before any new game is
    /// played, so that a second interruption cannot lose them.
    #[test]
    fn resumed_games_are_saved_before_new_ones_are_played() {
        let rs = Ruleset::builtin("petteia-xxi").unwrap();
        let play = |games: u32, resumed: Vec<GameRow>, saves: &mut Vec<usize>| {
            play_pairing(
                &rs,
                "petteia-xxi",
                &spec("greedy"),
                &spec("random"),
                games,
                5,
                200,
                None,
                resumed,
                &|| (),
                &mut |_, rows| {
                    saves.push(rows.len());
                    Ok(())
                },
            )
            .unwrap()
        };
        let (_, first) = play(3, Vec::new(), &mut Vec::new());
        let mut saves = Vec::new();
        let (_, all) = play(5, first.clone(), &mut saves);
        assert_eq!(saves.first(), Some(&3), "{saves:?}");
        assert_eq!(all.len(), 5);
        assert_eq!(&all[..3], &first[..]);
    }

    #[test]
    fn sprt_stops_at_the_first_deciding_game() {
        // greedy against random wins nearly every game: H1 (50 Elo) is accepted long before 200.
        let rs = Ruleset::builtin("petteia-xxi").unwrap();
        let t = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let mut looks = 0;
        let (summary, rows) = play_pairing(
            &rs,
            "petteia-xxi",
            &spec("greedy"),
            &spec("random"),
            200,
            5,
            400,
            Some(&t),
            Vec::new(),
            &|| (),
            &mut |s, r| {
                looks += 1;
                assert_eq!(s.wdl.games() as usize, r.len());
                Ok(())
            },
        )
        .unwrap();
        // The partial results were shown after every full chunk before the decision.
        assert_eq!(looks, (rows.len() - 1) / chunk_size() as usize);
        let (d, llr) = summary.sprt.unwrap();
        assert_eq!(d, SprtDecision::AcceptH1);
        assert!(rows.len() < 200);
        assert!(llr >= t.bounds().1);
        // One game fewer is still undecided.
        let before =
            rows[..rows.len() - 1].iter().enumerate().fold(Wdl::default(), |w, (i, r)| w + agent_result(r, i as u32));
        assert_eq!(t.decide(&before), SprtDecision::Continue);
    }

    #[test]
    fn summary_line_has_every_column() {
        let s = PairingSummary {
            opponent: "mcts:sims=1000".into(),
            wdl: Wdl { wins: 0, draws: 0, losses: 20 },
            mean_plies: 61.26,
            sprt: None,
        };
        let line = summary_line("kowalski", "az:model=x.az,sims=200", 3, &s).unwrap();
        let cells: Vec<String> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        assert_eq!(cells.len(), EVAL_COLUMNS.len());
        assert_eq!(cells[1], "az:model=x.az,sims=200");
        assert_eq!(&cells[3..8], ["20", "0", "0", "20", "0.0000"]);
        assert_eq!(cells[10], "-inf");
        assert_eq!(cells[13], "61.3");
    }

    #[test]
    fn an_interrupted_evaluation_resumes_to_the_files_of_one_run() {
        let dir = std::env::temp_dir().join(format!("latrunculi-eval-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let choice = RulesetChoice {
            ruleset: "kowalski".parse().unwrap(),
            board: Some("6x6".parse().unwrap()),
            rules_dir: std::path::PathBuf::from("/nonexistent"),
        };
        let vs = vec!["random,alphabeta:depth=1".to_string()];
        let plan = EvalPlan::new(&Players::baseline(), &choice, "greedy", &vs, 4, 3, 200, None, 0.05, 0.05).unwrap();
        assert_eq!(plan.opponents.iter().map(|o| o.to_string()).collect::<Vec<_>>(), ["random", "alphabeta:depth=1"]);
        let (out, games) = (dir.join("whole.csv"), dir.join("whole-games.csv"));
        let resumed = plan.start(&out, Some(&games), false, false).unwrap();
        plan.play(&out, Some(&games), resumed, &mut |_| {}).unwrap();
        let games_text = std::fs::read_to_string(&games).unwrap();
        let lines: Vec<&str> = games_text.lines().collect();
        assert_eq!(lines.len(), 1 + 8);

        // Killed after five games: the first pairing and one game of the second.
        let (cut_out, cut_games) = (dir.join("cut.csv"), dir.join("cut-games.csv"));
        std::fs::write(&cut_games, format!("{}\n", lines[..6].join("\n"))).unwrap();
        let resumed = plan.start(&cut_out, Some(&cut_games), false, true).unwrap();
        assert_eq!(resumed.iter().map(Vec::len).collect::<Vec<_>>(), [4, 1]);
        plan.play(&cut_out, Some(&cut_games), resumed, &mut |_| {}).unwrap();
        assert_eq!(std::fs::read(&cut_out).unwrap(), std::fs::read(&out).unwrap());
        assert_eq!(std::fs::read(&cut_games).unwrap(), std::fs::read(&games).unwrap());

        // Games of another run are refused, naming the line; so is resuming without a
        // games file and a fresh run over existing files.
        let other = EvalPlan::new(&Players::baseline(), &choice, "greedy", &vs, 4, 4, 200, None, 0.05, 0.05).unwrap();
        let e = other.start(&cut_out, Some(&cut_games), false, true).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("cannot resume"), "{e}");
        assert!(matches!(plan.start(&cut_out, None, false, true), Err(ArenaError::ResumeNeedsGamesFile)));
        assert!(matches!(plan.start(&cut_out, None, false, false), Err(ArenaError::Exists { .. })));
        assert!(plan.start(&cut_out, None, true, false).is_ok(), "force replaces");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
