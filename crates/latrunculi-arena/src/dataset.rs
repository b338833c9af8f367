//! Datasets (`latrunculi dataset`): games between two agents written as a training
//! dataset, the games as JSON lines and every position where a move was chosen as rows
//! of `.npy` arrays (observations, legal masks, policy and value targets). The schema is
//! documented in `data/README.md`.
//!
//! The games are exactly those of `latrunculi play` with the same ruleset, specs,
//! `--seed`, `--swap` and `--ply-cap` (the same seeds and the same game loop,
//! [`play_game_observed`]). Every file is written to a temporary name and renamed, and
//! `games.jsonl` last, so a directory with `games.jsonl` holds a complete dataset.

use std::fs::File;
use std::io::{BufWriter, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use latrunculi_rules::{BoardSize, Color, Move, Position, Ruleset, RulesetSpec};
use latrunculi_sim::{ActionSpace, ObservationEncoder, PLANES};
use ndarray::ArrayViewMut3;
use ndarray_npy::WritableElement;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::{GameJob, GameRow, canonical_spec, colours, game_seed, play_game_observed, progress_bar, tally};
use crate::io::Journal;

/// The games file; its presence marks a finished dataset.
pub const GAMES_FILE: &str = "games.jsonl";
/// The metadata file.
pub const META_FILE: &str = "meta.json";
/// Observations, float32 `[S, planes, H, W]`.
pub const OBSERVATIONS_FILE: &str = "observations.npy";
/// Legal-action masks, bool `[S, A]`.
pub const LEGAL_MASKS_FILE: &str = "legal_masks.npy";
/// Policy targets, float32 `[S, A]`.
pub const POLICY_FILE: &str = "policy_targets.npy";
/// Value targets, float32 `[S]`.
pub const VALUE_FILE: &str = "value_targets.npy";
/// The action played in each position, int32 `[S]`.
pub const ACTIONS_FILE: &str = "actions.npy";
/// Plies before each position, int32 `[S]`.
pub const PLIES_FILE: &str = "plies.npy";
/// Game index of each row, int32 `[S]`.
pub const GAMES_NPY_FILE: &str = "games.npy";
/// Player to move, int8 `[S]` (0 White, 1 Black).
pub const PLAYERS_FILE: &str = "players.npy";
/// Version of the dataset layout, in `meta.json`.
pub const FORMAT_VERSION: u32 = 1;

/// The settings of a dataset run (the options of `latrunculi dataset`).
#[derive(Clone, Debug)]
pub struct DatasetSpec {
    /// The ruleset label (`--ruleset`).
    pub ruleset: RulesetSpec,
    /// Another board (`--board`), if the label has none.
    pub board: Option<BoardSize>,
    /// Directory of ruleset files consulted before the built-in ones (`--rules-dir`).
    pub rules_dir: PathBuf,
    /// Agent playing White, e.g. `random`, `mcts:sims=200`, `az:model=PATH,sims=100`.
    pub white: String,
    /// Agent playing Black.
    pub black: String,
    /// Number of games (at least 1).
    pub games: u32,
    /// Output directory (created if missing; must not already hold games.jsonl).
    pub out: PathBuf,
    /// Base seed; game i gets a seed derived from it and i (as in `play`).
    pub seed: u64,
    /// Alternate colours: odd-numbered games (1, 3, …; 0-based) swap the two specs.
    pub swap: bool,
    /// Hard ply cap: a game still running after this many plies is a draw (`ply-cap`).
    pub ply_cap: u32,
    /// Leave out the three large arrays (observations, legal masks, policy targets).
    pub light: bool,
    /// Continue an interrupted run in `out` from its [`PARTIAL_FILE`].
    pub resume: bool,
}

/// The journal of a run in progress: a header line naming the run, then one line per
/// finished game (in completion order) with what its samples need beyond a replay of
/// its moves (the search policies). Removed once the dataset is written.
pub const PARTIAL_FILE: &str = "partial.jsonl";

/// One finished game in [`PARTIAL_FILE`].
#[derive(Serialize, Deserialize)]
struct JournalGame {
    game: u32,
    row: GameRow,
    /// Per ply: the action played and the policy target.
    actions: Vec<u32>,
    policies: Vec<Vec<(u32, f32)>>,
}

/// One training position: the position before a move was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The observation, `[planes, H, W]` flattened in C order.
    pub observation: Vec<f32>,
    /// The legal actions (absolute encoding), ascending.
    pub legal: Vec<u32>,
    /// The policy target as `(action, probability)`, probabilities summing to 1.
    pub policy: Vec<(u32, f32)>,
    /// The action played.
    pub action: u32,
    /// Plies played before the position.
    pub ply: u32,
    /// The side to move.
    pub player: Color,
}

/// One game and its positions.
#[derive(Clone, Debug)]
pub struct GameSamples {
    /// The game as `play` describes it.
    pub row: GameRow,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// One sample per ply, in ply order.
    pub samples: Vec<Sample>,
}

impl GameSamples {
    /// The value target of a sample: the result from the mover's point of view.
    pub fn value_for(&self, player: Color) -> f32 {
        match self.winner {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        }
    }
}

/// One line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// 0-based game index.
    pub game: u32,
    /// Ruleset label: its id, or `id@WxH` when the board was changed.
    pub ruleset: String,
    /// `Ruleset::params_hash` as 16 hex digits.
    pub params_hash: String,
    /// Board `[width, height]`.
    pub board: [u8; 2],
    /// Every parameter of the ruleset (the fields of its TOML file).
    pub params: serde_json::Value,
    /// Canonical spec of the White agent.
    pub white: String,
    /// Canonical spec of the Black agent.
    pub black: String,
    /// The game's seed.
    pub seed: u64,
    /// The moves in the notation of docs/rules.md §2, as `play`'s `moves` column writes them.
    pub moves: Vec<String>,
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// The result reason, e.g. `immobilized`.
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// First row of this game's positions in the `.npy` arrays.
    pub first_sample: u64,
    /// Number of rows (one per ply).
    pub samples: u64,
}

