//! Error messages for the command line: the arena's errors name the settings of a run
//! neutrally ([`Setting`]); here they are phrased with this binary's flags.

use latrunculi_arena::elo::FitError;
use latrunculi_arena::{ArenaError, Setting};

/// The flag of a setting.
fn flag(s: Setting) -> &'static str {
    match s {
        Setting::Games => "--games",
        Setting::PlyCap => "--ply-cap",
        Setting::White => "--white",
        Setting::Black => "--black",
        Setting::Anchor => "--anchor",
        Setting::PriorDraws => "--prior-draws",
        Setting::Sprt => "--sprt",
        Setting::Resume => "--resume",
        Setting::Force => "--force",
        Setting::GamesOut => "--games-out",
        Setting::Out => "--out",
        Setting::Seed => "--seed",
        Setting::Merge => "--merge",
        Setting::Shard => "--shard",
    }
}

/// An arena error's own message (its causes apart) in the terms of this binary.
fn arena(e: &ArenaError) -> String {
    match e {
        ArenaError::AtLeastOne { setting } => format!("{} must be at least 1", flag(*setting)),
        ArenaError::BadSetting { setting: Setting::PriorDraws, .. } => "--prior-draws must be a number ≥ 0".into(),
        ArenaError::BadSetting { setting, value, message } => format!("{} '{value}' {message}", flag(*setting)),
        ArenaError::SettingAgent { setting, .. } => flag(*setting).to_string(),
        ArenaError::Exists { path } => {
            format!("{} already exists; choose another path or pass --force to replace it", path.display())
        }
        ArenaError::ResumeNeedsGamesFile => {
            "--resume needs --games-out: the games written there are what a resumed run keeps".into()
        }
        ArenaError::Interrupted { dir, journal } => format!(
            "{} holds an interrupted run ({} exists); pass --resume to continue it, or remove the directory",
            dir.display(),
            journal.display()
        ),
        ArenaError::Finished { dir, marker } => format!(
            "{} already holds a dataset ({} exists); choose another --out or remove that directory first",
            dir.display(),
            marker.display()
        ),
        ArenaError::NotADirectory { dir } => format!("--out {} exists and is not a directory", dir.display()),
        ArenaError::OtherRun { path, line, message } => format!(
            "{}{}: {message}; choose another --out",
            path.display(),
            line.map(|l| format!(" line {l}")).unwrap_or_default()
        ),
        ArenaError::OtherExperiment { dir, diff } => format!(
            "{} holds results of a different experiment configuration; refusing to mix them \
             (use another --out folder, or delete the folder to start over). Differences:\n{diff}",
            dir.display()
        ),
        ArenaError::AnchorNotListed { anchor, file } => {
            format!("the anchor '{anchor}' is not in {}; add it or choose another with --anchor", file.display())
        }
        ArenaError::ShardHasNoRatings => {
            "a shard has no ratings: merge the shards (`--merge`) and rate the merged folder".into()
        }
        ArenaError::NotAShard { dir } => {
            format!("{} is not a ladder shard (no shard.txt; run it with --shard K/N)", dir.display())
        }
        ArenaError::ShardUnfinished { dir, k, n, state } => {
            format!("{} (shard {k}/{n}) {state}; finish it with --resume", dir.display())
        }
        ArenaError::MergeNeedsShards => "--merge needs the folders of the shards".into(),
        ArenaError::ShardsMissing { missing } => format!("shards {missing} are missing from --merge"),
        other => other.to_string(),
    }
}

/// The message of an error and its causes, joined by `: `, each arena error phrased with
/// this binary's flags.
pub fn message(e: &anyhow::Error) -> String {
    e.chain()
        .map(|cause| {
            if let Some(a) = cause.downcast_ref::<ArenaError>() {
                arena(a)
            } else if let Some(FitError::Diverged) = cause.downcast_ref::<FitError>() {
                "the ratings diverge: some agent won or lost all its games; use a prior of virtual draws \
                 (--prior-draws 1)"
                    .into()
            } else {
                cause.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_errors_name_the_flags_of_this_binary() {
        let e = anyhow::Error::new(ArenaError::AtLeastOne { setting: Setting::PlyCap });
        assert_eq!(message(&e), "--ply-cap must be at least 1");
        let agent = ArenaError::Agent {
            spec: "foo".into(),
            source: latrunculi_agents::AgentError::Empty { valid: "random".into() },
        };
        let e = anyhow::Error::new(ArenaError::SettingAgent { setting: Setting::White, source: Box::new(agent) });
        let m = message(&e);
        assert!(m.starts_with("--white: bad agent spec 'foo': empty agent spec"), "{m}");
        let e = anyhow::Error::new(ArenaError::ResumeNeedsGamesFile).context("eval");
        assert!(message(&e).starts_with("eval: --resume needs --games-out"), "{}", message(&e));
    }
}
