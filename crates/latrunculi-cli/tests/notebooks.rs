//! Runs `python3 notebooks/check_reading.py` (and the study scripts `xxi_claim.py`,
//! `ladder_table.py`, `selfplay_table.py`, `plot_study.py` and `ludii_vs_dlp.py` on
//! hand-made cells) from the repository root:
//! the Python reading code of the analysis notebooks must read every committed result
//! (sample dataset, surveys, training logs, ladders) and find them consistent.
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

/// A fresh folder `name` under Cargo's test scratch space, with the given subfolders.
fn scratch(name: &str, subfolders: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for sub in subfolders {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    dir
}

fn text(o: &Output) -> String {
    format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs a script (`python3 SCRIPT ARGS...`), asserting that it succeeds; its stdout and
/// the whole output.
fn script(script: &str, args: &[&str]) -> (String, Output) {
    let mut all = vec![script];
    all.extend_from_slice(args);
    let out = python(&all);
    assert!(out.status.success(), "{script} failed:\n{}", text(&out));
    (String::from_utf8_lossy(&out.stdout).into_owned(), out)
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

/// `experiments/study/xxi_claim.py` on hand-made cells: Newcombe's worked example (56/70
/// against 48/80: +0.200 [+0.052, +0.334], Newcombe 1998, method 10), an unresolved
/// difference and a reversed one, ordered by Elo on classical, and the verdict sentence; a
/// survey still running is counted from its finished games and marked provisional; each
/// ruleset's own network (a model under a folder named after the ruleset) is one player.
#[test]
fn xxi_claim_script_computes_newcombe_intervals_and_the_verdict() {
    let dir = scratch("xxi-claim", &["selfplay", "selfplay-running", "ladder/classical"]);
    std::fs::write(
        dir.join("selfplay/summary.csv"),
        "ruleset,pairing,games,draws\n\
         classical,strong vs strong,70,56\nxxi,strong vs strong,80,48\n\
         classical,middle vs middle,50,10\nxxi,middle vs middle,50,12\n\
         classical,weak vs weak,100,5\nxxi,weak vs weak,100,30\n\
         classical,greedy vs random,50,1\n\
         classical,only vs only,50,50\n\
         classical,\"az:model=nets/classical/n.az,sims=9 vs az:model=nets/classical/n.az,sims=9\",40,20\n\
         xxi,\"az:model=nets/xxi/n.az,sims=9 vs az:model=nets/xxi/n.az,sims=9\",40,4\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("ladder/classical/ratings.csv"),
        "agent,elo,elo_lo,elo_hi\nstrong,900,800,1000\nmiddle,500,400,600\nweak,100,0,200\nonly,50,0,100\n\
         \"az:model=nets/classical/n.az,sims=9\",20,0,40\n",
    )
    .unwrap();
    // A survey still running: no summary.csv, a games.csv whose last line is half written
    // (left out); only self-play rows count.
    std::fs::write(
        dir.join("selfplay-running/games.csv"),
        "ruleset,white,black,winner,plies\n\
         classical,fresh,fresh,draw,10\nclassical,fresh,fresh,white,10\nclassical,fresh,greedy,draw,10\n\
         xxi,fresh,fresh,black,10\nxxi,fresh,fresh,dr",
    )
    .unwrap();
    let (stdout, _) = script("experiments/study/xxi_claim.py", &[dir.to_str().unwrap()]);
    let fresh: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| fresh |")).collect();
    assert!(fresh.len() == 1 && fresh[0].contains("| 1/2 = 0.50 | 0/1 = 0.00 |"), "{stdout}");
    assert!(stdout.contains("Provisional: the cells of fresh are counted"), "{stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| player") && !l.starts_with("| fresh"))
        .collect();
    assert_eq!(rows.len(), 4, "one row per player on both rulesets:\n{stdout}");
    assert!(
        rows[0].starts_with("| az:model=nets/<ruleset>/n.az,sims=9 | 20 [0, 40] | — | 20/40 = 0.50 | 4/40 = 0.10 |"),
        "the two rulesets' networks, one player:\n{stdout}"
    );
    assert!(rows[1].starts_with("| weak |") && rows[3].starts_with("| strong |"), "weakest first:\n{stdout}");
    assert!(rows[3].contains("+0.20 [+0.05, +0.33]") && rows[3].contains("fewer draws under xxi"), "{stdout}");
    assert!(rows[2].contains("no difference resolved"), "{stdout}");
    assert!(rows[1].contains("-0.25 [") && rows[1].contains("more draws under xxi"), "{stdout}");
    assert!(stdout.contains("Not on both rulesets yet: only."), "{stdout}");
    assert!(stdout.contains("Verdict:") && stdout.contains("the claim fails there"), "{stdout}");
}

/// `experiments/study/ladder_table.py` on a hand-made ladder: Elo per player in the
/// fixed column order (a network under "network", a missing player as "—"), the draws
/// of all games and of the games among the three highest-rated players; a ladder still
/// running (no ratings.csv) is left out.
#[test]
fn ladder_table_script_counts_draws_among_the_top_three() {
    let dir = scratch("ladder-table", &["ladder/toy", "ladder/running"]);
    std::fs::write(
        dir.join("ladder/toy/ratings.csv"),
        "rank,agent,elo\n1,alphabeta:depth=3,900.4\n2,\"az:model=n.az,sims=200\",700\n3,greedy,650.6\n4,random,0\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("ladder/toy/pairings.csv"),
        "ruleset,agent,opponent,games,wins,draws,losses\n\
         toy,random,greedy,20,0,1,19\n\
         toy,random,alphabeta:depth=3,20,0,2,18\n\
         toy,random,\"az:model=n.az,sims=200\",20,0,3,17\n\
         toy,greedy,alphabeta:depth=3,20,1,10,9\n\
         toy,greedy,\"az:model=n.az,sims=200\",20,2,4,14\n\
         toy,alphabeta:depth=3,\"az:model=n.az,sims=200\",20,5,6,9\n",
    )
    .unwrap();
    std::fs::write(dir.join("ladder/running/pairings.csv"), "ruleset,agent,opponent,games,wins,draws,losses\n")
        .unwrap();
    let (stdout, _) = script("experiments/study/ladder_table.py", &[dir.to_str().unwrap()]);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| ruleset")).collect();
    assert_eq!(rows, ["| toy | 0 | — | — | — | — | 651 | 900 | 700 | 120 | 26 (0.22) | 20 of 60 |"], "{stdout}");
}

/// `experiments/study/ladder_table.py` with a ladder on one of Ludii's rulesets: it gets
/// a second table with agents-ludii.txt's columns (`mcts:sims=200` among them), and a
/// player outside a table's usual columns gets a column of its own instead of vanishing.
#[test]
fn ladder_table_script_puts_ludii_ladders_apart_and_keeps_unknown_players() {
    let dir = scratch("ladder-table-ludii", &["ladder/toy", "ladder/ludii-toy"]);
    let pairings = "ruleset,agent,opponent,games,wins,draws,losses\n\
                    r,random,greedy,10,0,1,9\n\
                    r,random,mcts:sims=200,10,0,2,8\n\
                    r,greedy,mcts:sims=200,10,3,4,3\n";
    std::fs::write(
        dir.join("ladder/toy/ratings.csv"),
        "rank,agent,elo\n1,greedy,300\n2,mcts:sims=200,250.2\n3,random,0\n",
    )
    .unwrap();
    std::fs::write(dir.join("ladder/toy/pairings.csv"), pairings).unwrap();
    std::fs::write(
        dir.join("ladder/ludii-toy/ratings.csv"),
        "rank,agent,elo\n1,mcts:sims=200,410.6\n2,greedy,200\n3,random,0\n",
    )
    .unwrap();
    std::fs::write(dir.join("ladder/ludii-toy/pairings.csv"), pairings).unwrap();
    let (stdout, _) = script("experiments/study/ladder_table.py", &[dir.to_str().unwrap()]);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("|---")).collect();
    assert_eq!(
        lines,
        [
            "| ruleset | random | mcts100 | ab1 | mcts1000 | ab2 | greedy | ab3 | network | mcts200 | games | draws | draws among the top three |",
            "| toy | 0 | — | — | — | — | 300 | — | — | 250 | 30 | 7 (0.23) | 7 of 30 |",
            "| ruleset | random | greedy | ab1 | mcts200 | ab2 | ab3 | games | draws | draws among the top three |",
            "| ludii-toy | 0 | 200 | — | 411 | — | — | 30 | 7 (0.23) | 7 of 30 |",
        ],
        "{stdout}"
    );
}

/// `experiments/study/selfplay_table.py --elo` on two survey folders: a row per ruleset, a
/// column per self-play player of either folder (a pairing of two players left out),
/// each cell's draw rate beside its player's Elo on the ruleset's ladder, `—` without a
/// ladder, and the draw rate of the highest-rated player.
#[test]
fn selfplay_table_script_puts_each_cell_beside_its_elo() {
    let dir = scratch("selfplay-table-elo", &["study/ladder/ludii-toy", "weak", "strong"]);
    std::fs::write(
        dir.join("study/ladder/ludii-toy/ratings.csv"),
        "rank,agent,elo,elo_lo,elo_hi\n1,greedy,300.4,100,500\n2,alphabeta:depth=3,200,50,350\n3,random,0,0,0\n",
    )
    .unwrap();
    let header = "ruleset,pairing,games,draw_rate,draw_lo,draw_hi,mean_plies\n";
    std::fs::write(
        dir.join("weak/summary.csv"),
        format!(
            "{header}ludii-toy,random vs random,50,1.0,0.93,1.0,1000\n\
             ludii-toy,greedy vs greedy,50,0.84,0.78,0.88,900\n\
             ludii-toy,random vs greedy,50,0.5,0.4,0.6,500\n\
             ludii-other,random vs random,50,0.2,0.1,0.3,300\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("strong/summary.csv"),
        format!("{header}ludii-toy,alphabeta:depth=3 vs alphabeta:depth=3,50,0,0,0.07,180\n"),
    )
    .unwrap();
    let (study, weak, strong) = (dir.join("study"), dir.join("weak"), dir.join("strong"));
    let (stdout, _) = script(
        "experiments/study/selfplay_table.py",
        &[study.to_str().unwrap(), "--elo", weak.to_str().unwrap(), strong.to_str().unwrap()],
    );
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("|---")).collect();
    assert_eq!(
        lines,
        [
            "| ruleset | random | greedy | ab3 | the highest-rated player's draw rate |",
            "| ludii-toy | 1.00 [0.93, 1.00] @ 0 | 0.84 [0.78, 0.88] @ 300 | 0.00 [0.00, 0.07] @ 200 | greedy 0.84 |",
            "| ludii-other | 0.20 [0.10, 0.30] @ — | — | — | — |",
        ],
        "{stdout}"
    );
    assert!(stdout.contains("1 cells have no Elo yet"), "{stdout}");
}

/// `experiments/plot_study.py` with a further survey folder: its cells join the study's
/// own on (ruleset, player), a cell without a rating is left out, and the `ludii-*`
/// rulesets get their own figure; a survey still running is counted from its finished games.
#[test]
fn plot_study_joins_a_further_survey_folder_and_draws_ludii_apart() {
    let dir = scratch("plot-study", &["study/ladder/toy", "study/ladder/ludii-toy", "study/selfplay", "survey"]);
    let ratings = "agent,elo,elo_lo,elo_hi\nrandom,0,0,0\ngreedy,310.4,200,420\n";
    std::fs::write(dir.join("study/ladder/toy/ratings.csv"), ratings).unwrap();
    std::fs::write(dir.join("study/ladder/ludii-toy/ratings.csv"), ratings).unwrap();
    let header = "ruleset,pairing,games,draw_rate,draw_lo,draw_hi,mean_plies\n";
    std::fs::write(
        dir.join("study/selfplay/summary.csv"),
        format!("{header}toy,greedy vs greedy,50,0.1,0.04,0.21,120\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("survey/summary.csv"),
        format!(
            "{header}ludii-toy,random vs random,50,0.9,0.79,0.96,950\n\
             ludii-toy,mcts:sims=200 vs mcts:sims=200,50,0.5,0.37,0.63,700\n"
        ),
    )
    .unwrap();
    let study = dir.join("study");
    let (stdout, out) =
        script("experiments/plot_study.py", &[study.to_str().unwrap(), dir.join("survey").to_str().unwrap()]);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| ruleset")).collect();
    assert_eq!(
        rows,
        [
            "| toy | greedy | 310 [200, 420] | 50 | 0.10 [0.04, 0.21] | 120 |",
            "| ludii-toy | random | 0 [0, 0] | 50 | 0.90 [0.79, 0.96] | 950 |",
        ],
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no rating yet for 1 self-play cells"), "{}", text(&out));
    assert!(study.join("draw_vs_elo.png").is_file() && study.join("draw_vs_elo_ludii.png").is_file());
    let missing =
        python(&["experiments/plot_study.py", study.to_str().unwrap(), dir.join("nowhere").to_str().unwrap()]);
    assert!(!missing.status.success() && text(&missing).contains("is not a folder"), "{}", text(&missing));
    // A survey folder with no games yet is named in a note, not skipped in silence.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let empty = python(&["experiments/plot_study.py", study.to_str().unwrap(), dir.join("empty").to_str().unwrap()]);
    assert!(empty.status.success(), "plot_study.py failed:\n{}", text(&empty));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("has no summary.csv or games.csv yet"), "{}", text(&empty));
    // A survey still running (games.csv, no summary.csv yet): its self-play cells are counted
    // from the finished games (the half-written last line and the mixed pairing left out).
    std::fs::create_dir_all(dir.join("running")).unwrap();
    std::fs::write(
        dir.join("running/games.csv"),
        "ruleset,white,black,winner,plies\n\
         ludii-toy,greedy,greedy,draw,100\nludii-toy,greedy,greedy,white,50\nludii-toy,greedy,random,draw,10\n\
         ludii-toy,greedy,greedy,dr",
    )
    .unwrap();
    let running =
        python(&["experiments/plot_study.py", study.to_str().unwrap(), dir.join("running").to_str().unwrap()]);
    assert!(running.status.success(), "plot_study.py failed:\n{}", text(&running));
    let stdout = String::from_utf8_lossy(&running.stdout).into_owned();
    assert!(stdout.contains("| ludii-toy | greedy | 310 [200, 420] | 2 | 0.50 [0.09, 0.91] | 75 |"), "{stdout}");
    assert!(String::from_utf8_lossy(&running.stderr).contains("counted from the 2 self-play games finished so far"));
}

/// `experiments/ludii_vs_dlp.py` on a hand-made metrics.csv: the DLP's figure beside ours
/// and the difference's Newcombe interval, checked by hand: 0 draws in 50 against the
/// DLP's 30 in 30 is −1.00 [−1.00, −0.87] (Wilson: 0/50 has upper bound 0.0714, 30/30
/// lower bound 0.8865; −1 + √(0.0714² + 0.1135²) = −0.866), resolved; 50 in 50 against
/// 27 in 30 has a lower bound just above 0 (+0.003), printed with 3 decimals so that
/// "resolved" does not stand beside a bound shown as 0; a ruleset without a DLP figure
/// gets none.
#[test]
fn ludii_vs_dlp_script_prints_the_difference_and_its_interval() {
    let dir = scratch("ludii-vs-dlp", &["survey"]);
    let head = "ruleset,pairing,games,draw,draw_lo,draw_hi,decisive,decisive_lo,decisive_hi,plies,plies_lo,plies_hi\n";
    std::fs::write(
        dir.join("survey/metrics.csv"),
        format!(
            "{head}ludii-schadler-1994,ab vs ab,50,0,0,0.0714,1,0.9286,1,183,171,194\n\
             ludii-falkener,ab vs ab,50,1,0.9286,1,0,0,0.0714,1000,1000,1000\n\
             ludii-seneca,ab vs ab,50,0,0,0.0714,1,0.9286,1,217,198,236\n"
        ),
    )
    .unwrap();
    let (stdout, _) = script("experiments/ludii_vs_dlp.py", &[dir.join("survey").to_str().unwrap()]);
    let row = |id: &str| stdout.lines().find(|l| l.starts_with(&format!("| {id} |"))).unwrap_or_default().to_string();
    assert!(row("ludii-schadler-1994").ends_with("| 1.00 | -1.00 [-1.00, -0.87] resolved |"), "{stdout}");
    assert!(row("ludii-falkener").ends_with("| 0.90 | +0.10 [+0.003, +0.26] resolved |"), "{stdout}");
    assert!(row("ludii-seneca").ends_with("|  |  |"), "{stdout}");
}

/// `experiments/study/selfplay_table.py` on a hand-made survey folder: a column per
/// self-play pairing in the config's order, each cell `rate [CI] (games)`, `*` on a cell
/// still open (interval wider than ±half_width below its cap, or between two round
/// boundaries) and none on one at its `[[cap]]`; a missing cell is "—".
#[test]
fn selfplay_table_script_marks_open_cells() {
    let dir = scratch("selfplay-table", &["study/selfplay"]);
    std::fs::write(
        dir.join("study/selfplay/config.toml"),
        "rulesets = [\"toy\", \"other\"]\n\
         pairings = [[\"random\", \"random\"], [\"greedy\", \"greedy\"], [\"greedy\", \"random\"]]\n\
         games = 400\nmin_games = 50\nbatch = 50\nhalf_width = 0.05\n\n\
         [[cap]]\npairing = [\"random\", \"random\"]\ngames = 150\n",
    )
    .unwrap();
    // toy/random: 75 of 150 drawn, at its cap (closed); toy/greedy: 50 of 100 (open);
    // other/greedy: 0 of 50 (closed); other/random: none.
    std::fs::write(
        dir.join("study/selfplay/summary.csv"),
        "ruleset,pairing,games,draws,draw_rate,draw_lo,draw_hi\n\
         toy,random vs random,150,75,0.5,0.4208,0.5792\n\
         toy,greedy vs greedy,100,50,0.5,0.4038,0.5962\n\
         toy,greedy vs random,100,0,0,0,0.037\n\
         other,greedy vs greedy,50,0,0,0,0.0713\n",
    )
    .unwrap();
    let (stdout, _) = script("experiments/study/selfplay_table.py", &[dir.join("study").to_str().unwrap()]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "| ruleset | random | greedy |", "{stdout}");
    assert_eq!(lines[2], "| toy | 0.50 [0.42, 0.58] (150) | 0.50 [0.40, 0.60] (100)* |", "{stdout}");
    assert_eq!(lines[3], "| other | — | 0.00 [0.00, 0.07] (50) |", "{stdout}");
    assert!(!stdout.contains("Provisional"), "{stdout}");
}

/// `experiments/study/selfplay_table.py DIR --networks`: a row per network self-play folder
/// with the network's Elo and rank from the ruleset's ladder, its draw rate, its draws by
/// reason counted from games.csv (decisive games and other players' games left out) and
/// the mean plies; a folder still running (no summary.csv) is provisional and open.
#[test]
fn selfplay_table_script_lists_the_networks() {
    let dir =
        scratch("selfplay-table-networks", &["study/selfplay-az-toy", "study/selfplay-az-run", "study/ladder/toy"]);
    let study = dir.join("study");
    let config = "pairings = [[\"az:model=n.az\", \"az:model=n.az\"]]\n\
                  games = 400\nmin_games = 50\nbatch = 50\nhalf_width = 0.05\n";
    for (sub, ruleset) in [("selfplay-az-toy", "toy"), ("selfplay-az-run", "run")] {
        std::fs::write(study.join(sub).join("config.toml"), format!("rulesets = [\"{ruleset}\"]\n{config}")).unwrap();
    }
    std::fs::write(
        study.join("selfplay-az-toy/summary.csv"),
        "ruleset,pairing,games,draws,draw_rate,draw_lo,draw_hi,mean_plies\n\
         toy,az:model=n.az vs az:model=n.az,4,3,0.75,0.3,0.95,12.5\n",
    )
    .unwrap();
    std::fs::write(
        study.join("selfplay-az-toy/games.csv"),
        "ruleset,white,black,winner,reason,plies\n\
         toy,az:model=n.az,az:model=n.az,draw,repetition,10\ntoy,az:model=n.az,az:model=n.az,draw,ply-cap,20\n\
         toy,az:model=n.az,az:model=n.az,draw,repetition,10\ntoy,az:model=n.az,az:model=n.az,white,bare,10\n\
         toy,az:model=n.az,greedy,draw,ply-cap,10\n",
    )
    .unwrap();
    std::fs::write(
        study.join("selfplay-az-run/games.csv"),
        "ruleset,white,black,winner,reason,plies\nrun,az:model=n.az,az:model=n.az,black,bare,30\nrun,az:model=n.az,az:m",
    )
    .unwrap();
    std::fs::write(
        study.join("ladder/toy/ratings.csv"),
        "rank,agent,elo,elo_lo,elo_hi\n1,greedy,900,800,1000\n2,az:model=n.az,700.4,600,800\n3,random,0,0,0\n",
    )
    .unwrap();
    let (stdout, _) = script("experiments/study/selfplay_table.py", &[study.to_str().unwrap(), "--networks"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[2], "| run | `az:model=n.az` | — | 0.00 [0.00, 0.79] (1)* (provisional) | — | 30.0 |", "{stdout}");
    assert_eq!(
        lines[3],
        "| toy | `az:model=n.az` | 700 [600, 800] (2 of 3) | 0.75 [0.30, 0.95] (4)* | repetition 2, ply-cap 1 | 12.5 |",
        "{stdout}"
    );
}

/// `experiments/plot_sensitivity.py` on hand-made cells: a variant's difference to the
/// published ruleset with Newcombe's interval (his worked example: 56/70 against 48/80 is
/// +0.200 [+0.052, +0.334], marked * as it excludes 0), an unresolved one unmarked; a
/// survey still running is read from its finished games and said to be provisional.
#[test]
fn plot_sensitivity_script_gives_differences_with_newcombe_intervals() {
    let dir = scratch("plot-sensitivity", &["done", "running"]);
    std::fs::write(
        dir.join("done/summary.csv"),
        "ruleset,pairing,games,white_wins,black_wins,draws,draw_rate,draw_lo,draw_hi,white_score,white_score_lo,white_score_hi\n\
         toy,p vs p,80,16,16,48,0.6,0.4904,0.7003,0.5,0.3923,0.6077\n\
         toy+end.x=1,p vs p,70,7,7,56,0.8,0.6920,0.8770,0.5,0.3850,0.6150\n\
         toy@8x8,p vs p,80,16,18,46,0.575,0.4655,0.6778,0.4875,0.3801,0.5960\n",
    )
    .unwrap();
    let (stdout, _) = script("experiments/plot_sensitivity.py", &[dir.join("done").to_str().unwrap()]);
    let row = |v: &str| stdout.lines().find(|l| l.starts_with(&format!("|   {v} |"))).unwrap_or_default().to_string();
    assert!(row("+end.x=1").contains("| +0.20 [+0.05, +0.33]* |"), "{stdout}");
    assert!(row("+end.x=1").ends_with("| +0.00 [-0.16, +0.16] |"), "{stdout}");
    assert!(row("@8x8").contains("| -0.03 [") && !row("@8x8").contains('*'), "{stdout}");
    assert!(dir.join("done/tornado.png").exists());

    std::fs::write(
        dir.join("running/games.csv"),
        "ruleset,white,black,winner,plies\ntoy,p,p,draw,10\ntoy,p,p,white,10\ntoy+end.x=1,p,p,draw,9\ntoy+end.x=1,p,p,dr",
    )
    .unwrap();
    let (stdout, out) = script("experiments/plot_sensitivity.py", &[dir.join("running").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("provisional"), "{}", text(&out));
    assert!(stdout.lines().any(|l| l.starts_with("| toy | 2 | 0.50 [")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("|   +end.x=1 | 1 | 1.00 [")), "{stdout}");
}
