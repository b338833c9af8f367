//! The replay buffer of a training run: the samples of the most recent games, and its
//! file format (`buffer-NNNN.bin`).

use std::io::{BufWriter, Write};
use std::path::Path;

use latrunculi_rules::{Fnv1a, fnv1a};

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

/// A writer that passes bytes on and keeps their FNV-1a hash.
struct HashingWriter<W: Write> {
    inner: W,
    hash: Fnv1a,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

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

    /// Serialises the buffer (see the module docs for the file) to `w` as the bytes are
    /// made, without a copy of the whole buffer in memory (a buffer of a long run is
    /// gigabytes).
    pub fn write_to(&self, w: &mut impl Write) -> std::io::Result<()> {
        let mut out = HashingWriter { inner: BufWriter::with_capacity(1 << 20, w), hash: Fnv1a::default() };
        out.write_all(BUFFER_MAGIC)?;
        out.write_all(&(self.games.len() as u32).to_le_bytes())?;
        for g in &self.games {
            out.write_all(&(g.len() as u32).to_le_bytes())?;
            for s in g {
                out.write_all(&s.ply.to_le_bytes())?;
                out.write_all(&s.value.to_le_bytes())?;
                out.write_all(&(s.obs.len() as u32).to_le_bytes())?;
                for x in &s.obs {
                    out.write_all(&x.to_le_bytes())?;
                }
                out.write_all(&(s.policy.len() as u32).to_le_bytes())?;
                for (a, p) in &s.policy {
                    out.write_all(&a.to_le_bytes())?;
                    out.write_all(&p.to_le_bytes())?;
                }
                out.write_all(&(s.legal.len() as u32).to_le_bytes())?;
                for a in &s.legal {
                    out.write_all(&a.to_le_bytes())?;
                }
                out.write_all(&s.score.to_le_bytes())?;
                out.write_all(&s.root_q.to_le_bytes())?;
                out.write_all(&(s.policy_valid as u32).to_le_bytes())?;
            }
        }
        let sum = out.hash.finish();
        out.inner.write_all(&sum.to_le_bytes())?;
        out.inner.flush()
    }

    /// Reads a buffer written by [`ReplayBuffer::write_to`]; `path` is named in errors.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(i: u32) -> Sample {
        Sample {
            obs: vec![i as f32, 0.5, -1.0],
            policy: vec![(i, 0.75), (i + 1, 0.25)],
            value: if i % 2 == 0 { 1.0 } else { -1.0 },
            ply: i,
            legal: vec![i, i + 1, i + 7],
            score: 0.25 * i as f32,
            root_q: -0.5,
            policy_valid: i % 3 != 0,
        }
    }

    #[test]
    fn the_streamed_file_reads_back_and_its_checksum_is_fnv1a_of_the_body() {
        let mut buf = ReplayBuffer::default();
        buf.push((0..3).map(sample).collect(), 10);
        buf.push((3..8).map(sample).collect(), 10);
        let mut streamed = Vec::new();
        buf.write_to(&mut streamed).unwrap();
        // Magic, then the game count, then the first game's sample count.
        assert_eq!(&streamed[..BUFFER_MAGIC.len()], BUFFER_MAGIC);
        let count = |at: usize| u32::from_le_bytes(streamed[at..at + 4].try_into().unwrap());
        assert_eq!(count(BUFFER_MAGIC.len()), 2);
        assert_eq!(count(BUFFER_MAGIC.len() + 4), 3);
        let (body, sum) = streamed.split_at(streamed.len() - 8);
        assert_eq!(u64::from_le_bytes(sum.try_into().unwrap()), fnv1a(body));
        let path = Path::new("buffer-0001.bin");
        assert_eq!(ReplayBuffer::from_bytes(&streamed, path).unwrap(), buf);
        // One changed byte is caught by the checksum.
        let mut bad = streamed.clone();
        bad[20] ^= 1;
        assert!(ReplayBuffer::from_bytes(&bad, path).is_err());
    }
}
