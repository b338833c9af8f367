//! The policy–value network: a residual convolutional tower with a policy head (dense or
//! spatial, see [`crate::policy`]), a `tanh` value head and an optional `tanh` score head
//! (the expected final material difference, an auxiliary target in the spirit of
//! KataGo's score).
//!
//! ```text
//! input [B, planes, H, W]
//!   → conv3×3(channels) → BN → ReLU                       (stem)
//!   → blocks × [conv3×3 → BN → ReLU → conv3×3 → BN → +x → ReLU]
//!   ├→ dense policy:   conv1×1(policy_channels) → BN → ReLU → flatten → Linear(A)   → logits [B, A]
//!   ├→ spatial policy: conv3×3(channels) → BN → ReLU → conv1×1(policy_planes) → flatten → logits [B, P·H·W]
//!   └→ value:  conv1×1(1) → BN → ReLU → flatten → Linear(value_hidden) → ReLU ─┬→ Linear(1) → tanh → value [B]
//!                                                                          └→ Linear(1) → tanh → score [B] (score_head)
//! ```

use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::relu;

use crate::AzError;

/// Largest networks a configuration or a checkpoint may describe.
pub const MAX_BLOCKS: usize = 40;
/// See [`MAX_BLOCKS`]: channels of the residual tower and of the policy head.
pub const MAX_CHANNELS: usize = 512;
/// See [`MAX_BLOCKS`]: units of the value head's hidden layer.
pub const MAX_VALUE_HIDDEN: usize = 4096;

/// Which size of a network exceeds the limits above, as `key = value (at most max)`.
pub fn network_too_large(
    blocks: usize,
    channels: usize,
    policy_channels: usize,
    value_hidden: usize,
) -> Option<String> {
    [
        ("blocks", blocks, MAX_BLOCKS),
        ("channels", channels, MAX_CHANNELS),
        ("policy_channels", policy_channels, MAX_CHANNELS),
        ("value_hidden", value_hidden, MAX_VALUE_HIDDEN),
    ]
    .into_iter()
    .find(|&(_, v, max)| v > max)
    .map(|(k, v, max)| format!("{k} = {v} is too large (at most {max})"))
}

/// Shape and size of a [`Network`]. The board, plane and action counts come from the
/// ruleset; `blocks`, `channels`, `policy_channels` and `value_hidden` set the size.
#[derive(Config, Debug, PartialEq)]
pub struct NetworkConfig {
    /// Input planes (the simulator's `NUM_PLANES`, with its tactical planes if used, and
    /// one per rule feature).
    pub planes: usize,
    /// Board files `W`.
    pub width: usize,
    /// Board ranks `H`.
    pub height: usize,
    /// Policy outputs: the simulator's action-space size `A` for the dense head, or
    /// `policy_planes · H · W` for the spatial head.
    pub actions: usize,
    /// Residual blocks.
    #[config(default = 4)]
    pub blocks: usize,
    /// Channels of the tower.
    #[config(default = 32)]
    pub channels: usize,
    /// Channels of the policy head's 1×1 convolution.
    #[config(default = 2)]
    pub policy_channels: usize,
    /// Hidden units of the value head.
    #[config(default = 64)]
    pub value_hidden: usize,
    /// Planes of the spatial policy head; 0: the dense head.
    #[config(default = 0)]
    pub policy_planes: usize,
    /// Whether the network has the auxiliary score head.
    #[config(default = false)]
    pub score_head: bool,
    /// Divisor of the ply observation plane the network was trained with (the training
    /// games' ply cap); 0: the game's own ply cap (the first networks).
    #[config(default = 0)]
    pub ply_scale: usize,
    /// The rule features of a network trained on a family of rulesets, one constant
    /// input plane each after the observation planes (counted in `planes`; see
    /// [`crate::conditioning`]); empty for a network of one ruleset.
    #[config(default = "Vec::new()")]
    pub rule_features: Vec<String>,
}

