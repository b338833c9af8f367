//! [`Tablebase`]: the tables of one ruleset in a directory, loaded lazily, and probing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use latrunculi_rules::{Move, Position, Reason, Ruleset};

use crate::material::Material;
use crate::table::{Table, TablebaseError};
use crate::value::{Score, Wdl, back, split, terminal};

/// The rules the tables are computed under: the ruleset with the no-capture limit and
/// the repetition rule switched off (pure game-theoretic values; see docs/tablebase.md).
pub fn table_ruleset(ruleset: &Ruleset) -> Ruleset {
    let mut rs = ruleset.clone();
    rs.end.no_capture_limit = 0;
    rs.end.repetition = latrunculi_rules::ruleset::Repetition::Off;
    rs
}

/// The directory name of a ruleset's tables inside a tablebase directory:
/// `<id>-<parameter hash of the tablebase rules, 16 hex digits>`, so that rulesets that
/// differ only in the no-capture limit or the repetition rule share tables.
pub fn dir_name(ruleset: &Ruleset) -> String {
    let id: String =
        ruleset.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("{id}-{:016x}", table_ruleset(ruleset).params_hash())
}

/// The result of a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game with best play (the winner hastens, the loser
    /// delays); 0 for a draw or a finished game.
    pub distance: u32,
    /// Plies to the next capture or the end of the game on the fastest way that keeps
    /// the win (the loser delaying it); 0 for a draw. A win whose value here is longer
    /// than the plies the no-capture limit leaves is a "cursed win".
    pub dtz: u32,
    /// A best move (fastest win, slowest loss, or one that keeps the draw); `None`
    /// once the game is over.
    pub best_move: Option<Move>,
}

/// The values of a position: by distance to the end and by distance to the next capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Eval {
    pub(crate) dtm: Score,
    pub(crate) dtz: Score,
}

/// The tables of one ruleset, read from `DIR/<dir_name>/<material>.lttb` when first
/// needed (one material at a time), or filled in by a build.
#[derive(Debug)]
pub struct Tablebase {
    /// The rules the tables are computed under ([`table_ruleset`]).
    pub(crate) ruleset: Ruleset,
    /// The label the tables are built or probed under (written in headers and errors).
    pub(crate) label: String,
    pub(crate) params_hash: u64,
    pub(crate) dir: PathBuf,
    pub(crate) traps: bool,
    tables: Mutex<HashMap<Material, Option<Arc<Table>>>>,
}

