//! The batched simulator for Python: numpy observations, masks and steps.

use latrunculi_rules::Color;
use latrunculi_sim::{BatchSim, StepResult};
use ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyReadonlyArray1, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;
use crate::position::{PyPosition, PyRuleset, ruleset_arg};

/// `num_games` games of one ruleset stepped together, in parallel (Rust threads, the
/// GIL released): observations `[N, planes, H, W]` float32, legal masks `[N, A]` bool,
/// and `step(actions)` playing one action per game; a game that ends is reset to the
/// start at once (its episode seed is the next unused one: game `i` starts with
/// `seed + i`).
///
/// `BatchSim(ruleset, num_games, seed=0, ply_cap=1000)`.
#[pyclass(name = "BatchSim", module = "latrunculi")]
pub struct PyBatchSim {
    sim: BatchSim,
    result: StepResult,
    actions: Vec<usize>,
}

#[pymethods]
impl PyBatchSim {
    #[new]
    #[pyo3(signature = (ruleset, num_games, seed = 0, ply_cap = None))]
    fn new(ruleset: &Bound<'_, PyAny>, num_games: usize, seed: u64, ply_cap: Option<u32>) -> PyResult<Self> {
        let rs = ruleset_arg(ruleset)?;
        let mut sim = BatchSim::new(&rs, num_games, seed).map_err(error)?;
        if let Some(cap) = ply_cap {
            if cap == 0 {
                return Err(error("ply_cap must be at least 1"));
            }
            sim.set_ply_cap(cap).map_err(error)?;
        }
        Ok(PyBatchSim { sim, result: StepResult::default(), actions: Vec::with_capacity(num_games) })
    }

