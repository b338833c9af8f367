//! Building the tables: every position of a material is expanded once with the engine's
//! own move generation and move application; moves that capture, end the game or grant a
//! further ply leave the material and are valued from the smaller tables (already built)
//! or by the engine's outcome; the moves that stay inside the material form a graph that
//! is solved by retrograde analysis (a bucket queue by distance over the reversed graph).

use std::path::Path;

use latrunculi_rules::{Color, Position, Setup, Square};

use crate::material::{Indexer, Material};
use crate::table::{DRAW, Header, INVALID, LOSES, Table, TablebaseError, WINS};
use crate::tablebase::Tablebase;
use crate::value::{Score, Wdl, back, score, split, terminal};

/// No exit of this kind.
const NONE: u16 = u16::MAX;
/// Node kinds.
const NORMAL: u8 = 0;
const BAD: u8 = 1;
const TERMINAL: u8 = 2;
const ALIAS: u8 = 3;
/// The flag on an edge whose ply leaves the turn with its player.
const SAME: u32 = 1 << 31;

/// What a build reports as it goes.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A material's build starts: its index size.
    Start {
        /// The material.
        material: Material,
        /// Its index numbers (both sides to move).
        size: u64,
    },
    /// Index numbers expanded so far in the current material.
    Progress {
        /// Numbers done.
        done: u64,
    },
    /// A material is done (`skipped` when its file was already there).
    Done {
        /// The material.
        material: Material,
        /// Whether an existing file was kept.
        skipped: bool,
        /// Valid positions (both sides to move).
        positions: u64,
        /// Seconds spent.
        seconds: f64,
    },
}

/// Which part of the materials a job builds: the materials of each size whose place in
/// the size's list is `k - 1` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: u32,
    /// Shards.
    pub n: u32,
}

impl std::str::FromStr for Shard {
    type Err = TablebaseError;
    fn from_str(s: &str) -> Result<Shard, TablebaseError> {
        let bad = || TablebaseError::BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl Tablebase {
    /// Builds every material of 1 to `max_pieces` pieces (this shard's share of each
    /// size), fewest pieces first, writing each file atomically; materials whose file is
    /// already there (and reads back as this ruleset's) are skipped, so that a killed
    /// build resumes. Returns the materials of this shard.
    pub fn build(
        &self,
        max_pieces: u32,
        shard: Option<Shard>,
        on_event: &mut dyn FnMut(BuildEvent),
    ) -> Result<Vec<Material>, TablebaseError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| TablebaseError::Io { path: self.dir.clone(), source })?;
        let all = Material::all_up_to(max_pieces, self.ruleset.has_dux());
        let mut mine = Vec::new();
        for size in 1..=max_pieces {
            let of_size: Vec<Material> = all.iter().copied().filter(|m| m.pieces() == size).collect();
            for (i, m) in of_size.into_iter().enumerate() {
                if shard.is_none_or(|s| i as u32 % s.n == s.k - 1) {
                    mine.push(m);
                }
            }
        }
        for &m in &mine {
            let t0 = std::time::Instant::now();
            let path = self.path_of(m);
            if path.is_file() {
                let t = self.table(m)?.ok_or_else(|| TablebaseError::Missing { path: path.clone(), material: m })?;
                let positions = t.header.counts.iter().map(|c| c.positions).sum();
                on_event(BuildEvent::Done { material: m, skipped: true, positions, seconds: 0.0 });
                continue;
            }
            let table = self.solve(m, on_event)?;
            table.write(&path)?;
            let positions = table.header.counts.iter().map(|c| c.positions).sum();
            self.insert(table);
            let seconds = t0.elapsed().as_secs_f64();
            on_event(BuildEvent::Done { material: m, skipped: false, positions, seconds });
        }
        Ok(mine)
    }

