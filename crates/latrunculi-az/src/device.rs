//! The one place where burn devices are chosen.
//!
//! CPU by default: burn's pure-Rust `flex` backend. With the cargo feature `cuda` or
//! `wgpu` (off by default), the environment variable `LATRUNCULI_DEVICE=cuda` or
//! `LATRUNCULI_DEVICE=wgpu` selects that backend instead.

use burn::prelude::Device;

/// The device for inference (self-play search, agents, evaluation).
pub fn inference() -> Device {
    #[cfg(any(feature = "cuda", feature = "wgpu"))]
    if let Ok(name) = std::env::var("LATRUNCULI_DEVICE") {
        #[cfg(feature = "cuda")]
        if name == "cuda" {
            return Device::cuda(0);
        }
        #[cfg(feature = "wgpu")]
        if name == "wgpu" {
            return Device::wgpu(Default::default());
        }
    }
    Device::flex()
}

/// The device for training: the inference device with autodiff.
pub fn training() -> Device {
    inference().autodiff()
}
