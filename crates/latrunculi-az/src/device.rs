//! The one place where burn devices are chosen.
//!
//! CPU by default: burn's pure-Rust `flex` backend. With the cargo feature `cuda` or
//! `wgpu` (off by default), the environment variable `LATRUNCULI_DEVICE=cuda` or
//! `LATRUNCULI_DEVICE=wgpu` selects that backend instead (`cpu` names the default).
//! Binaries call [`selected`] when they start, so that a name this build cannot honour
//! is an error rather than a silent run on the CPU.

use burn::prelude::Device;

/// The environment variable that picks the backend.
pub const DEVICE_VAR: &str = "LATRUNCULI_DEVICE";

/// A backend `LATRUNCULI_DEVICE` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// burn's `flex` CPU backend (the default).
    Cpu,
    /// burn's `wgpu` backend (cargo feature `wgpu`).
    Wgpu,
    /// burn's `cuda` backend (cargo feature `cuda`).
    Cuda,
}

/// Why `LATRUNCULI_DEVICE` cannot be honoured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// The value names no backend.
    #[error("{DEVICE_VAR}={0:?} names no backend (cpu, wgpu or cuda)")]
    Unknown(String),
    /// The backend exists but this binary was built without its cargo feature.
    #[error(
        "{DEVICE_VAR}={0}, but this binary was built without the `{0}` feature \
         (cargo build --release -p latrunculi-cli --features {0}), or unset {DEVICE_VAR} for the CPU"
    )]
    NotBuilt(&'static str),
}

/// The backend a `LATRUNCULI_DEVICE` value names, checked against the cargo features
/// this crate was built with.
pub fn parse_backend(name: &str) -> Result<Backend, DeviceError> {
    match name {
        "cpu" => Ok(Backend::Cpu),
        "wgpu" if cfg!(feature = "wgpu") => Ok(Backend::Wgpu),
        "wgpu" => Err(DeviceError::NotBuilt("wgpu")),
        "cuda" if cfg!(feature = "cuda") => Ok(Backend::Cuda),
        "cuda" => Err(DeviceError::NotBuilt("cuda")),
        other => Err(DeviceError::Unknown(other.to_string())),
    }
}

/// The backend `LATRUNCULI_DEVICE` selects: the CPU when it is unset or empty.
pub fn selected() -> Result<Backend, DeviceError> {
    match std::env::var(DEVICE_VAR) {
        Ok(name) if !name.is_empty() => parse_backend(&name),
        _ => Ok(Backend::Cpu),
    }
}

/// The device for inference (self-play search, agents, evaluation): the selected
/// backend's first device (the CPU where [`selected`] is an error; binaries check it
/// first).
pub fn inference() -> Device {
    match selected() {
        #[cfg(feature = "cuda")]
        Ok(Backend::Cuda) => Device::cuda(0),
        #[cfg(feature = "wgpu")]
        Ok(Backend::Wgpu) => Device::wgpu(Default::default()),
        _ => Device::flex(),
    }
}

/// The device for training: the inference device with autodiff.
pub fn training() -> Device {
    inference().autodiff()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_always_built_and_unknown_names_are_errors() {
        assert_eq!(parse_backend("cpu"), Ok(Backend::Cpu));
        assert_eq!(parse_backend("tpu"), Err(DeviceError::Unknown("tpu".into())));
        assert_eq!(parse_backend("CUDA"), Err(DeviceError::Unknown("CUDA".into())));
        let e = parse_backend("gpu").unwrap_err().to_string();
        assert!(e.contains("LATRUNCULI_DEVICE=\"gpu\"") && e.contains("cpu, wgpu or cuda"), "{e}");
    }

    #[test]
    fn a_backend_not_built_in_names_its_feature() {
        if cfg!(feature = "cuda") {
            assert_eq!(parse_backend("cuda"), Ok(Backend::Cuda));
        } else {
            let e = parse_backend("cuda").unwrap_err();
            assert_eq!(e, DeviceError::NotBuilt("cuda"));
            assert!(e.to_string().contains("--features cuda"), "{e}");
        }
        if cfg!(feature = "wgpu") {
            assert_eq!(parse_backend("wgpu"), Ok(Backend::Wgpu));
        } else {
            assert_eq!(parse_backend("wgpu"), Err(DeviceError::NotBuilt("wgpu")));
        }
    }
}
