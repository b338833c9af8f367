use super::*;
use crate::verdict::Ending;

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-verdicts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `params_hash` column of a ruleset label.
fn hash(label: &str) -> String {
    let rs = label.parse::<RulesetSpec>().unwrap().resolve(None).unwrap();
    format!("{:016x}", rs.params_hash())
}

const HEADER: &str = "ruleset,params_hash,game,seed,white,black,winner,reason,plies,moves";

/// A games CSV row; `game` is also the seed.
fn row(label: &str, game: u32, white: &str, black: &str, winner: &str, reason: &str) -> String {
    format!("{label},{},{game},{game},{white},{black},{winner},{reason},10,a1-a2", hash(label))
}

/// `n` self-play games of `spec` on `label` from seed `first`, each ending as `end` gives.
fn games(
    label: &str,
    spec: &str,
    first: u32,
    n: u32,
    end: impl Fn(u32) -> (&'static str, &'static str),
) -> Vec<String> {
    (first..first + n)
        .map(|g| {
            let (winner, reason) = end(g);
            row(label, g, spec, spec, winner, reason)
        })
        .collect()
}

fn write(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("{HEADER}\n{}\n", lines.join("\n"))).unwrap();
    path
}

#[test]
fn budgets_are_split_from_the_spec() {
    let split = |s: &str| {
        let (p, b) = split_budget(s);
        (p, b.map(|b| b.to_string()))
    };
    assert_eq!(split("alphabeta:nodes=10000"), ("alphabeta".into(), Some("nodes=10000".into())));
    assert_eq!(split("alphabeta:nodes=2500,pursuit=10"), ("alphabeta:pursuit=10".into(), Some("nodes=2500".into())));
    assert_eq!(split("alphabeta:depth=20,nodes=2500"), ("alphabeta:depth=20".into(), Some("nodes=2500".into())));
    assert_eq!(split("alphabeta:depth=3"), ("alphabeta".into(), Some("depth=3".into())));
    assert_eq!(split("mcts:sims=200,depth=40"), ("mcts:depth=40".into(), Some("sims=200".into())));
    assert_eq!(split("az:model=runs/x.az,sims=200"), ("az:model=runs/x.az".into(), Some("sims=200".into())));
    assert_eq!(split("greedy"), ("greedy".into(), None));
    assert_eq!(split("az:model=x.az"), ("az:model=x.az".into(), None));
    assert_eq!(split("alphabeta:ms=abc"), ("alphabeta:ms=abc".into(), None), "not a number: no budget");
    assert!(split_budget("alphabeta:nodes=2500").1 < split_budget("alphabeta:nodes=10000").1);
}

