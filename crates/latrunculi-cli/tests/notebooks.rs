//! The checks of the Python analysis code (the notebooks' reading code
//! `notebooks/check_reading.py` and the experiment scripts `xxi_claim.py`,
//! `ladder_table.py`, `selfplay_table.py`, `plot_study.py`, `plot_sensitivity.py` and
//! `ludii_vs_dlp.py`) are pytest tests in `tests/python/`, so that `cargo test` needs no
//! Python. This file checks, without running Python, that they stay run: the README's test
//! command passes `tests/python` to pytest, and `.ci/run` runs exactly that command.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root exists")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The README's test command: the one line of the README that installs the notebooks'
/// requirements, runs `cargo test` and then pytest.
fn readme_test_command(readme: &str) -> Option<&str> {
    let mut lines = readme.lines().map(str::trim).filter(|l| {
        l.starts_with("python3 -m pip install") && l.contains("cargo test --workspace") && l.contains("pytest")
    });
    let first = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    Some(first)
}

/// The last command line of a shell script (comments, blank lines and `set`/`cd` lines left out).
fn last_command(script: &str) -> Option<&str> {
    script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("set ") && !l.starts_with("cd "))
        .last()
}

#[test]
fn the_readme_test_command_runs_the_python_analysis_tests_and_ci_runs_it() {
    let root = repo_root();
    let readme = read(&root.join("README.md"));
    let command = readme_test_command(&readme).expect("README.md has exactly one test command line");
    let pytest = command.split("&&").map(str::trim).find(|c| c.contains("-m pytest")).expect("pytest in the command");
    let paths: Vec<&str> = pytest.split_whitespace().skip_while(|w| *w != "-q").skip(1).collect();
    assert!(paths.contains(&"tests/python"), "the README's pytest runs {paths:?}, not tests/python");
    assert!(paths.contains(&"crates/latrunculi-py/tests"), "the README's pytest runs {paths:?}");
    for path in &paths {
        assert!(root.join(path).is_dir(), "pytest path {path} is not a folder");
    }
    assert!(root.join("tests/python/test_analysis_scripts.py").is_file());
    let ci = read(&root.join(".ci/run"));
    assert_eq!(last_command(&ci), Some(command), ".ci/run must run exactly the README's test command");
}

#[test]
fn the_command_finders_reject_what_they_must() {
    let line = "python3 -m pip install -q -r r.txt && cargo test --workspace && python3 -m pytest -q a";
    assert_eq!(readme_test_command(&format!("# x\n```sh\n{line}\n```\n")), Some(line));
    assert_eq!(readme_test_command(&format!("{line}\n{line}\n")), None, "two test commands are ambiguous");
    assert_eq!(readme_test_command("cargo test --workspace\n"), None);
    assert_eq!(last_command("#!/bin/sh\nset -e\ncd x\nrun a\n# end\n"), Some("run a"));
    assert_eq!(last_command("# only a comment\n"), None);
}