/// The winner named by a `winner` column, `None` for a draw.
fn winner_color(text: &str) -> anyhow::Result<Option<Color>> {
    match text {
        "white" => Ok(Some(Color::White)),
        "black" => Ok(Some(Color::Black)),
        "draw" => Ok(None),
        other => anyhow::bail!("unexpected winner '{other}' (expected white, black or draw)"),
    }
}

/// The action of a move, or an error naming the move (it is off the board).
fn encode(space: &ActionSpace, mv: Move) -> anyhow::Result<u32> {
    let a = space
        .try_encode(mv)
        .ok_or_else(|| anyhow::anyhow!("move {mv:?} does not fit the {}x{} action space", space.width, space.height))?;
    Ok(a as u32)
}

/// The sample of the position `before` where `mv` was played, its policy target still
/// empty; an error if `mv` is not legal there.
fn position_sample(
    encoder: &ObservationEncoder,
    space: &ActionSpace,
    before: &Position,
    mv: Move,
) -> anyhow::Result<Sample> {
    let shape = encoder.shape();
    let mut observation = vec![0.0f32; shape.iter().product()];
    encoder.write(before, ArrayViewMut3::from_shape(shape, observation.as_mut_slice())?)?;
    let mut legal =
        before.legal_move_list().into_iter().map(|m| encode(space, m)).collect::<anyhow::Result<Vec<u32>>>()?;
    legal.sort_unstable();
    let action = encode(space, mv)?;
    if legal.binary_search(&action).is_err() {
        anyhow::bail!("move {mv:?} (action {action}) is not among the legal moves");
    }
    Ok(Sample { observation, legal, policy: Vec::new(), action, ply: before.ply(), player: before.side_to_move() })
}

/// The sample of the position `before`, where `agent` chose `mv`.
pub fn sample_of(
    encoder: &ObservationEncoder,
    space: &ActionSpace,
    before: &Position,
    agent: &dyn latrunculi_agents::Agent,
    mv: Move,
) -> anyhow::Result<Sample> {
    let mut sample = position_sample(encoder, space, before, mv)?;
    let (legal, action) = (&sample.legal, sample.action);
    sample.policy = match agent.last_policy() {
        Some(dist) => {
            let mut out = Vec::with_capacity(dist.len());
            for (m, p) in dist {
                let a = encode(space, m)?;
                if legal.binary_search(&a).is_err() || !p.is_finite() || p < 0.0 {
                    anyhow::bail!(
                        "agent '{}' reported a search policy with an illegal move or bad probability: {m:?} {p}",
                        agent.spec()
                    );
                }
                out.push((a, p));
            }
            out.sort_unstable_by_key(|&(a, _)| a);
            out
        }
        None => vec![(action, 1.0)],
    };
    Ok(sample)
}

/// Plays one game (exactly as `play` would) and collects a sample at every ply.
pub fn play_game_samples(job: &GameJob<'_>) -> anyhow::Result<GameSamples> {
    let encoder = ObservationEncoder::new(job.ruleset);
    let space = ActionSpace::for_rules(&job.ruleset.rules());
    let mut samples = Vec::new();
    let row = play_game_observed(job, &mut |before, agent, mv| {
        samples.push(sample_of(&encoder, &space, before, agent, mv)?);
        Ok(())
    })?;
    if samples.len() != row.plies as usize {
        anyhow::bail!("game {}: {} samples for {} plies", job.game, samples.len(), row.plies);
    }
    let winner = winner_color(&row.winner)?;
    Ok(GameSamples { row, winner, samples })
}

/// What a dataset run plays: everything but the output directory.
#[derive(Clone, Debug)]
pub struct DatasetPlan {
    /// The ruleset (board applied).
    pub ruleset: Ruleset,
    /// Its label.
    pub label: String,
    /// Canonical spec of the first agent (White in even games).
    pub a: String,
    /// Canonical spec of the second agent.
    pub b: String,
    /// Number of games.
    pub games: u32,
    /// Base seed.
    pub seed: u64,
    /// Alternate colours.
    pub swap: bool,
    /// Ply cap.
    pub ply_cap: u32,
}

impl DatasetPlan {
    /// Checks the arguments: the ruleset loads, both specs build agents for it (a model
    /// file exists and fits the board), at least one game, a positive ply cap.
    pub fn from_spec(args: &DatasetSpec) -> anyhow::Result<DatasetPlan> {
        if args.games == 0 {
            anyhow::bail!("--games must be at least 1");
        }
        if args.ply_cap == 0 {
            anyhow::bail!("--ply-cap must be at least 1");
        }
        let spec = args.ruleset.clone().with_board(args.board)?;
        let ruleset = spec.resolve(Some(&args.rules_dir))?;
        let label = spec.label_for(&ruleset).to_string();
        let a = canonical_spec(&args.white, &ruleset).context("--white")?;
        let b = canonical_spec(&args.black, &ruleset).context("--black")?;
        Ok(DatasetPlan {
            ruleset,
            label,
            a,
            b,
            games: args.games,
            seed: args.seed,
            swap: args.swap,
            ply_cap: args.ply_cap,
        })
    }

    /// What identifies this run in its journal (every argument that changes the games).
    fn fingerprint(&self) -> String {
        format!(
            "{} {:016x} {} | {} games={} seed={} swap={} ply_cap={}",
            self.label,
            self.ruleset.params_hash(),
            self.a,
            self.b,
            self.games,
            self.seed,
            self.swap,
            self.ply_cap
        )
    }

