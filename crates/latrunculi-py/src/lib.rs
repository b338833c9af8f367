//! # latrunculi-py
//!
//! The `latrunculi` Python package's native module, `latrunculi._latrunculi` (PyO3 and
//! the `numpy` crate, built by maturin): rulesets ([`position::PyRuleset`]), positions
//! with legal moves, notation, FEN, observations and SVG ([`position::PyPosition`]),
//! record replay, the batched simulator with numpy observations and masks
//! ([`sim::PyBatchSim`]), agents by spec and the arena's `play` and `eval`
//! ([`agents`]). Rust errors arrive as `latrunculi.LatrunculiError` (a `ValueError`)
//! with the same messages; a refused action changes nothing. Long Rust work (a batch
//! step, a search, games) releases the GIL.
//!
//! The Python side (PettingZoo and Gymnasium environments, type stubs) is in
//! `python/latrunculi/`; the tests are pytest files in `tests/`.

use pyo3::prelude::*;

pub mod agents;
pub mod position;
pub mod sim;

pyo3::create_exception!(
    _latrunculi,
    LatrunculiError,
    pyo3::exceptions::PyValueError,
    "An error of the latrunculi engine: a bad ruleset, FEN, move, action, agent spec or record."
);

/// A Rust error as a `LatrunculiError` with the same message (an `anyhow` error with
/// its whole context chain).
pub(crate) fn error(e: impl std::fmt::Display) -> PyErr {
    LatrunculiError::new_err(format!("{e:#}"))
}

/// An error of the arena as a `LatrunculiError`: its message and its causes, one line.
/// The arena names the settings of a run by their snake_case names, which are the
/// keyword arguments of this package (`games`, `ply_cap`, ...).
pub(crate) fn arena_error(e: latrunculi_arena::ArenaError) -> PyErr {
    LatrunculiError::new_err(latrunculi_arena::error::full_message(&e))
}

/// The native module.
#[pymodule]
fn _latrunculi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("LatrunculiError", m.py().get_type::<LatrunculiError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<position::PyRuleset>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<sim::PyBatchSim>()?;
    m.add_class::<agents::PyAgent>()?;
    m.add_function(wrap_pyfunction!(position::builtin_ids, m)?)?;
    m.add_function(wrap_pyfunction!(position::replay, m)?)?;
    m.add_function(wrap_pyfunction!(agents::play, m)?)?;
    m.add_function(wrap_pyfunction!(agents::eval, m)?)?;
    m.add_function(wrap_pyfunction!(sim::rust_sim_plies_per_s, m)?)?;
    Ok(())
}
