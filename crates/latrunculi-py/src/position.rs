//! Rulesets, positions and record replay for Python.

use std::path::{Path, PathBuf};

use latrunculi_rules::{
    Color, DEFAULT_RULES_DIR, GameRecord, Move, MoveText, Position, ReplayOptions, ResultVerdict, Ruleset, RulesetSpec,
    Setup, Square, move_text, parse_move,
};
use latrunculi_sim::observation::{
    ENEMY_DUX, ENEMY_IN_HAND, ENEMY_SOLDIERS, ENEMY_TRAPPED, OWN_DUX, OWN_IN_HAND, OWN_SOLDIERS, OWN_TRAPPED,
};
use latrunculi_sim::{ActionSpace, ObservationEncoder};
use ndarray::{Array1, Array3, Axis};
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;

/// A ruleset (one reconstruction with all its parameters).
///
/// `Ruleset(spec, rules_dir=None)`: `spec` is a ruleset label as every command reads and
/// every result writes it: a built-in id (`"kowalski"`), a path to a ruleset `.toml`
/// file, either with `@WxH` and `+key=value` changes (`"xxi@12x8"`,
/// `"kowalski+end.no_capture_limit=100"`); `rules_dir` is a directory of ruleset files
/// consulted before the built-in ones, by default `configs/rulesets` in the working
/// directory, as for the `latrunculi` command.
#[pyclass(name = "Ruleset", module = "latrunculi", frozen)]
#[derive(Clone)]
pub struct PyRuleset {
    pub(crate) inner: Ruleset,
}

#[pymethods]
impl PyRuleset {
    #[new]
    #[pyo3(signature = (spec, rules_dir = None))]
    fn new(spec: &str, rules_dir: Option<PathBuf>) -> PyResult<Self> {
        Ok(PyRuleset { inner: resolve_label(spec, rules_dir.as_deref())? })
    }

    /// A ruleset from TOML text (`origin` names it in errors).
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<string>"))]
    fn from_toml(text: &str, origin: &str) -> PyResult<Self> {
        Ok(PyRuleset { inner: Ruleset::from_toml_str(text, origin).map_err(error)? })
    }

    /// The ruleset id.
    #[getter]
    fn id(&self) -> String {
        self.inner.id.clone()
    }

    /// Its full name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// Where the rules come from.
    #[getter]
    fn source(&self) -> String {
        self.inner.source.clone()
    }

    /// Files of the board.
    #[getter]
    fn width(&self) -> u8 {
        self.inner.width
    }

    /// Ranks of the board.
    #[getter]
    fn height(&self) -> u8 {
        self.inner.height
    }

    /// The stable hash of every parameter, 16 hex digits (the `params_hash` column).
    #[getter]
    fn params_hash(&self) -> String {
        format!("{:016x}", self.inner.params_hash())
    }

    /// Size of the action space of this board (see `Position.legal_actions`).
    #[getter]
    fn action_size(&self) -> usize {
        ActionSpace::for_rules(&self.inner.rules()).size()
    }

    /// Shape of one observation, `(planes, height, width)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = ObservationEncoder::new(&self.inner).shape();
        (p, h, w)
    }

    /// The ruleset with another board (`width` files, `height` ranks).
    fn with_board(&self, width: u8, height: u8) -> PyResult<Self> {
        Ok(PyRuleset { inner: self.inner.clone().with_board(width, height).map_err(error)? })
    }

    /// The ruleset with one parameter changed, e.g. `("end.no_capture_limit", "100")`.
    fn with_param(&self, key: &str, value: &str) -> PyResult<Self> {
        Ok(PyRuleset { inner: self.inner.clone().with_param(key, value).map_err(error)? })
    }

    /// Every parameter as TOML (what `latrunculi rules --verbose` prints).
    fn to_toml(&self) -> String {
        self.inner.to_toml()
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.inner == other.inner
    }

    fn __repr__(&self) -> String {
        format!("Ruleset('{}', {}x{})", self.inner.id, self.inner.width, self.inner.height)
    }
}

/// The ids of the built-in rulesets.
#[pyfunction]
pub fn builtin_ids() -> Vec<String> {
    Ruleset::builtin_ids().map(str::to_string).collect()
}

