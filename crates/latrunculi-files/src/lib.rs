//! # latrunculi-files
//!
//! What the writers and the readers of latrunculi's files share, defined once:
//!
//! - [`write_atomic`]: every result file, checkpoint and run state is written to a
//!   temporary file beside its target, synced and renamed over it, so that a reader (or a
//!   run killed half-way) never sees a file cut short;
//! - [`dataset`]: the layout of a dataset folder (its file names, `meta.json`, and the
//!   lines of `games.jsonl`, [`GameLine`]), written by `latrunculi dataset` (the arena)
//!   and read by the warm start of training (the az crate). The layout is documented in
//!   `data/README.md`;
//! - [`FileError`]: what a reader of these files reports, naming the file and the line.

#![warn(missing_docs)]

pub mod dataset;
mod error;

pub use dataset::GameLine;
pub use error::FileError;

use std::fs;
use std::io::Write as _;
use std::path::Path;

/// Writes `bytes` to `path` atomically ([`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Writes `path` atomically with `write`, which fills a fresh temporary file in the same
/// folder (for files too large to hold in memory); the file is then synced and renamed
/// over `path`, and the folder synced. The temporary file is removed if any step fails.
/// The folder must exist. An error of `write` is returned as it is.
pub fn write_atomic_with<E: From<std::io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut fs::File) -> Result<(), E>,
) -> Result<(), E> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        write(&mut f)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("latrunculi-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.txt")]);
        assert!(write_atomic(&dir.join("missing/b.txt"), b"x").is_err(), "the folder must exist");
        fs::remove_dir_all(&dir).unwrap();
    }
}
