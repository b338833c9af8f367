//! The AlphaZero player, `az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]`,
//! and its agent kind ([`AzKind`], described by [`AZ`]), which a program adds to its
//! player factory ([`players`], or `Players::with`) so that its specs may name it. The
//! networks loaded are kept by the kind added (one load per file and version, shared by
//! every game of the factory), not in a global cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use burn::module::Module;
use latrunculi_agents::{Agent, AgentError, AgentKind, AgentOption, KindSpec, PlayerKind, Players, RawSpec, Report};
use latrunculi_rules::{Move, Position, Ruleset};

use crate::AzError;
use crate::checkpoint::{self, CheckpointMeta};
use crate::model::{Network, NetworkConfig};
use crate::search::{BoardTables, SearchConfig, Tree, search};

/// The `az` agent kind: PUCT search guided by a network. Defaults: 200 simulations, `c`
/// 1.5, 8 leaves per batch; `su`, the score utility, `fpu`, the first-play-urgency
/// reduction, `gumbel`, the root moves of a Gumbel search, and `wincheck`, the win-in-one
/// check, default to the values the model was trained with. A model file that is
/// missing, damaged or made for another board size is an error naming the file; so is a
/// model trained on other rules of the same board size (say, a `kowalski` network asked
/// to play `kowalski-parcae`) unless the spec says `anyrules=1`.
pub static AZ: AgentKind = AgentKind {
    name: "az",
    summary: "PUCT search guided by a trained network",
    usage_text: None,
    options: &[
        AgentOption { key: "model", value: "PATH", required: true, meaning: "checkpoint file (.az)" },
        AgentOption {
            key: "sims",
            value: "N",
            required: false,
            meaning: "simulations per move (default 200; 1: the network's highest-prior move)",
        },
        AgentOption { key: "c", value: "C", required: false, meaning: "PUCT exploration constant (default 1.5)" },
        AgentOption {
            key: "leaves",
            value: "L",
            required: false,
            meaning: "leaves per batched evaluation, 1 to 256 (default 8)",
        },
        AgentOption {
            key: "su",
            value: "S",
            required: false,
            meaning: "score utility, -1 to 1 (default: the model's)",
        },
        AgentOption {
            key: "fpu",
            value: "R",
            required: false,
            meaning: "first-play-urgency reduction, 0 to 2 (default: the model's)",
        },
        AgentOption {
            key: "gumbel",
            value: "M",
            required: false,
            meaning: "root moves of a Gumbel search, 0 (PUCT) to 1024 (default: the model's)",
        },
        AgentOption {
            key: "wincheck",
            value: "0|1",
            required: false,
            meaning: "win-in-one check (default: the model's)",
        },
        AgentOption {
            key: "anyrules",
            value: "0|1",
            required: false,
            meaning: "1: play a ruleset other than the model's (same board); default 0 refuses it",
        },
    ],
};

/// The message of an error and of every error under it, joined by `: `.
fn full_message(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

/// A loaded model's identity: its path, size and modification time (a file rewritten
/// since, such as a training run's `latest.az`, is loaded again).
type ModelKey = (PathBuf, u64, Option<std::time::SystemTime>);

/// Networks loaded by path, so that many games share one load. Owned by the [`AzKind`]
/// that made the specs (and so by whoever runs the games); dropped with it.
#[derive(Default)]
pub struct ModelCache {
    loaded: Mutex<HashMap<ModelKey, (CheckpointMeta, Network)>>,
}

impl std::fmt::Debug for ModelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.loaded.lock().map(|m| m.len()).unwrap_or(0);
        f.debug_struct("ModelCache").field("models", &n).finish()
    }
}

