//! The evaluation's features: numbers about a position that the rules make matter,
//! computed the same way for every ruleset, each from the side to move's point of view
//! (mostly "ours minus theirs").
//!
//! The evaluation is the weighted sum of these (weights fitted per ruleset from game
//! results, see [`super::weights`] and [`super::tune`]), in logits of the side to
//! move's expected score.

use latrunculi_rules::{Color, Move, MoveKind, PieceKind, Position, Square};

/// How many features there are.
pub const NUM_FEATURES: usize = 12;

/// The features' names, as written in weights files, in the order of [`Features`].
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "soldiers",
    "trapped",
    "dux",
    "hand",
    "threat",
    "hanging",
    "mobility",
    "dux_liberties",
    "dux_attackers",
    "supported",
    "count_race",
    "tempo",
];

/// What each feature measures, for weights files and documentation.
pub const FEATURE_DOCS: [&str; NUM_FEATURES] = [
    "free soldiers on the board plus soldiers in hand, ours minus theirs",
    "trapped soldiers on the board (trap rules), ours minus theirs",
    "Dux on the board or in hand (0 or 1 each), ours minus theirs",
    "pieces in hand (placement phase), ours minus theirs",
    "most enemy pieces one of our moves captures or traps now",
    "most of our pieces one enemy move would capture or trap if it were the enemy's turn",
    "legal moves, ours minus theirs (theirs counted with the turn passed), divided by 10",
    "empty orthogonal neighbours of our Dux minus those of theirs",
    "our pieces orthogonally next to their Dux minus their pieces next to ours",
    "soldiers with a friendly orthogonal neighbour, ours minus theirs",
    "piece count difference times the share of the no-capture limit used, where the limit is decided by a piece count (else 0)",
    "1 (the side to move's edge)",
];

/// Feature values of one position, in the order of [`FEATURE_NAMES`].
pub type Features = [f64; NUM_FEATURES];

/// Index of a feature in [`FEATURE_NAMES`].
pub mod idx {
    /// `soldiers`.
    pub const SOLDIERS: usize = 0;
    /// `trapped`.
    pub const TRAPPED: usize = 1;
    /// `dux`.
    pub const DUX: usize = 2;
    /// `hand`.
    pub const HAND: usize = 3;
    /// `threat`.
    pub const THREAT: usize = 4;
    /// `hanging`.
    pub const HANGING: usize = 5;
    /// `mobility`.
    pub const MOBILITY: usize = 6;
    /// `dux_liberties`.
    pub const DUX_LIBERTIES: usize = 7;
    /// `dux_attackers`.
    pub const DUX_ATTACKERS: usize = 8;
    /// `supported`.
    pub const SUPPORTED: usize = 9;
    /// `count_race`.
    pub const COUNT_RACE: usize = 10;
    /// `tempo`.
    pub const TEMPO: usize = 11;
}

/// A legal move of the side to move with the number of pieces it captures, traps or
/// removes.
pub type ScoredMove = (Move, u8);

/// The side to move's legal moves, each with its number of effects.
pub fn moves_with_effects(pos: &Position, out: &mut Vec<ScoredMove>) {
    thread_local! {
        static MOVES: std::cell::RefCell<Vec<Move>> = std::cell::RefCell::new(Vec::with_capacity(256));
    }
    MOVES.with_borrow_mut(|moves| {
        pos.legal_moves(moves);
        let near = NearEnemy::of(pos);
        out.clear();
        out.extend(moves.iter().map(|&m| (m, near.effect_count(pos, m))));
    });
}

/// The number of pieces `mv` (legal in `pos`) captures, traps or removes.
pub fn effect_count(pos: &Position, mv: Move) -> u8 {
    NearEnemy::of(pos).effect_count(pos, mv)
}

/// The squares where a movement of the side to move may capture or trap: on or next to
/// an enemy piece.
///
/// Except under XXI's directional captures (push and crush, flank, phalanx: the victim
/// may stand beyond a run of the mover's own pieces), a movement can only capture or
/// trap an enemy piece orthogonally next to where it lands (diagonally too where
/// captures or moves go diagonally) or on it (displacement of a trapped piece), so the
/// rules engine is asked for a move's effects only then: computing every move's effects
/// was most of the search's time. A test checks this on random games of every ruleset.
struct NearEnemy {
    /// Bit `rank * 16 + file` set for squares on or next to an enemy piece; all set
    /// when every move must be asked.
    bits: [u64; 4],
}

impl NearEnemy {
    fn of(pos: &Position) -> NearEnemy {
        let rules = pos.rules();
        let c = &rules.capture;
        if c.push_and_crush || c.flank || c.phalanx {
            return NearEnemy { bits: [u64::MAX; 4] };
        }
        let diagonal = c.diagonal || rules.movement.diagonal;
        let (w, h) = (rules.width as i32, rules.height as i32);
        let mut bits = [0u64; 4];
        let mut set = |f: i32, r: i32| {
            if f >= 0 && r >= 0 && f < w && r < h {
                let i = (r * 16 + f) as usize;
                bits[i >> 6] |= 1 << (i & 63);
            }
        };
        for sq in pos.squares_of(pos.side_to_move().opponent()) {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            set(f, r);
            set(f + 1, r);
            set(f - 1, r);
            set(f, r + 1);
            set(f, r - 1);
            if diagonal {
                set(f + 1, r + 1);
                set(f - 1, r - 1);
                set(f + 1, r - 1);
                set(f - 1, r + 1);
            }
        }
        NearEnemy { bits }
    }

