//! Every command ends quietly when the reader of its output goes away
//! (`latrunculi rules | head -1`): status 0 and nothing on stderr, not a panic.

use std::process::{Command, Stdio};

/// Runs `latrunculi ARGS` with its stdout (or stderr) a pipe whose reading end is already
/// closed, so that every write to it fails; its status and what it wrote to the other stream.
fn closed(args: &[&str], close_stderr: bool) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut c = Command::new(env!("CARGO_BIN_EXE_latrunculi"));
    c.args(args);
    let o = if close_stderr {
        c.stderr(writer).stdout(Stdio::piped()).output()
    } else {
        c.stdout(writer).stderr(Stdio::piped()).output()
    }
    .expect("the binary runs");
    let other = if close_stderr { o.stdout } else { o.stderr };
    (o.status.code(), String::from_utf8_lossy(&other).into_owned())
}

#[test]
fn rules_into_head_exits_0_with_nothing_on_stderr() {
    // As a shell runs it, with pipefail: the pipeline's status is latrunculi's too.
    let o = Command::new("bash")
        .args(["-c", "set -o pipefail; \"$0\" rules | head -1", env!("CARGO_BIN_EXE_latrunculi")])
        .output()
        .expect("bash runs");
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stderr, b"", "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    // Deterministically: every write fails.
    assert_eq!(closed(&["rules"], false), (Some(0), String::new()));
}

#[test]
fn a_closed_pipe_ends_other_commands_quietly_and_keeps_an_errors_status() {
    assert_eq!(closed(&["show", "--ruleset", "kowalski"], false), (Some(0), String::new()));
    assert_eq!(closed(&["--help"], false), (Some(0), String::new()));
    // An error whose message finds stderr closed still fails.
    assert_eq!(closed(&["show", "--ruleset", "no-such-ruleset"], true).0, Some(2));
    assert_eq!(closed(&["no-such-command"], true).0, Some(2));
}
