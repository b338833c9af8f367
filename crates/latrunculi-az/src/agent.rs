//! The AlphaZero player (`az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]`) and
//! [`parse_agent`], which builds any agent spec for a given ruleset.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use burn::module::Module;
use latrunculi_agents::{Agent, AgentError};
use latrunculi_rules::{Move, Position, Ruleset};

use crate::AzError;
use crate::checkpoint::{self, CheckpointMeta};
use crate::model::{Network, NetworkConfig};
use crate::search::{BoardTables, SearchConfig, Tree, search};

/// Every agent spec [`parse_agent`] accepts.
pub const VALID_AGENTS: &str = "random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB], az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]";

/// Builds an agent from its spec for games of `ruleset`: the baselines of
/// `latrunculi-agents`, or `az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]` (defaults: 200
/// simulations, `c` 1.5, 8 leaves per batch; `su`, the score utility, `fpu`, the
/// first-play-urgency reduction, `gumbel`, the root moves of a Gumbel search, and
/// `wincheck`, the win-in-one check, default to the values the model was trained with). A
/// model file that is missing, damaged or made for another board size is an error naming
/// the file.
pub fn parse_agent(spec: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, AzError> {
    let trimmed = spec.trim();
    match trimmed.split_once(':') {
        Some((name, params)) if name.trim() == "az" => Ok(Box::new(AzAgent::from_spec(trimmed, params, ruleset)?)),
        None if trimmed == "az" => Err(AgentError::MissingKey {
            agent: "az".into(),
            key: "model",
            usage: "az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]",
        }
        .into()),
        _ => latrunculi_agents::parse_agent(trimmed).map_err(|e| match e {
            AgentError::UnknownAgent { name } => {
                AzError::Mismatch(format!("unknown agent '{name}' (valid agents: {VALID_AGENTS})"))
            }
            other => other.into(),
        }),
    }
}

/// A loaded model's identity: its path, size and modification time (a file rewritten
/// since, such as a training run's `latest.az`, is loaded again).
type ModelKey = (PathBuf, u64, Option<std::time::SystemTime>);

/// Networks loaded by path, so that many games share one load.
fn model_cache() -> &'static Mutex<HashMap<ModelKey, (CheckpointMeta, Network)>> {
    static CACHE: OnceLock<Mutex<HashMap<ModelKey, (CheckpointMeta, Network)>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn load_cached(path: &Path) -> Result<(CheckpointMeta, Network), AzError> {
    let file =
        std::fs::metadata(path).map_err(|source| crate::CheckpointError::Io { path: path.to_path_buf(), source })?;
    let key = (path.canonicalize().unwrap_or_else(|_| path.to_path_buf()), file.len(), file.modified().ok());
    if let Ok(cache) = model_cache().lock()
        && let Some(hit) = cache.get(&key)
    {
        return Ok(hit.clone());
    }
    let (meta, net) = checkpoint::load(path, &crate::device::inference())?;
    let net = net.valid();
    if let Ok(mut cache) = model_cache().lock() {
        cache.insert(key, (meta.clone(), net.clone()));
    }
    Ok((meta, net))
}

/// Checks that a network made for `meta`'s board can play `ruleset`'s games.
pub fn check_board(meta: &CheckpointMeta, ruleset: &Ruleset, what: &str) -> Result<(), AzError> {
    use latrunculi_sim::{NUM_PLANES, NUM_TACTICAL_PLANES};
    if meta.planes != NUM_PLANES && meta.planes != NUM_PLANES + NUM_TACTICAL_PLANES {
        return Err(AzError::Mismatch(format!(
            "{what} reads {} observation planes; this version writes {NUM_PLANES} (or {} with the tactical planes)",
            meta.planes,
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
    /// Root visit distribution of the last `select`.
    last_policy: Option<Vec<(Move, f32)>>,
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
            last_policy: None,
        }
    }

    fn from_spec(spec: &str, params: &str, ruleset: &Ruleset) -> Result<AzAgent, AzError> {
        use latrunculi_agents::{bad, key_values, positive};
        const AGENT: &str = "az";
        let mut model: Option<String> = None;
        let mut cfg = SearchConfig::default();
        let (mut su, mut fpu, mut gumbel): (Option<f32>, Option<f32>, Option<u32>) = (None, None, None);
        let mut wincheck: Option<bool> = None;
        let number = |k: &str, v: &str, lo: f32, hi: f32, expected: &'static str| -> Result<f32, AgentError> {
            v.parse()
                .ok()
                .filter(|x: &f32| x.is_finite() && (lo..=hi).contains(x))
                .ok_or_else(|| bad(AGENT, k, v, expected))
        };
        for (k, v) in key_values(
            AGENT,
            params,
            &["model", "sims", "c", "leaves", "su", "fpu", "gumbel", "wincheck"],
            "model, sims, c, leaves, su, fpu, gumbel, wincheck",
        )? {
            match k {
                "wincheck" => {
                    wincheck = Some(match v {
                        "0" => false,
                        "1" => true,
                        _ => return Err(bad(AGENT, k, v, "0 (off) or 1 (on)").into()),
                    })
                }
                "model" => model = Some(v.to_string()),
                "sims" => cfg.sims = positive(AGENT, k, v)?,
                "su" => su = Some(number(k, v, -1.0, 1.0, "a number from -1 to 1")?),
                "fpu" => fpu = Some(number(k, v, 0.0, 2.0, "a number from 0 to 2")?),
                "gumbel" => {
                    gumbel = Some(
                        v.parse()
                            .ok()
                            .filter(|&n: &u32| n <= 1024)
                            .ok_or_else(|| bad(AGENT, k, v, "an integer from 0 (PUCT) to 1024"))?,
                    )
                }
                "c" => {
                    cfg.c_puct = v
                        .parse()
                        .ok()
                        .filter(|c: &f32| c.is_finite() && *c >= 0.0)
                        .ok_or_else(|| bad(AGENT, k, v, "a finite number >= 0"))?
                }
                _ => {
                    cfg.leaves_per_round = v
                        .parse()
                        .ok()
                        .filter(|&n: &u32| (1..=256).contains(&n))
                        .ok_or_else(|| bad(AGENT, k, v, "an integer from 1 to 256"))?
                }
            }
        }
        let model = model.ok_or_else(|| AgentError::MissingKey {
            agent: AGENT.to_string(),
            key: "model",
            usage: "az:model=PATH[,sims=N][,c=C][,leaves=L][,su=S][,fpu=R][,gumbel=M][,wincheck=0|1]",
        })?;
        let path = Path::new(&model);
        let (meta, net) = load_cached(path)?;
        check_board(&meta, ruleset, &format!("model {}", path.display()))?;
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
        self.last_policy = None;
    }

    fn select(&mut self, pos: &Position) -> Move {
        let cfg = self.cfg;
        // Shapes are checked when the agent is built, so the search cannot fail on them;
        // a failure here is a bug, reported with the position.
        if let Err(e) = self.search_position(pos) {
            panic!("az search failed at ply {} ({}): {e}", pos.ply(), pos.to_setup().to_fen());
        }
        let tree = self.tree.as_mut().expect("search_position keeps a tree");
        self.last_policy = latrunculi_agents::visit_distribution(tree.root_children().iter().map(|c| (c.mv, c.visits)));
        let mv = tree.choose(0.0).unwrap_or_else(|| pos.legal_move_list()[0]);
        tree.advance(mv, &cfg);
        mv
    }

    /// The root children's visit shares of the last search, taken before the tree
    /// moves on to the chosen child.
    fn last_policy(&self) -> Option<Vec<(Move, f32)>> {
        self.last_policy.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_policy_is_the_root_visit_distribution_before_the_tree_advances() {
        let rs = Ruleset::builtin("kowalski").and_then(|r| r.with_board(5, 5)).expect("kowalski at 5x5");
        let net_cfg = crate::TrainConfig::default().network_config(&rs).with_blocks(1).with_channels(4);
        let net = net_cfg.init(&crate::device::inference());
        let cfg = SearchConfig { sims: 24, leaves_per_round: 4, ..SearchConfig::default() };
        let mut a = AzAgent::new("az:test", net.clone(), &net_cfg, &rs, cfg);
        let mut b = AzAgent::new("az:test", net, &net_cfg, &rs, cfg);
        a.new_game(3);
        b.new_game(3);
        assert_eq!(a.last_policy(), None);
        let mut pos = Position::new(&rs);
        for _ in 0..4 {
            if pos.is_over() {
                break;
            }
            let legal = pos.legal_move_list();
            let mv = a.select(&pos);
            assert_eq!(mv, b.select(&pos), "asking for the policy changes nothing");
            let policy = a.last_policy().expect("the agent searched");
            let sum: f32 = policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-5, "sum {sum}");
            assert!(policy.iter().all(|(m, p)| legal.contains(m) && *p > 0.0));
            let best = policy.iter().map(|&(_, p)| p).fold(0.0f32, f32::max);
            assert_eq!(policy.iter().find(|(m, _)| *m == mv).map(|&(_, p)| p), Some(best), "the most visited move");
            pos.play(mv);
        }
        a.new_game(4);
        assert_eq!(a.last_policy(), None);
    }
}
