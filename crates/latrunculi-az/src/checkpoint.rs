//! Checkpoint files (`*.az`): one self-describing file per network.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 11 | magic `LATAZ-CKPT\n` |
//! | 4 | format version (`u32`, currently 1) |
//! | 8 + m | metadata length `m` (`u64`), then [`CheckpointMeta`] as TOML text |
//! | 8 + r | record length `r` (`u64`), then the network's burnpack record |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! Files are written atomically: to a temporary file in the same folder, synced, then
//! renamed over the target, so a crash or ctrl-C leaves either the old or the new file.
//! A truncated, corrupted or wrong-shape file is a clear [`CheckpointError`].

use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::prelude::Device;
use burn::store::ModuleRecord;
use burn::tensor::Bytes;
use latrunculi_rules::rng::fnv1a;
use serde::{Deserialize, Serialize};

use crate::model::{Network, NetworkConfig};

const MAGIC: &[u8; 11] = b"LATAZ-CKPT\n";
const VERSION: u32 = 1;

/// What a checkpoint says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointMeta {
    /// Id of the ruleset the network was trained on.
    pub ruleset: String,
    /// The ruleset's `params_hash` (16 hex digits).
    pub params_hash: String,
    /// Training iteration that produced it (0: untrained).
    pub iteration: u32,
    /// Input planes.
    pub planes: usize,
    /// Board files.
    pub width: usize,
    /// Board ranks.
    pub height: usize,
    /// Policy outputs.
    pub actions: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Tower channels.
    pub channels: usize,
    /// Policy-head channels.
    pub policy_channels: usize,
    /// Value-head hidden units.
    pub value_hidden: usize,
    /// Planes of the spatial policy head (0 or absent: the dense head of the first
    /// networks).
    #[serde(default)]
    pub policy_planes: usize,
    /// Whether the network has a score head (absent: no).
    #[serde(default)]
    pub score_head: bool,
    /// Divisor of the ply observation plane (0 or absent: the game's ply cap).
    #[serde(default)]
    pub ply_scale: usize,
    /// Search defaults the network was trained with, used by the `az` agent unless its
    /// spec overrides them (absent: plain PUCT).
    #[serde(default)]
    pub search: SearchDefaults,
    /// The rule features of a network trained on a family of rulesets (one input plane
    /// each; absent: a network of one ruleset).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_features: Vec<String>,
    /// The rulesets of a network trained on a family, as `id` and `params_hash` (absent:
    /// the one ruleset of `ruleset` and `params_hash`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub family: Vec<FamilyMember>,
}

/// One ruleset of a network's family (see [`CheckpointMeta::family`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyMember {
    /// The ruleset's id (with its board, `xxi@10x8`, where it was moved to the run's).
    pub ruleset: String,
    /// Its `params_hash` (16 hex digits).
    pub params_hash: String,
}

/// Search settings stored with a network (see [`CheckpointMeta::search`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchDefaults {
    /// Weight of the score head in leaf values (0: none).
    #[serde(default)]
    pub score_utility: f32,
    /// First-play urgency as a reduction from the parent's value (absent: FPU 0).
    #[serde(default)]
    pub fpu_reduction: Option<f32>,
    /// Gumbel root search: moves sampled at the root (0 or absent: PUCT).
    #[serde(default)]
    pub gumbel_considered: u32,
    /// Win-in-one check in the search (absent: off, as before it existed).
    #[serde(default)]
    pub win_check: bool,
}

impl CheckpointMeta {
    /// The network configuration described.
    pub fn network_config(&self) -> NetworkConfig {
        NetworkConfig::new(self.planes, self.width, self.height, self.actions)
            .with_blocks(self.blocks)
            .with_channels(self.channels)
            .with_policy_channels(self.policy_channels)
            .with_value_hidden(self.value_hidden)
            .with_policy_planes(self.policy_planes)
            .with_score_head(self.score_head)
            .with_ply_scale(self.ply_scale)
            .with_rule_features(self.rule_features.clone())
    }

    /// Metadata for a network of `cfg` trained on `ruleset` (id and params hash).
    pub fn new(cfg: &NetworkConfig, ruleset: &str, params_hash: u64, iteration: u32) -> CheckpointMeta {
        CheckpointMeta {
            ruleset: ruleset.to_string(),
            params_hash: format!("{params_hash:016x}"),
            iteration,
            planes: cfg.planes,
            width: cfg.width,
            height: cfg.height,
            actions: cfg.actions,
            blocks: cfg.blocks,
            channels: cfg.channels,
            policy_channels: cfg.policy_channels,
            value_hidden: cfg.value_hidden,
            policy_planes: cfg.policy_planes,
            score_head: cfg.score_head,
            ply_scale: cfg.ply_scale,
            search: SearchDefaults::default(),
            rule_features: cfg.rule_features.clone(),
            family: Vec::new(),
        }
    }
}

