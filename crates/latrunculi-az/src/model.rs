//! The policy–value network: a residual convolutional tower with a policy head over the
//! simulator's action encoding (in the relative frame, see [`crate::frame`]) and a `tanh`
//! value head.
//!
//! ```text
//! input [B, planes, H, W]
//!   → conv3×3(channels) → BN → ReLU                       (stem)
//!   → blocks × [conv3×3 → BN → ReLU → conv3×3 → BN → +x → ReLU]
//!   ├→ policy: conv1×1(policy_channels) → BN → ReLU → flatten → Linear(A)   → logits [B, A]
//!   └→ value:  conv1×1(1) → BN → ReLU → flatten → Linear(value_hidden) → ReLU → Linear(1) → tanh → [B]
//! ```

use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::relu;

use crate::AzError;

/// Shape and size of a [`Network`]. The board, plane and action counts come from the
/// ruleset; `blocks`, `channels`, `policy_channels` and `value_hidden` set the size.
#[derive(Config, Debug, PartialEq)]
pub struct NetworkConfig {
    /// Input planes (the simulator's `NUM_PLANES`).
    pub planes: usize,
    /// Board files `W`.
    pub width: usize,
    /// Board ranks `H`.
    pub height: usize,
    /// Policy outputs `A` (the simulator's action-space size).
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
            policy_conv: conv1(self.channels, self.policy_channels),
            policy_bn: bn(self.policy_channels),
            policy_fc: LinearConfig::new(self.policy_channels * squares, self.actions).init(device),
            value_conv: conv1(self.channels, 1),
            value_bn: bn(1),
            value_fc1: LinearConfig::new(squares, self.value_hidden).init(device),
            value_fc2: LinearConfig::new(self.value_hidden, 1).init(device),
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
    policy_fc: Linear,
    value_conv: Conv2d,
    value_bn: BatchNorm,
    value_fc1: Linear,
    value_fc2: Linear,
}

impl Network {
    /// Policy logits `[B, A]` (relative frame) and values `[B]` in `[-1, 1]` (for the side
    /// to move) of a batch of observations `[B, planes, H, W]`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<1>) {
        let mut x = relu(self.stem_bn.forward(self.stem.forward(input)));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let p = relu(self.policy_bn.forward(self.policy_conv.forward(x.clone())));
        let logits = self.policy_fc.forward(p.flatten::<2>(1, 3));
        let v = relu(self.value_bn.forward(self.value_conv.forward(x)));
        let v = relu(self.value_fc1.forward(v.flatten::<2>(1, 3)));
        let value = self.value_fc2.forward(v).tanh().flatten::<1>(0, 1);
        (logits, value)
    }

    /// Runs a batch given as a flat `f32` slice of `batch` observations of shape
    /// `[planes, height, width]`; returns the logits (`batch × A`, row-major) and the
    /// values (`batch`). The network must live on a device without autodiff (see
    /// [`Module::valid`]) for inference statistics of batch norm to be used.
    pub fn infer(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<(Vec<f32>, Vec<f32>), AzError> {
        let expected = batch * shape.iter().product::<usize>();
        if obs.len() != expected || batch == 0 {
            return Err(AzError::Tensor(format!(
                "inference input has {} values, expected {batch} x {shape:?} = {expected}",
                obs.len()
            )));
        }
        let device = self.devices().into_iter().next().unwrap_or_else(crate::device::inference);
        let input = Tensor::<4>::from_data(TensorData::new(obs, [batch, shape[0], shape[1], shape[2]]), &device);
        let (logits, value) = self.forward(input);
        let logits = logits.into_data().try_into_vec_as::<f32>().map_err(|e| AzError::Tensor(format!("{e:?}")))?;
        let value = value.into_data().try_into_vec_as::<f32>().map_err(|e| AzError::Tensor(format!("{e:?}")))?;
        Ok((logits, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(w: usize, h: usize) -> NetworkConfig {
        let n = w * h;
        NetworkConfig::new(12, w, h, n * n + 3 * n).with_blocks(1).with_channels(8)
    }

    #[test]
    fn output_shapes_for_every_board_size() {
        let device = crate::device::inference();
        for (w, h) in [(3, 3), (8, 8), (10, 8), (12, 9), (12, 12), (3, 12)] {
            let cfg = config(w, h);
            let net = cfg.init(&device).valid();
            let (logits, value) = net.forward(Tensor::zeros([2, 12, h, w], &device));
            assert_eq!(logits.dims(), [2, cfg.actions], "{w}x{h}");
            assert_eq!(value.dims(), [2], "{w}x{h}");
        }
    }

    #[test]
    fn a_batch_equals_its_items_alone() {
        let device = crate::device::inference();
        let cfg = config(8, 8);
        let net = cfg.init(&device).valid();
        let shape = [12, 8, 8];
        let item = 12 * 64;
        let obs: Vec<f32> = (0..3 * item).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
        let (logits, values) = net.infer(obs.clone(), 3, shape).unwrap();
        for b in 0..3 {
            let (l1, v1) = net.infer(obs[b * item..(b + 1) * item].to_vec(), 1, shape).unwrap();
            assert!((v1[0] - values[b]).abs() < 1e-5, "value of item {b}");
            let row = &logits[b * cfg.actions..(b + 1) * cfg.actions];
            let worst = l1.iter().zip(row).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
            assert!(worst < 1e-4, "logits of item {b} differ by {worst}");
        }
        assert!(values.iter().all(|v| v.abs() <= 1.0));
    }
}