impl ModelCache {
    /// The networks held.
    pub fn len(&self) -> usize {
        self.loaded.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Whether no network is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The model of `path`, loaded once per file and version.
    pub fn load(&self, path: &Path) -> Result<(CheckpointMeta, Network), AzError> {
        crate::device::selected()?;
        let file = std::fs::metadata(path)
            .map_err(|source| crate::CheckpointError::Io { path: path.to_path_buf(), source })?;
        let key = (path.canonicalize().unwrap_or_else(|_| path.to_path_buf()), file.len(), file.modified().ok());
        if let Ok(cache) = self.loaded.lock()
            && let Some(hit) = cache.get(&key)
        {
            return Ok(hit.clone());
        }
        let (meta, net) = checkpoint::load(path, &crate::device::inference())?;
        let net = net.valid();
        if let Ok(mut cache) = self.loaded.lock() {
            cache.insert(key, (meta.clone(), net.clone()));
        }
        Ok((meta, net))
    }
}

/// The `az` kind as a player factory adds it: it reads `az` specs and keeps the networks
/// their agents load ([`ModelCache`]).
#[derive(Debug, Default)]
pub struct AzKind {
    cache: Arc<ModelCache>,
}

impl AzKind {
    /// The kind, with an empty cache of networks.
    pub fn new() -> AzKind {
        AzKind::default()
    }

    /// The networks this kind's agents have loaded.
    pub fn cache(&self) -> &Arc<ModelCache> {
        &self.cache
    }
}

impl PlayerKind for AzKind {
    fn kind(&self) -> &AgentKind {
        &AZ
    }

    fn parse(&self, raw: &RawSpec) -> Result<Arc<dyn KindSpec>, AgentError> {
        Ok(Arc::new(AzSpec { options: AzOptions::read(raw)?, cache: Arc::clone(&self.cache) }))
    }
}

/// The player factory of a program with networks: the kinds of `latrunculi-agents` and
/// `az` (with a cache of its own).
pub fn players() -> Players {
    Players::baseline().with(Arc::new(AzKind::new())).expect("'az' is no name of latrunculi-agents")
}

/// The typed value of an `az` spec: its options and the cache its agents load models by.
#[derive(Clone, Debug)]
pub struct AzSpec {
    options: AzOptions,
    cache: Arc<ModelCache>,
}

impl KindSpec for AzSpec {
    fn build(&self, spec: &str, ruleset: Option<&Ruleset>) -> Result<Box<dyn Agent>, AgentError> {
        let ruleset = ruleset.ok_or_else(|| AgentError::Build {
            spec: spec.to_string(),
            message: "an az agent is built for the ruleset of its games".to_string(),
        })?;
        let agent = AzAgent::from_options(spec, &self.options, &self.cache, ruleset)
            .map_err(|e| AgentError::Build { spec: spec.to_string(), message: full_message(&e) })?;
        Ok(Box::new(agent))
    }

    fn simulations(&self) -> Option<u32> {
        Some(self.options.cfg.sims)
    }

    fn model(&self) -> Option<&Path> {
        Some(&self.options.model)
    }

    fn with_model(&self, path: PathBuf) -> Option<Arc<dyn KindSpec>> {
        let mut new = self.clone();
        new.options.model = path;
        Some(Arc::new(new))
    }
}

/// The options of an `az` spec, read and range-checked.
#[derive(Clone, Debug)]
struct AzOptions {
    model: PathBuf,
    cfg: SearchConfig,
    su: Option<f32>,
    fpu: Option<f32>,
    gumbel: Option<u32>,
    wincheck: Option<bool>,
    anyrules: bool,
}

impl AzOptions {
    fn read(spec: &RawSpec) -> Result<AzOptions, AgentError> {
        let number = |k: &str, lo: f32, hi: f32, expected: &'static str| {
            spec.value(k, expected, |v| v.parse().ok().filter(|x: &f32| x.is_finite() && (lo..=hi).contains(x)))
        };
        let mut cfg = SearchConfig::default();
        if let Some(n) = spec.positive("sims")? {
            cfg.sims = n;
        }
        if let Some(c) =
            spec.value("c", "a finite number >= 0", |v| v.parse().ok().filter(|c: &f32| c.is_finite() && *c >= 0.0))?
        {
            cfg.c_puct = c;
        }
        if let Some(l) = spec
            .value("leaves", "an integer from 1 to 256", |v| v.parse().ok().filter(|&n: &u32| (1..=256).contains(&n)))?
        {
            cfg.leaves_per_round = l;
        }
        Ok(AzOptions {
            model: PathBuf::from(spec.get("model").unwrap_or_default()),
            cfg,
            su: number("su", -1.0, 1.0, "a number from -1 to 1")?,
            fpu: number("fpu", 0.0, 2.0, "a number from 0 to 2")?,
            gumbel: spec
                .value("gumbel", "an integer from 0 (PUCT) to 1024", |v| v.parse().ok().filter(|&n: &u32| n <= 1024))?,
            wincheck: spec.value("wincheck", "0 (off) or 1 (on)", on_off)?,
            anyrules: spec.value("anyrules", "0 (refuse other rules) or 1 (play them)", on_off)?.unwrap_or(false),
        })
    }
}