/// Errors reading or writing checkpoints; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file does not start with the checkpoint magic.
    #[error("{path}: not a latrunculi checkpoint (no LATAZ-CKPT header)")]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The file ends before its declared contents.
    #[error("{path}: truncated checkpoint ({got} bytes, at least {expected} needed); the file was cut short")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes needed.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// The checksum does not match.
    #[error("{path}: corrupted checkpoint (checksum mismatch)")]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// The format version is not supported.
    #[error("{path}: checkpoint format version {version} is not supported (this build reads version {VERSION})")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        version: u32,
    },
    /// The metadata is not valid.
    #[error("{path}: bad checkpoint metadata: {message}")]
    Meta {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The weights do not fit the network the metadata describes.
    #[error("{path}: the weights do not fit the network described in the checkpoint: {message}")]
    Shape {
        /// The file.
        path: PathBuf,
        /// burn's description of the mismatch.
        message: String,
    },
}

/// Serialises a network and its metadata to checkpoint bytes.
pub fn to_bytes(net: &Network, meta: &CheckpointMeta) -> Result<Vec<u8>, CheckpointError> {
    let meta_text = toml::to_string(meta)
        .map_err(|e| CheckpointError::Meta { path: PathBuf::from("<memory>"), message: e.to_string() })?;
    let record = net
        .clone()
        .into_record()
        .into_bytes()
        .map_err(|e| CheckpointError::Shape { path: PathBuf::from("<memory>"), message: e.to_string() })?;
    let mut out = Vec::with_capacity(64 + meta_text.len() + record.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(meta_text.len() as u64).to_le_bytes());
    out.extend_from_slice(meta_text.as_bytes());
    out.extend_from_slice(&(record.len() as u64).to_le_bytes());
    out.extend_from_slice(&record);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// Saves a checkpoint atomically.
pub fn save(path: &Path, net: &Network, meta: &CheckpointMeta) -> Result<(), CheckpointError> {
    let bytes = to_bytes(net, meta)?;
    latrunculi_files::write_atomic(path, &bytes)
        .map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })
}

/// Reads only the metadata of a checkpoint (the whole file is still checked).
pub fn read_meta(path: &Path) -> Result<CheckpointMeta, CheckpointError> {
    let bytes = fs::read(path).map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })?;
    parse(path, &bytes).map(|(meta, _)| meta)
}

/// Loads a checkpoint onto `device`: its metadata and the network.
pub fn load(path: &Path, device: &Device) -> Result<(CheckpointMeta, Network), CheckpointError> {
    let bytes = fs::read(path).map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })?;
    from_bytes(path, &bytes, device)
}

/// Loads a checkpoint from bytes (`path` is used in error messages).
pub fn from_bytes(path: &Path, bytes: &[u8], device: &Device) -> Result<(CheckpointMeta, Network), CheckpointError> {
    let (meta, record) = parse(path, bytes)?;
    let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(record.to_vec()))
        .map_err(|e| CheckpointError::Shape { path: path.to_path_buf(), message: e.to_string() })?;
    let net = meta
        .network_config()
        .init(device)
        .try_load_record(record)
        .map_err(|e| CheckpointError::Shape { path: path.to_path_buf(), message: e.to_string() })?;
    Ok((meta, net))
}