    /// Solves one material (every smaller material it can reach must be available).
    pub(crate) fn solve(&self, m: Material, on_event: &mut dyn FnMut(BuildEvent)) -> Result<Table, TablebaseError> {
        let rules = &self.ruleset;
        let ix = Indexer::new(m, rules.width, rules.height, self.traps);
        let n = ix.size();
        if n >= 1 << 31 {
            return Err(TablebaseError::TooLarge { material: m, size: n });
        }
        on_event(BuildEvent::Start { material: m, size: n });
        let n = n as usize;
        let mut kind = vec![NORMAL; n];
        let mut term: Vec<Score> = vec![0; n];
        let mut exit_win = vec![NONE; n];
        let mut exit_loss = vec![NONE; n];
        let mut exit_draw = vec![false; n];
        let mut offsets: Vec<u64> = Vec::with_capacity(n + 1);
        let mut edges: Vec<u32> = Vec::new();
        let mut moves = Vec::with_capacity(128);
        let internal = |message: String| TablebaseError::Internal { material: m, message };
        for i in 0..n {
            offsets.push(edges.len() as u64);
            if i % 65536 == 0 {
                on_event(BuildEvent::Progress { done: i as u64 });
            }
            let Some(setup) = ix.setup(i as u64).filter(|s| self.traps_held(s)) else {
                kind[i] = BAD;
                continue;
            };
            let Ok(pos) = Position::from_setup(rules, &setup) else {
                kind[i] = BAD;
                continue;
            };
            if let Some(o) = pos.outcome() {
                kind[i] = TERMINAL;
                term[i] = terminal(o, pos.side_to_move());
                continue;
            }
            if pos.side_to_move() != setup.turn {
                kind[i] = ALIAS;
                continue;
            }
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.play(mv);
                let same = child.side_to_move() == pos.side_to_move();
                if !child.is_over() && child.pending().is_none() && Material::of(&child) == m {
                    let j = ix.index_of(&child).ok_or_else(|| internal(format!("no number for a child {mv:?}")))?;
                    edges.push(j as u32 | if same { SAME } else { 0 });
                    continue;
                }
                let e = self.eval(&child)?.ok_or_else(|| TablebaseError::Missing {
                    path: self.path_of(Material::of(&child)),
                    material: Material::of(&child),
                })?;
                match split(back(e.dtm, same)) {
                    (Wdl::Win, d) => exit_win[i] = exit_win[i].min(d as u16),
                    (Wdl::Loss, d) => {
                        exit_loss[i] = if exit_loss[i] == NONE { d as u16 } else { exit_loss[i].max(d as u16) }
                    }
                    (Wdl::Draw, _) => exit_draw[i] = true,
                }
            }
        }
        offsets.push(edges.len() as u64);
        on_event(BuildEvent::Progress { done: n as u64 });
        // The reversed graph.
        let mut rev_off = vec![0u64; n + 1];
        for &e in &edges {
            rev_off[(e & !SAME) as usize + 1] += 1;
        }
        for i in 0..n {
            rev_off[i + 1] += rev_off[i];
        }
        let mut fill = rev_off.clone();
        let mut rev = vec![0u32; edges.len()];
        for i in 0..n {
            for &e in &edges[offsets[i] as usize..offsets[i + 1] as usize] {
                let t = (e & !SAME) as usize;
                rev[fill[t] as usize] = i as u32 | (e & SAME);
                fill[t] += 1;
            }
        }
        for &e in &edges {
            if kind[(e & !SAME) as usize] != NORMAL {
                return Err(internal("a move leads to a position that is not a normal node".into()));
            }
        }
        let degree: Vec<u32> = (0..n).map(|i| (offsets[i + 1] - offsets[i]) as u32).collect();
        drop(edges);
        let g = Graph { kind: &kind, term: &term, degree: &degree, rev_off: &rev_off, rev: &rev };
        let dtm = g.solve(&exit_win, &exit_loss, &exit_draw);
        let z = |v: &[u16]| v.iter().map(|&d| if d == NONE { NONE } else { 1 }).collect::<Vec<u16>>();
        let dtz = g.solve(&z(&exit_win), &z(&exit_loss), &exit_draw);
        let mut wdl = vec![INVALID; n];
        let (mut dist_m, mut dist_z) = (vec![0u16; n], vec![0u16; n]);
        for i in 0..n {
            let (sm, sz) = match kind[i] {
                BAD => continue,
                ALIAS => {
                    // The side to move cannot move and passes: the other side's value.
                    let j = i ^ 1;
                    (-dtm[j], -dtz[j])
                }
                _ => (dtm[i], dtz[i]),
            };
            let ((w, dm), (wz, dz)) = (split(sm), split(sz));
            if w != wz {
                return Err(internal(format!("number {i}: {w} by distance to the end, {wz} by distance to capture")));
            }
            wdl[i] = match w {
                Wdl::Win => WINS,
                Wdl::Loss => LOSES,
                Wdl::Draw => DRAW,
            };
            dist_m[i] = dm.min(NONE as u32 - 1) as u16;
            dist_z[i] = dz.min(NONE as u32 - 1) as u16;
        }
        let counts = Table::count(&wdl, &dist_m);
        let header = Header {
            version: crate::table::FORMAT_VERSION,
            label: self.label.clone(),
            params_hash: self.params_hash,
            width: rules.width,
            height: rules.height,
            traps: self.traps && m.soldiers.iter().any(|&s| s > 0),
            material: m,
            size: n as u64,
            counts,
        };
        Ok(Table { header, indexer: ix, wdl, dtm: dist_m, dtz: dist_z })
    }

    /// Whether every trapped soldier of a setup is held: two free enemy pieces on
    /// opposite sides of it (along a rank or file, or a diagonal when captures go along
    /// diagonals), or both orthogonal neighbours of its corner.
    pub(crate) fn traps_held(&self, s: &Setup) -> bool {
        let (w, h) = (s.width as i32, s.height as i32);
        let enemy = |f: i32, r: i32, c: Color| {
            (0..w).contains(&f)
                && (0..h).contains(&r)
                && s.piece_at(Square::new(f as u8, r as u8).expect("on board"))
                    .is_some_and(|p| p.color != c && !p.trapped)
        };
        let diag = self.ruleset.capture.diagonal;
        s.pieces().filter(|(_, p)| p.trapped).all(|(sq, p)| {
            let (f, r, c) = (sq.file() as i32, sq.rank() as i32, p.color);
            let pair = |df: i32, dr: i32| enemy(f - df, r - dr, c) && enemy(f + df, r + dr, c);
            let corner = (f == 0 || f == w - 1) && (r == 0 || r == h - 1);
            let cf = if f == 0 { 1 } else { f - 1 };
            let cr = if r == 0 { 1 } else { r - 1 };
            pair(1, 0)
                || pair(0, 1)
                || (diag && (pair(1, 1) || pair(1, -1)))
                || (corner && enemy(cf, r, c) && enemy(f, cr, c))
        })
    }
}