    /// A journal game's samples, rebuilt by replaying its actions (observations and
    /// legal actions are functions of the positions; the policies come from the journal).
    fn rebuild(&self, j: JournalGame) -> anyhow::Result<GameSamples> {
        let encoder = ObservationEncoder::new(&self.ruleset);
        let space = ActionSpace::for_rules(&self.ruleset.rules());
        let mut pos = Position::new(&self.ruleset);
        pos.set_ply_cap(self.ply_cap);
        if j.actions.len() != j.row.plies as usize || j.policies.len() != j.actions.len() {
            anyhow::bail!(
                "game {}: {} actions and {} policies for {} plies",
                j.game,
                j.actions.len(),
                j.policies.len(),
                j.row.plies
            );
        }
        let mut samples = Vec::with_capacity(j.actions.len());
        for (action, policy) in j.actions.into_iter().zip(j.policies) {
            let mv =
                space.decode(action as usize).map_err(|e| anyhow::anyhow!("game {}: action {action}: {e}", j.game))?;
            let mut sample = position_sample(&encoder, &space, &pos, mv)
                .with_context(|| format!("game {}, ply {} of the replay", j.game, pos.ply() + 1))?;
            sample.policy = policy;
            samples.push(sample);
            pos.play(mv);
        }
        let winner = winner_color(&j.row.winner)?;
        Ok(GameSamples { row: j.row, winner, samples })
    }

    /// Reads the journal in `dir` (the games an interrupted run finished), checking it
    /// belongs to this run; a line cut short by the interruption is dropped.
    fn read_journal(&self, path: &Path) -> anyhow::Result<Vec<GameSamples>> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = text.split_inclusive('\n');
        let header = lines.next().unwrap_or("").trim_end();
        let want = serde_json::to_string(&self.fingerprint())?;
        if header != want {
            anyhow::bail!(
                "{} belongs to another run ({header}); this one is {want}: resume with the same arguments or remove it",
                path.display()
            );
        }
        let mut out: Vec<GameSamples> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for (k, line) in lines.enumerate() {
            if !line.ends_with('\n') {
                eprintln!("{}: dropping a truncated last line", path.display());
                break;
            }
            let j: JournalGame = serde_json::from_str(line)
                .with_context(|| format!("{} line {}: not a journal line", path.display(), k + 2))?;
            if j.game >= self.games || !seen.insert(j.game) {
                anyhow::bail!("{} line {}: game {} is out of range or repeated", path.display(), k + 2, j.game);
            }
            let g = self.rebuild(j).with_context(|| format!("{} line {}", path.display(), k + 2))?;
            out.push(g);
        }
        Ok(out)
    }

    /// Plays every game not yet in `dir`'s journal (all of them unless `resume`) in
    /// parallel (rayon), with a progress bar, appending each finished game to the
    /// journal; results in game order.
    pub fn play_into(&self, dir: &Path, resume: bool) -> anyhow::Result<Vec<GameSamples>> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let journal = dir.join(PARTIAL_FILE);
        let mut done = Vec::new();
        if journal.exists() {
            if !resume {
                anyhow::bail!(
                    "{} holds an interrupted run ({} exists); pass --resume to continue it, or remove the directory",
                    dir.display(),
                    journal.display()
                );
            }
            done = self.read_journal(&journal)?;
            eprintln!("resuming: {} of {} games already in {}", done.len(), self.games, journal.display());
        }
        // The journal rewritten with only its complete lines, then appended to.
        let mut text = serde_json::to_string(&self.fingerprint())?;
        text.push('\n');
        for g in &done {
            text.push_str(&journal_line(g)?);
        }
        let file = Journal::create(&journal, text.as_bytes())?;
        let have: std::collections::BTreeSet<u32> = done.iter().map(|g| g.row.game).collect();
        let bar = progress_bar(self.games as u64, have.len() as u64);
        let todo: Vec<u32> = (0..self.games).filter(|g| !have.contains(g)).collect();
        let new = todo
            .into_par_iter()
            .map(|game| {
                let (white, black) = colours(&self.a, &self.b, game, self.swap);
                let job = GameJob {
                    ruleset: &self.ruleset,
                    label: &self.label,
                    game,
                    seed: game_seed(self.seed, game),
                    white,
                    black,
                    ply_cap: self.ply_cap,
                };
                let out = play_game_samples(&job)?;
                file.append(journal_line(&out)?.as_bytes())?;
                bar.inc(1);
                Ok(out)
            })
            .collect::<anyhow::Result<Vec<_>>>();
        bar.finish_and_clear();
        let mut games = done;
        games.extend(new?);
        games.sort_by_key(|g| g.row.game);
        Ok(games)
    }
}

/// A finished game as a journal line (newline included).
fn journal_line(g: &GameSamples) -> anyhow::Result<String> {
    let j = JournalGame {
        game: g.row.game,
        row: g.row.clone(),
        actions: g.samples.iter().map(|s| s.action).collect(),
        policies: g.samples.iter().map(|s| s.policy.clone()).collect(),
    };
    let mut line = serde_json::to_string(&j)?;
    line.push('\n');
    Ok(line)
}

/// Refuses a directory that already holds a dataset or is not a directory.
pub fn check_out_dir(dir: &Path) -> anyhow::Result<()> {
    let games = dir.join(GAMES_FILE);
    if games.exists() {
        anyhow::bail!(
            "{} already holds a dataset ({} exists); choose another --out or remove that directory first",
            dir.display(),
            games.display()
        );
    }
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", dir.display());
    }
    Ok(())
}

