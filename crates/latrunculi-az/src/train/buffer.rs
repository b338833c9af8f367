//! The replay buffer of a training run: the samples of the most recent games, and its
//! file format (`buffer-NNNN.bin`).

use std::path::Path;

use latrunculi_rules::fnv1a;

use crate::AzError;
use crate::selfplay::Sample;

/// The replay buffer: the samples of the most recent games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayBuffer {
    games: std::collections::VecDeque<Vec<Sample>>,
}

/// The first buffer format (observation, policy, value, ply); still read.
const BUFFER_MAGIC_V1: &[u8; 10] = b"LATAZ-BUF\n";
/// The current format: v1's fields plus legal moves, score, root value and policy flag.
const BUFFER_MAGIC: &[u8; 10] = b"LATAZ-BF2\n";

impl ReplayBuffer {
    /// Adds a game's samples, dropping the oldest games beyond `window`.
    pub fn push(&mut self, samples: Vec<Sample>, window: usize) {
        self.games.push_back(samples);
        while self.games.len() > window.max(1) {
            self.games.pop_front();
        }
    }

    /// Games held.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Samples held.
    pub fn len(&self) -> usize {
        self.games.iter().map(Vec::len).sum()
    }

    /// Whether the buffer holds no sample.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every sample held, oldest game first.
    pub fn flat(&self) -> Vec<&Sample> {
        self.games.iter().flatten().collect()
    }

    /// Serialises the buffer (see the module docs for the file).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(BUFFER_MAGIC);
        out.extend_from_slice(&(self.games.len() as u32).to_le_bytes());
        for g in &self.games {
            out.extend_from_slice(&(g.len() as u32).to_le_bytes());
            for s in g {
                out.extend_from_slice(&s.ply.to_le_bytes());
                out.extend_from_slice(&s.value.to_le_bytes());
                out.extend_from_slice(&(s.obs.len() as u32).to_le_bytes());
                for x in &s.obs {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                out.extend_from_slice(&(s.policy.len() as u32).to_le_bytes());
                for (a, p) in &s.policy {
                    out.extend_from_slice(&a.to_le_bytes());
                    out.extend_from_slice(&p.to_le_bytes());
                }
                out.extend_from_slice(&(s.legal.len() as u32).to_le_bytes());
                for a in &s.legal {
                    out.extend_from_slice(&a.to_le_bytes());
                }
                out.extend_from_slice(&s.score.to_le_bytes());
                out.extend_from_slice(&s.root_q.to_le_bytes());
                out.extend_from_slice(&(s.policy_valid as u32).to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a buffer written by [`ReplayBuffer::to_bytes`]; `path` is named in errors.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<ReplayBuffer, AzError> {
        let err = |m: &str| AzError::file(path, m);
        if bytes.len() < BUFFER_MAGIC.len() + 12
            || (&bytes[..BUFFER_MAGIC.len()] != BUFFER_MAGIC && &bytes[..BUFFER_MAGIC.len()] != BUFFER_MAGIC_V1)
        {
            return Err(err("not a replay buffer file, or truncated"));
        }
        let v1 = &bytes[..BUFFER_MAGIC.len()] == BUFFER_MAGIC_V1;
        let body = &bytes[..bytes.len() - 8];
        let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().map_err(|_| err("truncated"))?);
        if fnv1a(body) != sum {
            return Err(err("replay buffer is truncated or corrupted (checksum mismatch)"));
        }
        let mut at = BUFFER_MAGIC.len();
        let mut u32_ = || -> Result<u32, AzError> {
            let s = body.get(at..at + 4).ok_or_else(|| err("truncated replay buffer"))?;
            at += 4;
            Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let mut buf = ReplayBuffer::default();
        let games = u32_()?;
        for _ in 0..games {
            let n = u32_()?;
            let mut g = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let ply = u32_()?;
                let value = f32::from_bits(u32_()?);
                let obs_len = u32_()?;
                let obs = (0..obs_len).map(|_| u32_().map(f32::from_bits)).collect::<Result<Vec<_>, _>>()?;
                let np = u32_()?;
                let policy =
                    (0..np).map(|_| Ok((u32_()?, f32::from_bits(u32_()?)))).collect::<Result<Vec<_>, AzError>>()?;
                let mut s = Sample {
                    obs,
                    policy,
                    value,
                    ply,
                    legal: Vec::new(),
                    score: 0.0,
                    root_q: value,
                    policy_valid: true,
                };
                if !v1 {
                    let nl = u32_()?;
                    s.legal = (0..nl).map(|_| u32_()).collect::<Result<Vec<_>, _>>()?;
                    s.score = f32::from_bits(u32_()?);
                    s.root_q = f32::from_bits(u32_()?);
                    s.policy_valid = u32_()? != 0;
                }
                g.push(s);
            }
            buf.games.push_back(g);
        }
        Ok(buf)
    }
}
