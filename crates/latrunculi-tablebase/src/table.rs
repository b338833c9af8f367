//! One material's table in memory, and its file: a versioned header, then two bits a
//! position (win/draw/loss/invalid) and two distance arrays. See docs/tablebase.md.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::material::{Indexer, Material};
use crate::value::{Score, Wdl, score};

/// The first eight bytes of every table file.
pub const MAGIC: &[u8; 8] = b"LATRUNTB";
/// The file format version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// A position code: the side to move draws.
pub(crate) const DRAW: u8 = 0;
/// A position code: the side to move wins.
pub(crate) const WINS: u8 = 1;
/// A position code: the side to move loses.
pub(crate) const LOSES: u8 = 2;
/// A position code: no position has this number (pieces share a square, a trapped
/// piece nobody holds, or a position the engine refuses).
pub(crate) const INVALID: u8 = 3;

/// Errors of reading, writing and building tables; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file does not start with the table magic.
    #[error("{path}: not a latrunculi tablebase file (bad magic)")]
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file's format version is not this program's.
    #[error("{path}: format version {got}, this program reads version {want}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The file's version.
        got: u32,
        /// The version read here.
        want: u32,
    },
    /// The file was built for other rules.
    #[error(
        "{path}: built for ruleset {file_label} (parameters {file_hash:016x}), not {want_label} (parameters {want_hash:016x})"
    )]
    WrongRuleset {
        /// The file.
        path: PathBuf,
        /// The ruleset label in the file.
        file_label: String,
        /// The parameter hash in the file.
        file_hash: u64,
        /// The ruleset asked for.
        want_label: String,
        /// Its parameter hash.
        want_hash: u64,
    },
    /// The file's board or material is not the one its name or the ruleset says.
    #[error("{path}: holds {got}, expected {want}")]
    WrongContent {
        /// The file.
        path: PathBuf,
        /// What the header says.
        got: String,
        /// What was expected.
        want: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: {got} bytes, the header needs {want} (truncated or damaged file)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its length.
        got: u64,
        /// The length the header gives.
        want: u64,
    },
    /// The data does not match the header's checksum.
    #[error("{path}: checksum mismatch (damaged file)")]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// A smaller table that a build or a probe needs is not there.
    #[error("{path}: table {material} is missing (build all materials of fewer pieces first)")]
    Missing {
        /// The file that was looked for.
        path: PathBuf,
        /// Its material.
        material: Material,
    },
    /// A material's index does not fit the solver (more than 2^31 numbers).
    #[error("material {material} has {size} index numbers, more than this solver handles (2^31)")]
    TooLarge {
        /// The material.
        material: Material,
        /// Its index size.
        size: u64,
    },
    /// A position reached by the engine has no valid number in its own table (a bug).
    #[error("material {material}: {message}")]
    Internal {
        /// The material being built.
        material: Material,
        /// What went wrong.
        message: String,
    },
    /// A `--shard K/N` that is not `1 <= K <= N`.
    #[error("bad shard '{0}': write K/N with 1 <= K <= N, e.g. 2/4")]
    BadShard(String),
}

/// Position counts of one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Positions (valid numbers) with this side to move.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// The longest win for the side to move, in plies (DTM).
    pub longest_win: u32,
    /// The longest loss, in plies.
    pub longest_loss: u32,
}

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// The ruleset label the table was built under (information).
    pub label: String,
    /// The parameter hash of the tablebase rules ([`crate::table_ruleset`]).
    pub params_hash: u64,
    /// Board files.
    pub width: u8,
    /// Board ranks.
    pub height: u8,
    /// Whether soldiers carry a trap bit in the index.
    pub traps: bool,
    /// The material.
    pub material: Material,
    /// Index numbers (both sides to move).
    pub size: u64,
    /// Counts with White to move (`[0]`) and Black to move (`[1]`).
    pub counts: [SideCounts; 2],
}

/// One material's solved table.
#[derive(Clone, Debug)]
pub struct Table {
    /// The header (material, board, counts).
    pub header: Header,
    /// The index.
    pub indexer: Indexer,
    /// One code per index number ([`DRAW`], [`WINS`], [`LOSES`], [`INVALID`]).
    pub(crate) wdl: Vec<u8>,
    /// Distance to the end of the game with best play, in plies (0 for draws).
    pub(crate) dtm: Vec<u16>,
    /// Distance to the next capture or the end of the game ("zeroing" ply), in plies,
    /// with the win kept; 0 for draws.
    pub(crate) dtz: Vec<u16>,
}