/// The graph of one material's positions for the retrograde solver.
struct Graph<'a> {
    kind: &'a [u8],
    term: &'a [Score],
    /// Moves that stay in the material, per node.
    degree: &'a [u32],
    rev_off: &'a [u64],
    /// Predecessors (with [`SAME`] on plies that keep the turn).
    rev: &'a [u32],
}

impl Graph<'_> {
    /// Scores of every node given its exits' best win distance, worst loss distance and
    /// whether one draws ([`NONE`]: no such exit); unresolved nodes are draws.
    fn solve(&self, exit_win: &[u16], exit_loss: &[u16], exit_draw: &[bool]) -> Vec<Score> {
        const UNKNOWN: Score = Score::MIN;
        const LOSS_FLAG: u32 = 1 << 31;
        let n = self.kind.len();
        let mut res = vec![UNKNOWN; n];
        let mut left = self.degree.to_vec();
        let mut loss_max: Vec<u16> = exit_loss.iter().map(|&d| if d == NONE { 0 } else { d }).collect();
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        let push = |b: &mut Vec<Vec<u32>>, d: u32, v: u32| {
            if b.len() <= d as usize {
                b.resize_with(d as usize + 1, Vec::new);
            }
            b[d as usize].push(v);
        };
        let can_lose = |i: usize| exit_win[i] == NONE && !exit_draw[i];
        for i in 0..n {
            match self.kind[i] {
                TERMINAL if self.term[i] != 0 => {
                    push(&mut buckets, 0, i as u32 | if self.term[i] < 0 { LOSS_FLAG } else { 0 })
                }
                TERMINAL => res[i] = 0,
                NORMAL => {
                    if exit_win[i] != NONE {
                        push(&mut buckets, exit_win[i] as u32, i as u32);
                    }
                    if self.degree[i] == 0 && can_lose(i) {
                        push(&mut buckets, loss_max[i] as u32, i as u32 | LOSS_FLAG);
                    }
                }
                _ => {}
            }
        }
        let mut d = 0usize;
        while d < buckets.len() {
            let bucket = std::mem::take(&mut buckets[d]);
            for v in bucket {
                let i = (v & !LOSS_FLAG) as usize;
                if res[i] != UNKNOWN {
                    continue;
                }
                let s = score(if v & LOSS_FLAG != 0 { Wdl::Loss } else { Wdl::Win }, d as u32);
                res[i] = s;
                for &p in &self.rev[self.rev_off[i] as usize..self.rev_off[i + 1] as usize] {
                    let (pi, same) = ((p & !SAME) as usize, p & SAME != 0);
                    if res[pi] != UNKNOWN {
                        continue;
                    }
                    let opt = back(s, same);
                    if opt > 0 {
                        push(&mut buckets, d as u32 + 1, pi as u32);
                    } else {
                        left[pi] -= 1;
                        loss_max[pi] = loss_max[pi].max(d as u16 + 1);
                        if left[pi] == 0 && can_lose(pi) {
                            push(&mut buckets, loss_max[pi] as u32, pi as u32 | LOSS_FLAG);
                        }
                    }
                }
            }
            d += 1;
        }
        res.iter().map(|&s| if s == UNKNOWN { 0 } else { s }).collect()
    }
}

/// Builds the tables of `ruleset` up to `max_pieces` pieces under the tablebase
/// directory `root` (see [`Tablebase::build`]).
pub fn build(
    root: &Path,
    ruleset: &latrunculi_rules::Ruleset,
    label: &str,
    max_pieces: u32,
    shard: Option<Shard>,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Tablebase, TablebaseError> {
    let tb = Tablebase::open(root, ruleset, label);
    tb.build(max_pieces, shard, on_event)?;
    Ok(tb)
}
