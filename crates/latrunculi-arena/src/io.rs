//! Writing result files: atomic writes, journals of runs in progress, folder locks; the
//! games CSV ([`games`]).

pub mod games;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{ArenaError, Result};

/// Writes `contents` to `path` atomically: creates the parent folder, then writes a
/// temporary file beside the target, syncs it and renames it over the target
/// ([`latrunculi_files::write_atomic`]). Errors name the file.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> Result<()> {
    if path.file_name().is_none() {
        return Err(ArenaError::content(path, None, "is not a file name"));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
    latrunculi_files::write_atomic(path, contents.as_ref()).map_err(ArenaError::io("write", path))
}

/// An append-only file of a run in progress (a journal of finished games), shared by
/// the threads that play them: each [`Journal::append`] writes and flushes one record,
/// so a killed run leaves every record it appended (and at most a last one cut short).
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Journal {
    /// Writes `contents` to `path` atomically ([`write_atomic`]: a header and the records
    /// an earlier run left, say), then opens it for appending.
    pub fn create(path: &Path, contents: impl AsRef<[u8]>) -> Result<Journal> {
        write_atomic(path, contents)?;
        let file = std::fs::OpenOptions::new().append(true).open(path).map_err(ArenaError::io("open", path))?;
        Ok(Journal { path: path.to_path_buf(), file: Mutex::new(file) })
    }

    /// Appends `record` and flushes it. Errors name the file.
    pub fn append(&self, record: &[u8]) -> Result<()> {
        let mut f = self.file.lock().map_err(|_| ArenaError::content(&self.path, None, "a writer thread panicked"))?;
        f.write_all(record).and_then(|_| f.flush()).map_err(ArenaError::io("write", &self.path))
    }
}

/// The name of the lock file [`lock_folder`] keeps in an output folder.
pub const LOCK_FILE: &str = ".latrunculi.lock";

/// An exclusive claim on an output folder, held while a run writes into it; released when
/// dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub struct FolderLock {
    /// The open lock file (`None` where the file system cannot lock files).
    _file: Option<std::fs::File>,
}

/// Claims `dir` (created if missing) for one run, so that a second run into the same
/// folder (a resumed survey started twice, a ladder restarted while the first still runs)
/// stops with an error naming the folder instead of both appending to the same files.
/// The claim is an OS advisory lock on `dir/.latrunculi.lock`, which the OS releases when
/// the process ends, so a killed run leaves no stale claim behind. Where the file system
/// cannot lock files, a note is printed and the run goes on unprotected.
pub fn lock_folder(dir: &Path) -> Result<FolderLock> {
    std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(ArenaError::io("create", &path))?;
    match file.try_lock() {
        Ok(()) => Ok(FolderLock { _file: Some(file) }),
        Err(std::fs::TryLockError::WouldBlock) => Err(ArenaError::Busy { dir: dir.to_path_buf(), lock: path }),
        Err(std::fs::TryLockError::Error(e)) => {
            eprintln!(
                "note: cannot lock {} ({e}); nothing stops a second run from writing into this folder",
                path.display()
            );
            Ok(FolderLock { _file: None })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_claimed_once_until_released() {
        let dir = std::env::temp_dir().join(format!("latrunculi-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = lock_folder(&dir).expect("a fresh folder can be claimed");
        let err = lock_folder(&dir).expect_err("a claimed folder cannot be claimed again").to_string();
        assert!(err.contains("another latrunculi run") && err.contains(&dir.display().to_string()), "{err}");
        drop(first);
        lock_folder(&dir).expect("a released folder can be claimed again");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