/// The ruleset of a label ([`RulesetSpec`]), with ruleset files in `rules_dir`, by
/// default [`DEFAULT_RULES_DIR`] (as the command line's `--rules-dir`), consulted first.
fn resolve_label(label: &str, rules_dir: Option<&Path>) -> PyResult<Ruleset> {
    let spec: RulesetSpec = label.parse().map_err(error)?;
    spec.resolve(Some(rules_dir.unwrap_or(Path::new(DEFAULT_RULES_DIR)))).map_err(error)
}

/// A ruleset argument: a `Ruleset` or a label string for `Ruleset(label)`.
pub(crate) fn ruleset_arg(obj: &Bound<'_, PyAny>) -> PyResult<Ruleset> {
    if let Ok(r) = obj.cast::<PyRuleset>() {
        return Ok(r.get().inner.clone());
    }
    let label: String = obj.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("ruleset must be a latrunculi.Ruleset or a ruleset label string")
    })?;
    resolve_label(&label, None)
}

/// `"white"` / `"black"` as a colour.
pub(crate) fn color_arg(name: &str) -> PyResult<Color> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(error(format!("'{name}' is not a colour: use \"white\" or \"black\""))),
    }
}

/// A game position of one ruleset: legal moves (as notation and as action indices),
/// playing them, FEN, the outcome, observations and SVG.
///
/// `Position(ruleset, fen=None, ply_cap=1000)`: the start position, or the position a
/// FEN describes (docs/rules.md §2).
#[pyclass(name = "Position", module = "latrunculi")]
#[derive(Clone)]
pub struct PyPosition {
    pub(crate) rs: Ruleset,
    pub(crate) pos: Position,
    pub(crate) space: ActionSpace,
    pub(crate) encoder: ObservationEncoder,
}

impl PyPosition {
    /// Wraps a position of `rs`.
    pub(crate) fn wrap(rs: Ruleset, pos: Position) -> PyPosition {
        let space = ActionSpace::for_rules(pos.rules());
        let encoder = ObservationEncoder::new(&rs);
        PyPosition { rs, pos, space, encoder }
    }

