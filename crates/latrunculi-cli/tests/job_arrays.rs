//! The SLURM job-array scripts `experiments/*-array.sbatch` (README.md, "Running on a
//! cluster").
//!
//! `readme_commands_on_a_one_node_slurm_cluster_equal_unsharded_runs` starts a one-node
//! SLURM cluster on localhost with `tests/slurm/start-cluster.sh` (which installs Debian's
//! `slurm-wlm` and `munge` when they are missing: it needs root and Debian's package
//! registry, as CI has; `LATRUNCULI_SKIP_SLURM=1` leaves it out elsewhere), runs the
//! README's commands in a scratch folder with this build's `latrunculi` on `PATH`, kills a
//! task of each array mid-run, requeues another, continues the killed ones as the README
//! says, merges, and compares the merged folders with unsharded runs byte for byte. It
//! stops the daemons it started (`tests/slurm/stop-cluster.sh`).
//!
//! The other tests run the scripts without SLURM (the task's variables set by hand), with a
//! stand-in `latrunculi` that prints its arguments: the command each script builds, how it
//! finds the binary, its threads and shard counts, its errors, and how a copy of it (as
//! SLURM runs it) finds the part they share, `experiments/lib/array-common.sh`.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---- the scripts without SLURM ----

const SCRIPTS: [&str; 7] = ["survey", "ladder", "dataset", "eval", "train", "az-all", "tablebase"];

/// A scratch folder outside the repository (the scripts take paths from where they run),
/// with a stand-in `bin/latrunculi` that prints its arguments, one per line, and its
/// thread count.
fn stand_in(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("job-arrays").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("bin")).expect("scratch folder");
    let bin = dir.join("bin/latrunculi");
    fs::write(&bin, "#!/bin/sh\necho \"threads=$RAYON_NUM_THREADS\"\nfor a in \"$0\" \"$@\"; do echo \"$a\"; done\n")
        .expect("stand-in");
    Command::new("chmod").arg("+x").arg(&bin).status().expect("chmod");
    dir
}

/// Runs `experiments/NAME-array.sbatch ARGS` with bash in `dir`, as task `env` of an array
/// (`SLURM_*` variables and `LATRUNCULI`, unset unless given), `dir/bin` first on `PATH`.
fn task(dir: &Path, name: &str, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new("bash");
    c.arg(repo().join(format!("experiments/{name}-array.sbatch"))).args(args).current_dir(dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("SLURM_") || k == "LATRUNCULI" || k == "RAYON_NUM_THREADS" {
            c.env_remove(k);
        }
    }
    c.env("PATH", format!("{}:{}", dir.join("bin").display(), std::env::var("PATH").unwrap_or_default()));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("bash runs")
}

/// The arguments the stand-in received (after the thread count and its own path).
fn ran(o: &Output) -> Vec<String> {
    assert!(o.status.success(), "the task failed: {}", text(&o.stderr));
    text(&o.stdout).lines().skip(2).map(String::from).collect()
}

fn err(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "the task should fail: {}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stderr)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_scripts_share_one_common_part() {
    let part = |name: &str| {
        let s = fs::read_to_string(repo().join(format!("experiments/{name}-array.sbatch"))).expect("script");
        let start = s.find("# --- common part").expect("start marker");
        let end = s.find("# --- end of the common part ---").expect("end marker");
        assert!(s.starts_with("#!/bin/bash\n"), "{name}");
        assert!(s.contains("\nset -euo pipefail\n"), "{name}");
        assert!(!s.contains("#SBATCH --cpus-per-task") && !s.contains("#SBATCH --time"), "{name}: limits are sbatch's");
        s[start..end].to_string()
    };
    let survey = part("survey");
    assert!(survey.contains("\nsource \"$common\"\n"), "the common part sources experiments/lib/array-common.sh");
    for name in SCRIPTS {
        assert_eq!(part(name), survey, "the common part of {name}-array.sbatch differs from survey-array.sbatch's");
    }
    // What they share is in one file, which no script repeats.
    let common = fs::read_to_string(repo().join("experiments/lib/array-common.sh")).expect("the common file");
    for function in ["die()", "note()", "shard_count()", "list_items()", "item_name()", "task_item()"] {
        assert!(common.contains(&format!("\n{function} ")), "array-common.sh defines {function}");
        for name in SCRIPTS {
            let s = fs::read_to_string(repo().join(format!("experiments/{name}-array.sbatch"))).expect("script");
            assert!(!s.contains(&format!("\n{function} ")), "{name}-array.sbatch defines {function} again");
        }
    }
}

