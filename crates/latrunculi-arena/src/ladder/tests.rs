//! Tests of ladders: ratings, agents files, resumption and shards.

use super::*;

fn summary(opponent: &str, wins: u64, draws: u64, losses: u64) -> PairingSummary {
    PairingSummary { opponent: opponent.into(), wdl: Wdl { wins, draws, losses }, mean_plies: 10.0, sprt: None }
}

#[test]
fn ratings_follow_the_results_and_the_anchor() {
    let agents: Vec<String> = ["random", "greedy", "mcts:sims=100"].map(String::from).to_vec();
    // greedy scores 75% vs random, mcts 75% vs greedy, mcts 90% vs random.
    let pairings =
        vec![(0, 1, summary("greedy", 5, 0, 15)), (1, 2, summary("mcts", 5, 0, 15)), (0, 2, summary("mcts", 2, 0, 18))];
    let rows = rate(&agents, 0, &pairings, 0.0).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.agent.as_str()).collect();
    assert_eq!(names, ["mcts:sims=100", "greedy", "random"]);
    let random = rows.iter().find(|r| r.agent == "random").unwrap();
    assert_eq!((random.elo, random.std_err), (0.0, 0.0));
    assert_eq!(random.wdl, Wdl { wins: 7, draws: 0, losses: 33 });
    // mcts lies between the direct (381.7) and the chained (2·190.8) estimates – here equal.
    assert!((rows[0].elo - 381.7).abs() < 1.0, "{:?}", rows);
    let csv = ratings_csv(&rows).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], RATING_COLUMNS.join(","));
    assert!(lines[3].starts_with("3,random,0.0,0.0,0.0,0.0,40,7,0,33,"), "{}", lines[3]);
    let svg = ratings_svg("test", &rows);
    assert_eq!(svg.matches("<circle").count(), 3);
    assert!(svg.contains("mcts:sims=100"));
}