/// Writes `path` through a temporary file in the same directory, renamed into place
/// once complete and synced (a crash leaves no half-written `path`).
fn write_atomically(path: &Path, write: impl FnOnce(&mut File) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = File::create(&tmp)
        .map_err(anyhow::Error::from)
        .and_then(|mut f| {
            write(&mut f)?;
            f.sync_all()?;
            Ok(())
        })
        .and_then(|()| Ok(std::fs::rename(&tmp, path)?));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Writes an `.npy` array of `shape` (C order) atomically without holding it in
/// memory: the header comes from `ndarray-npy`, then each of the `shape[0]` rows (of
/// `shape[1..]` elements, 1 for a 1-D array) is filled by `fill(row, buf)` into a
/// buffer reset to `zero`.
fn write_npy_rows<T: WritableElement + Clone>(
    path: &Path,
    shape: &[usize],
    zero: T,
    mut fill: impl FnMut(usize, &mut [T]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let rows = shape.first().copied().unwrap_or(0);
    let row_len: usize = shape.iter().skip(1).product();
    let data_bytes = (rows * row_len * std::mem::size_of::<T>()) as u64;
    write_atomically(path, |file| {
        ndarray_npy::write_zeroed_npy::<T, _>(file, ndarray::IxDyn(shape))?;
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(len - data_bytes))?;
        let mut out = BufWriter::new(&*file);
        let mut buf = vec![zero.clone(); row_len];
        for r in 0..rows {
            buf.fill(zero.clone());
            fill(r, &mut buf)?;
            T::write_slice(&buf, &mut out)?;
        }
        out.flush()?;
        Ok(())
    })
}

/// Quotes a word for a POSIX shell when it needs it.
fn shell_word(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "_./:=,@+-".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The command line that makes this dataset (without the binary's path).
fn command_line(args: &DatasetSpec) -> String {
    let mut words =
        vec!["latrunculi".to_string(), "dataset".into(), "--ruleset".into(), shell_word(&args.ruleset.to_string())];
    if let Some(b) = &args.board {
        words.extend(["--board".into(), b.to_string()]);
    }
    if args.rules_dir != Path::new(latrunculi_rules::DEFAULT_RULES_DIR) {
        words.extend(["--rules-dir".into(), shell_word(&args.rules_dir.display().to_string())]);
    }
    words.extend([
        "--white".into(),
        shell_word(&args.white),
        "--black".into(),
        shell_word(&args.black),
        "--games".into(),
        args.games.to_string(),
        "--seed".into(),
        args.seed.to_string(),
    ]);
    if args.swap {
        words.push("--swap".into());
    }
    if args.light {
        words.push("--light".into());
    }
    words.extend([
        "--ply-cap".into(),
        args.ply_cap.to_string(),
        "--out".into(),
        shell_word(&args.out.display().to_string()),
    ]);
    words.join(" ")
}

/// Writes a played dataset into `dir` (which [`check_out_dir`] accepts): the arrays,
/// `meta.json`, then `games.jsonl`. Returns the number of samples.
pub fn write_dataset(dir: &Path, args: &DatasetSpec, plan: &DatasetPlan, games: &[GameSamples]) -> anyhow::Result<u64> {
    check_out_dir(dir)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let rs = &plan.ruleset;
    let shape = ObservationEncoder::new(rs).shape();
    let actions = ActionSpace::for_rules(&rs.rules()).size();
    let rows: Vec<(&GameSamples, &Sample)> = games.iter().flat_map(|g| g.samples.iter().map(move |s| (g, s))).collect();
    let s = rows.len();

    if !args.light {
        write_npy_rows(&dir.join(OBSERVATIONS_FILE), &[s, shape[0], shape[1], shape[2]], 0f32, |i, out| {
            out.copy_from_slice(&rows[i].1.observation);
            Ok(())
        })?;
        write_npy_rows(&dir.join(LEGAL_MASKS_FILE), &[s, actions], false, |i, out| {
            for &a in &rows[i].1.legal {
                out[a as usize] = true;
            }
            Ok(())
        })?;
        write_npy_rows(&dir.join(POLICY_FILE), &[s, actions], 0f32, |i, out| {
            for &(a, p) in &rows[i].1.policy {
                out[a as usize] = p;
            }
            Ok(())
        })?;
    }
    write_npy_rows(&dir.join(ACTIONS_FILE), &[s], 0i32, |i, out| {
        out[0] = i32::try_from(rows[i].1.action)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(VALUE_FILE), &[s], 0f32, |i, out| {
        out[0] = rows[i].0.value_for(rows[i].1.player);
        Ok(())
    })?;
    write_npy_rows(&dir.join(PLIES_FILE), &[s], 0i32, |i, out| {
        out[0] = i32::try_from(rows[i].1.ply)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(GAMES_NPY_FILE), &[s], 0i32, |i, out| {
        out[0] = i32::try_from(rows[i].0.row.game)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(PLAYERS_FILE), &[s], 0i8, |i, out| {
        out[0] = rows[i].1.player.index() as i8;
        Ok(())
    })?;

    let params = serde_json::to_value(rs).context("cannot convert the ruleset's parameters to JSON")?;
    let board = [rs.width, rs.height];
    let rows_of = games.iter().map(|g| g.samples.len() as u64);
    let mut lines = Vec::new();
    let mut first = 0u64;
    for (g, n) in games.iter().zip(rows_of) {
        let r = &g.row;
        let line = GameLine {
            game: r.game,
            ruleset: r.ruleset.clone(),
            params_hash: r.params_hash.clone(),
            board,
            params: params.clone(),
            white: r.white.clone(),
            black: r.black.clone(),
            seed: r.seed,
            moves: if r.moves.is_empty() { Vec::new() } else { r.moves.split(' ').map(str::to_string).collect() },
            winner: r.winner.clone(),
            reason: r.reason.clone(),
            plies: r.plies,
            first_sample: first,
            samples: n,
        };
        first += n;
        lines.extend(serde_json::to_vec(&line)?);
        lines.push(b'\n');
    }

    let all_rows: Vec<GameRow> = games.iter().map(|g| g.row.clone()).collect();
    let (w, b, d, mean) = tally(&all_rows);
    let npy = |dtype: &str, shape: Vec<usize>| serde_json::json!({ "dtype": dtype, "shape": shape });
    let mut meta = serde_json::json!({
        "format": "latrunculi-dataset",
        "format_version": FORMAT_VERSION,
        "latrunculi_version": env!("CARGO_PKG_VERSION"),
        "ruleset": plan.label,
        "ruleset_id": rs.id,
        "params_hash": format!("{:016x}", rs.params_hash()),
        "board": board,
        "planes": PLANES.iter().map(|p| p.name).collect::<Vec<_>>(),
        "plane_docs": PLANES.iter().map(|p| p.doc).collect::<Vec<_>>(),
        "observation_shape": shape,
        "action_space_size": actions,
        "games": games.len(),
        "samples": s,
        "results": { "white": w, "black": b, "draw": d, "mean_plies": mean },
        "files": {
            OBSERVATIONS_FILE: npy("float32", vec![s, shape[0], shape[1], shape[2]]),
            LEGAL_MASKS_FILE: npy("bool", vec![s, actions]),
            POLICY_FILE: npy("float32", vec![s, actions]),
            ACTIONS_FILE: npy("int32", vec![s]),
            VALUE_FILE: npy("float32", vec![s]),
            PLIES_FILE: npy("int32", vec![s]),
            GAMES_NPY_FILE: npy("int32", vec![s]),
            PLAYERS_FILE: npy("int8", vec![s]),
        },
        "args": {
            "ruleset": args.ruleset.to_string(),
            "board": args.board.map(|b| b.to_string()),
            "rules_dir": args.rules_dir.display().to_string(),
            "white": args.white,
            "black": args.black,
            "white_canonical": plan.a,
            "black_canonical": plan.b,
            "games": args.games,
            "seed": args.seed,
            "swap": args.swap,
            "ply_cap": args.ply_cap,
            "out": args.out.display().to_string(),
        },
        "command": command_line(args),
    });
    if args.light {
        meta["light"] = serde_json::Value::Bool(true);
        if let Some(files) = meta["files"].as_object_mut() {
            for f in [OBSERVATIONS_FILE, LEGAL_MASKS_FILE, POLICY_FILE] {
                files.remove(f);
            }
        }
    }
    let mut meta_bytes = serde_json::to_vec_pretty(&meta)?;
    meta_bytes.push(b'\n');
    write_atomically(&dir.join(META_FILE), |f| Ok(f.write_all(&meta_bytes)?))?;
    // Last: games.jsonl marks the dataset as complete.
    check_out_dir(dir)?;
    write_atomically(&dir.join(GAMES_FILE), |f| Ok(f.write_all(&lines)?))?;
    Ok(s as u64)
}

/// `--resume` on a finished dataset: nothing to play, once its games are this run's.
fn finished_already(dir: &Path, plan: &DatasetPlan) -> anyhow::Result<u32> {
    let path = dir.join(GAMES_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let hash = format!("{:016x}", plan.ruleset.params_hash());
    let mut n = 0u32;
    for (k, line) in text.lines().enumerate() {
        let g: GameLine = serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), k + 1))?;
        let (white, black) = colours(&plan.a, &plan.b, g.game, plan.swap);
        if g.game != n || g.ruleset != plan.label || g.params_hash != hash || g.white != white || g.black != black {
            anyhow::bail!(
                "{} line {}: the finished dataset there is not this run's (game {} of {} by {} vs {}); choose another --out",
                path.display(),
                k + 1,
                g.game,
                g.ruleset,
                g.white,
                g.black
            );
        }
        n += 1;
    }
    if n != plan.games {
        anyhow::bail!("{} holds {n} games, this run asks for {}; choose another --out", path.display(), plan.games);
    }
    Ok(n)
}

/// What [`run_dataset`] did.
#[derive(Clone, Debug)]
pub enum DatasetOutcome {
    /// With `resume`, the directory already held this run's finished dataset of `games`
    /// games: nothing was played or written.
    Finished {
        /// The games of the finished dataset.
        games: u32,
    },
    /// The dataset was played (or its interrupted run completed) and written.
    Written {
        /// The ruleset's label.
        label: String,
        /// The games, in game order.
        rows: Vec<GameRow>,
        /// The number of samples (positions).
        samples: u64,
    },
}

/// Plays and writes the dataset of `spec` into `spec.out` (see the module docs): checks
/// the settings ([`DatasetPlan::from_spec`]) and the directory ([`check_out_dir`]) before
/// playing, resumes from the journal with `spec.resume`, and removes the journal once
/// the dataset is complete.
pub fn run_dataset(args: &DatasetSpec) -> anyhow::Result<DatasetOutcome> {
    let plan = DatasetPlan::from_spec(args)?;
    if args.resume && args.out.join(GAMES_FILE).exists() {
        return Ok(DatasetOutcome::Finished { games: finished_already(&args.out, &plan)? });
    }
    // Refuse before playing, not after hours of games.
    check_out_dir(&args.out)?;
    let games = plan.play_into(&args.out, args.resume)?;
    let samples = write_dataset(&args.out, args, &plan, &games)?;
    // The dataset is complete (games.jsonl written last): the journal has served.
    let journal = args.out.join(PARTIAL_FILE);
    std::fs::remove_file(&journal).with_context(|| format!("cannot remove {}", journal.display()))?;
    let rows: Vec<GameRow> = games.into_iter().map(|g| g.row).collect();
    Ok(DatasetOutcome::Written { label: plan.label, rows, samples })
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::notation::parse_move;
    use latrunculi_rules::record::GameRecord;
    use latrunculi_rules::replay::{ReplayOptions, replay};
    use ndarray::{Array1, Array2, Array4};
    use ndarray_npy::read_npy;

    /// A fresh scratch directory (not created) for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("latrunculi-dataset-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn args(ruleset: &str, board: Option<&str>, white: &str, black: &str, games: u32, out: &Path) -> DatasetSpec {
        DatasetSpec {
            ruleset: ruleset.parse().expect("a ruleset label"),
            board: board.map(|b| b.parse().expect("a board")),
            rules_dir: PathBuf::from(latrunculi_rules::DEFAULT_RULES_DIR),
            white: white.to_string(),
            black: black.to_string(),
            games,
            out: out.to_path_buf(),
            seed: 5,
            swap: true,
            ply_cap: latrunculi_rules::DEFAULT_PLY_CAP,
            light: false,
            resume: false,
        }
    }

    fn read_games(dir: &Path) -> Vec<GameLine> {
        let text = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("games.jsonl");
        text.lines().map(|l| serde_json::from_str(l).expect("a JSON game line")).collect()
    }

    /// Every array of a dataset, read back with ndarray-npy only.
    struct Arrays {
        obs: Array4<f32>,
        masks: Array2<bool>,
        policy: Array2<f32>,
        value: Array1<f32>,
        actions: Array1<i32>,
        plies: Array1<i32>,
        games: Array1<i32>,
        players: Array1<i8>,
    }

    fn read_arrays(dir: &Path) -> Arrays {
        Arrays {
            obs: read_npy(dir.join(OBSERVATIONS_FILE)).expect("observations"),
            masks: read_npy(dir.join(LEGAL_MASKS_FILE)).expect("masks"),
            policy: read_npy(dir.join(POLICY_FILE)).expect("policy"),
            value: read_npy(dir.join(VALUE_FILE)).expect("value"),
            actions: read_npy(dir.join(ACTIONS_FILE)).expect("actions"),
            plies: read_npy(dir.join(PLIES_FILE)).expect("plies"),
            games: read_npy(dir.join(GAMES_NPY_FILE)).expect("games"),
            players: read_npy(dir.join(PLAYERS_FILE)).expect("players"),
        }
    }

    fn error_of(a: &DatasetSpec) -> String {
        match run_dataset(a) {
            Ok(_) => String::new(),
            Err(e) => format!("{e:#}"),
        }
    }

    /// Checks what holds for every dataset: shapes, per-game ranges, masks, policy rows,
    /// value targets, and that the moves replay to the stated result. Returns (games, S).
    fn check_consistent(dir: &Path, rs: &Ruleset) -> (Vec<GameLine>, Arrays) {
        let games = read_games(dir);
        let a = read_arrays(dir);
        let s: u64 = games.iter().map(|g| g.samples).sum();
        let s = s as usize;
        let actions = ActionSpace::for_rules(&rs.rules()).size();
        let (w, h) = (rs.width as usize, rs.height as usize);
        assert_eq!(a.obs.shape(), &[s, PLANES.len(), h, w]);
        assert_eq!(a.masks.shape(), &[s, actions]);
        assert_eq!(a.policy.shape(), &[s, actions]);
        for len in [a.value.len(), a.actions.len(), a.plies.len(), a.games.len(), a.players.len()] {
            assert_eq!(len, s);
        }
        let mut next = 0u64;
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.game as usize, i, "games in order");
            assert_eq!(g.first_sample, next, "game {i}: rows are contiguous");
            assert_eq!(g.samples, g.plies as u64);
            assert_eq!(g.moves.len(), g.plies as usize);
            assert_eq!(g.board, [rs.width, rs.height]);
            assert_eq!(g.params, serde_json::to_value(rs).unwrap());
            next += g.samples;
            let winner = winner_color(&g.winner).expect("a known winner");
            for (k, r) in (g.first_sample as usize..next as usize).enumerate() {
                assert_eq!(a.games[r], g.game as i32);
                assert_eq!(a.plies[r], k as i32, "game {i}: plies count up from 0");
                let player = if a.players[r] == 0 { Color::White } else { Color::Black };
                assert!(a.players[r] == 0 || a.players[r] == 1);
                let expected = match winner {
                    None => 0.0,
                    Some(c) if c == player => 1.0,
                    Some(_) => -1.0,
                };
                assert_eq!(a.value[r], expected, "row {r}");
                let act = usize::try_from(a.actions[r]).expect("a non-negative action");
                assert!(a.masks[[r, act]], "row {r}: the played action is legal");
                assert!(a.policy[[r, act]] > 0.0, "row {r}: the played move has policy mass");
                let row = a.policy.row(r);
                let sum: f32 = row.sum();
                assert!((sum - 1.0).abs() < 1e-5, "row {r} sums to {sum}");
                for (x, (&p, &legal)) in row.iter().zip(a.masks.row(r)).enumerate() {
                    assert!(p >= 0.0);
                    assert!(legal || p == 0.0, "row {r}: policy {p} on illegal action {x}");
                }
            }
            // The moves replay through the rules engine to the stated result.
            let record =
                format!("[Ruleset \"{}\"]\n[Board \"{}x{}\"]\n\n{} *\n", rs.id, rs.width, rs.height, g.moves.join(" "));
            let report = replay(&GameRecord::parse(&record).unwrap(), ReplayOptions::default()).unwrap();
            assert_eq!(report.illegal_moves().count(), 0, "game {i}");
            assert_eq!(report.warnings().count(), 0, "game {i}");
            if g.reason == "ply-cap" && g.plies < latrunculi_rules::DEFAULT_PLY_CAP {
                // A game cut by a lower ply cap than the replay's goes on there.
                assert_eq!((report.outcome, g.winner.as_str()), (None, "draw"), "game {i}");
            } else {
                let outcome = report.outcome.expect("the replayed game ends");
                assert_eq!((outcome.winner_text(), outcome.reason.name()), (g.winner.as_str(), g.reason.as_str()));
            }
        }
        assert_eq!(next as usize, s);
        (games, a)
    }

    #[test]
    fn a_sixteen_file_board_makes_a_consistent_dataset() {
        // 16 files by 11 ranks (Ludii's largest Seega board): 176 squares, 31,504 actions.
        let dir = scratch("wide");
        let mut a = args("kowalski", Some("16x11"), "random", "greedy", 2, &dir);
        a.ply_cap = 40;
        run_dataset(&a).unwrap();
        let plan = DatasetPlan::from_spec(&a).unwrap();
        let (games, arr) = check_consistent(&dir, &plan.ruleset);
        assert_eq!(games.len(), 2);
        assert_eq!(arr.masks.ncols(), 176 * 176 + 3 * 176);
        assert_eq!(arr.obs.shape()[2..], [11, 16]);
        // Moves on file p are written and replayed.
        assert!(games.iter().flat_map(|g| &g.moves).any(|m| m.contains('p')), "no move touches file p");
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(META_FILE)).unwrap()).expect("meta.json is JSON");
        assert_eq!(meta["board"], serde_json::json!([16, 11]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn round_trip_arrays_hold_what_was_played() {
        let dir = scratch("round-trip");
        let a = args("kowalski", Some("6x6"), "random", "mcts:sims=20", 3, &dir);
        run_dataset(&a).unwrap();
        let plan = DatasetPlan::from_spec(&a).unwrap();
        let (games, arr) = check_consistent(&dir, &plan.ruleset);
        // What the writer computed, played again: the same games and rows.
        let replay_dir = scratch("round-trip-replay");
        let played = plan.play_into(&replay_dir, false).unwrap();
        assert_eq!(played.len(), 3);
        // The journal of that run rebuilds exactly the same samples (what a resume keeps).
        let rebuilt = plan.read_journal(&replay_dir.join(PARTIAL_FILE)).unwrap();
        let mut rebuilt_sorted = rebuilt;
        rebuilt_sorted.sort_by_key(|g| g.row.game);
        for (a, b) in played.iter().zip(&rebuilt_sorted) {
            assert_eq!((&a.row, a.winner, &a.samples), (&b.row, b.winner, &b.samples));
        }
        let _ = std::fs::remove_dir_all(&replay_dir);
        let mut searched_rows = 0;
        for (g, line) in played.iter().zip(&games) {
            assert_eq!(line.moves.join(" "), g.row.moves);
            assert_eq!((line.white.as_str(), line.black.as_str()), (g.row.white.as_str(), g.row.black.as_str()));
            for (k, s) in g.samples.iter().enumerate() {
                let r = line.first_sample as usize + k;
                assert_eq!(
                    arr.obs.slice(ndarray::s![r, .., .., ..]).iter().copied().collect::<Vec<f32>>(),
                    s.observation
                );
                let mask: Vec<u32> = (0..arr.masks.ncols()).filter(|&x| arr.masks[[r, x]]).map(|x| x as u32).collect();
                assert_eq!(mask, s.legal);
                assert_eq!(arr.actions[r] as u32, s.action);
                assert!(arr.masks[[r, s.action as usize]], "row {r}: the played action is legal");
                let policy: Vec<(u32, f32)> = (0..arr.policy.ncols())
                    .filter(|&x| arr.policy[[r, x]] != 0.0)
                    .map(|x| (x as u32, arr.policy[[r, x]]))
                    .collect();
                assert_eq!(policy, s.policy);
                let spec = if s.player == Color::White { &line.white } else { &line.black };
                if spec == "random" {
                    assert_eq!(policy, vec![(s.action, 1.0)], "row {r}: one-hot on the move played");
                } else if policy.len() > 1 {
                    searched_rows += 1;
                    // A visit distribution: the move played is a most visited one.
                    let best = policy.iter().map(|&(_, p)| p).fold(0.0, f32::max);
                    assert_eq!(arr.policy[[r, s.action as usize]], best, "row {r}");
                }
            }
        }
        assert!(searched_rows > 10, "mcts rows hold visit distributions ({searched_rows})");
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(META_FILE)).unwrap()).expect("meta.json is JSON");
        assert_eq!(meta["samples"], serde_json::json!(arr.value.len()));
        assert_eq!(meta["action_space_size"], serde_json::json!(arr.policy.ncols()));
        assert_eq!(meta["planes"][0], "own_soldiers");
        assert_eq!(meta["board"], serde_json::json!([6, 6]));
        // No temporary file is left behind.
        let names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 10, "{names:?}");
        assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn observations_equal_the_encoder_on_replayed_positions() {
        let dir = scratch("replayed");
        let mut a = args("petteia-xxi", None, "greedy", "mcts:sims=10", 2, &dir);
        a.ply_cap = 150;
        run_dataset(&a).unwrap();
        let rs = Ruleset::builtin("petteia-xxi").unwrap();
        let encoder = ObservationEncoder::new(&rs);
        let space = ActionSpace::for_rules(&rs.rules());
        let games = read_games(&dir);
        let arr = read_arrays(&dir);
        for g in &games {
            let mut pos = Position::new(&rs);
            pos.set_ply_cap(a.ply_cap);
            for (k, token) in g.moves.iter().enumerate() {
                let r = g.first_sample as usize + k;
                let mut obs = ndarray::Array3::<f32>::zeros(encoder.shape());
                encoder.write(&pos, obs.view_mut()).unwrap();
                assert_eq!(arr.obs.slice(ndarray::s![r, .., .., ..]), obs, "game {} ply {k}", g.game);
                assert_eq!(arr.players[r] as usize, pos.side_to_move().index());
                let mut legal: Vec<usize> = pos.legal_move_list().into_iter().map(|m| space.encode(m)).collect();
                legal.sort_unstable();
                let mask: Vec<usize> = (0..arr.masks.ncols()).filter(|&x| arr.masks[[r, x]]).collect();
                assert_eq!(mask, legal, "game {} ply {k}", g.game);
                let mv = parse_move(&rs, &pos, token).unwrap().mv;
                assert_eq!(arr.actions[r] as usize, space.encode(mv), "game {} ply {k}: the move played", g.game);
                assert!(arr.masks[[r, space.encode(mv)]]);
                if (pos.side_to_move() == Color::White) == (g.white == "greedy") {
                    assert_eq!(arr.policy[[r, space.encode(mv)]], 1.0, "greedy rows are one-hot");
                }
                pos.play(mv);
            }
            let outcome = pos.outcome().expect("the game is over after its moves");
            assert_eq!((outcome.winner_text(), outcome.reason.name()), (g.winner.as_str(), g.reason.as_str()));
        }
        check_consistent(&dir, &rs);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn refuses_a_directory_that_holds_a_dataset() {
        let dir = scratch("refuse");
        let a = args("kowalski", Some("6x6"), "random", "greedy", 1, &dir);
        run_dataset(&a).unwrap();
        let before = std::fs::read(dir.join(GAMES_FILE)).unwrap();
        let e = error_of(&a);
        assert!(
            e.contains("already holds a dataset") && e.contains("games.jsonl") && e.contains("another --out"),
            "{e}"
        );
        assert_eq!(std::fs::read(dir.join(GAMES_FILE)).unwrap(), before, "the dataset is untouched");
        // An --out that is a file.
        let file = dir.join("meta.json");
        let e = error_of(&args("kowalski", Some("6x6"), "random", "greedy", 1, &file));
        assert!(e.contains("not a directory"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn same_arguments_give_the_same_files() {
        let (d1, d2, d3) = (scratch("same-1"), scratch("same-2"), scratch("same-3"));
        run_dataset(&args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d1)).unwrap();
        run_dataset(&args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d2)).unwrap();
        let mut other = args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d3);
        other.seed = 6;
        run_dataset(&other).unwrap();
        for name in [GAMES_FILE, OBSERVATIONS_FILE, LEGAL_MASKS_FILE, POLICY_FILE, VALUE_FILE, ACTIONS_FILE, PLIES_FILE]
        {
            assert_eq!(std::fs::read(d1.join(name)).unwrap(), std::fs::read(d2.join(name)).unwrap(), "{name}");
        }
        assert_ne!(std::fs::read(d1.join(GAMES_FILE)).unwrap(), std::fs::read(d3.join(GAMES_FILE)).unwrap());
        for d in [d1, d2, d3] {
            std::fs::remove_dir_all(&d).ok();
        }
    }

    /// Saves an untrained tiny network for `rs`'s board into `dir` and returns its path.
    fn tiny_model(rs: &Ruleset, dir: &Path) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let cfg = latrunculi_az::TrainConfig::default().network_config(rs).with_blocks(1).with_channels(4);
        let net = cfg.init(&latrunculi_az::device::inference());
        let meta = latrunculi_az::CheckpointMeta::new(&cfg, &rs.id, rs.params_hash(), 0);
        let path = dir.join(format!("tiny-{}x{}.az", rs.width, rs.height));
        latrunculi_az::checkpoint::save(&path, &net, &meta).unwrap();
        path
    }

    #[test]
    fn bad_inputs_are_clear_errors_and_write_nothing() {
        let models = scratch("models");
        let small = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
        let model = tiny_model(&small, &models);
        let out = scratch("bad-out");
        let cases = [
            ("alphazero", 1, vec!["--white", "unknown agent 'alphazero'", "valid agents"]),
            ("mcts:sims=0", 1, vec!["--white", "sims", "positive integer"]),
            ("mcts", 1, vec!["missing key 'sims'"]),
            ("az:model=/nonexistent/x.az", 1, vec!["/nonexistent/x.az"]),
            (&format!("az:model={}", model.display()), 1, vec!["5x5", "6x6", "board sizes must match"]),
            ("random", 0, vec!["--games must be at least 1"]),
        ];
        for (spec, games, needles) in cases {
            let e = error_of(&args("kowalski", Some("6x6"), spec, "random", games, &out));
            for n in needles {
                assert!(e.contains(n), "{spec}: '{e}' lacks '{n}'");
            }
            assert!(!out.exists(), "{spec}: nothing is written");
        }
        let e = error_of(&args("kowalski", Some("6x6"), "random", "greedy:x=1", 1, &out));
        assert!(e.contains("--black") && e.contains("takes no parameters"), "{e}");
        let e = error_of(&args("no-such-ruleset", None, "random", "random", 1, &out));
        assert!(e.contains("no-such-ruleset"), "{e}");
        std::fs::remove_dir_all(&models).ok();
    }

    #[test]
    fn az_rows_hold_visit_distributions() {
        let dir = scratch("az");
        let models = scratch("az-models");
        let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
        let model = tiny_model(&rs, &models);
        let spec = format!("az:model={},sims=12,leaves=4", model.display());
        run_dataset(&args("kowalski", Some("6x6"), &spec, "random", 1, &dir)).unwrap();
        let (games, arr) = check_consistent(&dir, &rs);
        let g = &games[0];
        assert_eq!(g.white, spec);
        let mut spread = 0;
        for r in g.first_sample as usize..(g.first_sample + g.samples) as usize {
            if arr.players[r] == 0 && arr.policy.row(r).iter().filter(|&&p| p > 0.0).count() > 1 {
                spread += 1;
            }
        }
        assert!(spread > 3, "az rows hold visit distributions ({spread})");
        std::fs::remove_dir_all(&dir).ok();
        std::fs::remove_dir_all(&models).ok();
    }
}