impl NetworkConfig {
    /// A fresh, randomly initialised network on `device`.
    pub fn init(&self, device: &Device) -> Network {
        let conv3 = |i: usize, o: usize| {
            Conv2dConfig::new([i, o], [3, 3]).with_padding(PaddingConfig2d::Same).with_bias(false).init(device)
        };
        let conv1 = |i: usize, o: usize| Conv2dConfig::new([i, o], [1, 1]).with_bias(false).init(device);
        let bn = |c: usize| BatchNormConfig::new(c).init(device);
        let squares = self.width * self.height;
        let spatial = self.policy_planes > 0;
        Network {
            stem: conv3(self.planes, self.channels),
            stem_bn: bn(self.channels),
            blocks: (0..self.blocks)
                .map(|_| ResidualBlock {
                    conv1: conv3(self.channels, self.channels),
                    bn1: bn(self.channels),
                    conv2: conv3(self.channels, self.channels),
                    bn2: bn(self.channels),
                })
                .collect(),
            policy_conv: if spatial {
                conv3(self.channels, self.channels)
            } else {
                conv1(self.channels, self.policy_channels)
            },
            policy_bn: bn(if spatial { self.channels } else { self.policy_channels }),
            policy_fc: (!spatial).then(|| LinearConfig::new(self.policy_channels * squares, self.actions).init(device)),
            policy_planes: spatial.then(|| Conv2dConfig::new([self.channels, self.policy_planes], [1, 1]).init(device)),
            value_conv: conv1(self.channels, 1),
            value_bn: bn(1),
            value_fc1: LinearConfig::new(squares, self.value_hidden).init(device),
            value_fc2: LinearConfig::new(self.value_hidden, 1).init(device),
            score_fc: self.score_head.then(|| LinearConfig::new(self.value_hidden, 1).init(device)),
        }
    }
}

/// One residual block: two 3×3 convolutions with batch norm and a skip connection.
#[derive(Module, Debug)]
pub struct ResidualBlock {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
}

impl ResidualBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.bn1.forward(self.conv1.forward(x.clone())));
        let y = self.bn2.forward(self.conv2.forward(y));
        relu(y + x)
    }
}

/// The policy–value network (see the module docs for the architecture).
#[derive(Module, Debug)]
pub struct Network {
    stem: Conv2d,
    stem_bn: BatchNorm,
    blocks: Vec<ResidualBlock>,
    policy_conv: Conv2d,
    policy_bn: BatchNorm,
    /// The dense head's output layer (`None` for the spatial head).
    policy_fc: Option<Linear>,
    /// The spatial head's output planes (`None` for the dense head).
    policy_planes: Option<Conv2d>,
    value_conv: Conv2d,
    value_bn: BatchNorm,
    value_fc1: Linear,
    value_fc2: Linear,
    /// The auxiliary score head (`None` without one).
    score_fc: Option<Linear>,
}

/// What the network computes for a batch.
#[derive(Debug)]
pub struct Outputs {
    /// Policy logits `[B, outputs]` (see [`crate::policy::PolicyMap`]).
    pub logits: Tensor<2>,
    /// Values `[B]` in `[-1, 1]` for the side to move.
    pub value: Tensor<1>,
    /// Predicted final material difference `[B]` in `[-1, 1]` (own minus enemy, over the
    /// starting material), if the network has a score head.
    pub score: Option<Tensor<1>>,
}

/// Flat outputs of [`Network::infer`] (row-major).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// `batch × outputs` policy logits.
    pub logits: Vec<f32>,
    /// `batch` values.
    pub values: Vec<f32>,
    /// `batch` scores, or empty for a network without a score head.
    pub scores: Vec<f32>,
}

impl Network {
    /// The outputs for a batch of observations `[B, planes, H, W]`.
    pub fn forward(&self, input: Tensor<4>) -> Outputs {
        let mut x = relu(self.stem_bn.forward(self.stem.forward(input)));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let p = relu(self.policy_bn.forward(self.policy_conv.forward(x.clone())));
        let logits = match (&self.policy_fc, &self.policy_planes) {
            (_, Some(planes)) => planes.forward(p).flatten::<2>(1, 3),
            (Some(fc), None) => fc.forward(p.flatten::<2>(1, 3)),
            (None, None) => unreachable!("a network has a dense or a spatial policy head"),
        };
        let v = relu(self.value_bn.forward(self.value_conv.forward(x)));
        let v = relu(self.value_fc1.forward(v.flatten::<2>(1, 3)));
        let score = self.score_fc.as_ref().map(|fc| fc.forward(v.clone()).tanh().flatten::<1>(0, 1));
        let value = self.value_fc2.forward(v).tanh().flatten::<1>(0, 1);
        Outputs { logits, value, score }
    }