    /// The legal move an argument names: a move in notation or an action index.
    fn move_arg(&self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        if let Ok(action) = mv.extract::<i64>() {
            let decoded = usize::try_from(action)
                .map_err(|_| {
                    error(format!(
                        "action {action} is out of range (the action space has {} actions)",
                        self.space.size()
                    ))
                })
                .and_then(|a| self.space.decode(a).map_err(error))?;
            if let Some(o) = self.pos.outcome() {
                return Err(error(format!("the game is over ({o})")));
            }
            if !self.pos.is_legal(decoded) {
                let text = self.written(decoded);
                return Err(error(format!("action {action} ({text}) is not legal in this position")));
            }
            return Ok(decoded);
        }
        let token: String = mv
            .extract()
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err("a move is a notation string or an action index"))?;
        Ok(parse_move(&self.rs, &self.pos, &token).map_err(|e| error(format!("move '{token}': {e}")))?.mv)
    }

    /// A move as written (its notation when legal, else its squares).
    pub(crate) fn written(&self, mv: Move) -> String {
        move_text(&self.pos, mv).map_or_else(|| format!("{}-{}", mv.from, mv.to), |t| t.to_string())
    }

    /// The observation with ranks and own/enemy planes as `perspective` sees them.
    pub(crate) fn observation_array(&self, perspective: Option<Color>) -> PyResult<Array3<f32>> {
        let mut obs = Array3::<f32>::zeros(self.encoder.shape());
        self.encoder.write(&self.pos, obs.view_mut()).map_err(error)?;
        if perspective.is_some_and(|c| c != self.pos.side_to_move()) {
            for (a, b) in [
                (OWN_SOLDIERS, ENEMY_SOLDIERS),
                (OWN_DUX, ENEMY_DUX),
                (OWN_TRAPPED, ENEMY_TRAPPED),
                (OWN_IN_HAND, ENEMY_IN_HAND),
            ] {
                let (mut pa, mut pb) = obs.multi_slice_mut((ndarray::s![a, .., ..], ndarray::s![b, .., ..]));
                ndarray::Zip::from(&mut pa).and(&mut pb).for_each(std::mem::swap);
            }
            obs.invert_axis(Axis(1));
            obs = obs.as_standard_layout().into_owned();
        }
        Ok(obs)
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (ruleset, fen = None, ply_cap = None))]
    fn new(ruleset: &Bound<'_, PyAny>, fen: Option<&str>, ply_cap: Option<u32>) -> PyResult<Self> {
        let rs = ruleset_arg(ruleset)?;
        let mut pos = match fen {
            None => Position::new(&rs),
            Some(text) => {
                let setup = Setup::from_fen(text).map_err(|e| error(format!("bad FEN '{text}': {e}")))?;
                Position::from_setup(&rs, &setup).map_err(|e| error(format!("bad FEN '{text}': {e}")))?
            }
        };
        if let Some(cap) = ply_cap {
            if cap == 0 {
                return Err(error("ply_cap must be at least 1"));
            }
            pos.set_ply_cap(cap);
        }
        Ok(PyPosition::wrap(rs, pos))
    }

    /// The ruleset.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset { inner: self.rs.clone() }
    }

    /// `"white"` or `"black"`: the side to move.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.pos.side_to_move().name()
    }

    /// Plies played (placements included).
    #[getter]
    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    /// The hard ply cap: a game still running after this many plies is a draw.
    #[getter]
    fn ply_cap(&self) -> u32 {
        self.pos.ply_cap()
    }

    /// Whether pieces are still being placed.
    #[getter]
    fn is_placement_phase(&self) -> bool {
        self.pos.is_placement_phase()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// `None` while the game goes on, else `(winner, reason)`: winner `"white"`,
    /// `"black"` or `"draw"`, reason as in the `reason` column (e.g. `"immobilized"`).
    #[getter]
    fn outcome(&self) -> Option<(&'static str, &'static str)> {
        self.pos.outcome().map(|o| (o.winner_text(), o.reason.name()))
    }

    /// The 64-bit position hash.
    #[getter]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    /// `(soldiers, dux)` in `color`'s hand.
    fn in_hand(&self, color: &str) -> PyResult<(u8, u8)> {
        Ok(self.pos.in_hand(color_arg(color)?))
    }

    /// Pieces `color` has on the board.
    fn pieces_on_board(&self, color: &str) -> PyResult<u32> {
        Ok(self.pos.pieces_on_board(color_arg(color)?))
    }

    /// The piece on a square (`"e4"`) as its diagram symbol (`S`/`s` soldier, `D`/`d`
    /// Dux, `T`/`t` trapped soldier; upper case White), `None` if empty.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        let sq: Square = square.parse().map_err(|e| error(format!("square '{square}': {e}")))?;
        if sq.file() >= self.rs.width || sq.rank() >= self.rs.height {
            return Err(error(format!("square '{square}' is off the {}x{} board", self.rs.width, self.rs.height)));
        }
        Ok(self.pos.piece_at(sq).map(|p| p.symbol().to_string()))
    }

    /// The legal moves in notation (docs/rules.md §2), in the engine's order.
    fn legal_moves(&self) -> Vec<String> {
        self.pos.legal_move_list().into_iter().map(|mv| self.written(mv)).collect()
    }

    /// The legal moves as action indices (int64), ascending.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut a: Vec<i64> = self.pos.legal_move_list().into_iter().map(|mv| self.space.encode(mv) as i64).collect();
        a.sort_unstable();
        a.into_pyarray(py)
    }

    /// The legal-action mask, bool `[action_size]`.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = Array1::from_elem(self.space.size(), false);
        for mv in self.pos.legal_move_list() {
            m[self.space.encode(mv)] = true;
        }
        m.into_pyarray(py)
    }

    /// The action index of a legal move given in notation.
    fn action_of(&self, mv: &str) -> PyResult<usize> {
        let m = parse_move(&self.rs, &self.pos, mv).map_err(|e| error(format!("move '{mv}': {e}")))?.mv;
        Ok(self.space.encode(m))
    }

    /// The notation of an action index (legal in this position).
    fn move_of(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let mv = self.move_arg(action)?;
        Ok(self.written(mv))
    }

    /// Plays a legal move (notation string or action index) and returns its notation
    /// (with captures and suffix). An illegal move raises and changes nothing.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.move_arg(mv)?;
        let before = self.pos.clone();
        let fx = self.pos.try_play(m).ok_or_else(|| error(format!("{} is not legal", self.written(m))))?;
        Ok(MoveText::build(&before, &self.pos, self.pos.outcome(), m, &fx).to_string())
    }

    /// The observation, float32 `[planes, height, width]` (the planes of
    /// `latrunculi-sim`, crates/latrunculi-sim/README.md), from the side to move's point
    /// of view, or from `perspective`'s (`"white"` / `"black"`): then ranks are flipped
    /// and own/enemy planes swapped as that side would see the board.
    #[pyo3(signature = (perspective = None))]
    fn observation<'py>(&self, py: Python<'py>, perspective: Option<&str>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let p = perspective.map(color_arg).transpose()?;
        Ok(self.observation_array(p)?.into_pyarray(py))
    }

    /// The position as FEN (docs/rules.md §2).
    fn fen(&self) -> String {
        self.pos.to_setup().to_fen()
    }

    /// A text diagram (rank 1 at the bottom).
    fn diagram(&self) -> String {
        self.pos.to_setup().diagram()
    }

    /// The position as an SVG image (what `latrunculi replay --svg` draws).
    fn svg(&self) -> String {
        latrunculi_arena::svg::position_svg(&self.pos, None)
    }

    /// A copy.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}', '{}')", self.rs.id, self.fen())
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }
}