    /// The ruleset.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset { inner: self.sim.ruleset().clone() }
    }

    /// Games in the batch (`N`).
    #[getter]
    fn num_games(&self) -> usize {
        self.sim.num_games()
    }

    /// Size of the action space (`A`).
    #[getter]
    fn action_size(&self) -> usize {
        self.sim.action_space().size()
    }

    /// Shape of one observation, `(planes, height, width)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.sim.encoder().shape();
        (p, h, w)
    }

    /// Observations of every game, float32 `[N, planes, H, W]`, each from its side to
    /// move's point of view (a copy of the simulator's buffer).
    fn observations<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray4<f32>> {
        let sim = &mut self.sim;
        py.detach(|| {
            sim.observations();
        });
        self.sim.observations().to_pyarray(py)
    }

    /// Legal-action masks of every game, bool `[N, A]` (a copy).
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let sim = &mut self.sim;
        py.detach(|| {
            sim.legal_mask();
        });
        self.sim.legal_mask().to_pyarray(py)
    }

    /// The legal actions of every game as one flat int64 array and int64 offsets
    /// `[N + 1]`: game `i`'s legal actions are `actions[offsets[i]:offsets[i+1]]` (in
    /// the engine's move order). Cheaper than the mask for sampling.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>)> {
        let n = self.sim.num_games();
        let space = self.sim.action_space();
        let lists: Vec<&[latrunculi_rules::Move]> =
            (0..n).map(|i| self.sim.legal_moves(i)).collect::<Result<_, _>>().map_err(error)?;
        let mut actions = Vec::with_capacity(lists.iter().map(|l| l.len()).sum());
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0i64);
        for moves in lists {
            actions.extend(moves.iter().map(|&m| space.encode(m) as i64));
            offsets.push(actions.len() as i64);
        }
        Ok((actions.into_pyarray(py), offsets.into_pyarray(py)))
    }

    /// The number of legal actions of every game, int64 `[N]` (never 0: games that end
    /// are reset).
    fn legal_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let v: Result<Vec<i64>, _> =
            (0..self.sim.num_games()).map(|i| self.sim.legal_moves(i).map(|m| m.len() as i64)).collect();
        Ok(v.map_err(error)?.into_pyarray(py))
    }

    /// The action of legal move number `indices[i]` of game `i` (in the engine's move
    /// order, the order of `legal_actions`), int64 `[N]`: with `legal_counts`, a policy
    /// over each game's legal moves without building masks, e.g. uniformly random
    /// `legal_action_at((rng.random(N) * legal_counts()).astype(np.int64))`. An index
    /// outside `0..legal_counts()[i]` raises, naming the game.
    fn legal_action_at<'py>(
        &self,
        py: Python<'py>,
        indices: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let n = self.sim.num_games();
        let idx = indices.as_array();
        if idx.len() != n {
            return Err(error(format!("expected one index per game ({n}), got {}", idx.len())));
        }
        let space = self.sim.action_space();
        let mut out = Vec::with_capacity(n);
        for (i, &k) in idx.iter().enumerate() {
            let moves = self.sim.legal_moves(i).map_err(error)?;
            let mv = usize::try_from(k)
                .ok()
                .and_then(|k| moves.get(k))
                .ok_or_else(|| error(format!("game {i}: index {k} is not below its {} legal moves", moves.len())))?;
            out.push(space.encode(*mv) as i64);
        }
        Ok(out.into_pyarray(py))
    }

    /// The player to move in every game, int8 `[N]` (0 White, 1 Black).
    fn current_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let v: Result<Vec<i8>, _> =
            (0..self.sim.num_games()).map(|i| self.sim.current_player(i).map(|c| c.index() as i8)).collect();
        Ok(v.map_err(error)?.into_pyarray(py))
    }

    /// The episode seed of every game, uint64 `[N]`.
    fn seeds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let v: Result<Vec<u64>, _> = (0..self.sim.num_games()).map(|i| self.sim.seed(i)).collect();
        Ok(v.map_err(error)?.into_pyarray(py))
    }

    /// A copy of game `i`'s position.
    fn position(&self, i: usize) -> PyResult<PyPosition> {
        let pos = self.sim.position(i).map_err(error)?.clone();
        Ok(PyPosition::wrap(self.sim.ruleset().clone(), pos))
    }

    /// Plays `actions[i]` in game `i` of every game (an int array `[N]`, or any sequence
    /// of ints). Every action is checked first: one that is out of range or illegal
    /// raises and nothing is played. Returns a dict of arrays `[N]`: `rewards` float32
    /// (+1 if the ply won the game for the player who made it, -1 if it lost it, else
    /// 0), `done` bool (the game ended and was reset), `winner` int8 (0 White, 1 Black,
    /// -1 draw or not ended), `plies` uint32 and `captures` uint32 (of the game after
    /// this ply, before any reset).
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        self.actions.clear();
        if let Ok(a) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
            for &x in a.as_array() {
                self.actions.push(usize::try_from(x).unwrap_or(usize::MAX));
            }
        } else {
            let v: Vec<i64> = actions.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("actions must be a 1-D int64 array or a sequence of ints")
            })?;
            self.actions.extend(v.into_iter().map(|x| usize::try_from(x).unwrap_or(usize::MAX)));
        }
        let (sim, acts, result) = (&mut self.sim, &self.actions, &mut self.result);
        py.detach(|| sim.step_into(acts, result)).map_err(error)?;
        let r = &self.result;
        let winner: Array1<i8> = r
            .outcomes
            .iter()
            .map(|o| match o.and_then(|o| o.winner) {
                Some(Color::White) => 0,
                Some(Color::Black) => 1,
                None => -1,
            })
            .collect();
        let d = PyDict::new(py);
        d.set_item("rewards", r.rewards.to_pyarray(py))?;
        d.set_item("done", r.done.to_pyarray(py))?;
        d.set_item("winner", winner.into_pyarray(py))?;
        d.set_item("plies", r.plies.to_pyarray(py))?;
        d.set_item("captures", r.captures.to_pyarray(py))?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!("BatchSim('{}', {} games)", self.sim.ruleset().id, self.sim.num_games())
    }
}

/// The Rust simulator's own plies per second on `ruleset`: `batch` games stepped with
/// uniformly random legal actions chosen in Rust for about `seconds` (what `latrunculi
/// bench` reports), with `threads` threads (0: all cores). The baseline of
/// `bench/bench_batchsim.py`.
#[pyfunction]
#[pyo3(signature = (ruleset, batch = 256, seconds = 2.0, seed = 1, threads = 0))]
pub fn rust_sim_plies_per_s(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    batch: usize,
    seconds: f64,
    seed: u64,
    threads: usize,
) -> PyResult<f64> {
    let rs = ruleset_arg(ruleset)?;
    py.detach(|| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(error)?;
        pool.install(|| latrunculi_sim::throughput::measure_random_steps(&rs, batch, seconds, seed))
            .map(|t| t.sim_plies_per_s)
            .map_err(error)
    })
}