impl Table {
    /// The scores of a number by the distance to the end and by the distance to the next
    /// capture, `(dtm, dtz)` (`None` for an invalid number).
    pub(crate) fn scores(&self, i: u64) -> Option<(Score, Score)> {
        let i = i as usize;
        let wdl = match self.wdl[i] {
            WINS => Wdl::Win,
            LOSES => Wdl::Loss,
            DRAW => return Some((0, 0)),
            _ => return None,
        };
        Some((score(wdl, self.dtm[i] as u32), score(wdl, self.dtz[i] as u32)))
    }

    /// Counts per side to move from the arrays.
    pub(crate) fn count(wdl: &[u8], dtm: &[u16]) -> [SideCounts; 2] {
        let mut c = [SideCounts::default(); 2];
        for (i, (&w, &d)) in wdl.iter().zip(dtm).enumerate() {
            let s = &mut c[i % 2];
            match w {
                WINS => {
                    s.wins += 1;
                    s.longest_win = s.longest_win.max(d as u32);
                }
                LOSES => {
                    s.losses += 1;
                    s.longest_loss = s.longest_loss.max(d as u32);
                }
                DRAW => s.draws += 1,
                _ => continue,
            }
            s.positions += 1;
        }
        c
    }

    /// Writes the table to `path` atomically (a temporary file in the same directory,
    /// then a rename).
    pub fn write(&self, path: &Path) -> Result<(), TablebaseError> {
        let io = |source| TablebaseError::Io { path: path.to_path_buf(), source };
        let h = &self.header;
        let wide = self.dtm.iter().chain(&self.dtz).any(|&d| d > u8::MAX as u16);
        let mut payload = Vec::with_capacity(self.wdl.len() / 4 + 1 + self.wdl.len() * 4);
        for chunk in self.wdl.chunks(4) {
            payload.push(chunk.iter().enumerate().fold(0u8, |b, (k, &w)| b | (w << (2 * k))));
        }
        for arr in [&self.dtm, &self.dtz] {
            for &d in arr.iter() {
                if wide {
                    payload.extend_from_slice(&d.to_le_bytes());
                } else {
                    payload.push(d as u8);
                }
            }
        }
        let mut out = Vec::with_capacity(256 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&h.params_hash.to_le_bytes());
        let m = &h.material;
        out.extend_from_slice(&[h.width, h.height, h.traps as u8, if wide { 2 } else { 1 }]);
        out.extend_from_slice(&[m.soldiers[0], m.dux[0] as u8, m.soldiers[1], m.dux[1] as u8]);
        out.extend_from_slice(&h.size.to_le_bytes());
        for c in &h.counts {
            for v in [c.positions, c.wins, c.draws, c.losses, c.longest_win as u64, c.longest_loss as u64] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&(h.label.len() as u16).to_le_bytes());
        out.extend_from_slice(h.label.as_bytes());
        out.extend_from_slice(&latrunculi_rules::fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(&out).map_err(io)?;
        f.sync_all().map_err(io)?;
        drop(f);
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads only the header of a table file.
    pub fn read_header(path: &Path) -> Result<Header, TablebaseError> {
        let bytes = std::fs::read(path).map_err(|source| TablebaseError::Io { path: path.to_path_buf(), source })?;
        Ok(parse(path, &bytes, false)?.0)
    }

    /// Reads a table file, checking that it was built for `params_hash` (the
    /// tablebase rules' parameter hash, [`crate::table_ruleset`]), the board and
    /// `material`; `want_label` names the ruleset in the error.
    pub fn read(
        path: &Path,
        want_label: &str,
        params_hash: u64,
        board: (u8, u8),
        material: Material,
    ) -> Result<Table, TablebaseError> {
        let bytes = std::fs::read(path).map_err(|source| TablebaseError::Io { path: path.to_path_buf(), source })?;
        let (header, body) = parse(path, &bytes, true)?;
        if header.params_hash != params_hash {
            return Err(TablebaseError::WrongRuleset {
                path: path.to_path_buf(),
                file_label: header.label,
                file_hash: header.params_hash,
                want_label: want_label.to_string(),
                want_hash: params_hash,
            });
        }
        let got = format!("{} on {}x{}", header.material, header.width, header.height);
        let want = format!("{material} on {}x{}", board.0, board.1);
        if got != want {
            return Err(TablebaseError::WrongContent { path: path.to_path_buf(), got, want });
        }
        let indexer = Indexer::new(material, board.0, board.1, header.traps);
        if indexer.size() != header.size {
            return Err(TablebaseError::WrongContent {
                path: path.to_path_buf(),
                got: format!("{} index numbers", header.size),
                want: format!("{}", indexer.size()),
            });
        }
        let (wdl, dtm, dtz) = body.expect("parse with data returns it");
        Ok(Table { header, indexer, wdl, dtm, dtz })
    }
}

/// The decoded arrays of a file: codes, DTM, DTZ.
type Body = (Vec<u8>, Vec<u16>, Vec<u16>);

fn parse(path: &Path, bytes: &[u8], data: bool) -> Result<(Header, Option<Body>), TablebaseError> {
    let p = || path.to_path_buf();
    let short = |want: u64| TablebaseError::Truncated { path: p(), got: bytes.len() as u64, want };
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(TablebaseError::NotATable { path: p() });
    }
    let fixed = 8 + 4 + 8 + 4 + 4 + 8 + 2 * 6 * 8 + 2;
    if bytes.len() < fixed {
        return Err(short(fixed as u64));
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(TablebaseError::Version { path: p(), got: version, want: FORMAT_VERSION });
    }
    let params_hash = u64_at(12);
    let [width, height, traps, dist_bytes] = [bytes[20], bytes[21], bytes[22], bytes[23]];
    let material = Material { soldiers: [bytes[24], bytes[26]], dux: [bytes[25] != 0, bytes[27] != 0] };
    let size = u64_at(28);
    let mut o = 36;
    let mut counts = [SideCounts::default(); 2];
    for c in counts.iter_mut() {
        let v: Vec<u64> = (0..6).map(|k| u64_at(o + 8 * k)).collect();
        o += 48;
        *c = SideCounts {
            positions: v[0],
            wins: v[1],
            draws: v[2],
            losses: v[3],
            longest_win: v[4] as u32,
            longest_loss: v[5] as u32,
        };
    }
    let label_len = u16::from_le_bytes([bytes[o], bytes[o + 1]]) as usize;
    o += 2;
    if !(dist_bytes == 1 || dist_bytes == 2) || size > (1 << 40) {
        return Err(TablebaseError::WrongContent {
            path: p(),
            got: format!("distance width {dist_bytes}, {size} numbers"),
            want: "a distance width of 1 or 2 bytes".into(),
        });
    }
    let payload_len = size.div_ceil(4) + 2 * size * dist_bytes as u64;
    let want = (o + label_len + 8) as u64 + payload_len;
    if bytes.len() as u64 != want {
        return Err(short(want));
    }
    let label = String::from_utf8_lossy(&bytes[o..o + label_len]).into_owned();
    o += label_len;
    let checksum = u64_at(o);
    o += 8;
    let header = Header { version, label, params_hash, width, height, traps: traps != 0, material, size, counts };
    if !data {
        return Ok((header, None));
    }
    let payload = &bytes[o..];
    if latrunculi_rules::fnv1a(payload) != checksum {
        return Err(TablebaseError::Checksum { path: p() });
    }
    let n = size as usize;
    let wdl: Vec<u8> = (0..n).map(|i| (payload[i / 4] >> (2 * (i % 4))) & 3).collect();
    let mut at = n.div_ceil(4);
    let mut dist = || {
        let v: Vec<u16> = if dist_bytes == 2 {
            (0..n).map(|i| u16::from_le_bytes([payload[at + 2 * i], payload[at + 2 * i + 1]])).collect()
        } else {
            payload[at..at + n].iter().map(|&b| b as u16).collect()
        };
        at += n * dist_bytes as usize;
        v
    };
    let dtm = dist();
    let dtz = dist();
    Ok((header, Some((wdl, dtm, dtz))))
}