/// `0` and `1` as a switch.
fn on_off(v: &str) -> Option<bool> {
    match v {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Checks that a network made for `meta`'s board can play `ruleset`'s games.
pub fn check_board(meta: &CheckpointMeta, ruleset: &Ruleset, what: &str) -> Result<(), AzError> {
    use latrunculi_sim::{NUM_PLANES, NUM_TACTICAL_PLANES};
    let observed = meta.planes.saturating_sub(meta.rule_features.len());
    if observed != NUM_PLANES && observed != NUM_PLANES + NUM_TACTICAL_PLANES {
        return Err(AzError::Mismatch(format!(
            "{what} reads {} observation planes ({} of them rule planes); this version writes {NUM_PLANES} (or {} with the tactical planes) and one per rule feature",
            meta.planes,
            meta.rule_features.len(),
            NUM_PLANES + NUM_TACTICAL_PLANES
        )));
    }
    let outputs = BoardTables::for_network(ruleset, &meta.network_config()).outputs();
    if meta.width != ruleset.width as usize || meta.height != ruleset.height as usize || meta.actions != outputs {
        return Err(AzError::Mismatch(format!(
            "{what} was trained for {} on a {}x{} board; this game is {} on {}x{} (board sizes must match)",
            meta.ruleset, meta.width, meta.height, ruleset.id, ruleset.width, ruleset.height
        )));
    }
    Ok(())
}

/// Checks that a network trained on `meta`'s rules is asked to play the same rules: the
/// hash of every rule parameter must match its ruleset's, or one of its family's (the
/// board alone does not tell `kowalski` from `kowalski-parcae`). The error names the
/// parameters that differ when the model's ruleset is a built-in one.
pub fn check_rules(meta: &CheckpointMeta, ruleset: &Ruleset, what: &str) -> Result<(), AzError> {
    let hash = format!("{:016x}", ruleset.params_hash());
    if meta.params_hash == hash || meta.family.iter().any(|m| m.params_hash == hash) {
        return Ok(());
    }
    if !meta.family.is_empty() {
        let names: Vec<&str> = meta.family.iter().map(|m| m.ruleset.as_str()).collect();
        return Err(AzError::Mismatch(format!(
            "{what} was trained on the family {}; this game is {} (parameters {hash}), not one of them. \
             A network plays only the rules it learnt: add anyrules=1 to the az spec to play these anyway",
            names.join(", "),
            ruleset.id
        )));
    }
    let differ = Ruleset::builtin(&meta.ruleset)
        .and_then(|r| r.with_board(ruleset.width, ruleset.height))
        .map(|trained| crate::conditioning::differing_parameters(&trained, ruleset))
        .ok()
        .filter(|keys| !keys.is_empty())
        .map(|keys| format!("; the rules differ in {}", keys.join(", ")))
        .unwrap_or_default();
    Err(AzError::Mismatch(format!(
        "{what} was trained on {} (parameters {}); this game is {} (parameters {hash}){differ}. \
         A network plays only the rules it learnt: add anyrules=1 to the az spec to play these anyway",
        meta.ruleset, meta.params_hash, ruleset.id
    )))
}

/// The AlphaZero player: PUCT search guided by a network, no noise, the most visited
/// move, and the tree kept between moves.
pub struct AzAgent {
    spec: String,
    net: Network,
    tables: BoardTables,
    cfg: SearchConfig,
    tree: Option<Tree>,
    seed: u64,
    evals: u64,
    /// What the last `select` found.
    report: Report,
}

impl AzAgent {
    /// An agent playing with `net` (of shape `net_cfg`, on an inference device) under `cfg`.
    pub fn new(spec: &str, net: Network, net_cfg: &NetworkConfig, ruleset: &Ruleset, cfg: SearchConfig) -> AzAgent {
        AzAgent {
            spec: spec.to_string(),
            net,
            tables: BoardTables::for_network(ruleset, net_cfg),
            cfg: SearchConfig { dirichlet_frac: 0.0, ..cfg },
            tree: None,
            seed: 0,
            evals: 0,
            report: Report::default(),
        }
    }

    /// The agent of an `az` spec (`spec`, its canonical form) for games of `ruleset`:
    /// loads the model through `cache` (once per file and version, shared by every agent
    /// of the cache) and checks that it plays `ruleset`'s board.
    fn from_options(
        spec: &str,
        options: &AzOptions,
        cache: &ModelCache,
        ruleset: &Ruleset,
    ) -> Result<AzAgent, AzError> {
        let AzOptions { model, mut cfg, su, fpu, gumbel, wincheck, anyrules } = options.clone();
        let path = model.as_path();
        let (meta, net) = cache.load(path)?;
        check_board(&meta, ruleset, &format!("model {}", path.display()))?;
        if !anyrules {
            check_rules(&meta, ruleset, &format!("model {}", path.display()))?;
        }
        cfg.score_utility = su.unwrap_or(meta.search.score_utility);
        if cfg.score_utility != 0.0 && !meta.score_head {
            return Err(AzError::Mismatch(format!(
                "model {} has no score head, so su (score utility) must be 0",
                path.display()
            )));
        }
        if let Some(r) = fpu.or(meta.search.fpu_reduction) {
            cfg.fpu = crate::search::Fpu::ParentMinus(r);
        }
        cfg.win_check = wincheck.unwrap_or(meta.search.win_check);
        let m = gumbel.unwrap_or(meta.search.gumbel_considered);
        cfg.gumbel = (m > 0).then(|| crate::gumbel::GumbelConfig { considered: m, ..Default::default() });
        Ok(AzAgent::new(spec, net, &meta.network_config(), ruleset, cfg))
    }

    /// Network evaluations made so far.
    pub fn evaluations(&self) -> u64 {
        self.evals
    }

    /// Runs the search from `pos` and returns the tree (for tests and analysis).
    pub fn search_position(&mut self, pos: &Position) -> Result<&Tree, AzError> {
        let cfg = self.cfg;
        if let Some(t) = self.tree.as_mut() {
            t.advance_to(pos, &cfg);
        }
        let tree = self.tree.get_or_insert_with(|| Tree::new(pos.clone(), self.seed, false));
        self.evals += search(std::slice::from_mut(tree), &self.net, &cfg, &self.tables)?.evaluations;
        Ok(tree)
    }
}

impl Agent for AzAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        self.tree = None;
        self.report = Report::default();
    }

    fn select(&mut self, pos: &Position) -> Move {
        let cfg = self.cfg;
        // Shapes are checked when the agent is built, so the search cannot fail on them;
        // a failure here is a bug, reported with the position.
        if let Err(e) = self.search_position(pos) {
            panic!("az search failed at ply {} ({}): {e}", pos.ply(), pos.to_setup().to_fen());
        }
        let tree = self.tree.as_mut().expect("search_position keeps a tree");
        let children = tree.root_children();
        let policy = latrunculi_agents::visit_distribution(children.iter().map(|c| (c.mv, c.visits)));
        // Each child's value is for the player who moved into it: the side to move here.
        let visits: u32 = children.iter().map(|c| c.visits).sum();
        let value = (visits > 0).then(|| children.iter().map(|c| c.visits as f32 * c.q).sum::<f32>() / visits as f32);
        let priors = (!children.is_empty()).then(|| children.iter().map(|c| (c.mv, c.prior)).collect());
        let mv = tree.choose(0.0).unwrap_or_else(|| pos.legal_move_list()[0]);
        tree.advance(mv, &cfg);
        self.report = Report { mv: Some(mv), policy, value, priors, ..Report::default() };
        mv
    }

    /// The move; the root children's visit shares of the last search, taken before the
    /// tree moves on to the chosen child; their visit-weighted mean value, for the side
    /// that was to move; and the network's priors of the root moves.
    fn report(&self) -> Report {
        self.report.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_policy_is_the_root_visit_distribution_before_the_tree_advances() {
        let rs = Ruleset::builtin("kowalski").and_then(|r| r.with_board(5, 5)).expect("kowalski at 5x5");
        let net_cfg = crate::TrainConfig::default().network_config(&rs).with_blocks(1).with_channels(4);
        let net = net_cfg.init(&crate::device::inference());
        let cfg = SearchConfig { sims: 24, leaves_per_round: 4, ..SearchConfig::default() };
        let mut a = AzAgent::new("az:test", net.clone(), &net_cfg, &rs, cfg);
        let mut b = AzAgent::new("az:test", net, &net_cfg, &rs, cfg);
        a.new_game(3);
        b.new_game(3);
        assert_eq!(a.report(), Report::default());
        let mut pos = Position::new(&rs);
        for _ in 0..4 {
            if pos.is_over() {
                break;
            }
            let legal = pos.legal_move_list();
            let mv = a.select(&pos);
            assert_eq!(mv, b.select(&pos), "asking for the policy changes nothing");
            let report = a.report();
            assert_eq!(report.mv, Some(mv));
            let policy = report.policy.expect("the agent searched");
            let sum: f32 = policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-5, "sum {sum}");
            assert!(policy.iter().all(|(m, p)| legal.contains(m) && *p > 0.0));
            let best = policy.iter().map(|&(_, p)| p).fold(0.0f32, f32::max);
            assert_eq!(policy.iter().find(|(m, _)| *m == mv).map(|&(_, p)| p), Some(best), "the most visited move");
            let value = report.value.expect("a root value");
            assert!((-1.0..=1.0).contains(&value), "value {value}");
            let priors = report.priors.expect("root priors");
            assert_eq!(priors.len(), legal.len(), "a prior for every legal move");
            let sum: f32 = priors.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-3, "priors sum {sum}");
            pos.play(mv);
        }
        a.new_game(4);
        assert_eq!(a.report(), Report::default(), "a new game forgets the last search");
    }

    #[test]
    fn a_model_of_other_rules_on_the_same_board_is_refused_unless_anyrules_is_given() {
        let kowalski = Ruleset::builtin("kowalski").expect("kowalski");
        let parcae = Ruleset::builtin("kowalski-parcae").expect("kowalski-parcae");
        assert_eq!((kowalski.width, kowalski.height), (parcae.width, parcae.height), "the same board");
        let net_cfg = crate::TrainConfig::default().network_config(&kowalski).with_blocks(1).with_channels(4);
        let net = net_cfg.init(&crate::device::inference());
        let meta = CheckpointMeta::new(&net_cfg, "kowalski", kowalski.params_hash(), 0);
        check_board(&meta, &parcae, "model m").expect("the board alone does not tell them apart");
        check_rules(&meta, &kowalski, "model m").expect("its own rules");
        let message = check_rules(&meta, &parcae, "model m").expect_err("other rules").to_string();
        assert!(message.contains("trained on kowalski") && message.contains("kowalski-parcae"), "{message}");
        assert!(message.contains("anyrules=1"), "{message}");
        let differ = crate::conditioning::differing_parameters(&kowalski, &parcae);
        assert!(!differ.is_empty() && differ.iter().all(|k| message.contains(k.as_str())), "{differ:?} in {message}");
        assert!(crate::conditioning::differing_parameters(&kowalski, &kowalski).is_empty());

        let dir = std::env::temp_dir().join(format!("latrunculi-anyrules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("k.az");
        checkpoint::save(&path, &net, &meta).expect("save");
        let kind = AzKind::new();
        let players = Players::baseline().with(Arc::new(AzKind { cache: Arc::clone(kind.cache()) })).expect("az");
        let spec = |extra: &str| players.parse(&format!("az:model={},sims=2{extra}", path.display()));
        assert!(spec(",anyrules=2").is_err(), "a bad value");
        let spec = |extra: &str| spec(extra).expect("a spec");
        assert!(spec("").build(Some(&kowalski)).is_ok());
        let refused = spec("").build(Some(&parcae)).err().expect("refused").to_string();
        assert!(refused.contains("anyrules=1"), "{refused}");
        assert!(spec(",anyrules=1").build(Some(&parcae)).is_ok(), "played when asked");
        assert_eq!(kind.cache().len(), 1, "one network loaded for every agent of the factory");
        std::fs::remove_dir_all(&dir).ok();
    }
}