    /// Runs a batch given as a flat `f32` slice of `batch` observations of shape
    /// `[planes, height, width]`. The network must live on a device without autodiff (see
    /// [`Module::valid`]) for inference statistics of batch norm to be used.
    pub fn infer(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<Evaluation, AzError> {
        let expected = batch * shape.iter().product::<usize>();
        if obs.len() != expected || batch == 0 {
            return Err(AzError::Tensor(format!(
                "inference input has {} values, expected {batch} x {shape:?} = {expected}",
                obs.len()
            )));
        }
        let device = self.devices().into_iter().next().unwrap_or_else(crate::device::inference);
        let input = Tensor::<4>::from_data(TensorData::new(obs, [batch, shape[0], shape[1], shape[2]]), &device);
        let out = self.forward(input);
        let flat = |t: TensorData| t.try_into_vec_as::<f32>().map_err(|e| AzError::Tensor(format!("{e:?}")));
        Ok(Evaluation {
            logits: flat(out.logits.into_data())?,
            values: flat(out.value.into_data())?,
            scores: match out.score {
                Some(s) => flat(s.into_data())?,
                None => Vec::new(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(w: usize, h: usize) -> NetworkConfig {
        let n = w * h;
        NetworkConfig::new(12, w, h, n * n + 3 * n).with_blocks(1).with_channels(8)
    }

    fn spatial(w: usize, h: usize) -> NetworkConfig {
        let p = crate::policy::spatial_planes(w, h);
        NetworkConfig::new(12, w, h, p * w * h)
            .with_blocks(1)
            .with_channels(8)
            .with_policy_planes(p)
            .with_score_head(true)
    }

    #[test]
    fn output_shapes_for_every_board_size_and_head() {
        let device = crate::device::inference();
        for (w, h) in [(3, 3), (8, 8), (10, 8), (12, 9), (12, 12), (3, 12), (16, 11), (16, 16)] {
            // The dense head of 16 x 16 (66,304 actions) has 34M weights; 16 x 11 covers it.
            let heads = if w * h > 200 { vec![spatial(w, h)] } else { vec![config(w, h), spatial(w, h)] };
            for cfg in heads {
                let net = cfg.init(&device).valid();
                let out = net.forward(Tensor::zeros([2, 12, h, w], &device));
                assert_eq!(out.logits.dims(), [2, cfg.actions], "{w}x{h}");
                assert_eq!(out.value.dims(), [2], "{w}x{h}");
                assert_eq!(out.score.map(|s| s.dims()), cfg.score_head.then_some([2]), "{w}x{h}");
            }
        }
    }

    #[test]
    fn a_batch_equals_its_items_alone() {
        let device = crate::device::inference();
        for cfg in [config(8, 8), spatial(8, 8)] {
            let net = cfg.init(&device).valid();
            let shape = [12, 8, 8];
            let item = 12 * 64;
            let obs: Vec<f32> = (0..3 * item).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
            let all = net.infer(obs.clone(), 3, shape).unwrap();
            assert_eq!(all.scores.len(), if cfg.score_head { 3 } else { 0 });
            for b in 0..3 {
                let one = net.infer(obs[b * item..(b + 1) * item].to_vec(), 1, shape).unwrap();
                assert!((one.values[0] - all.values[b]).abs() < 1e-5, "value of item {b}");
                if cfg.score_head {
                    assert!((one.scores[0] - all.scores[b]).abs() < 1e-5, "score of item {b}");
                }
                let row = &all.logits[b * cfg.actions..(b + 1) * cfg.actions];
                let worst = one.logits.iter().zip(row).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
                assert!(worst < 1e-4, "logits of item {b} differ by {worst}");
            }
            assert!(all.values.iter().chain(&all.scores).all(|v| v.abs() <= 1.0));
        }
    }
}
