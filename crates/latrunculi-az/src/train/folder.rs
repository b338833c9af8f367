//! The files of a training run's folder: the state, the config, the log, the checkpoints,
//! and the optimizer and buffer files of the last committed iteration.

use std::fs;
use std::path::{Path, PathBuf};

use super::log;

/// The optimizer or buffer file (`what`) of iteration `it`: `optimizer-NNNN.bin`.
pub fn state_file(out: &Path, what: &str, it: u32) -> PathBuf {
    out.join(format!("{what}-{it:04}.bin"))
}

/// Removes the optimizer and buffer files of iterations other than `it` (and the
/// unnumbered ones of older runs) once `it` is committed; failures are ignored (a file
/// left behind is removed after the next iteration).
pub(super) fn remove_other_states(out: &Path, it: u32) {
    let keep = [state_file(out, "optimizer", it), state_file(out, "buffer", it)];
    let Ok(entries) = fs::read_dir(out) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = (name.starts_with("optimizer") || name.starts_with("buffer")) && name.ends_with(".bin");
        if ours && !keep.contains(&path) {
            let _ = fs::remove_file(&path);
        }
    }
}

/// The files of a run folder.
pub(super) struct Folder {
    pub(super) out: PathBuf,
    pub(super) state: PathBuf,
    pub(super) config: PathBuf,
    pub(super) log: PathBuf,
    pub(super) checkpoints: PathBuf,
}

impl Folder {
    pub(super) fn new(out: &Path) -> Folder {
        Folder {
            out: out.to_path_buf(),
            state: out.join("state.toml"),
            config: out.join("config.toml"),
            log: out.join(log::LOG_FILE),
            checkpoints: out.join("checkpoints"),
        }
    }

    /// The checkpoint of iteration `it`.
    pub(super) fn checkpoint(&self, it: u32) -> PathBuf {
        self.checkpoints.join(format!("iter-{it:04}.az"))
    }
}