#[test]
fn cells_of_two_files_give_rows_with_the_verdict_on_the_largest_budget() {
    let dir = temp_dir("rows");
    let (weak, strong) = ("alphabeta:nodes=2500", "alphabeta:nodes=10000");
    // kowalski at 2,500 nodes: 40 games, 10 draws at the ply cap, 20 count wins, 10 won by play.
    let mut first = games("kowalski", weak, 0, 40, |g| match g % 4 {
        0 => ("draw", "ply-cap"),
        1 => ("white", "immobilized"),
        _ => ("black", "material"),
    });
    // Another pairing in the same file.
    first.push(row("kowalski", 0, "greedy", "random", "white", "material"));
    first.push(row("kowalski", 1, "random", "greedy", "black", "immobilized"));
    // At 10,000 nodes, in a second file: 50 games, 45 level counts at the limit.
    let second =
        games("kowalski", strong, 0, 50, |g| if g < 45 { ("draw", "no-capture-limit") } else { ("white", "material") });
    // Adjudication off, one budget only: 50 games, none drawn.
    let off = games("kowalski+end.adjudication=draw", strong, 0, 50, |_| ("white", "immobilized"));
    let mut second = second;
    second.extend(off);
    let (a, b) = (write(&dir, "a-games.csv", &first), write(&dir, "b-games.csv", &second));
    let mut cells = GameCells::new(Path::new("/nonexistent"));
    assert_eq!(cells.read_games_csv(&a).unwrap(), 42);
    assert_eq!(cells.read_games_csv(&b).unwrap(), 100);
    let dlp = BTreeMap::from([("kowalski".to_string(), DlpFigure { draws: 27, trials: 30 })]);
    let rows = cells.rows(&dlp).unwrap();
    let names: Vec<(&str, &str, String)> = rows
        .iter()
        .map(|r| (r.ruleset.as_str(), r.player.as_str(), r.budget.as_ref().map(Budget::to_string).unwrap_or_default()))
        .collect();
    assert_eq!(
        names,
        [
            ("kowalski", "alphabeta", "nodes=2500".to_string()),
            ("kowalski", "alphabeta", "nodes=10000".to_string()),
            ("kowalski", "greedy vs random", String::new()),
            ("kowalski+end.adjudication=draw", "alphabeta", "nodes=10000".to_string()),
        ]
    );
    let [low, high, pairing, off] = &rows[..] else { panic!("{rows:?}") };
    assert_eq!(
        (low.counts.games(), low.counts.draws(), low.counts.adjudicated, low.counts.won_by_play),
        (40, 10, 20, 10)
    );
    assert_eq!(low.counts.draws_of(DrawKind::PlyCap), 10);
    assert_eq!((high.counts.draws_of(DrawKind::LevelCount), high.counts.adjudicated), (45, 5));
    // 10 of 40 ([0.14, 0.40]) against 45 of 50 ([0.79, 0.96]): strength moves it.
    assert_eq!((low.verdict, high.verdict), (None, Some(Verdict::Unsettled)));
    assert_eq!(high.compared_with.as_ref().map(Budget::to_string).as_deref(), Some("nodes=2500"));
    // No verdict for a pairing of two players; a single budget's level verdict.
    assert_eq!((pairing.counts.games(), pairing.verdict), (2, None));
    assert_eq!((off.verdict, off.compared_with.clone()), (Some(Verdict::Decisive), None));
    // The DLP's figure on every row of its ruleset, and only there.
    assert!(low.dlp.is_some() && high.dlp.is_some() && pairing.dlp.is_some() && off.dlp.is_none());

    // The CSV line: every column, the rates and their intervals.
    let cols = verdict_columns();
    let line = high.csv_line();
    let fields: Vec<&str> = line.split(',').collect();
    assert_eq!(fields.len(), cols.len());
    let get = |name: &str| fields[cols.iter().position(|c| c == name).unwrap()];
    let (lo, hi) = crate::stats::wilson(45.0, 50, crate::stats::Z95);
    assert_eq!(
        (get("draw_rate"), get("draw_lo"), get("draw_hi")),
        ("0.9000", &*format!("{lo:.4}"), &*format!("{hi:.4}"))
    );
    assert_eq!((get("won_by_play_rate"), get("adjudicated_rate")), ("0.0000", "0.1000"));
    assert_eq!(
        (get("verdict"), get("compared_with"), get("dlp_draw_rate"), get("dlp_trials")),
        ("unsettled", "nodes=2500", "0.9000", "30")
    );
    assert_eq!(
        (get("draws"), get("draws_level_count"), get("draws_ply_cap"), get("adjudicated")),
        ("45", "45", "0", "5")
    );
    let off_line = off.csv_line();
    let off_fields: Vec<&str> = off_line.split(',').collect();
    assert_eq!(off_fields[cols.iter().position(|c| c == "dlp_draw_rate").unwrap()], "");

    // write_verdicts writes the same rows.
    let out = dir.join("out/verdicts.csv");
    let dlp_file = dir.join("dlp.csv");
    std::fs::write(&dlp_file, "ruleset,draws,trials\nkowalski,27,30\n").unwrap();
    let written = write_verdicts(&[a, b], Some(&dlp_file), Path::new("/nonexistent"), &out).unwrap();
    assert_eq!(written, rows);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), verdicts_csv(&rows));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn classification_in_a_file_follows_the_rows_rules() {
    // A no-capture-limit draw is a level count under kowalski and a plain limit draw
    // with adjudication off.
    let dir = temp_dir("labels");
    let lines = vec![
        row("kowalski", 0, "greedy", "greedy", "draw", "no-capture-limit"),
        row("kowalski+end.adjudication=draw", 0, "greedy", "greedy", "draw", "no-capture-limit"),
    ];
    let path = write(&dir, "g.csv", &lines);
    let mut cells = GameCells::new(Path::new("/nonexistent"));
    cells.read_games_csv(&path).unwrap();
    let rows = cells.rows(&BTreeMap::new()).unwrap();
    assert_eq!(rows[0].counts, CellCounts::of([Ending::Drawn(DrawKind::LevelCount)]));
    assert_eq!(rows[1].counts, CellCounts::of([Ending::Drawn(DrawKind::NoCaptureLimit)]));
    assert_eq!(rows[0].verdict, Some(Verdict::Balanced), "one game settles nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The error of reading `text` as a games CSV, which must name the file and `line`.
fn read_error(dir: &Path, text: &str, line: Option<usize>) -> String {
    let path = dir.join("bad.csv");
    std::fs::write(&path, text).unwrap();
    let e = GameCells::new(Path::new("/nonexistent")).read_games_csv(&path).unwrap_err().to_string();
    assert!(e.contains("bad.csv"), "{e}");
    if let Some(l) = line {
        assert!(e.contains(&format!("line {l}:")), "{e}");
    }
    e
}

#[test]
fn bad_input_is_an_error_naming_file_and_line() {
    let dir = temp_dir("errors");
    let good = row("kowalski", 0, "greedy", "greedy", "white", "material");
    let e = read_error(&dir, "ruleset,params_hash,seed,white,black,winner\nkowalski,x,1,a,a,white\n", Some(1));
    assert!(e.contains("no column 'reason'"), "{e}");
    let e = read_error(
        &dir,
        &format!("{HEADER}\n{good}\n{}\n", row("kowalski", 1, "greedy", "greedy", "white", "checkmate")),
        Some(3),
    );
    assert!(e.contains("unknown result reason 'checkmate'"), "{e}");
    let e = read_error(
        &dir,
        &format!("{HEADER}\n{}\n", row("kowalski", 1, "greedy", "greedy", "nobody", "material")),
        Some(2),
    );
    assert!(e.contains("winner 'nobody'"), "{e}");
    // A reason the ruleset's parameters cannot give.
    let e =
        read_error(&dir, &format!("{HEADER}\n{}\n", row("kowalski", 1, "greedy", "greedy", "white", "bare")), Some(2));
    assert!(e.contains("cannot happen") && e.contains("lose_at_soldiers"), "{e}");
    // Rules changed since.
    let stale = good.replace(&hash("kowalski"), "0123456789abcdef");
    let e = read_error(&dir, &format!("{HEADER}\n{stale}\n"), Some(2));
    assert!(e.contains("params_hash 0123456789abcdef"), "{e}");
    let e = read_error(&dir, &format!("{HEADER}\n{}\n", good.replace("kowalski,", "no-such-rules,")), Some(2));
    assert!(e.contains("no-such-rules"), "{e}");
    // The same game twice.
    let e = read_error(&dir, &format!("{HEADER}\n{good}\n{good}\n"), Some(3));
    assert!(e.contains("already at") && e.contains("line 2"), "{e}");
    // Not CSV: rows of another length, bytes that are not text.
    let e = read_error(&dir, &format!("{HEADER}\n{good}\nthis is not, a games file\n"), Some(3));
    assert!(e.contains("not a CSV row"), "{e}");
    let path = dir.join("binary.csv");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x01, b'\n', 0x80]).unwrap();
    let e = GameCells::new(Path::new("/nonexistent")).read_games_csv(&path).unwrap_err().to_string();
    assert!(e.contains("binary.csv") && e.contains("line 1"), "{e}");
    // Missing file; a file of no games.
    let e = GameCells::new(Path::new("/nonexistent")).read_games_csv(&dir.join("missing.csv")).unwrap_err();
    assert!(crate::error::full_message(&e).contains("missing.csv"), "{e}");
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, format!("{HEADER}\n")).unwrap();
    let e = write_verdicts(&[empty], None, Path::new("/nonexistent"), &dir.join("v.csv")).unwrap_err().to_string();
    assert!(e.contains("empty.csv") && e.contains("has no games"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_dlp_files_are_errors_naming_the_line() {
    let dir = temp_dir("dlp");
    let path = dir.join("dlp.csv");
    let read = |text: &str| {
        std::fs::write(&path, text).unwrap();
        read_dlp(&path)
    };
    let figures = read("ruleset,draws,trials,source\nludii-falkener,27,30,x\nludii-bell-8x8,0,30,x\n").unwrap();
    assert_eq!(figures["ludii-falkener"], DlpFigure { draws: 27, trials: 30 });
    for (text, line, what) in [
        ("ruleset,trials\nx,30\n", 1, "no column 'draws'"),
        ("ruleset,draws,trials\nx,0.9,30\n", 2, "not a whole number"),
        ("ruleset,draws,trials\nx,31,30\n", 2, "31 draws in 30"),
        ("ruleset,draws,trials\nx,1,30\nx,2,30\n", 3, "twice"),
    ] {
        let e = read(text).unwrap_err().to_string();
        assert!(e.contains("dlp.csv") && e.contains(&format!("line {line}:")) && e.contains(what), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
