//! Helpers shared by the integration tests of this crate.

use std::fs;
use std::path::Path;

use latrunculi_rules::{FastRng, Position, Ruleset};
use latrunculi_sim::ActionSpace;

/// A two-file dataset (`games.jsonl`, `actions.npy`) of one random game of `rs`,
/// recording `hash` as its parameters.
pub fn write_dataset(dir: &Path, rs: &Ruleset, hash: u64, plies: usize) {
    fs::create_dir_all(dir).unwrap();
    let space = ActionSpace::for_rules(&rs.rules());
    let mut pos = Position::new(rs);
    let mut rng = FastRng::new(3);
    let mut actions = Vec::new();
    while actions.len() < plies && !pos.is_over() {
        let legal = pos.legal_move_list();
        let mv = legal[rng.below(legal.len())];
        actions.push(space.encode(mv) as i32);
        pos.play(mv);
    }
    ndarray_npy::write_npy(dir.join("actions.npy"), &ndarray::Array1::from(actions.clone())).unwrap();
    let line = serde_json::json!({
        "game": 0, "params_hash": format!("{hash:016x}"), "board": [rs.width, rs.height], "winner": "draw",
        "plies": actions.len(), "first_sample": 0, "samples": actions.len(), "moves": [], "ruleset": rs.id,
    });
    fs::write(dir.join("games.jsonl"), format!("{line}\n")).unwrap();
}
