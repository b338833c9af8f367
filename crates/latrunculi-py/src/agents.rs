//! Agents by spec, and the arena's `play` and `eval`, for Python.

use std::sync::Mutex;

use latrunculi_agents::{Agent, AgentSpec, Players};
use latrunculi_arena::agents::spec_for;
use latrunculi_arena::eval::{EVAL_COLUMNS, play_pairing, summary_line};
use latrunculi_arena::game::{GAME_COLUMNS, GameRow, play_games};
use latrunculi_rules::{BoardSize, Ruleset, RulesetSpec};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::position::{PyPosition, ruleset_arg};
use crate::{arena_error, error};

/// The kinds of agent the Python package plays: those of `latrunculi-agents` and the
/// `az` network player. Each call that reads specs makes its own, so that the networks
/// it loads go with it.
fn players() -> Players {
    latrunculi_az::players()
}

/// A player built from a spec string, as the CLI takes it: `random`, `greedy`,
/// `mcts:sims=200`, `alphabeta:depth=2`, `az:model=PATH,sims=100`, …
///
/// `Agent(spec, ruleset, seed=0)`. `select(position)` returns the chosen move in
/// notation (the search runs with the GIL released).
#[pyclass(name = "Agent", module = "latrunculi")]
pub struct PyAgent {
    agent: Mutex<Box<dyn Agent>>,
    rs: Ruleset,
}

impl PyAgent {
    fn choose(&self, py: Python<'_>, position: &PyPosition) -> PyResult<latrunculi_rules::Move> {
        if position.rs.rules() != self.rs.rules() {
            return Err(error(format!(
                "the position is of ruleset '{}', the agent was made for '{}'",
                position.rs.id, self.rs.id
            )));
        }
        if let Some(o) = position.pos.outcome() {
            return Err(error(format!("the game is over ({o})")));
        }
        let pos = &position.pos;
        let agent = &self.agent;
        py.detach(|| {
            let mut a = agent.lock().map_err(|_| error("the agent's lock is poisoned (an earlier search panicked)"))?;
            Ok(a.select(pos))
        })
    }
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (spec, ruleset, seed = 0))]
    fn new(spec: &str, ruleset: &Bound<'_, PyAny>, seed: u64) -> PyResult<Self> {
        let rs = ruleset_arg(ruleset)?;
        let parsed = latrunculi_arena::agents::parse_spec(&players(), spec).map_err(arena_error)?;
        let mut agent = parsed.build(Some(&rs)).map_err(|source| {
            arena_error(latrunculi_arena::ArenaError::Agent { spec: spec.trim().to_string(), source })
        })?;
        agent.new_game(seed);
        Ok(PyAgent { agent: Mutex::new(agent), rs })
    }

    /// The canonical spec (what the agent reports, as in the `white`/`black` columns).
    #[getter]
    fn spec(&self) -> PyResult<String> {
        Ok(self.agent.lock().map_err(|_| error("the agent's lock is poisoned"))?.spec().to_string())
    }

    /// Starts a new game: every random choice of the game derives from `seed`.
    fn new_game(&self, seed: u64) -> PyResult<()> {
        self.agent.lock().map_err(|_| error("the agent's lock is poisoned"))?.new_game(seed);
        Ok(())
    }

    /// The move the agent chooses in `position` (which must be of its ruleset and not
    /// over), in notation.
    fn select(&self, py: Python<'_>, position: &PyPosition) -> PyResult<String> {
        let mv = self.choose(py, position)?;
        Ok(position.written(mv))
    }

    /// The move the agent chooses in `position`, as an action index.
    fn select_action(&self, py: Python<'_>, position: &PyPosition) -> PyResult<usize> {
        let mv = self.choose(py, position)?;
        Ok(position.space.encode(mv))
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Agent('{}', '{}')", self.spec()?, self.rs.id))
    }
}

/// The label of a ruleset in results: its id, or `id@WxH` when the board is not the
/// built-in one's.
fn label_of(rs: &Ruleset) -> String {
    let board = match Ruleset::builtin(&rs.id) {
        Ok(b) if (b.width, b.height) != (rs.width, rs.height) => Some(BoardSize { width: rs.width, height: rs.height }),
        _ => None,
    };
    RulesetSpec { board, ..RulesetSpec::id(&rs.id) }.to_string()
}

