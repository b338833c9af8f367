//! Writing result files.

use std::path::Path;

use anyhow::Context as _;

/// Writes `contents` to `path` atomically: creates the parent folder, then writes a
/// temporary file beside the target, syncs it and renames it over the target
/// ([`latrunculi_az::checkpoint::atomic_write`]). Errors name the file.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    latrunculi_az::checkpoint::atomic_write(path, contents.as_ref())
        .with_context(|| format!("cannot write {}", path.display()))
}