/// Replays a game record (the text of a record file, docs/rules.md §2) and returns a
/// dict: `ruleset`, `ok` (every move legal), `stopped`, `outcome` (`(winner, reason)`
/// or `None`), `recorded` (the recorded result or `None`), `verdict` (`confirmed`,
/// `ended-unrecorded`, `resignation`, `agreement`, `contradicted`, `unfinished`,
/// `not-reached`), `final_fen` and
/// `moves`, one dict per move (`number`, `side`, `line`, `written`, `played` (engine
/// notation or `None`), `status` (`legal`, `played-illegal`, `rejected`), `error`,
/// `warnings`, `fen_before`). A record that cannot be read raises.
#[pyfunction]
#[pyo3(signature = (record, continue_on_illegal = false))]
pub fn replay<'py>(py: Python<'py>, record: &str, continue_on_illegal: bool) -> PyResult<Bound<'py, PyDict>> {
    let rec = GameRecord::parse(record).map_err(error)?;
    let report = latrunculi_rules::replay(&rec, ReplayOptions { continue_on_illegal }).map_err(error)?;
    let d = PyDict::new(py);
    d.set_item("ruleset", &report.ruleset)?;
    d.set_item("ok", report.is_ok())?;
    d.set_item("stopped", report.stopped)?;
    d.set_item("outcome", report.outcome.map(|o| (o.winner_text(), o.reason.name())))?;
    d.set_item("recorded", report.recorded.map(|r| r.score_text()))?;
    let verdict = match report.verdict {
        ResultVerdict::Confirmed(_) => "confirmed",
        ResultVerdict::EndedUnrecorded(_) => "ended-unrecorded",
        ResultVerdict::Resignation(_) => "resignation",
        ResultVerdict::Agreement => "agreement",
        ResultVerdict::Contradicted { .. } => "contradicted",
        ResultVerdict::Unfinished => "unfinished",
        ResultVerdict::NotReached => "not-reached",
    };
    d.set_item("verdict", verdict)?;
    d.set_item("final_fen", &report.final_fen)?;
    let mut moves = Vec::new();
    for m in &report.moves {
        let md = PyDict::new(py);
        md.set_item("number", m.number)?;
        md.set_item("side", m.side.name())?;
        md.set_item("line", m.line)?;
        md.set_item("written", &m.written)?;
        md.set_item("played", m.text.as_ref().map(|t| t.to_string()))?;
        let status = match &m.status {
            latrunculi_rules::MoveStatus::Legal => "legal",
            latrunculi_rules::MoveStatus::PlayedIllegal(_) => "played-illegal",
            latrunculi_rules::MoveStatus::Rejected(_) => "rejected",
        };
        md.set_item("status", status)?;
        md.set_item("error", m.error().map(|e| e.to_string()))?;
        md.set_item("warnings", m.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>())?;
        md.set_item("fen_before", &m.fen_before)?;
        moves.push(md);
    }
    d.set_item("moves", moves)?;
    Ok(d)
}
