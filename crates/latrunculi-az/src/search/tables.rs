//! The static facts about a board and a network that every tree of a search shares: the
//! observation encoder, the action tables and the policy map ([`BoardTables`]).

use latrunculi_rules::{Color, Move, Position};
use latrunculi_sim::{ActionSpace, ObservationEncoder};
use ndarray::ArrayViewMut3;

use crate::AzError;
use crate::frame::ActionFrame;
use crate::model::NetworkConfig;
use crate::policy::{HeadKind, PolicyMap};

/// Static facts about the board and the network that every tree of a search needs.
#[derive(Clone, Debug)]
pub struct BoardTables {
    /// Observation encoder.
    pub encoder: ObservationEncoder,
    /// Action tables.
    pub frame: ActionFrame,
    /// Where each relative action's logit is.
    pub policy: PolicyMap,
    /// Observation shape `[planes, H, W]`: the encoder's planes, then one per rule plane.
    pub shape: [usize; 3],
    /// The value of each rule plane for this ruleset (empty for a network of one
    /// ruleset; see [`crate::conditioning`]).
    pub rule_planes: Vec<f32>,
}

impl BoardTables {
    /// The tables of a ruleset's board for the first networks: the dense policy head and
    /// the ply plane over the game's own ply cap.
    pub fn new(ruleset: &latrunculi_rules::Ruleset) -> BoardTables {
        BoardTables::with(ruleset, HeadKind::Dense, 0)
    }

    /// The tables of a ruleset's board for a network of `cfg` (its policy head, and its
    /// ply plane scale when it records one).
    /// A network whose input has more than the simulator's `NUM_PLANES` planes reads the
    /// tactical planes too (see [`BoardTables::with_tactical`]).
    /// A network with rule features (trained on a family of rulesets) reads their planes
    /// after the others, valued for `ruleset`.
    pub fn for_network(ruleset: &latrunculi_rules::Ruleset, cfg: &NetworkConfig) -> BoardTables {
        let kind = if cfg.policy_planes > 0 { HeadKind::Spatial } else { HeadKind::Dense };
        let observed = cfg.planes.saturating_sub(cfg.rule_features.len());
        BoardTables::with(ruleset, kind, cfg.ply_scale as u32)
            .with_tactical(observed > latrunculi_sim::NUM_PLANES)
            .with_rule_planes(crate::conditioning::rule_values(&cfg.rule_features, ruleset))
    }

    /// The same tables with (or without) the simulator's tactical observation planes
    /// (one-move capture threats of both sides, `latrunculi_sim::TACTICAL_PLANES`).
    pub fn with_tactical(self, tactical: bool) -> BoardTables {
        let encoder = self.encoder.with_tactical(tactical);
        let [p, h, w] = encoder.shape();
        BoardTables { encoder, shape: [p + self.rule_planes.len(), h, w], ..self }
    }

    /// The same tables with these constant rule planes after the encoder's planes.
    pub fn with_rule_planes(self, rule_planes: Vec<f32>) -> BoardTables {
        let [p, h, w] = self.encoder.shape();
        BoardTables { shape: [p + rule_planes.len(), h, w], rule_planes, ..self }
    }

    /// The tables of a ruleset's board for a policy head of `kind`; `ply_scale > 0` fixes
    /// the ply plane's divisor (see [`ObservationEncoder::with_ply_scale`]).
    pub fn with(ruleset: &latrunculi_rules::Ruleset, kind: HeadKind, ply_scale: u32) -> BoardTables {
        let mut encoder = ObservationEncoder::new(ruleset);
        if ply_scale > 0 {
            encoder = encoder.with_ply_scale(ply_scale);
        }
        let space = ActionSpace::for_rules(&ruleset.rules());
        BoardTables {
            encoder,
            frame: ActionFrame::new(space),
            policy: PolicyMap::new(kind, space),
            shape: encoder.shape(),
            rule_planes: Vec::new(),
        }
    }

    /// Number of policy outputs of the network.
    pub fn outputs(&self) -> usize {
        self.policy.outputs()
    }

    /// The logit index of the absolute action of `mv` with `to_move` to move.
    #[inline]
    pub fn logit(&self, mv: Move, to_move: Color) -> Option<usize> {
        self.policy.logit(self.frame.relative(self.frame.space().encode(mv), to_move))
    }

    /// The relative action of `mv` with `to_move` to move.
    #[inline]
    pub fn relative(&self, mv: Move, to_move: Color) -> u32 {
        self.frame.relative(self.frame.space().encode(mv), to_move) as u32
    }

    /// Floats in one observation.
    pub fn obs_len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of actions.
    pub fn actions(&self) -> usize {
        self.frame.size()
    }

    /// Writes the observation of `pos` into `out` (exactly [`BoardTables::obs_len`] values).
    pub fn write_observation(&self, pos: &Position, out: &mut [f32]) -> Result<(), AzError> {
        let observed = self.encoder.shape();
        let plane = observed[1] * observed[2];
        let split = observed[0] * plane;
        if out.len() != self.obs_len() {
            return Err(AzError::Tensor(format!(
                "observation buffer of {} values for shape {:?}",
                out.len(),
                self.shape
            )));
        }
        let (board, rules) = out.split_at_mut(split);
        let view = ArrayViewMut3::from_shape(observed, board).map_err(|e| AzError::Tensor(e.to_string()))?;
        self.encoder.write(pos, view).map_err(|e| AzError::Tensor(e.to_string()))?;
        for (chunk, &v) in rules.chunks_exact_mut(plane).zip(&self.rule_planes) {
            chunk.fill(v);
        }
        Ok(())
    }

    /// The observation of `pos`, as a new vector.
    pub fn observation(&self, pos: &Position) -> Result<Vec<f32>, AzError> {
        let mut out = vec![0.0; self.obs_len()];
        self.write_observation(pos, &mut out)?;
        Ok(out)
    }
}