    #[inline]
    fn effect_count(&self, pos: &Position, mv: Move) -> u8 {
        match mv.kind {
            MoveKind::Place(_) => 0,
            MoveKind::Remove => pos.effects(mv).len().min(255) as u8,
            MoveKind::Move => {
                let i = mv.to.raw() as usize;
                if self.bits[i >> 6] & (1 << (i & 63)) != 0 { pos.effects(mv).len().min(255) as u8 } else { 0 }
            }
        }
    }
}

/// The features of the unfinished `pos`, given the side to move's moves with their
/// effects (from [`moves_with_effects`]).
pub fn features(pos: &Position, ours: &[ScoredMove]) -> Features {
    let me = pos.side_to_move();
    let them = me.opponent();
    let mut f = [0.0; NUM_FEATURES];

    let count = PieceCount::of(pos, me);
    let theirs = PieceCount::of(pos, them);
    f[idx::SOLDIERS] = count.free_soldiers as f64 - theirs.free_soldiers as f64;
    f[idx::TRAPPED] = count.trapped as f64 - theirs.trapped as f64;
    f[idx::DUX] = count.dux as f64 - theirs.dux as f64;
    f[idx::HAND] = count.in_hand as f64 - theirs.in_hand as f64;

    f[idx::THREAT] = ours.iter().map(|&(_, n)| n).max().unwrap_or(0) as f64;
    let passed = pos.with_turn_passed();
    let mut enemy_moves = Vec::with_capacity(64);
    passed.legal_moves(&mut enemy_moves);
    if passed.outcome().is_none() {
        let near = NearEnemy::of(&passed);
        let mut hanging = 0;
        for &m in &enemy_moves {
            hanging = hanging.max(near.effect_count(&passed, m));
        }
        f[idx::HANGING] = hanging as f64;
    }
    f[idx::MOBILITY] = (ours.len() as f64 - enemy_moves.len() as f64) / 10.0;

    let (my_lib, my_att) = dux_surroundings(pos, me);
    let (their_lib, their_att) = dux_surroundings(pos, them);
    f[idx::DUX_LIBERTIES] = my_lib as f64 - their_lib as f64;
    // `*_att` counts enemy pieces next to a side's Dux.
    f[idx::DUX_ATTACKERS] = their_att as f64 - my_att as f64;
    f[idx::SUPPORTED] = supported(pos, me) as f64 - supported(pos, them) as f64;

    let end = pos.rules().end;
    if end.counts_at_limit() && !pos.is_placement_phase() {
        let share = (pos.plies_since_capture() as f64 / end.no_capture_limit as f64).min(1.0);
        let diff = count.total() as f64 - theirs.total() as f64;
        f[idx::COUNT_RACE] = diff * share;
    }
    f[idx::TEMPO] = 1.0;
    f
}

/// Pieces of each side (board and hand, trapped ones included), White first.
pub fn piece_totals(pos: &Position) -> (u32, u32) {
    (PieceCount::of(pos, Color::White).total(), PieceCount::of(pos, Color::Black).total())
}

/// How far `leader`'s soldiers are from the other side's pieces: the sum, over the other
/// side's untrapped pieces on the board, of the Manhattan distances to `leader`'s nearest
/// and second-nearest untrapped soldiers (the board's width plus height where it has
/// fewer than two). Custodial captures need a piece on either side of the victim, so this
/// falls as a side brings two soldiers to each enemy piece.
pub fn hunt_distance(pos: &Position, leader: Color) -> u32 {
    let far = (pos.rules().width + pos.rules().height) as u32;
    let hunters: Vec<Square> = pos
        .squares_of(leader)
        .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.kind == PieceKind::Soldier && !p.trapped))
        .collect();
    let mut hunt = 0u32;
    for sq in pos.squares_of(leader.opponent()) {
        if pos.piece_at(sq).is_some_and(|p| p.trapped) {
            continue;
        }
        let (mut d1, mut d2) = (far, far);
        for &h in &hunters {
            let d = (sq.file() as i32 - h.file() as i32).unsigned_abs()
                + (sq.rank() as i32 - h.rank() as i32).unsigned_abs();
            if d < d1 {
                d2 = d1;
                d1 = d;
            } else if d < d2 {
                d2 = d;
            }
        }
        hunt += d1 + d2;
    }
    hunt
}

/// The features of a position computed from scratch (for tuning and tests).
pub fn features_of(pos: &Position) -> Features {
    let mut ours = Vec::new();
    moves_with_effects(pos, &mut ours);
    features(pos, &ours)
}

