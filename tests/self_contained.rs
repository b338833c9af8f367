//! The repository stands on its own: no file in it refers to the project's private
//! `shared` folder (its rules page or source texts), which a user of the repository does
//! not have. The rules live in `docs/rules.md`, the recorded games in `data/games/`.

use std::path::{Path, PathBuf};

/// Strings that point outside the repository (built so that this file does not hold them).
fn forbidden() -> Vec<String> {
    vec![format!("..{}shared", '/'), format!("/work{}shared", '/'), format!("RULES{}md", '.')]
}

/// Folders that are not part of the repository's content: build outputs, local runs,
/// training state that `.gitignore` leaves out, and hidden folders other than `.ci`.
fn skipped_dir(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    matches!(name, "target" | "runs" | "checkpoints" | "__pycache__" | "node_modules")
        || (name.starts_with('.') && name != ".ci")
}

/// Binary files, whose bytes are not text to search.
fn binary_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("az" | "bin" | "npy" | "png" | "so" | "whl"))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !skipped_dir(&path) {
                files_under(&path, out);
            }
        } else if !binary_file(&path) {
            out.push(path);
        }
    }
}

#[test]
fn no_file_refers_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(root, &mut files);
    // The walk really covers the repository.
    for must in
        ["README.md", "docs/rules.md", "crates/latrunculi-rules/src/ruleset/mod.rs", "configs/rulesets/xxi.toml"]
    {
        assert!(files.contains(&root.join(must)), "{must} not found under {}", root.display());
    }
    let needles = forbidden();
    let mut hits = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            for needle in &needles {
                if line.contains(needle.as_str()) {
                    hits.push(format!("{}:{}: {needle}", f.strip_prefix(root).unwrap_or(f).display(), n + 1));
                }
            }
        }
    }
    assert!(hits.is_empty(), "files that point outside the repository:\n{}", hits.join("\n"));
}

#[test]
fn the_check_finds_a_planted_reference() {
    // The same scan on a scratch folder with one offending file reports it.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("self-contained-probe");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target")).unwrap();
    std::fs::write(dir.join("notes.md"), format!("see {}\n", forbidden()[0])).unwrap();
    std::fs::write(dir.join("target").join("skipped.md"), format!("see {}\n", forbidden()[0])).unwrap();
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    assert_eq!(files, vec![dir.join("notes.md")]);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(forbidden().iter().any(|n| text.contains(n.as_str())));
    std::fs::remove_dir_all(&dir).unwrap();
}