/// SLURM runs a copy of the script from its spool folder: the common file is then found
/// through the path `scontrol show job` records (relative to the submit folder), else
/// under the submit folder's experiments/, else the task stops with a clear error.
#[test]
fn a_copy_of_a_script_finds_the_common_file_as_under_slurm() {
    let dir = stand_in("spool");
    fs::create_dir_all(dir.join("spool")).unwrap();
    fs::create_dir_all(dir.join("submit/sub")).unwrap();
    let copy = dir.join("spool/slurm_script");
    fs::copy(repo().join("experiments/survey-array.sbatch"), &copy).unwrap();
    let run = |env: &[(&str, &str)]| {
        let mut c = Command::new("bash");
        c.arg(&copy).args(["c.toml", "s"]).current_dir(dir.join("submit"));
        for (k, _) in std::env::vars() {
            if k.starts_with("SLURM_") || k == "LATRUNCULI" {
                c.env_remove(k);
            }
        }
        c.env("PATH", format!("{}:{}", dir.join("bin").display(), std::env::var("PATH").unwrap_or_default()));
        c.envs([("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "2")]);
        c.envs(env.iter().copied());
        c.output().expect("bash runs")
    };
    let base = dir.join("submit").canonicalize().expect("the submit folder");
    let submit = base.to_str().unwrap();
    // Nothing points at the repository: the error names the file and what to do.
    let e = err(&run(&[("SLURM_SUBMIT_DIR", submit)]));
    assert!(
        e.contains("experiments/lib/array-common.sh not found") && e.contains("submit the script from a checkout"),
        "{e}"
    );
    // scontrol (a stand-in printing what SLURM 22.05 prints) names the script as submitted,
    // relative to the submit folder, followed by its arguments.
    let relative = pathdiff(&repo().join("experiments/survey-array.sbatch"), &base);
    let scontrol = format!("#!/bin/sh\necho \"JobId=$2 JobName=x\"\necho \"   Command={relative} c.toml s\"\n");
    fs::write(dir.join("bin/scontrol"), scontrol).unwrap();
    Command::new("chmod").arg("+x").arg(dir.join("bin/scontrol")).status().expect("chmod");
    let o = run(&[("SLURM_SUBMIT_DIR", submit), ("SLURM_JOB_ID", "7")]);
    assert_eq!(ran(&o), strings(&["survey", "--config", "c.toml", "--out", "s-shard-1", "--shard", "1/2"]));
    // Without scontrol's answer, the submit folder's experiments/ (here a link to the repository's).
    fs::remove_file(dir.join("bin/scontrol")).unwrap();
    std::os::unix::fs::symlink(repo().join("experiments"), dir.join("submit/experiments")).expect("symlink");
    let o = run(&[("SLURM_SUBMIT_DIR", submit), ("SLURM_JOB_ID", "7")]);
    assert_eq!(ran(&o), strings(&["survey", "--config", "c.toml", "--out", "s-shard-1", "--shard", "1/2"]));
}

/// `path` relative to the folder `base` (both absolute, no symbolic links between them).
fn pathdiff(path: &Path, base: &Path) -> String {
    let (p, b): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); b.len() - common];
    out.extend(p[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    out.join("/")
}

#[test]
fn survey_tasks_run_their_shard_with_the_arrays_count_and_cpus() {
    let dir = stand_in("survey");
    let array = [("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "3")];
    let o = task(&dir, "survey", &array, &["c.toml", "runs/s/", "--rules-dir", "r"]);
    assert!(text(&o.stdout).starts_with("threads=1\n"), "1 thread without --cpus-per-task");
    assert_eq!(
        ran(&o),
        strings(&["survey", "--config", "c.toml", "--out", "runs/s-shard-2", "--shard", "2/3", "--rules-dir", "r"])
    );
    let cpus = [array.as_slice(), &[("SLURM_CPUS_PER_TASK", "4"), ("RAYON_NUM_THREADS", "16")]].concat();
    assert!(text(&task(&dir, "survey", &cpus, &["c.toml", "s"]).stdout).starts_with("threads=4\n"));
    // An explicit count wins.
    assert!(ran(&task(&dir, "survey", &array, &["--shards", "8", "c.toml", "s"])).contains(&"2/8".to_string()));
    assert!(ran(&task(&dir, "survey", &array, &["--shards=8", "c.toml", "s"])).contains(&"2/8".to_string()));
    // Task 3 submitted alone: its count is unknown until a shard folder records it.
    let alone = [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "3"), ("SLURM_ARRAY_TASK_MAX", "3")];
    assert!(err(&task(&dir, "survey", &alone, &["c.toml", "s"])).contains("--shards N"));
    fs::create_dir_all(dir.join("s-shard-1")).unwrap();
    fs::write(dir.join("s-shard-1/fingerprint.txt"), "latrunculi survey fingerprint v1\nshard = 1/5\nhash = 0\n")
        .unwrap();
    assert!(ran(&task(&dir, "survey", &alone, &["c.toml", "s"])).contains(&"3/5".to_string()));
    fs::create_dir_all(dir.join("s-shard-2")).unwrap();
    fs::write(dir.join("s-shard-2/fingerprint.txt"), "shard = 2/4\n").unwrap();
    assert!(err(&task(&dir, "survey", &alone, &["c.toml", "s"])).contains("different shard counts"));
    // A task past the count, and the arguments' check.
    let past = [("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "4")];
    assert!(err(&task(&dir, "survey", &past, &["--shards", "3", "c.toml", "t"])).contains("past the shard count 3"));
    assert!(err(&task(&dir, "survey", &array, &["c.toml"])).contains("usage: sbatch --array=1-N"));
}

#[test]
fn tablebase_tasks_build_one_shard_of_the_materials_each() {
    let dir = stand_in("tablebase");
    let array = [("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "4")];
    assert_eq!(
        ran(&task(&dir, "tablebase", &array, &["xxi", "3", "tables/"])),
        strings(&["tablebase", "build", "--ruleset", "xxi", "--pieces", "3", "--out", "tables", "--shard", "2/4"])
    );
    // Resubmitted alone, a task needs the count: the shards share one folder.
    let alone = [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "3"), ("SLURM_ARRAY_TASK_MAX", "3")];
    assert!(err(&task(&dir, "tablebase", &alone, &["xxi", "3", "tables"])).contains("--shards N"));
    assert!(
        ran(&task(&dir, "tablebase", &alone, &["--shards", "4", "xxi", "3", "tables"])).contains(&"3/4".to_string())
    );
    assert!(
        err(&task(&dir, "tablebase", &array, &["xxi", "three", "tables"])).contains("PIECES must be a positive number")
    );
    assert!(err(&task(&dir, "tablebase", &array, &["xxi", "3"])).contains("usage: sbatch --array=1-N"));
}

#[test]
fn ladder_tasks_resume_their_shard() {
    let dir = stand_in("ladder");
    let array = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "7")];
    assert_eq!(
        ran(&task(&dir, "ladder", &array, &["xxi", "agents.txt", "out", "--games", "4"])),
        strings(&[
            "ladder",
            "--ruleset",
            "xxi",
            "--agents",
            "agents.txt",
            "--out",
            "out-shard-1",
            "--shard",
            "1/7",
            "--resume",
            "--games",
            "4"
        ])
    );
    // A ladder shard records its count in shard.txt.
    fs::create_dir_all(dir.join("out-shard-6")).unwrap();
    fs::write(dir.join("out-shard-6/shard.txt"), "shard = 6/7\n").unwrap();
    let alone = [("SLURM_ARRAY_TASK_ID", "6"), ("SLURM_ARRAY_TASK_MIN", "6"), ("SLURM_ARRAY_TASK_MAX", "6")];
    assert!(ran(&task(&dir, "ladder", &alone, &["xxi", "agents.txt", "out"])).contains(&"6/7".to_string()));
}

#[test]
fn list_tasks_take_their_line_and_name_their_output() {
    let dir = stand_in("lists");
    fs::write(
        dir.join("rulesets.txt"),
        "# rulesets\nkowalski\n\n  configs/rulesets/my-rules.toml  # a file\nxxi@12x8\n",
    )
    .unwrap();
    let at =
        |k: &'static str| [("SLURM_ARRAY_TASK_ID", k), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "3")];
    assert_eq!(
        ran(&task(
            &dir,
            "dataset",
            &at("2"),
            &["rulesets.txt", "runs/d", "--white", "az:model=m/{}.az", "--games", "3"]
        )),
        strings(&[
            "dataset",
            "--ruleset",
            "configs/rulesets/my-rules.toml",
            "--out",
            "runs/d/my-rules",
            "--resume",
            "--white",
            "az:model=m/my-rules.az",
            "--games",
            "3"
        ])
    );
    assert!(dir.join("runs/d").is_dir());
    assert_eq!(
        ran(&task(
            &dir,
            "eval",
            &at("3"),
            &["rulesets.txt", "runs/e/", "--agent", "az:model=a-{}/latest.az", "--vs", "greedy"]
        )),
        strings(&[
            "eval",
            "--ruleset",
            "xxi@12x8",
            "--out",
            "runs/e/xxi@12x8.csv",
            "--games-out",
            "runs/e/xxi@12x8-games.csv",
            "--resume",
            "--agent",
            "az:model=a-xxi@12x8/latest.az",
            "--vs",
            "greedy"
        ])
    );
    fs::write(dir.join("configs.txt"), "configs/train/kowalski.toml\nconfigs/train/xxi.toml\n").unwrap();
    assert_eq!(
        ran(&task(&dir, "train", &at("1"), &["configs.txt", "runs/t", "--quiet"])),
        strings(&[
            "train",
            "--config",
            "configs/train/kowalski.toml",
            "--out",
            "runs/t/kowalski",
            "--resume",
            "--quiet"
        ])
    );
    assert!(err(&task(&dir, "train", &at("3"), &["configs.txt", "runs/t"])).contains("lists 2 items"));
    fs::write(dir.join("twice.txt"), "a/kowalski.toml\nb/kowalski.toml\n").unwrap();
    assert!(err(&task(&dir, "train", &at("1"), &["twice.txt", "runs/t"])).contains("the name kowalski"));
    assert!(err(&task(&dir, "eval", &at("1"), &["missing.txt", "runs/e"])).contains("no list file missing.txt"));
}

#[test]
fn az_all_tasks_run_their_rulesets_script_with_the_binary_and_cpus() {
    let dir = stand_in("az-all");
    // A stand-in for experiments/az-all/twelve.sh that prints what it was given.
    fs::create_dir_all(dir.join("experiments/az-all")).unwrap();
    fs::write(
        dir.join("experiments/az-all/twelve.sh"),
        "echo \"threads=$RAYON_NUM_THREADS\"\necho \"bin=$LATRUNCULI\"\nfor a in \"$@\"; do echo \"$a\"; done\n",
    )
    .unwrap();
    let list = repo().join("experiments/az-all/rulesets.txt");
    let list = list.to_str().unwrap();
    let at = |k: &'static str| [("SLURM_ARRAY_TASK_ID", k), ("SLURM_CPUS_PER_TASK", "4")];
    let out = task(&dir, "az-all", &at("3"), &[list]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    let bin = dir.join("bin/latrunculi");
    assert_eq!(lines, strings(&["threads=4", &format!("bin={}", bin.display()), "classical"]));
    assert!(err(&task(&dir, "az-all", &at("13"), &[list])).contains("lists 12 items"));
    // Submitted from elsewhere than the repository's root: a clear error.
    fs::remove_file(dir.join("experiments/az-all/twelve.sh")).unwrap();
    assert!(err(&task(&dir, "az-all", &at("1"), &[list])).contains("submit from the repository's root"));
}

#[test]
fn the_binary_is_latrunculi_or_on_path_with_a_clear_error() {
    let dir = stand_in("binary");
    let array = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "1")];
    // $LATRUNCULI first, a relative one taken from the folder the task runs in.
    fs::create_dir_all(dir.join("other")).unwrap();
    fs::copy(dir.join("bin/latrunculi"), dir.join("other/latrunculi")).unwrap();
    let with = [array.as_slice(), &[("LATRUNCULI", "other/latrunculi")]].concat();
    let o = task(&dir, "survey", &with, &["c.toml", "s"]);
    let path = text(&o.stdout).lines().nth(1).map(String::from).unwrap_or_default();
    assert!(path.ends_with("other/latrunculi"), "{path}");
    let missing = [array.as_slice(), &[("LATRUNCULI", "nowhere/latrunculi")]].concat();
    assert!(
        err(&task(&dir, "survey", &missing, &["c.toml", "s"]))
            .contains("LATRUNCULI=nowhere/latrunculi is not an executable file")
    );
    // Neither: the error says what to do.
    fs::remove_file(dir.join("bin/latrunculi")).unwrap();
    let mut c = Command::new("bash");
    c.arg(repo().join("experiments/train-array.sbatch")).args(["c.txt", "t"]).current_dir(&dir);
    c.env_remove("LATRUNCULI").env("PATH", "/usr/bin:/bin").envs(array);
    let e = err(&c.output().expect("bash"));
    assert!(e.contains("latrunculi not found") && e.contains("set LATRUNCULI") && e.contains("on PATH"), "{e}");
    // Outside an array.
    let o = task(&dir, "survey", &[], &["c.toml", "s"]);
    assert!(err(&o).contains("submit it with sbatch --array=1-N"));
}

// ---- the README's commands on a one-node cluster ----

/// The command lines of README.md's section "Running on a cluster": its first code block,
/// comments left out.
fn readme_commands() -> Vec<String> {
    let readme = fs::read_to_string(repo().join("README.md")).expect("README.md");
    let section = readme.split("\n## Running on a cluster\n").nth(1).expect("the README has the section");
    let block = section.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a code block");
    block.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// The one README command that contains every part of `parts`.
fn readme_command(commands: &[String], parts: &[&str]) -> String {
    let found: Vec<_> = commands.iter().filter(|c| parts.iter().all(|p| c.contains(p))).collect();
    assert_eq!(found.len(), 1, "one README command with {parts:?}: {commands:#?}");
    found[0].clone()
}

/// The cluster of `tests/slurm/start-cluster.sh`, stopped when dropped.
struct Cluster {
    dir: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let cluster = Cluster { dir: dir.to_path_buf() };
        let o = Command::new("bash")
            .arg(repo().join("tests/slurm/start-cluster.sh"))
            .arg(dir)
            .output()
            .expect("bash runs start-cluster.sh");
        assert!(
            o.status.success(),
            "tests/slurm/start-cluster.sh could not start a one-node SLURM cluster: {}\n{}\nThis test needs root and \
             Debian's slurm-wlm and munge (installed with apt-get when missing), as CI has; set \
             LATRUNCULI_SKIP_SLURM=1 to leave it out.",
            text(&o.stderr).trim(),
            cluster.logs()
        );
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// The ends of the daemons' logs, for failure messages.
    fn logs(&self) -> String {
        ["slurmctld", "slurmd", "munged"]
            .iter()
            .map(|d| {
                let log = fs::read_to_string(self.dir.join(format!("log/{d}.log"))).unwrap_or_default();
                let lines: Vec<_> = log.lines().collect();
                format!("--- {d}.log (end) ---\n{}", lines[lines.len().saturating_sub(15)..].join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(repo().join("tests/slurm/stop-cluster.sh")).arg(&self.dir).status();
    }
}

/// Runs command lines with bash in the scratch folder, with the cluster's `SLURM_CONF`
/// and this build's `latrunculi` first on `PATH`.
struct Shell<'a> {
    cwd: PathBuf,
    cluster: &'a Cluster,
}

impl Shell<'_> {
    fn run(&self, line: &str) -> Output {
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_latrunculi")).parent().expect("the binary's folder").to_path_buf();
        let mut c = Command::new("bash");
        c.args(["-c", line]).current_dir(&self.cwd);
        for (k, _) in std::env::vars() {
            if k.starts_with("SLURM_") || k == "LATRUNCULI" || k == "RAYON_NUM_THREADS" {
                c.env_remove(k);
            }
        }
        c.env("PATH", format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default()));
        c.env("SLURM_CONF", self.cluster.conf());
        c.output().expect("bash runs")
    }

    /// Runs `line`, which must succeed; its standard output.
    fn ok(&self, line: &str) -> String {
        let o = self.run(line);
        assert!(o.status.success(), "`{line}` failed: {}{}\n{}", text(&o.stdout), text(&o.stderr), self.cluster.logs());
        text(&o.stdout)
    }

    /// Submits with `sbatch`; the job id.
    fn submit(&self, line: &str) -> String {
        let out = self.ok(line);
        out.trim().strip_prefix("Submitted batch job ").unwrap_or_else(|| panic!("sbatch said {out}")).to_string()
    }

    /// Whether task `k` of the array `job` is in the queue (pending or running).
    fn queued(&self, job: &str, k: u32) -> bool {
        self.ok(&format!("squeue -h -r -j {job} -o %i")).lines().any(|l| l.trim() == format!("{job}_{k}"))
    }

    /// Each array task of `job` and its state (`COMPLETED`, `CANCELLED`, ...).
    fn states(&self, job: &str) -> BTreeMap<u32, String> {
        let field = |line: &str, key: &str| {
            line.split_whitespace().find_map(|w| w.strip_prefix(key)).map(String::from).unwrap_or_default()
        };
        self.ok(&format!("scontrol -o show job {job}"))
            .lines()
            .map(|l| (field(l, "ArrayTaskId=").parse().expect("a task id"), field(l, "JobState=")))
            .collect()
    }

    /// The logs of the tasks, for failure messages.
    fn task_logs(&self) -> String {
        let mut logs = String::new();
        for e in fs::read_dir(&self.cwd).expect("scratch").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("slurm-") {
                logs += &format!("--- {name} ---\n{}", fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
        logs
    }

    /// Waits (at most `limit`) until `done`.
    fn wait(&self, what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < limit,
                "timed out waiting for {what}\n{}\n{}\n{}",
                self.ok("squeue"),
                self.task_logs(),
                self.cluster.logs()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// The data rows of a CSV file (0 while it is missing).
fn rows(path: &Path) -> usize {
    fs::read_to_string(path).map(|s| s.lines().count().saturating_sub(1)).unwrap_or(0)
}

/// Every file of a folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).expect("a file")))
        .collect()
}

#[test]
fn readme_commands_on_a_one_node_slurm_cluster_equal_unsharded_runs() {
    if std::env::var_os("LATRUNCULI_SKIP_SLURM").is_some() {
        eprintln!("LATRUNCULI_SKIP_SLURM is set: the SLURM job-array test is left out");
        return;
    }
    let started = Instant::now();
    let scratch = std::env::temp_dir().join(format!("latrunculi-slurm-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    let work = scratch.join("work");
    fs::create_dir_all(&work).expect("scratch folder");
    // The README's paths, submitted from a folder of their own (outputs in work/runs).
    std::os::unix::fs::symlink(repo().join("experiments"), work.join("experiments")).expect("symlink");
    let cluster = Cluster::start(&scratch.join("cluster"));
    let sh = Shell { cwd: work.clone(), cluster: &cluster };
    let commands = readme_commands();
    let mut ran = vec![commands[0].clone()]; // the build: here this test's own binary
    let mut readme = |parts: &[&str]| {
        let c = readme_command(&commands, parts);
        ran.push(c.clone());
        c
    };
    let long = Duration::from_secs(600);

    // Submit both arrays.
    let survey = sh.submit(&readme(&["sbatch --array=1-3 ", "survey-array.sbatch"]));
    let ladder = sh.submit(&readme(&["sbatch --array=1-3 ", "ladder-array.sbatch"]));
    sh.ok(&readme(&["squeue --me"]));

    // Kill the survey's task 2 once it has played a game of its 12, and see it unfinished.
    let shard = |name: &str| work.join("runs").join(name);
    sh.wait("the survey's task 2 to play a game", long, || rows(&shard("cluster-survey-shard-2/games.csv")) >= 1);
    sh.ok(&format!("scancel {survey}_2"));
    sh.wait("the survey's task 2 to end", long, || !sh.queued(&survey, 2));
    let progress = sh.ok(&readme(&["--progress"]));
    assert!(progress.lines().any(|l| l.starts_with("xxi ") && l.ends_with(" open")), "killed mid-run: {progress}");

    // Kill the ladder's task 3 mid-run, and requeue its task 2 mid-run.
    let (mut killed, mut requeued) = (false, false);
    sh.wait("the ladder's tasks 2 and 3 to play a game", long, || {
        if !killed && rows(&shard("cluster-ladder-shard-3/pending.csv")) >= 1 {
            sh.ok(&format!("scancel {ladder}_3"));
            killed = true;
        }
        if !requeued && rows(&shard("cluster-ladder-shard-2/pending.csv")) >= 1 {
            sh.ok(&format!("scontrol requeue {ladder}_2"));
            requeued = true;
        }
        killed && requeued
    });
    sh.wait("the ladder's task 3 to end", long, || !sh.queued(&ladder, 3));
    assert_eq!(rows(&shard("cluster-ladder-shard-3/pairings.csv")), 0, "the ladder's task 3 was killed mid-run");

    // Continue the killed tasks as the README says, and wait for every task.
    let survey_again = sh.submit(&readme(&["sbatch --array=2 ", "survey-array.sbatch"]));
    let ladder_again = sh.submit(&readme(&["sbatch --array=3 ", "ladder-array.sbatch"]));
    sh.wait("every task to end", long, || sh.ok("squeue -h").trim().is_empty());
    let done = |job: &str, tasks: &[(u32, &str)]| {
        let want: BTreeMap<u32, String> = tasks.iter().map(|(k, s)| (*k, s.to_string())).collect();
        assert_eq!(sh.states(job), want, "the tasks of job {job}\n{}", sh.task_logs());
    };
    done(&survey, &[(1, "COMPLETED"), (2, "CANCELLED"), (3, "COMPLETED")]);
    done(&ladder, &[(1, "COMPLETED"), (2, "COMPLETED"), (3, "CANCELLED")]);
    done(&survey_again, &[(2, "COMPLETED")]);
    done(&ladder_again, &[(3, "COMPLETED")]);
    let log = |job: &str, k: u32| fs::read_to_string(work.join(format!("slurm-{job}_{k}.out"))).unwrap_or_default();
    assert!(
        log(&ladder, 2).contains("DUE TO JOB REQUEUE") && log(&ladder, 2).contains("resuming"),
        "{}",
        log(&ladder, 2)
    );
    assert!(log(&ladder_again, 3).contains("resuming"), "{}", log(&ladder_again, 3));

    // Merge, and compare with unsharded runs of the same commands.
    let merge_survey = readme(&["latrunculi survey ", "--merge"]);
    let merge_ladder = readme(&["latrunculi ladder ", "--merge"]);
    sh.ok(&merge_survey);
    sh.ok(&merge_ladder);
    for (merge, out) in [(&merge_survey, "runs/cluster-survey"), (&merge_ladder, "runs/cluster-ladder")] {
        let unsharded =
            merge.split(" --merge").next().unwrap().replace(&format!("--out {out}"), "--out runs/unsharded");
        assert_ne!(&unsharded, merge, "{merge} writes to --out {out}");
        let _ = fs::remove_dir_all(work.join("runs/unsharded"));
        sh.ok(&unsharded);
        let (merged, alone) = (files(&work.join(out)), files(&work.join("runs/unsharded")));
        assert_eq!(merged.keys().collect::<Vec<_>>(), alone.keys().collect::<Vec<_>>(), "{out}");
        for (name, bytes) in &merged {
            assert!(bytes == &alone[name], "{out}/{name} differs from the unsharded run's");
        }
    }
    assert_eq!(ran.len(), commands.len(), "every README command ran: {ran:#?}");
    drop(sh);
    drop(cluster);
    let _ = fs::remove_dir_all(&scratch);
    eprintln!("the SLURM job-array test took {:.0} s", started.elapsed().as_secs_f64());
}