/// One side's pieces by state.
#[derive(Clone, Copy, Debug, Default)]
struct PieceCount {
    free_soldiers: u32,
    trapped: u32,
    dux: u32,
    in_hand: u32,
}

impl PieceCount {
    fn of(pos: &Position, color: Color) -> PieceCount {
        let (hand_soldiers, hand_dux) = pos.in_hand(color);
        let mut c = PieceCount {
            free_soldiers: hand_soldiers as u32,
            trapped: 0,
            dux: hand_dux as u32,
            in_hand: hand_soldiers as u32 + hand_dux as u32,
        };
        for sq in pos.squares_of(color) {
            if let Some(p) = pos.piece_at(sq) {
                match (p.kind, p.trapped) {
                    (PieceKind::Dux, _) => c.dux += 1,
                    (PieceKind::Soldier, true) => c.trapped += 1,
                    (PieceKind::Soldier, false) => c.free_soldiers += 1,
                }
            }
        }
        c
    }

    /// Everything a piece count at the no-capture limit counts.
    fn total(&self) -> u32 {
        self.free_soldiers + self.trapped + self.dux
    }
}

/// The on-board orthogonal neighbours of `sq`.
fn neighbours(pos: &Position, sq: Square) -> impl Iterator<Item = Square> {
    let (w, h) = (pos.rules().width as i32, pos.rules().height as i32);
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    [(1, 0), (-1, 0), (0, 1), (0, -1)].into_iter().filter_map(move |(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        (nf >= 0 && nr >= 0 && nf < w && nr < h).then(|| Square::new(nf as u8, nr as u8)).flatten()
    })
}

/// `(empty neighbours, enemy pieces next to it)` of a side's Dux; `(0, 0)` without one.
pub(super) fn dux_surroundings(pos: &Position, color: Color) -> (u32, u32) {
    let Some(d) = pos.dux_square(color) else {
        return (0, 0);
    };
    let (mut empty, mut enemies) = (0, 0);
    for n in neighbours(pos, d) {
        match pos.piece_at(n) {
            None => empty += 1,
            Some(p) if p.color != color => enemies += 1,
            Some(_) => {}
        }
    }
    (empty, enemies)
}

/// Free soldiers of `color` with a piece of their own side orthogonally next to them.
fn supported(pos: &Position, color: Color) -> u32 {
    pos.squares_of(color)
        .filter(|&sq| {
            pos.piece_at(sq).is_some_and(|p| p.kind == PieceKind::Soldier && !p.trapped)
                && neighbours(pos, sq).any(|n| pos.piece_at(n).is_some_and(|q| q.color == color))
        })
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::{FastRng, Ruleset};

    /// The shortcut of [`effect_count`] never hides an effect: on random games of every
    /// built-in ruleset, every legal move's count equals the engine's.
    #[test]
    fn effect_count_agrees_with_the_engine_on_random_games_of_every_ruleset() {
        let mut checked = 0u64;
        for id in Ruleset::builtin_ids() {
            let rs = Ruleset::builtin(id).unwrap();
            for seed in 0..6 {
                let mut p = Position::new(&rs);
                let mut rng = FastRng::new(seed);
                let mut moves = Vec::new();
                while !p.is_over() && p.ply() < 300 {
                    p.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        assert_eq!(
                            effect_count(&p, m) as usize,
                            p.effects(m).len(),
                            "{id} seed {seed} ply {}",
                            p.ply()
                        );
                        checked += 1;
                    }
                    // Prefer captures now and then, so that games reach many kinds of capture.
                    let caps: Vec<_> = moves.iter().copied().filter(|&m| !p.effects(m).is_empty()).collect();
                    let mv = if !caps.is_empty() && rng.below(2) == 0 {
                        caps[rng.below(caps.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    p.play(mv);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// The count race is a feature only where the limit is decided by a count: with
    /// adjudication off (`end.adjudication = "draw"`) the same position has none.
    #[test]
    fn the_count_race_is_off_when_the_limit_makes_no_count() {
        let on = Ruleset::builtin("kowalski").unwrap();
        let off = on.with_param("end.adjudication", "draw").unwrap();
        // A random game's first position where one side is ahead in the count some plies
        // after a capture.
        let ahead_after_a_quiet_ply = |seed: u64| {
            let mut rng = FastRng::new(seed);
            let mut p = Position::new(&on);
            let mut moves = Vec::new();
            while !p.is_over() {
                if piece_totals(&p).0 != piece_totals(&p).1 && p.plies_since_capture() > 0 {
                    return Some(p);
                }
                p.legal_moves(&mut moves);
                p.play(moves[rng.below(moves.len())]);
            }
            None
        };
        let p = (0..20).find_map(ahead_after_a_quiet_ply).expect("a lead after a quiet ply in 20 random games");
        assert_ne!(features_of(&p)[idx::COUNT_RACE], 0.0);
        let same_without_counts = p.with_rules(off.rules()).unwrap();
        assert_eq!(features_of(&same_without_counts)[idx::COUNT_RACE], 0.0);
    }
}