fn parse<'a>(path: &Path, bytes: &'a [u8]) -> Result<(CheckpointMeta, &'a [u8]), CheckpointError> {
    let path_buf = || path.to_path_buf();
    let truncated = |expected: u64| CheckpointError::Truncated { path: path_buf(), expected, got: bytes.len() as u64 };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            return Err(truncated(MAGIC.len() as u64 + 28));
        }
        return Err(CheckpointError::NotACheckpoint { path: path_buf() });
    }
    let mut at = MAGIC.len();
    let take = |at: &mut usize, n: usize| -> Result<&'a [u8], CheckpointError> {
        let end = at.checked_add(n).filter(|&e| e <= bytes.len()).ok_or_else(|| truncated((*at + n) as u64))?;
        let s = &bytes[*at..end];
        *at = end;
        Ok(s)
    };
    let u32_at = |s: &[u8]| u32::from_le_bytes(s.try_into().unwrap_or([0; 4]));
    let u64_at = |s: &[u8]| u64::from_le_bytes(s.try_into().unwrap_or([0; 8]));
    let version = u32_at(take(&mut at, 4)?);
    if version != VERSION {
        return Err(CheckpointError::Version { path: path_buf(), version });
    }
    let meta_len = u64_at(take(&mut at, 8)?) as usize;
    let meta_bytes = take(&mut at, meta_len)?;
    let record_len = u64_at(take(&mut at, 8)?) as usize;
    let record = take(&mut at, record_len)?;
    let body_end = at;
    let sum = u64_at(take(&mut at, 8)?);
    if at != bytes.len() {
        return Err(CheckpointError::Meta {
            path: path_buf(),
            message: format!("{} unexpected bytes after the checksum", bytes.len() - at),
        });
    }
    if fnv1a(&bytes[..body_end]) != sum {
        return Err(CheckpointError::Checksum { path: path_buf() });
    }
    let text = std::str::from_utf8(meta_bytes)
        .map_err(|_| CheckpointError::Meta { path: path_buf(), message: "metadata is not UTF-8".into() })?;
    let meta: CheckpointMeta =
        toml::from_str(text).map_err(|e| CheckpointError::Meta { path: path_buf(), message: e.to_string() })?;
    let max = latrunculi_rules::types::MAX_SIDE as usize;
    if meta.planes == 0 || meta.width == 0 || meta.height == 0 || meta.width > max || meta.height > max {
        return Err(CheckpointError::Meta {
            path: path_buf(),
            message: format!("impossible network shape {} planes on {}x{}", meta.planes, meta.width, meta.height),
        });
    }
    if let Some(m) =
        crate::model::network_too_large(meta.blocks, meta.channels, meta.policy_channels, meta.value_hidden)
    {
        return Err(CheckpointError::Meta { path: path_buf(), message: format!("impossible network shape: {m}") });
    }
    if meta.planes > 64 {
        return Err(CheckpointError::Meta {
            path: path_buf(),
            message: format!("impossible network shape: {} observation planes", meta.planes),
        });
    }
    let n = meta.width * meta.height;
    let (expected, head) = if meta.policy_planes > 0 {
        (crate::policy::spatial_planes(meta.width, meta.height) * n, "spatial policy outputs")
    } else {
        (n * n + 3 * n, "actions")
    };
    if meta.actions != expected || (meta.policy_planes > 0 && meta.policy_planes * n != expected) {
        return Err(CheckpointError::Meta {
            path: path_buf(),
            message: format!(
                "{} {head} ({} planes) do not match a {}x{} board ({expected})",
                meta.actions, meta.policy_planes, meta.width, meta.height,
            ),
        });
    }
    Ok((meta, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::prelude::*;

    fn small() -> (NetworkConfig, CheckpointMeta) {
        let cfg = NetworkConfig::new(12, 4, 3, 12 * 12 + 36).with_blocks(1).with_channels(4);
        let meta = CheckpointMeta::new(&cfg, "test", 0x1234, 7);
        (cfg, meta)
    }

    fn outputs(net: &Network, device: &Device) -> Vec<f32> {
        let input = Tensor::<4>::from_data(
            TensorData::new((0..2 * 12 * 12).map(|i| (i % 5) as f32 * 0.25).collect::<Vec<f32>>(), [2, 12, 3, 4]),
            device,
        );
        let o = net.forward(input);
        let mut out = o.logits.into_data().try_into_vec_as::<f32>().unwrap();
        out.extend(o.value.into_data().try_into_vec_as::<f32>().unwrap());
        if let Some(s) = o.score {
            out.extend(s.into_data().try_into_vec_as::<f32>().unwrap());
        }
        out
    }

    #[test]
    fn save_then_load_gives_the_same_outputs() {
        let device = crate::device::inference();
        let (cfg, meta) = small();
        let net = cfg.init(&device).valid();
        let dir = std::env::temp_dir().join(format!("latrunculi-ckpt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.az");
        save(&path, &net, &meta).unwrap();
        let (meta2, net2) = load(&path, &device).unwrap();
        assert_eq!(meta2, meta);
        assert_eq!(outputs(&net, &device), outputs(&net2.valid(), &device));
        assert_eq!(read_meta(&path).unwrap().iteration, 7);
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn truncated_corrupt_and_foreign_files_are_clear_errors() {
        let device = crate::device::inference();
        let (cfg, meta) = small();
        let net = cfg.init(&device).valid();
        let bytes = to_bytes(&net, &meta).unwrap();
        let p = Path::new("model.az");
        for cut in [5, 20, bytes.len() / 2, bytes.len() - 1] {
            let err = from_bytes(p, &bytes[..cut], &device).unwrap_err();
            assert!(matches!(err, CheckpointError::Truncated { .. }), "cut at {cut}: {err}");
            assert!(err.to_string().contains("model.az") && err.to_string().contains("truncated"), "{err}");
        }
        let mut bad = bytes.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x55;
        assert!(matches!(from_bytes(p, &bad, &device).unwrap_err(), CheckpointError::Checksum { .. }));
        assert!(matches!(
            from_bytes(p, b"PK\x03\x04 something else", &device).unwrap_err(),
            CheckpointError::NotACheckpoint { .. }
        ));
    }

    #[test]
    fn weights_of_another_shape_are_a_clear_error() {
        let device = crate::device::inference();
        let (cfg, meta) = small();
        let net = cfg.init(&device).valid();
        // Metadata that claims 8 channels over weights of 4.
        let mut lying = meta.clone();
        lying.channels = 8;
        let bytes = to_bytes(&net, &lying).unwrap();
        let err = from_bytes(Path::new("m.az"), &bytes, &device).unwrap_err();
        assert!(matches!(err, CheckpointError::Shape { .. }), "{err}");
        // Metadata whose action count does not fit its board.
        let mut wrong = meta;
        wrong.actions += 1;
        let bytes = to_bytes(&net, &wrong).unwrap();
        let err = from_bytes(Path::new("m.az"), &bytes, &device).unwrap_err();
        assert!(matches!(err, CheckpointError::Meta { .. }), "{err}");
    }
}
