//! What the tests of the experiment scripts share: the repository's root and a training
//! recipe of `experiments/az-all/template.toml`'s form at toy size.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// A training recipe of the template's form at toy size: 1 block of 4 channels, 2
/// iterations of 2 games of 4 simulations.
pub const TINY: &str = r#"# A comment naming @RULESET@ and @PLY_CAP@, left as it is.
ruleset = "@RULESET@"
seed = 1
iterations = 2
time_limit_s = @TIME_LIMIT@

[network]
blocks = 1
channels = 4
policy_head = "spatial"

[selfplay]
games_per_iteration = 2
parallel_games = 2
sims = 4
leaves_per_round = 2
ply_cap = @PLY_CAP@

[training]
window_games = 10
batch_size = 16
steps_per_iteration = 2

[evaluation]
games = 0

[warmstart]
datasets = [@TEACHER@]
steps = 2
batch_size = 16
soft_policy = true
search_value_mix = 0.5
"#;

/// A fresh folder NAME under the tests' temporary folder, holding `tiny.toml` (`TINY`).
pub fn toy_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("tiny.toml"), TINY).unwrap();
    dir
}

/// `bash SCRIPT` (a path under the repository) with the binary under test, toy-size
/// matches (2 games each, the search player at 5 ms) and two threads.
pub fn toy_script(script: &str) -> Command {
    let mut command = Command::new("bash");
    command
        .arg(repo().join(script))
        .env("LATRUNCULI", env!("CARGO_BIN_EXE_latrunculi"))
        .env("EVAL_GAMES", "2")
        .env("EVAL_MS_GAMES", "2")
        .env("EVAL_MS", "5")
        .env("RAYON_NUM_THREADS", "2");
    command
}