impl Tablebase {
    /// The tables of `ruleset` under the tablebase directory `root` (nothing is read
    /// until a position is probed). `label` names the ruleset in headers and errors.
    pub fn open(root: &Path, ruleset: &Ruleset, label: &str) -> Tablebase {
        let rs = table_ruleset(ruleset);
        Tablebase {
            params_hash: rs.params_hash(),
            traps: rs.capture.effect == latrunculi_rules::ruleset::CaptureEffect::Trap,
            dir: root.join(dir_name(ruleset)),
            label: label.to_string(),
            ruleset: rs,
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The directory of this ruleset's table files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of one material's table.
    pub fn path_of(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.lttb"))
    }

    /// One material's table: from memory, else read from its file; `None` when there is
    /// no file. A file that exists but is not this ruleset's table is an error.
    pub fn table(&self, material: Material) -> Result<Option<Arc<Table>>, TablebaseError> {
        if let Some(t) = self.tables.lock().expect("tables lock").get(&material) {
            return Ok(t.clone());
        }
        let path = self.path_of(material);
        let t = if path.is_file() {
            let (w, h) = (self.ruleset.width, self.ruleset.height);
            Some(Arc::new(Table::read(&path, &self.label, self.params_hash, (w, h), material)?))
        } else {
            None
        };
        self.tables.lock().expect("tables lock").insert(material, t.clone());
        Ok(t)
    }

    /// Keeps a table built in this process (so that larger materials need not re-read it).
    pub(crate) fn insert(&self, table: Table) {
        self.tables.lock().expect("tables lock").insert(table.header.material, Some(Arc::new(table)));
    }

    /// Forgets every table held in memory (they are read again when needed).
    pub fn unload(&self) {
        self.tables.lock().expect("tables lock").clear();
    }

    /// The position under the tablebase rules: same pieces, side to move and pending
    /// piece, counters zero; `None` while pieces are in hand.
    /// A finished game keeps its outcome, unless it ended by a rule the tables leave
    /// out (no-capture limit, repetition, ply cap).
    fn normalise(&self, pos: &Position) -> Option<Position> {
        if pos.is_placement_phase() {
            return None;
        }
        if pos
            .outcome()
            .is_some_and(|o| !matches!(o.reason, Reason::NoCaptureLimit | Reason::Repetition | Reason::PlyCap))
        {
            return Some(pos.clone());
        }
        let mut s = pos.to_setup();
        s.ply = 0;
        s.since_capture = 0;
        Position::from_setup(&self.ruleset, &s).ok()
    }

    /// The values of a position under the tablebase rules, searching over a pending
    /// further ply; `Ok(None)` when a table it needs is missing.
    pub(crate) fn eval(&self, pos: &Position) -> Result<Option<Eval>, TablebaseError> {
        if let Some(o) = pos.outcome() {
            let s = terminal(o, pos.side_to_move());
            return Ok(Some(Eval { dtm: s, dtz: s }));
        }
        if pos.pending().is_some() {
            let here = Material::of(pos);
            let mut best: Option<Eval> = None;
            for mv in pos.legal_move_list() {
                let mut child = pos.clone();
                child.play(mv);
                let same = child.side_to_move() == pos.side_to_move();
                let Some(e) = self.eval(&child)? else { return Ok(None) };
                // A capture (or the end) is a zeroing ply: distance 1 to it.
                let zeroing = child.is_over() || Material::of(&child) != here;
                let z = if zeroing { back(split_sign(e.dtm), same) } else { back(e.dtz, same) };
                let cand = Eval { dtm: back(e.dtm, same), dtz: z };
                best = Some(match best {
                    None => cand,
                    Some(b) => Eval { dtm: b.dtm.max(cand.dtm), dtz: b.dtz.max(cand.dtz) },
                });
            }
            return Ok(best);
        }
        let m = Material::of(pos);
        let Some(t) = self.table(m)? else { return Ok(None) };
        let i = t.indexer.index_of(pos).ok_or_else(|| TablebaseError::Internal {
            material: m,
            message: format!("no index number for {}", pos.to_setup().to_fen()),
        })?;
        match t.scores(i) {
            Some((dtm, dtz)) => Ok(Some(Eval { dtm, dtz })),
            None => Err(TablebaseError::Internal {
                material: m,
                message: format!("{} is marked invalid in its table", pos.to_setup().to_fen()),
            }),
        }
    }

    /// The value of a position (any counters; they are ignored) and a best move:
    /// `Ok(None)` when pieces are still in hand or the material's table is not there.
    pub fn probe(&self, pos: &Position) -> Result<Option<Probe>, TablebaseError> {
        let Some(p) = self.normalise(pos) else { return Ok(None) };
        let Some(e) = self.eval(&p)? else { return Ok(None) };
        let (wdl, distance) = split(e.dtm);
        let dtz = split(e.dtz).1;
        let mut best_move = None;
        if !p.is_over() {
            let mut best = Score::MIN;
            for mv in p.legal_move_list() {
                let mut child = p.clone();
                child.play(mv);
                let same = child.side_to_move() == p.side_to_move();
                let Some(ce) = self.eval(&child)? else { return Ok(None) };
                let s = back(ce.dtm, same);
                if s > best {
                    best = s;
                    best_move = Some(mv);
                }
            }
        }
        Ok(Some(Probe { wdl, distance, dtz, best_move }))
    }

    /// The best line from a position: best moves for both sides until the game ends,
    /// at most `max_plies` of them (a drawn line goes on until then). Empty when the
    /// position cannot be probed.
    pub fn line(&self, pos: &Position, max_plies: usize) -> Result<Vec<Move>, TablebaseError> {
        let Some(mut p) = self.normalise(pos) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        while out.len() < max_plies && !p.is_over() {
            let Some(pr) = self.probe(&p)? else { break };
            let Some(mv) = pr.best_move else { break };
            if p.try_play(mv).is_none() {
                return Err(TablebaseError::Internal {
                    material: Material::of(&p),
                    message: format!("best move {mv:?} is not legal in {}", p.to_setup().to_fen()),
                });
            }
            out.push(mv);
        }
        Ok(out)
    }
}

/// A score with its distance dropped (win or loss in 0 plies, or a draw).
fn split_sign(s: Score) -> Score {
    match split(s).0 {
        Wdl::Win => crate::value::WIN,
        Wdl::Loss => -crate::value::WIN,
        Wdl::Draw => 0,
    }
}
