//! Runs `python3 notebooks/check_reading.py` from the repository root: the Python reading
//! code of the analysis notebooks must read every committed result (sample dataset,
//! surveys, training logs, ladders) and find them consistent.
//!
//! Needs `python3` with numpy and pandas (`python3 -m pip install -r
//! notebooks/requirements.txt`); without them the test fails and says so.

use std::path::PathBuf;
use std::process::{Command, Output};

const INSTALL: &str = "python3 -m pip install -r notebooks/requirements.txt";

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root exists")
}

fn python(args: &[&str]) -> Output {
    Command::new("python3")
        .args(args)
        .current_dir(repo_root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); install Python 3 and then the packages: {INSTALL}"))
}

fn text(o: &Output) -> String {
    format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn notebook_reading_code_reads_all_committed_data_consistently() {
    let deps = python(&["-c", "import numpy, pandas"]);
    assert!(
        deps.status.success(),
        "python3 cannot import numpy and pandas, which notebooks/check_reading.py needs.\n\
         Run `{INSTALL}` (from the repository root) and rerun the test.\n{}",
        text(&deps)
    );
    let out = python(&["notebooks/check_reading.py"]);
    assert!(out.status.success(), "notebooks/check_reading.py failed ({}):\n{}", out.status, text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("all checks passed"), "unexpected output of check_reading.py:\n{}", text(&out));
}