#[test]
fn agents_file_errors_name_the_file() {
    let dir = std::env::temp_dir().join(format!("latrunculi-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("agents.txt");
    std::fs::write(&f, "# baselines\nrandom\n\n greedy  # one ply\n").unwrap();
    assert_eq!(read_agents(&f).unwrap(), vec![(2, "random".to_string()), (4, "greedy".to_string())]);
    std::fs::write(&f, "random\n").unwrap();
    let e = read_agents(&f).unwrap_err().to_string();
    assert!(e.contains("agents.txt") && e.contains("at least two"), "{e}");
    let e = read_agents(&dir.join("missing.txt")).unwrap_err().to_string();
    assert!(e.contains("missing.txt"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh scratch folder (not created) for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-ladder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A ladder of three cheap agents on Kowalski 6x6, four games a pairing.
fn small_plan(name: &str) -> LadderPlan {
    let dir = scratch(&format!("{name}-agents"));
    std::fs::create_dir_all(&dir).unwrap();
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\nalphabeta: depth=1\n").unwrap();
    let choice = RulesetChoice {
        ruleset: "kowalski".parse().unwrap(),
        board: Some("6x6".parse().unwrap()),
        rules_dir: PathBuf::from("/nonexistent"),
    };
    let plan =
        LadderPlan::new(&latrunculi_agents::Players::baseline(), &choice, &agents, 4, 7, 200, 1.0, "random").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    plan
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

const FILES: [&str; 4] = ["games.csv", "pairings.csv", "ratings.csv", "ratings.svg"];

#[test]
fn the_plan_reads_specs_once_in_canonical_form() {
    let plan = small_plan("plan");
    assert_eq!(plan.names(), ["random", "greedy", "alphabeta:depth=1"]);
    assert_eq!(plan.pairs(), [(0, 1), (0, 2), (1, 2)]);
    let shard = plan.with_shard(2, 2);
    assert_eq!(shard.pairs(), [(0, 2)], "shard K/N plays the pairings K-1 modulo N");
}

#[test]
fn an_interrupted_ladder_resumes_to_the_files_of_one_run() {
    let plan = small_plan("resume");
    let whole = scratch("resume-whole");
    let rows = run_ladder(&plan, &whole, LadderMode::Fresh { force: false }).unwrap();
    assert_eq!(rows.len(), 3);
    let (games, pairings) = (read(&whole, "games.csv"), read(&whole, "pairings.csv"));
    let game_lines: Vec<&str> = games.lines().collect();
    let pairing_lines: Vec<&str> = pairings.lines().collect();
    assert_eq!((game_lines.len(), pairing_lines.len()), (1 + 12, 1 + 3));

    // Killed in the second pairing: one pairing written, two games of the next pending
    // (in the order they ended), the last cut short.
    let cut = scratch("resume-cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(cut.join("pairings.csv"), format!("{}\n{}\n", pairing_lines[0], pairing_lines[1])).unwrap();
    std::fs::write(cut.join("games.csv"), format!("{}\n", game_lines[..5].join("\n"))).unwrap();
    let pending = format!("{}\n{}\n{}\n{}", game_lines[0], game_lines[7], game_lines[5], &game_lines[6][..20]);
    std::fs::write(cut.join(PENDING_FILE), pending).unwrap();
    let kept = read_pending(&plan, &cut.join(PENDING_FILE), 1).unwrap();
    assert_eq!(kept.iter().map(|r| r.game).collect::<Vec<_>>(), [2, 0]);
    // Games of the first pairing read as the third's are refused, naming the line.
    let other = cut.join("other.csv");
    std::fs::write(&other, format!("{}\n{}\n", game_lines[0], game_lines[1])).unwrap();
    let e = read_pending(&plan, &other, 2).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("cannot resume"), "{e}");
    std::fs::remove_file(&other).unwrap();

    run_ladder(&plan, &cut, LadderMode::Resume).unwrap();
    for f in FILES {
        assert_eq!(read(&cut, f), read(&whole, f), "{f}");
    }
    assert!(!cut.join(PENDING_FILE).exists(), "the pending file is removed once its pairing is written");

    // A fresh run into a folder with results is refused; rating only refits.
    let e = run_ladder(&plan, &cut, LadderMode::Fresh { force: false }).unwrap_err();
    assert!(matches!(e, ArenaError::Exists { .. }), "{e}");
    assert_eq!(run_ladder(&plan, &cut, LadderMode::RateOnly).unwrap(), rows);
    for d in [whole, cut] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_pending_file_of_the_pairing_before_is_stale() {
    let plan = small_plan("stale");
    let dir = scratch("stale");
    run_ladder(&plan, &dir, LadderMode::Fresh { force: false }).unwrap();
    let games = read(&dir, "games.csv");
    // The games of pairing 1 (a kill between writing it and removing the file).
    let first: Vec<&str> = games.lines().take(5).collect();
    std::fs::write(dir.join(PENDING_FILE), format!("{}\n", first.join("\n"))).unwrap();
    assert!(read_pending(&plan, &dir.join(PENDING_FILE), 1).unwrap().is_empty());
    assert_eq!(read_pending(&plan, &dir.join(PENDING_FILE), 0).unwrap().len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merge_into_the_files_of_one_run() {
    let plan = small_plan("shards");
    let whole = scratch("shards-whole");
    run_ladder(&plan, &whole, LadderMode::Fresh { force: false }).unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| scratch(&format!("shard-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = LadderPlan { shard: Some((k as u32 + 1, 2)), ..plan.clone() };
        assert!(
            run_ladder(&shard, dir, LadderMode::Fresh { force: false }).unwrap().is_empty(),
            "a shard rates nothing"
        );
        assert_eq!(read(dir, "shard.txt"), format!("shard = {}/2\n", k + 1));
        assert!(matches!(run_ladder(&shard, dir, LadderMode::RateOnly), Err(ArenaError::ShardHasNoRatings)));
    }
    let partial = scratch("shards-partial");
    let e = merge_ladder(&plan, &partial, &shards[..1], false).unwrap_err();
    assert!(matches!(e, ArenaError::ShardsMissing { ref missing } if missing == "2/2"), "{e}");
    let e = merge_ladder(&plan, &partial, &[shards[0].clone(), shards[0].clone()], false).unwrap_err();
    assert!(e.to_string().contains("twice"), "{e}");
    let e = merge_ladder(&plan, &partial, std::slice::from_ref(&whole), false).unwrap_err();
    assert!(matches!(e, ArenaError::NotAShard { .. }), "{e}");
    let merged = scratch("shards-merged");
    merge_ladder(&plan, &merged, &[shards[1].clone(), shards[0].clone()], false).unwrap();
    for f in FILES {
        assert_eq!(read(&merged, f), read(&whole, f), "{f}");
    }
    for d in shards.into_iter().chain([whole, merged, partial]) {
        let _ = std::fs::remove_dir_all(d);
    }
}