/// A CSV line's cells as a dict keyed by `columns`: integers and decimals as numbers,
/// empty cells as `None`, the rest as strings.
fn row_dict<'py>(py: Python<'py>, columns: &[&str], line: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(line);
    let rec = r.records().next().ok_or_else(|| error("an empty CSV row"))?.map_err(error)?;
    let d = PyDict::new(py);
    const TEXT: [&str; 10] =
        ["ruleset", "params_hash", "white", "black", "winner", "reason", "moves", "agent", "opponent", "sprt"];
    for (col, cell) in columns.iter().zip(rec.iter()) {
        if cell.is_empty() {
            d.set_item(col, py.None())?;
        } else if TEXT.contains(col) {
            d.set_item(col, cell)?;
        } else if let Ok(i) = cell.parse::<u64>() {
            d.set_item(col, i)?;
        } else if let Ok(x) = cell.parse::<f64>() {
            d.set_item(col, x)?;
        } else {
            d.set_item(col, cell)?;
        }
    }
    Ok(d)
}

fn game_dict<'py>(py: Python<'py>, row: &GameRow) -> PyResult<Bound<'py, PyDict>> {
    row_dict(py, &GAME_COLUMNS, &row.to_csv_line().map_err(arena_error)?)
}

/// Plays `games` games between two agent specs, exactly as `latrunculi play` with the
/// same arguments (same seeds, same game loop, in parallel with the GIL released), and
/// returns its rows: one dict per game with the columns of a games CSV
/// (experiments/README.md).
#[pyfunction]
#[pyo3(signature = (ruleset, white, black, games = 1, seed = 1, swap = false, ply_cap = 1000))]
#[allow(clippy::too_many_arguments)]
pub fn play<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    white: &str,
    black: &str,
    games: u32,
    seed: u64,
    swap: bool,
    ply_cap: u32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let rs = ruleset_arg(ruleset)?;
    if ply_cap == 0 {
        return Err(error("ply_cap must be at least 1"));
    }
    let label = label_of(&rs);
    let players = players();
    let a = spec_for(&players, white, &rs).map_err(arena_error)?;
    let b = spec_for(&players, black, &rs).map_err(arena_error)?;
    let rows = py.detach(|| play_games(&rs, &label, &a, &b, games, seed, swap, ply_cap)).map_err(arena_error)?;
    rows.iter().map(|r| game_dict(py, r)).collect()
}

/// Evaluates `agent` against each of `opponents` over `games` games each (colours
/// alternated), exactly as `latrunculi eval` with the same arguments, and returns
/// `(summary, games)`: one dict per opponent with the columns of an eval CSV
/// (experiments/README.md: score and Elo with 95% intervals) and one dict per game.
#[pyfunction]
#[pyo3(signature = (ruleset, agent, opponents, games = 20, seed = 1, ply_cap = 1000))]
pub fn eval<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    agent: &str,
    opponents: Vec<String>,
    games: u32,
    seed: u64,
    ply_cap: u32,
) -> PyResult<(Vec<Bound<'py, PyDict>>, Vec<Bound<'py, PyDict>>)> {
    let rs = ruleset_arg(ruleset)?;
    if ply_cap == 0 {
        return Err(error("ply_cap must be at least 1"));
    }
    if games == 0 {
        return Err(error("games must be at least 1"));
    }
    let label = label_of(&rs);
    let players = players();
    let a = spec_for(&players, agent, &rs).map_err(arena_error)?;
    let opps: Vec<AgentSpec> =
        opponents.iter().map(|o| spec_for(&players, o, &rs)).collect::<Result<_, _>>().map_err(arena_error)?;
    let a_text = a.to_string();
    let results = py
        .detach(|| -> Result<Vec<(String, Vec<GameRow>)>, latrunculi_arena::ArenaError> {
            let mut out = Vec::new();
            for o in &opps {
                let (summary, rows) =
                    play_pairing(&rs, &label, &a, o, games, seed, ply_cap, None, Vec::new(), &|| {}, &mut |_, _| {
                        Ok(())
                    })?;
                out.push((summary_line(&label, &a_text, seed, &summary)?, rows));
            }
            Ok(out)
        })
        .map_err(arena_error)?;
    let mut summaries = Vec::new();
    let mut all_games = Vec::new();
    for (line, rows) in &results {
        summaries.push(row_dict(py, &EVAL_COLUMNS, line.as_bytes())?);
        for r in rows {
            all_games.push(game_dict(py, r)?);
        }
    }
    Ok((summaries, all_games))
}
