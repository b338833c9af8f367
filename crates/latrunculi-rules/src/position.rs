//! [`Position`]: a validated game state with legal move generation, move application,
//! results and a 64-bit hash. The exact reading of every rule is in `SEMANTICS.md`.

use crate::board::*;
use crate::ruleset::{
    CaptureEffect, CornerCapture, DuxCapture, DuxMove, HopOver, Immobilization, LimitResult, MaterialTie, NoMoves,
    Placement, Repetition, Rules, Ruleset, SelfImmobilization, SoldierMove,
};
use crate::setup::Setup;
use crate::types::{Color, MAX_SIDE, Move, MoveKind, Outcome, Piece, PieceKind, Reason, Square};

/// The default experiment-level hard ply cap (docs/rules.md §1).
pub const DEFAULT_PLY_CAP: u32 = 1000;

/// Most effects one ply can have on a 16 × 16 board: line captures take at most 13
/// pieces on each of the 4 lines through the mover's square (52); an enclosed or corner
/// neighbour stands where its direction's line capture would start; add 2 active and 4
/// passive corners, push, flank, phalanx and a displaced piece: at most 62. Also keeps
/// [`Effects`] at 128 bytes, which the compiler copies inline.
const MAX_EFFECTS: usize = 63;

/// What a ply did to one enemy piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// The piece was removed from the board.
    Captured,
    /// The piece became trapped.
    Trapped,
}

/// The captures and traps one ply makes. Each entry packs a mailbox index (9 bits) and
/// a code (`REMOVE`, or a trap axis `0..=4`) in a `u16`.
#[derive(Clone, Copy, Debug)]
pub struct Effects {
    len: u8,
    items: [u16; MAX_EFFECTS],
}

// Copied by value from every ply: small enough for an inline copy.
const _: () = assert!(std::mem::size_of::<Effects>() <= 128);

impl Default for Effects {
    #[inline]
    fn default() -> Effects {
        Effects { len: 0, items: [0; MAX_EFFECTS] }
    }
}

impl PartialEq for Effects {
    fn eq(&self, other: &Effects) -> bool {
        let mut a = self.items[..self.len as usize].to_vec();
        let mut b = other.items[..other.len as usize].to_vec();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }
}

/// Effect code: the piece is removed (any other code is a trap axis `0..=4`).
const REMOVE: u8 = 7;

impl Effects {
    #[inline]
    fn add(&mut self, m: usize, code: u8) {
        let n = self.len as usize;
        for item in &mut self.items[..n] {
            if (*item & 0x1FF) as usize == m {
                if code == REMOVE {
                    *item = m as u16 | (REMOVE as u16) << 9;
                }
                return;
            }
        }
        if n < MAX_EFFECTS {
            self.items[n] = m as u16 | (code as u16) << 9;
            self.len += 1;
        }
    }

    /// (mailbox index, code) pairs.
    #[inline]
    fn raw(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.items[..self.len as usize].iter().map(|&x| ((x & 0x1FF) as usize, (x >> 9) as u8))
    }

    /// Whether the ply removes any piece (what clears the repetition history).
    #[inline]
    fn removes_any(&self) -> bool {
        self.raw().any(|(_, c)| c == REMOVE)
    }

    #[inline]
    fn removes(&self, m: usize) -> bool {
        self.raw().any(|(i, c)| i == m && c == REMOVE)
    }

    /// Whether the ply captured or trapped nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pieces captured or trapped.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Every affected square with what happened to it, in ascending square order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, EffectKind)> + '_ {
        let mut v: Vec<(Square, EffectKind)> = self
            .raw()
            .map(|(m, c)| (sq_of(m), if c == REMOVE { EffectKind::Captured } else { EffectKind::Trapped }))
            .collect();
        v.sort_by_key(|(s, _)| *s);
        v.into_iter()
    }

    /// Squares whose piece was removed, ascending.
    pub fn captured(&self) -> Vec<Square> {
        self.iter().filter(|(_, k)| *k == EffectKind::Captured).map(|(s, _)| s).collect()
    }

    /// Squares whose piece became trapped, ascending.
    pub fn trapped(&self) -> Vec<Square> {
        self.iter().filter(|(_, k)| *k == EffectKind::Trapped).map(|(s, _)| s).collect()
    }
}

/// Errors when building a position from a [`Setup`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The setup's board size differs from the ruleset's.
    #[error("the position is {got_w}x{got_h} but ruleset {id} is {want_w}x{want_h}")]
    BoardSize {
        /// Ruleset id.
        id: String,
        /// Setup width.
        got_w: u8,
        /// Setup height.
        got_h: u8,
        /// Ruleset width.
        want_w: u8,
        /// Ruleset height.
        want_h: u8,
    },
    /// A side has more than one Dux.
    #[error("{0} has more than one Dux")]
    TwoDuxes(Color),
    /// A Dux in a ruleset without Duxes, or trapped.
    #[error("bad piece on {0}: {1}")]
    BadPiece(Square, String),
    /// Hands (or a side to move) that the ruleset's placement order never produces.
    #[error(
        "after {done} placements ruleset {id} has hands {want}; this position has {got}, which its placement order never reaches"
    )]
    BadPlacement {
        /// Ruleset id.
        id: String,
        /// Placements made (pieces in hand at the start minus those in hand now).
        done: u16,
        /// The hands and placer the order gives.
        want: String,
        /// The setup's.
        got: String,
    },
    /// More pieces of a kind in a hand than the ruleset ever puts there.
    #[error("{color} holds {count} {kind} in hand, but ruleset {id} puts at most {max} there")]
    BadHand {
        /// Ruleset id.
        id: String,
        /// The side.
        color: Color,
        /// `soldiers` or `Duxes`.
        kind: &'static str,
        /// Pieces of that kind in the setup's hand.
        count: u8,
        /// The ruleset's number in hand at the start.
        max: u8,
    },
    /// A continuing turn (`w:e4`) that the rules or the board do not allow.
    #[error("the turn cannot go on with the piece on {0}: {1}")]
    BadPending(Square, &'static str),
}

/// How the combat rules limit one piece's moves this ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Limit {
    Free,
    OffensiveOnly,
    OneSquareUnlessOffensive,
    Frozen,
}

/// A board as seen after a movement ply but before its removals: `from` empty and `to`
/// holding `piece`, the real cells elsewhere.
#[derive(Clone, Copy)]
struct View<'a> {
    cells: &'a [u8; CELLS],
    from: usize,
    to: usize,
    piece: u8,
}

impl View<'_> {
    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        if i == self.to {
            self.piece
        } else if i == self.from {
            EMPTY
        } else {
            self.cells[i]
        }
    }
}

/// Whether two mailbox indices are orthogonal neighbours.
#[inline(always)]
fn adjacent(a: usize, b: usize) -> bool {
    const DOWN: i32 = -S;
    matches!(a as i32 - b as i32, 1 | -1 | S | DOWN)
}

#[inline(always)]
fn step(i: usize, d: i32) -> usize {
    (i as i32 + d) as usize
}

/// The repetition history: the hashes of the positions since the last irreversible ply,
/// oldest first, with a Bloom filter over them once the history has been longer than
/// [`History::FILTER_FROM`], so that asking whether a hash occurred costs a scan only when
/// the filter says it may have (rulesets that forbid any repeated state ask it for every
/// candidate move). The filter never forgets (a popped hash stays in it), so it can only
/// err towards a scan. The hashes that occur twice or more are also kept apart (seldom
/// any), which answers threefold rules' question "has this occurred at most once?"
/// without a scan.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct History {
    hashes: Vec<u64>,
    /// The filter's bits, from the first time the history grew past `FILTER_FROM`.
    filter: Option<Box<[u64; History::FILTER_WORDS]>>,
    /// Each hash that occurs at least twice in `hashes`, once.
    twice: Vec<u64>,
}

impl History {
    /// History lengths up to which a plain scan is used.
    const FILTER_FROM: usize = 32;
    /// 8,192 bits: with 1,000 hashes and two bits each, about 5% false positives.
    const FILTER_WORDS: usize = 128;

    #[inline]
    fn bits(h: u64) -> [usize; 2] {
        [(h & 0x1FFF) as usize, ((h >> 32) & 0x1FFF) as usize]
    }

    #[inline]
    fn mark(filter: &mut [u64; Self::FILTER_WORDS], h: u64) {
        for b in Self::bits(h) {
            filter[b >> 6] |= 1 << (b & 63);
        }
    }

    #[inline]
    fn push(&mut self, h: u64) {
        if self.count(h) == 1 {
            self.twice.push(h);
        }
        self.hashes.push(h);
        match &mut self.filter {
            Some(f) => Self::mark(f, h),
            None if self.hashes.len() > Self::FILTER_FROM => {
                let mut f = Box::new([0u64; Self::FILTER_WORDS]);
                for &x in &self.hashes {
                    Self::mark(&mut f, x);
                }
                self.filter = Some(f);
            }
            None => {}
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.hashes.clear();
        self.twice.clear();
        if let Some(f) = &mut self.filter {
            f.fill(0);
        }
    }

    /// Removes the last hash if it is `h`.
    #[inline]
    fn pop_if_last(&mut self, h: u64) {
        if self.hashes.last() == Some(&h) {
            self.hashes.pop();
            if self.count(h) == 1
                && let Some(i) = self.twice.iter().position(|&x| x == h)
            {
                self.twice.swap_remove(i);
            }
        }
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether `h` occurs at most once (`count(h) <= 1`).
    #[inline]
    fn at_most_once(&self, h: u64) -> bool {
        !self.twice.contains(&h)
    }

    /// How often `h` occurs.
    #[inline]
    fn count(&self, h: u64) -> usize {
        if let Some(f) = &self.filter
            && Self::bits(h).iter().any(|&b| f[b >> 6] & (1 << (b & 63)) == 0)
        {
            return 0;
        }
        self.hashes.iter().filter(|&&x| x == h).count()
    }
}

/// A game state: pieces, side to move, pieces in hand, counters, repetition history and
/// the outcome once decided. Cloning is a memcpy plus the repetition history (empty in
/// rulesets without a repetition rule).
#[derive(Clone, Debug)]
pub struct Position {
    rules: Rules,
    cells: [u8; CELLS],
    occ: [SquareSet; 2],
    dux: [usize; 2],
    soldiers: [u16; 2],
    pieces: [u16; 2],
    trapped: u16,
    hand: [[u8; 2]; 2],
    soldiers_per_side: u8,
    placements_done: u16,
    placements_total: u16,
    turn: Color,
    /// Mailbox index of the piece that must make the side to move's next ply (a further
    /// ply granted by a capture, `capture.capture_grants_ply`); 0 when none.
    pending: usize,
    ply: u32,
    since_capture: u32,
    ply_cap: u32,
    hash: u64,
    history: History,
    outcome: Option<Outcome>,
    capturer_mask: [u16; 2],
    victim_mask: [u16; 2],
    /// Occupancy of each rank by file (bits past the board's width set).
    rank_occ: [u16; MAX_SIDE as usize],
    /// Occupancy of each file by rank (bits past the board's height set).
    file_occ: [u16; MAX_SIDE as usize],
}

impl PartialEq for Position {
    /// Same pieces, side to move, hands, counters and outcome.
    fn eq(&self, o: &Position) -> bool {
        self.rules == o.rules
            && self.cells == o.cells
            && self.turn == o.turn
            && self.pending == o.pending
            && self.hand == o.hand
            && self.ply == o.ply
            && self.since_capture == o.since_capture
            && self.outcome == o.outcome
    }
}

impl Position {
    /// The starting position of a ruleset.
    pub fn new(ruleset: &Ruleset) -> Position {
        let setup = Setup::start(ruleset);
        Position::from_setup(ruleset, &setup).expect("a validated ruleset's start position is valid")
    }

    /// A position from a [`Setup`] (e.g. a diagram), validated against the ruleset.
    pub fn from_setup(ruleset: &Ruleset, setup: &Setup) -> Result<Position, PositionError> {
        let rules = ruleset.rules();
        if (setup.width, setup.height) != (rules.width, rules.height) {
            return Err(PositionError::BoardSize {
                id: ruleset.id.clone(),
                got_w: setup.width,
                got_h: setup.height,
                want_w: rules.width,
                want_h: rules.height,
            });
        }
        let mut cells = [OFF; CELLS];
        for r in 0..rules.height {
            for f in 0..rules.width {
                cells[mb(Square::new(f, r).expect("board fits"))] = EMPTY;
            }
        }
        let (hs, hd) = ruleset.in_hand();
        for color in Color::ALL {
            for (k, (kind, max)) in [("soldiers", hs), ("Duxes", hd)].into_iter().enumerate() {
                let count = setup.hand[color.index()][k];
                if count > max {
                    return Err(PositionError::BadHand { id: ruleset.id.clone(), color, kind, count, max });
                }
            }
        }
        let mut pos = Position {
            rules,
            cells,
            occ: [SquareSet::default(); 2],
            dux: [0; 2],
            soldiers: [0; 2],
            pieces: [0; 2],
            trapped: 0,
            hand: setup.hand,
            soldiers_per_side: hs,
            placements_done: 0,
            placements_total: 2 * (hs as u16 + hd as u16),
            turn: setup.turn,
            pending: 0,
            ply: setup.ply,
            since_capture: setup.since_capture,
            ply_cap: DEFAULT_PLY_CAP,
            hash: 0,
            history: History::default(),
            outcome: None,
            capturer_mask: [0; 2],
            victim_mask: [0; 2],
            rank_occ: [!((1u32 << rules.width) - 1) as u16; MAX_SIDE as usize],
            file_occ: [!((1u32 << rules.height) - 1) as u16; MAX_SIDE as usize],
        };
        pos.set_masks();
        let in_hand_now: u16 = setup.hand.iter().flatten().map(|&n| n as u16).sum();
        pos.placements_done = pos.placements_total.saturating_sub(in_hand_now);
        if in_hand_now > 0 {
            // The hands and the side to move must be those the placement order reaches
            // after this many placements (anything else leaves a player to place a piece
            // they do not hold).
            let (hand, turn) = placement_state(&rules, hs, hd, pos.placements_done);
            if hand != setup.hand || turn != setup.turn {
                let text = |h: [[u8; 2]; 2], t: Color| {
                    format!("white {},{} black {},{} with {t} to place", h[0][0], h[0][1], h[1][0], h[1][1])
                };
                return Err(PositionError::BadPlacement {
                    id: ruleset.id.clone(),
                    done: pos.placements_done,
                    want: text(hand, turn),
                    got: text(setup.hand, setup.turn),
                });
            }
        }
        for (sq, piece) in setup.pieces() {
            if sq.file() >= rules.width || sq.rank() >= rules.height {
                return Err(PositionError::BadPiece(sq, "off the board".into()));
            }
            if piece.kind == PieceKind::Dux && piece.trapped {
                return Err(PositionError::BadPiece(sq, "a Dux cannot be trapped".into()));
            }
            if piece.kind == PieceKind::Dux
                && (pos.dux[piece.color.index()] != 0 || setup.hand[piece.color.index()][1] > 0)
            {
                return Err(PositionError::TwoDuxes(piece.color));
            }
            let mut c = cell_of(piece.color, piece.kind);
            if piece.trapped {
                c |= TRAPPED | (pos.infer_axis(sq, piece.color, setup) << 4);
            }
            pos.put(mb(sq), c);
        }
        if let Some(sq) = setup.pending {
            let bad = |why| Err(PositionError::BadPending(sq, why));
            if !rules.capture.capture_grants_ply {
                return bad("this ruleset grants no further ply (capture.capture_grants_ply is off)");
            }
            if pos.is_placement_phase() {
                return bad("pieces are still in hand");
            }
            if sq.file() >= rules.width || sq.rank() >= rules.height {
                return bad("off the board");
            }
            let c = pos.cells[mb(sq)];
            if !Self::is_piece_of(c, setup.turn.index()) || c & TRAPPED != 0 {
                return bad("it is not a free piece of the side to move");
            }
            pos.pending = mb(sq);
        }
        pos.hash = pos.compute_hash();
        if pos.rules.end.repetition != Repetition::Off {
            pos.history.push(pos.hash);
        }
        pos.outcome = pos.final_checks();
        pos.pass_if_stuck();
        Ok(pos)
    }

    /// Recomputes the capturer and victim masks from the rules.
    fn set_masks(&mut self) {
        let rules = self.rules;
        for c in Color::ALL {
            let cap = |c: Color, k: PieceKind| 1u16 << cell_of(c, k);
            self.capturer_mask[c.index()] =
                cap(c, PieceKind::Soldier) | if rules.capture.dux_captures { cap(c, PieceKind::Dux) } else { 0 };
            let o = c.opponent();
            self.victim_mask[c.index()] = cap(o, PieceKind::Soldier)
                | if rules.capture.dux == DuxCapture::LikeSoldier { cap(o, PieceKind::Dux) } else { 0 }
                | if rules.capture.effect == CaptureEffect::Remove {
                    1 << (cell_of(o, PieceKind::Soldier) | TRAPPED)
                } else {
                    0
                };
        }
    }

    /// The same position under other rule parameters on the same board (e.g. with one
    /// legality filter switched off, to tell which rule forbids a move), keeping the
    /// counters and the repetition history. The outcome is recomputed as for a new
    /// position (only "no legal move" and the ply cap).
    pub fn with_rules(&self, rules: Rules) -> Result<Position, PositionError> {
        if (rules.width, rules.height) != (self.rules.width, self.rules.height) {
            return Err(PositionError::BoardSize {
                id: "(new rules)".into(),
                got_w: self.rules.width,
                got_h: self.rules.height,
                want_w: rules.width,
                want_h: rules.height,
            });
        }
        let mut p = self.clone();
        p.rules = rules;
        p.set_masks();
        if rules.end.repetition == Repetition::Off {
            p.history.clear();
        } else if p.history.is_empty() {
            p.history.push(p.hash);
        }
        p.outcome = None;
        p.outcome = p.final_checks();
        Ok(p)
    }

    /// The trap axis of a trapped piece read from a setup: the first flank of free enemy
    /// pieces found (horizontal, vertical, corner, diagonals).
    fn infer_axis(&self, sq: Square, color: Color, setup: &Setup) -> u8 {
        let enemy_free = |f: i32, r: i32| {
            if f < 0 || r < 0 {
                return false;
            }
            Square::new(f as u8, r as u8)
                .and_then(|s| setup.piece_at(s))
                .is_some_and(|p| p.color != color && !p.trapped)
        };
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        if enemy_free(f - 1, r) && enemy_free(f + 1, r) {
            return 0;
        }
        if enemy_free(f, r - 1) && enemy_free(f, r + 1) {
            return 1;
        }
        if self.is_corner(mb(sq)) {
            return CORNER_AXIS;
        }
        if enemy_free(f - 1, r - 1) && enemy_free(f + 1, r + 1) {
            return 2;
        }
        3
    }

    // ----- accessors -----

    /// The rule parameters.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move (the placer during a placement phase).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_of(self.cells[mb(sq)])
    }

    /// Pieces in hand: (soldiers, Duxes).
    #[inline]
    pub fn in_hand(&self, color: Color) -> (u8, u8) {
        let h = self.hand[color.index()];
        (h[0], h[1])
    }

    /// Whether pieces are still being placed.
    #[inline]
    pub fn is_placement_phase(&self) -> bool {
        self.placements_done < self.placements_total
    }

    /// The square of a side's Dux, if it has one on the board.
    #[inline]
    pub fn dux_square(&self, color: Color) -> Option<Square> {
        let m = self.dux[color.index()];
        (m != 0).then(|| sq_of(m))
    }

    /// Soldiers of a side on the board.
    #[inline]
    pub fn soldiers_on_board(&self, color: Color) -> u32 {
        self.soldiers[color.index()] as u32
    }

    /// All pieces of a side on the board (soldiers and Dux).
    #[inline]
    pub fn pieces_on_board(&self, color: Color) -> u32 {
        self.pieces[color.index()] as u32
    }

    /// Squares holding a side's pieces, ascending.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.occ[color.index()].iter_mb().map(sq_of)
    }

    /// Plies played so far (placements included).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Movement plies since the last capture.
    #[inline]
    pub fn plies_since_capture(&self) -> u32 {
        self.since_capture
    }

    /// The 64-bit Zobrist hash of the position (pieces with trap state, side to move,
    /// pieces in hand); equal positions hash equal.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The outcome, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The experiment's hard ply cap (default 1000).
    pub fn ply_cap(&self) -> u32 {
        self.ply_cap
    }

    /// Sets the hard ply cap; a game already past it ends at once (`ply-cap`), and a game
    /// that had ended only by the old cap goes on when the new cap is higher.
    pub fn set_ply_cap(&mut self, cap: u32) {
        self.ply_cap = cap;
        if self.outcome.is_none() && self.ply >= cap {
            self.outcome = Some(Outcome { winner: None, reason: Reason::PlyCap });
        } else if self.outcome.is_some_and(|o| o.reason == Reason::PlyCap) && self.ply < cap {
            self.outcome = self.final_checks();
        }
    }

    /// This position as a [`Setup`] (for printing, editing and re-validating).
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty(self.rules.width, self.rules.height);
        for c in Color::ALL {
            for m in self.occ[c.index()].iter_mb() {
                s.set(sq_of(m), piece_of(self.cells[m]));
            }
        }
        s.turn = self.turn;
        s.hand = self.hand;
        s.ply = self.ply;
        s.since_capture = self.since_capture;
        s.pending = (self.pending != 0).then(|| sq_of(self.pending));
        s
    }

    /// The piece that must make the side to move's next ply, when the turn goes on after
    /// a capture (`capture.capture_grants_ply`).
    pub fn pending(&self) -> Option<Square> {
        (self.pending != 0).then(|| sq_of(self.pending))
    }

    /// A copy of everything but the repetition history, which it leaves empty (a plain
    /// copy, no allocation).
    #[inline]
    fn without_history(&self) -> Position {
        Position { history: History::default(), ..*self }
    }

    /// A copy with the turn passed to the other side (no ply played, outcome cleared and
    /// recomputed for the new side to move), for threat analysis such as "could the
    /// mover immobilise the enemy Dux next move".
    pub fn with_turn_passed(&self) -> Position {
        let mut p = self.without_history();
        p.turn = self.turn.opponent();
        p.hash ^= BLACK_TO_MOVE ^ pending_key(p.pending);
        p.pending = 0;
        p.outcome = None;
        p.outcome = p.final_checks();
        p
    }

    // ----- board edits -----

    #[inline]
    fn put(&mut self, m: usize, c: u8) {
        let color = (c & BLACK) as usize;
        self.cells[m] = c;
        let raw = raw_of(m);
        let (f, r) = (raw & 15, raw >> 4);
        self.rank_occ[r] |= 1 << f;
        self.file_occ[f] |= 1 << r;
        self.occ[color].insert(raw);
        self.pieces[color] += 1;
        if c & DUX != 0 {
            self.dux[color] = m;
        } else {
            self.soldiers[color] += 1;
        }
        if c & TRAPPED != 0 {
            self.trapped += 1;
        }
    }

    #[inline]
    fn take(&mut self, m: usize) -> u8 {
        let c = self.cells[m];
        let color = (c & BLACK) as usize;
        self.cells[m] = EMPTY;
        let raw = raw_of(m);
        let (f, r) = (raw & 15, raw >> 4);
        self.rank_occ[r] &= !(1 << f);
        self.file_occ[f] &= !(1 << r);
        self.occ[color].remove(raw);
        self.pieces[color] -= 1;
        if c & DUX != 0 {
            self.dux[color] = 0;
        } else {
            self.soldiers[color] -= 1;
        }
        if c & TRAPPED != 0 {
            self.trapped -= 1;
        }
        c
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.turn == Color::Black { BLACK_TO_MOVE } else { 0 } ^ pending_key(self.pending);
        for c in Color::ALL {
            for m in self.occ[c.index()].iter_mb() {
                h ^= zobrist(raw_of(m), self.cells[m]);
            }
            h ^= hand_key(c, PieceKind::Soldier, self.hand[c.index()][0]);
            h ^= hand_key(c, PieceKind::Dux, self.hand[c.index()][1]);
        }
        h
    }

    // ----- small predicates -----

    #[inline(always)]
    fn is_capturer(&self, c: u8, color: usize) -> bool {
        c < 16 && (self.capturer_mask[color] >> c) & 1 != 0
    }

    #[inline(always)]
    fn is_victim(&self, c: u8, mover: usize) -> bool {
        c < 16 && (self.victim_mask[mover] >> c) & 1 != 0
    }

    #[inline(always)]
    fn is_piece_of(c: u8, color: usize) -> bool {
        c & (OFF | PIECE | BLACK) == PIECE | color as u8
    }

    #[inline]
    fn is_corner(&self, m: usize) -> bool {
        let (f, r) = file_rank(m);
        let (f, r) = (f as u8, r as u8);
        (f == 0 || f == self.rules.width - 1) && (r == 0 || r == self.rules.height - 1)
    }

    /// The two orthogonal on-board neighbours of a corner square.
    #[inline]
    fn corner_neighbours(&self, c: usize) -> [usize; 2] {
        let h = if self.cells[step(c, 1)] == OFF { step(c, -1) } else { step(c, 1) };
        let v = if self.cells[step(c, S)] == OFF { step(c, -S) } else { step(c, S) };
        [h, v]
    }

    fn corners(&self) -> [usize; 4] {
        let (w, h) = (self.rules.width, self.rules.height);
        let s = |f, r| mb(Square::new(f, r).expect("on board"));
        [s(0, 0), s(w - 1, 0), s(0, h - 1), s(w - 1, h - 1)]
    }

    /// The line directions: [`ORTH`], or [`ALL8`] with diagonals (ORTH is ALL8's first
    /// four, so `ALL8_RAW` gives their raw-index steps in the same order).
    #[inline]
    fn line_dirs(diagonal: bool) -> &'static [i32] {
        if diagonal { &ALL8 } else { &ORTH }
    }

    // ----- effects of a movement ply -----

    /// Everything a movement ply from `from` to `to` by `piece` (travel direction `dir`,
    /// 0 for hops) captures or traps, found on the board after the move and before any
    /// removal.
    fn effects_of(&self, from: usize, to: usize, piece: u8, dir: i32) -> Effects {
        let v = View { cells: &self.cells, from, to, piece };
        let mover = (piece & BLACK) as usize;
        let opp = mover ^ 1;
        let cap = &self.rules.capture;
        let trap_code = |axis: u8| if cap.effect == CaptureEffect::Trap { axis } else { REMOVE };
        let mut fx = Effects::default();
        let s = to;
        if cap.capture_by_displacement && self.cells[to] & (PIECE | TRAPPED) == PIECE | TRAPPED {
            fx.add(to, REMOVE);
        }
        if self.is_capturer(piece, mover) {
            if cap.line {
                for &d in Self::line_dirs(cap.diagonal) {
                    let mut t = step(s, d);
                    let mut k = 0;
                    while self.is_victim(v.at(t), mover) {
                        t = step(t, d);
                        k += 1;
                    }
                    if k > 0 && self.is_capturer(v.at(t), mover) {
                        let mut u = step(s, d);
                        for _ in 0..k {
                            fx.add(u, trap_code(axis_of(d)));
                            u = step(u, d);
                        }
                    }
                }
            } else if cap.custodial {
                for &d in Self::line_dirs(cap.diagonal) {
                    let t = step(s, d);
                    let a = step(t, d);
                    let anvil =
                        self.is_capturer(v.at(a), mover) || (cap.corner_anvil && v.at(a) == EMPTY && self.is_corner(a));
                    if self.is_victim(v.at(t), mover) && anvil {
                        fx.add(t, trap_code(axis_of(d)));
                    }
                }
            }
            if cap.corner == CornerCapture::Active {
                for &d in &ORTH {
                    let c = step(s, d);
                    if self.is_victim(v.at(c), mover) && self.is_corner(c) {
                        let [a, b] = self.corner_neighbours(c);
                        let other = if a == s { b } else { a };
                        if self.is_capturer(v.at(other), mover) {
                            fx.add(c, trap_code(CORNER_AXIS));
                        }
                    }
                }
            }
            if dir != 0 {
                if cap.push_and_crush {
                    let (a, b, c) = (step(s, dir), step(s, 2 * dir), step(s, 3 * dir));
                    if self.is_capturer(v.at(a), mover)
                        && v.at(b) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8
                        && (v.at(c) == OFF || self.is_capturer(v.at(c), mover))
                    {
                        fx.add(b, REMOVE);
                    }
                }
                if cap.flank {
                    let mut t = step(s, dir);
                    let mut k = 0;
                    while Self::is_piece_of(v.at(t), opp) {
                        t = step(t, dir);
                        k += 1;
                    }
                    let first = step(s, dir);
                    if k >= 2
                        && self.is_capturer(v.at(t), mover)
                        && v.at(first) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8
                    {
                        fx.add(first, REMOVE);
                    }
                }
                if cap.phalanx {
                    let mut t = step(s, dir);
                    let mut k = 0;
                    while self.is_capturer(v.at(t), mover) {
                        t = step(t, dir);
                        k += 1;
                    }
                    if k >= 1 && v.at(t) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8 {
                        let side = if dir.abs() == 1 { S } else { 1 };
                        for p in [side, -side] {
                            let mut ok = true;
                            let mut u = step(s, p);
                            for _ in 0..=k {
                                if !self.is_capturer(v.at(u), mover) {
                                    ok = false;
                                    break;
                                }
                                u = step(u, dir);
                            }
                            if ok {
                                fx.add(t, REMOVE);
                                break;
                            }
                        }
                    }
                }
            }
        }
        if cap.enclosure || cap.dux.by_enclosure() {
            for &d in &ORTH {
                let e = step(s, d);
                let c = v.at(e);
                if !Self::is_piece_of(c, opp) {
                    continue;
                }
                let is_dux = c & DUX != 0;
                let wanted = if is_dux { cap.dux.by_enclosure() } else { cap.enclosure };
                if !wanted {
                    continue;
                }
                let need_four = is_dux && cap.dux == DuxCapture::FourSides;
                let enclosed = ORTH.iter().all(|&dd| {
                    let n = v.at(step(e, dd));
                    if n == OFF { !need_four } else { Self::is_piece_of(n, mover) }
                });
                if enclosed {
                    fx.add(e, REMOVE);
                }
            }
        }
        if cap.corner == CornerCapture::Passive {
            for c in self.corners() {
                if self.is_victim(v.at(c), mover) {
                    let [a, b] = self.corner_neighbours(c);
                    if Self::is_piece_of(v.at(a), mover) && Self::is_piece_of(v.at(b), mover) {
                        fx.add(c, REMOVE);
                    }
                }
            }
        }
        fx
    }

    /// Whether the Dux on mailbox index `d` is immobilised on the view, with the squares
    /// removed by `fx` emptied.
    #[inline]
    fn immobilized_after(&self, v: &View, fx: &Effects, d: usize, how: Immobilization) -> bool {
        let owner = (v.at(d) & BLACK) as usize;
        let freed = |n: usize| fx.removes(n);
        match how {
            Immobilization::EnemyOnly => ORTH.iter().all(|&dd| {
                let n = step(d, dd);
                let c = v.at(n);
                c == OFF || (Self::is_piece_of(c, owner ^ 1) && !freed(n))
            }),
            _ => ORTH.iter().all(|&dd| {
                let n = step(d, dd);
                let c = v.at(n);
                c != EMPTY && !(c != OFF && freed(n))
            }),
        }
    }

    #[inline]
    fn self_immobilization_rule(&self) -> Immobilization {
        match self.rules.end.dux_immobilized {
            Immobilization::Off => Immobilization::AnyBlockers,
            other => other,
        }
    }

    // ----- combat limits (XXI rules 10-12, 16-18) -----

    /// Whether the piece on `from` (of `color`) is the sole attacker of the enemy on `e`.
    #[inline]
    fn sole_attacker(&self, from: usize, e: usize, color: usize) -> bool {
        ORTH.iter().all(|&d| {
            let n = step(e, d);
            n == from || !Self::is_piece_of(self.cells[n], color)
        })
    }

    fn limit_of(&self, from: usize, c: u8) -> Limit {
        let color = (c & BLACK) as usize;
        let combat = self.rules.combat;
        if c & DUX != 0 {
            if !combat.dux_limits {
                return Limit::Free;
            }
            let (mut open, mut adj, mut sole) = (0, 0, 0);
            for &d in &ORTH {
                let n = step(from, d);
                let nc = self.cells[n];
                if nc == EMPTY {
                    open += 1;
                } else if Self::is_piece_of(nc, color ^ 1) {
                    adj += 1;
                    if self.sole_attacker(from, n, color) {
                        sole += 1;
                    }
                }
            }
            if open == 1 && adj >= 1 {
                Limit::Frozen
            } else if sole >= 2 {
                Limit::OffensiveOnly
            } else if sole == 1 {
                Limit::OneSquareUnlessOffensive
            } else {
                Limit::Free
            }
        } else if combat.locked_soldiers {
            for &d in &ORTH {
                let n = step(from, d);
                if Self::is_piece_of(self.cells[n], color ^ 1) && self.sole_attacker(from, n, color) {
                    return Limit::OffensiveOnly;
                }
            }
            Limit::Free
        } else {
            Limit::Free
        }
    }

    // ----- move generation -----

    /// Whether `to` lies between two pieces of `opp` on its rank or its file in `v`
    /// (rule 7's condition, before captures).
    #[inline(always)]
    fn between_enemies(v: &View, to: usize, opp: usize) -> bool {
        [1, S].iter().any(|&d| Self::is_piece_of(v.at(step(to, d)), opp) && Self::is_piece_of(v.at(step(to, -d)), opp))
    }

    /// Whether a movement ply passes every legality filter of SEMANTICS.md. `selfimm` says
    /// whether the mover's own Dux (on `own_dux` after the move) has no empty neighbour
    /// after the move and the self-immobilisation rule applies, so only this ply's
    /// captures could free it; the caller has already decided a full check is needed.
    #[allow(clippy::too_many_arguments)]
    fn movement_is_legal(
        &self,
        from: usize,
        to: usize,
        piece: u8,
        dir: i32,
        limit: Limit,
        selfimm: bool,
        own_dux: usize,
    ) -> bool {
        if limit == Limit::Free
            && !selfimm
            && self.rules.end.repetition == Repetition::Illegal
            && !self.rules.movement.rule7_no_entering_between_enemies
            && self.trapped == 0
            && self.rules.capture.effect == CaptureEffect::Remove
            && self.unrepeated(from, to, piece)
        {
            // Only the no-repetition filter is left, and it needs no captures: a ply that
            // captures clears the history, and one that does not leads to `simple_hash`,
            // which has not occurred often enough to be refused.
            return true;
        }
        let mover = (piece & BLACK) as usize;
        let v = View { cells: &self.cells, from, to, piece };
        let rule7 = self.rules.movement.rule7_no_entering_between_enemies;
        if rule7
            && limit == Limit::Free
            && !selfimm
            && self.rules.end.repetition != Repetition::Illegal
            && !Self::between_enemies(&v, to, mover ^ 1)
        {
            // Only rule 7 is left, and it asks for the captures only of a ply that ends
            // between two enemies.
            return true;
        }
        let fx = self.effects_of(from, to, piece, dir);
        if limit != Limit::Free {
            let enemy_dux = self.dux[mover ^ 1];
            let offensive = !fx.is_empty() || (enemy_dux != 0 && ORTH.iter().any(|&d| step(to, d) == enemy_dux));
            match limit {
                Limit::OffensiveOnly if !offensive => return false,
                Limit::OneSquareUnlessOffensive if !offensive && !ALL8.iter().any(|&d| step(from, d) == to) => {
                    return false;
                }
                _ => {}
            }
        }
        if selfimm && self.immobilized_after(&v, &fx, own_dux, self.self_immobilization_rule()) {
            return false;
        }
        if rule7 && fx.is_empty() && Self::between_enemies(&v, to, mover ^ 1) {
            return false;
        }
        if self.rules.end.repetition == Repetition::Illegal && !fx.removes_any() {
            // A removal clears the history, so only plies that remove nothing can repeat
            // (a ply that traps can: traps are undone by releases). Without traps (no
            // release pass, no trap set) the new hash follows directly from the moved
            // piece. Otherwise the ply is applied to a copy without the history (and
            // without a repetition rule, so that it keeps none): a ply that removes
            // nothing keeps the history and adds its own hash to it.
            let after_hash = if fx.is_empty() && self.trapped == 0 {
                self.simple_hash(from, to, piece)
            } else {
                let mut after = self.without_history();
                // Nothing is removed, so the copy needs no history of its own.
                after.rules.end.repetition = Repetition::Off;
                after.apply_movement(from, to, piece, dir, fx);
                after.hash
            };
            let occurrences = 1 + self.history.count(after_hash);
            if occurrences >= self.rules.end.repetition_count as usize {
                return false;
            }
        }
        true
    }

    /// The hash after `piece` moves from `from` to `to` capturing nothing, in a position
    /// with nothing trapped (what the no-repetition filter compares with the history).
    #[inline(always)]
    fn simple_hash(&self, from: usize, to: usize, piece: u8) -> u64 {
        self.hash ^ BLACK_TO_MOVE ^ zobrist(raw_of(from), piece) ^ zobrist(raw_of(to), piece)
    }

    /// Whether moving `piece` from `from` to `to` without a capture leads to a position
    /// that has occurred fewer than `repetition_count − 1` times (so that even then it
    /// passes the no-repetition filter).
    #[inline(never)]
    fn unrepeated(&self, from: usize, to: usize, piece: u8) -> bool {
        // (Under a threefold rule with nothing occurred twice, `for_each_legal` does not
        // ask: see its `can_refuse`.)
        let n = self.rules.end.repetition_count as usize;
        let h = self.simple_hash(from, to, piece);
        if n == 3 {
            return self.history.at_most_once(h);
        }
        1 + self.history.count(h) < n
    }

    /// Whether square `m` has an empty orthogonal neighbour once a piece has moved from
    /// `from` to `to`.
    #[inline(always)]
    fn has_empty_neighbour(&self, m: usize, from: usize, to: usize) -> bool {
        ORTH.iter().any(|&d| {
            let n = step(m, d);
            n != to && (n == from || self.cells[n] == EMPTY)
        })
    }

    /// Calls `f` with every legal move until it returns false. Returns false if stopped.
    fn for_each_legal(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        if self.is_placement_phase() {
            let kind = if self.hand[self.turn.index()][0] > 0 { PieceKind::Soldier } else { PieceKind::Dux };
            let centre = self.rules.centre_empty.then_some((self.rules.width / 2, self.rules.height / 2));
            for r in 0..self.rules.height {
                let row = PAD + r as usize * STRIDE;
                for fl in 0..self.rules.width {
                    if self.cells[row + fl as usize] == EMPTY
                        && centre != Some((fl, r))
                        && !f(Move::place(kind, Square::from_raw(r << 4 | fl)))
                    {
                        return false;
                    }
                }
            }
            return true;
        }
        let me = self.turn.index();
        let mv = &self.rules.movement;
        let cap = &self.rules.capture;
        if cap.removal_move && self.trapped > 0 && self.pending == 0 {
            for m in self.occ[me ^ 1].iter_mb() {
                if self.cells[m] & TRAPPED != 0 && !f(Move::remove(sq_of(m))) {
                    return false;
                }
            }
        }
        // Rule 7 and the no-repetition filter make every ply a candidate for refusal (this
        // also chooses the generation path, and so the order of the moves).
        let check_all = mv.rule7_no_entering_between_enemies || self.rules.end.repetition == Repetition::Illegal;
        // The no-repetition filter can refuse a ply only once some position has occurred
        // `repetition_count − 1` times; under a threefold rule, not before one occurred twice.
        let can_refuse = mv.rule7_no_entering_between_enemies
            || (self.rules.end.repetition == Repetition::Illegal
                && !(self.rules.end.repetition_count >= 3 && self.history.twice.is_empty()));
        let displacement = cap.capture_by_displacement && self.trapped > 0;
        let selfimm_on = self.rules.end.self_immobilization == SelfImmobilization::Illegal;
        let own_dux = self.dux[me];
        let table = (self.rules.width <= 12 && self.rules.height <= 12).then(slide_table);
        for fraw in self.occ[me].iter_raw() {
            let from = mb_of_raw(fraw);
            let piece = self.cells[from];
            if piece & TRAPPED != 0 || (self.pending != 0 && from != self.pending) {
                continue;
            }
            let limit = self.limit_of(from, piece);
            if limit == Limit::Frozen {
                continue;
            }
            let is_dux = piece & DUX != 0;
            let fsq = Square::from_raw(fraw as u8);
            let plain = !check_all && limit == Limit::Free;
            let unfiltered = !can_refuse && limit == Limit::Free;
            let soldier_fast = plain && (!selfimm_on || !is_dux);
            let legal = |to: usize, dir: i32| -> bool {
                // The own Dux can end immobilised only if this move touches it and leaves
                // it no empty neighbour; otherwise, with no combat limit and no global
                // filter, the move is legal without computing its captures.
                let dux_after = if is_dux { to } else { own_dux };
                let selfimm = selfimm_on
                    && dux_after != 0
                    && (is_dux || adjacent(to, own_dux))
                    && !self.has_empty_neighbour(dux_after, from, to);
                (unfiltered && !selfimm) || self.movement_is_legal(from, to, piece, dir, limit, selfimm, dux_after)
            };
            // Slides and steps.
            let slide = if is_dux { mv.dux == DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
            if slide && !mv.diagonal && soldier_fast && !displacement {
                // Rook moves from the rank's and the file's occupancy bits, no ray loops:
                // a table lookup on boards up to 12 × 12, bit arithmetic beyond.
                let (fl, rk) = (fraw & 15, fraw >> 4);
                let (along_rank, along_file) = match table {
                    Some(t) => {
                        (t[fl][(self.rank_occ[rk] & 0xFFF) as usize], t[rk][(self.file_occ[fl] & 0xFFF) as usize])
                    }
                    None => (slide_reach_bits(fl, self.rank_occ[rk]), slide_reach_bits(rk, self.file_occ[fl])),
                };
                let row_base = from - fl;
                let mut bits = along_rank;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let t = row_base + b;
                    let ok = own_dux == 0 || !adjacent(t, own_dux) || legal(t, if b > fl { 1 } else { -1 });
                    if ok && !f(Move::movement(fsq, Square::from_raw((rk << 4 | b) as u8))) {
                        return false;
                    }
                }
                let mut bits = along_file;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let t = PAD + b * STRIDE + fl;
                    let ok = own_dux == 0 || !adjacent(t, own_dux) || legal(t, if b > rk { S } else { -S });
                    if ok && !f(Move::movement(fsq, Square::from_raw((b << 4 | fl) as u8))) {
                        return false;
                    }
                }
                if !(if is_dux { mv.dux_jumps } else { mv.soldier_hops }) {
                    continue;
                }
            }
            let backward = if me == 0 { -S } else { S };
            let rays_done = slide && !mv.diagonal && soldier_fast && !displacement;
            let dirs = if rays_done { &[][..] } else { Self::line_dirs(mv.diagonal) };
            for (&d, &dr) in dirs.iter().zip(&ALL8_RAW) {
                if !is_dux && mv.soldier == SoldierMove::StepForwardSideways {
                    // no backward component
                    let back = d == backward || d == backward + 1 || d == backward - 1;
                    if back {
                        continue;
                    }
                }
                let mut t = step(from, d);
                // The raw index of `t`, followed along (cheaper than converting `t`).
                let mut traw = fraw as i32 + dr;
                while self.cells[t] == EMPTY {
                    // Inline fast path for the common case: a free soldier not landing
                    // next to its own Dux (or no self-immobilisation rule).
                    let ok = (soldier_fast && (own_dux == 0 || !adjacent(t, own_dux))) || legal(t, d);
                    if ok && !f(Move::movement(fsq, Square::from_raw(traw as u8))) {
                        return false;
                    }
                    if !slide {
                        break;
                    }
                    t = step(t, d);
                    traw += dr;
                }
                if displacement
                    && self.cells[t] & (ID | DUX | TRAPPED) == PIECE | TRAPPED | (me ^ 1) as u8
                    && legal(t, d)
                    && !f(Move::movement(fsq, Square::from_raw(traw as u8)))
                {
                    return false;
                }
            }
            // Hops.
            let hops = if is_dux { mv.dux_jumps } else { mv.soldier_hops };
            let dedupe = slide && mv.hop_chain;
            if hops
                && !self.for_each_hop_end(from, piece, &mut |to| {
                    if (dedupe && self.travel_dir(from, to) != 0) || !legal(to, 0) {
                        true
                    } else {
                        f(Move::movement(fsq, sq_of(to)))
                    }
                })
            {
                return false;
            }
        }
        true
    }

    /// Calls `f` with each distinct end square of the hops (or hop chains) of the piece
    /// on `from`. Returns false if `f` stopped.
    fn for_each_hop_end(&self, from: usize, piece: u8, f: &mut dyn FnMut(usize) -> bool) -> bool {
        let mv = &self.rules.movement;
        let me = (piece & BLACK) as usize;
        let dirs = Self::line_dirs(mv.diagonal);
        let can_hop_over = |c: u8| -> bool {
            if c & (OFF | PIECE) != PIECE {
                return false;
            }
            if mv.no_jump_over_dux && c & DUX != 0 {
                return false;
            }
            match mv.hop_over {
                HopOver::Any => true,
                HopOver::Enemy => (c & BLACK) as usize != me,
                HopOver::OwnOrTrapped => (c & BLACK) as usize == me || c & TRAPPED != 0,
            }
        };
        let cell = |i: usize| if i == from { EMPTY } else { self.cells[i] };
        let mut visited = SquareSet::default();
        visited.insert(raw_of(from));
        // The single hops from `from`, in direction order (most pieces have none, and
        // without chains nothing else is searched). Written out apart from the chain loop
        // below on purpose: one loop for both (a shared closure, or a `Vec` stack) made
        // `alphabeta:depth=3` on falkener 8-10% slower (session 11, same games).
        let mut first = [0u16; 8];
        let mut n = 0;
        for &d in dirs {
            let over = step(from, d);
            let land = step(over, d);
            if can_hop_over(cell(over)) && cell(land) == EMPTY && !visited.contains(raw_of(land)) {
                visited.insert(raw_of(land));
                if !f(land) {
                    return false;
                }
                first[n] = land as u16;
                n += 1;
            }
        }
        if !mv.hop_chain || n == 0 {
            return true;
        }
        // Chains go on depth-first from the last of them; each square is pushed at most
        // once (when first visited).
        let mut stack = [0u16; 256];
        stack[..n].copy_from_slice(&first[..n]);
        let mut sp = n;
        while sp > 0 {
            sp -= 1;
            let p = stack[sp] as usize;
            for &d in dirs {
                let over = step(p, d);
                let land = step(over, d);
                if can_hop_over(cell(over)) && cell(land) == EMPTY && !visited.contains(raw_of(land)) {
                    visited.insert(raw_of(land));
                    if !f(land) {
                        return false;
                    }
                    if mv.hop_chain && sp < stack.len() {
                        stack[sp] = land as u16;
                        sp += 1;
                    }
                }
            }
        }
        true
    }

    /// Appends every legal move to `out` (cleared first). Empty once the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_none() {
            self.for_each_legal(|m| {
                out.push(m);
                true
            });
        }
    }

    /// How many legal moves the side to move has (0 once the game is over): the length of
    /// [`Position::legal_moves`], counted without building the list (what a mobility term
    /// of an evaluation needs at every leaf).
    pub fn legal_move_count(&self) -> usize {
        if self.outcome.is_some() {
            return 0;
        }
        if self.is_placement_phase() {
            // Every empty square but a centre kept empty: `for_each_legal`'s placement
            // loop, counted from the occupancy sets (the whole cost of an evaluation's
            // mobility term while the board fills up, on boards of up to 176 squares).
            let squares = self.rules.width as usize * self.rules.height as usize;
            let empty = squares - self.occ[0].len() - self.occ[1].len();
            let centre = (self.rules.height / 2) as usize * 16 + (self.rules.width / 2) as usize;
            let centre_free = self.rules.centre_empty && self.cells[mb_of_raw(centre)] == EMPTY;
            return empty - centre_free as usize;
        }
        let mut n = 0;
        self.for_each_legal(|_| {
            n += 1;
            true
        });
        n
    }

    /// Every legal move, in a new vector.
    pub fn legal_move_list(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves(&mut v);
        v
    }

    /// Whether the side to move has a legal move (ignoring whether the game is over).
    pub fn has_legal_move(&self) -> bool {
        !self.for_each_legal(|_| false)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && !self.for_each_legal(|m| m != mv)
    }

    /// What a legal movement ply would capture or trap, without playing it; placements
    /// and removals report the removed piece (if any).
    pub fn effects(&self, mv: Move) -> Effects {
        match mv.kind {
            MoveKind::Move => {
                let (from, to) = (mb(mv.from), mb(mv.to));
                self.effects_of(from, to, self.cells[from], self.travel_dir(from, to))
            }
            MoveKind::Remove => {
                let mut fx = Effects::default();
                fx.add(mb(mv.to), REMOVE);
                fx
            }
            MoveKind::Place(_) => Effects::default(),
        }
    }

    /// The direction of a slide or step from `from` to `to` (which may end on a trapped
    /// enemy under displacement), or 0 when only a hop reaches `to`.
    fn travel_dir(&self, from: usize, to: usize) -> i32 {
        let piece = self.cells[from];
        let mv = &self.rules.movement;
        let slide = if piece & DUX != 0 { mv.dux == DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
        for &d in Self::line_dirs(mv.diagonal) {
            let mut t = step(from, d);
            loop {
                if t == to {
                    return d;
                }
                if self.cells[t] != EMPTY || !slide {
                    break;
                }
                t = step(t, d);
            }
        }
        0
    }

    // ----- playing -----

    /// Plays a legal move and returns what it captured or trapped.
    ///
    /// Panics (in debug builds) if the move is not legal; use [`Position::try_play`] for
    /// moves from untrusted input.
    pub fn play(&mut self, mv: Move) -> Effects {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} played");
        let mover = self.turn;
        let enemy_dux_before = self.dux[mover.opponent().index()];
        let fx = match mv.kind {
            MoveKind::Place(kind) => {
                self.apply_placement(kind, mb(mv.to));
                Effects::default()
            }
            MoveKind::Remove => {
                let fx = self.effects(mv);
                self.apply_removal(mb(mv.to));
                fx
            }
            MoveKind::Move => {
                let (from, to) = (mb(mv.from), mb(mv.to));
                let piece = self.cells[from];
                let dir = self.travel_dir(from, to);
                let fx = self.effects_of(from, to, piece, dir);
                self.apply_movement(from, to, piece, dir, fx);
                fx
            }
        };
        let dux_captured = enemy_dux_before != 0 && self.dux[mover.opponent().index()] == 0;
        self.outcome = self.end_checks(mover, mv, dux_captured);
        self.pass_if_stuck();
        fx
    }

    /// Plays `mv` if it is legal; otherwise returns `None` and leaves the position as it was.
    pub fn try_play(&mut self, mv: Move) -> Option<Effects> {
        self.is_legal(mv).then(|| self.play(mv))
    }

    /// Who moves after a placement by the side to move: the next scheduled placer (the
    /// other player if the scheduled one has nothing left of that kind), or, once all is
    /// placed, the player who did not place last.
    fn next_turn_after_placement(&self) -> Color {
        next_placer(
            &self.rules,
            self.soldiers_per_side,
            self.placements_total,
            &self.hand,
            self.placements_done,
            self.turn,
        )
    }

    fn apply_placement(&mut self, kind: PieceKind, to: usize) {
        let me = self.turn;
        let k = kind as usize;
        self.hash ^= hand_key(me, kind, self.hand[me.index()][k]);
        self.hand[me.index()][k] -= 1;
        self.hash ^= hand_key(me, kind, self.hand[me.index()][k]);
        let c = cell_of(me, kind);
        self.put(to, c);
        self.hash ^= zobrist(raw_of(to), c);
        self.placements_done += 1;
        let next = self.next_turn_after_placement();
        if next != self.turn {
            self.hash ^= BLACK_TO_MOVE;
        }
        self.turn = next;
        self.ply += 1;
        self.history.clear();
        self.push_history();
    }

    fn apply_removal(&mut self, at: usize) {
        let c = self.take(at);
        self.hash ^= zobrist(raw_of(at), c);
        self.release_pass();
        self.finish_movement_ply(true, self.rules.capture.removal_then_move, 0);
    }

    fn apply_movement(&mut self, from: usize, to: usize, piece: u8, _dir: i32, fx: Effects) {
        self.take(from);
        self.hash ^= zobrist(raw_of(from), piece);
        if self.cells[to] != EMPTY {
            // Displacement: the trapped enemy on `to` is removed (it is in `fx`).
            let c = self.take(to);
            self.hash ^= zobrist(raw_of(to), c);
        }
        self.put(to, piece);
        self.hash ^= zobrist(raw_of(to), piece);
        let mut captured = false;
        for (m, code) in fx.raw() {
            if m == to {
                captured = true; // displaced, already removed
                continue;
            }
            if code == REMOVE {
                let c = self.take(m);
                self.hash ^= zobrist(raw_of(m), c);
                captured = true;
            } else {
                let old = self.cells[m];
                let new = (old & 0x0F) | TRAPPED | (code << 4);
                self.hash ^= zobrist(raw_of(m), old) ^ zobrist(raw_of(m), new);
                self.cells[m] = new;
                self.trapped += 1;
            }
        }
        if self.trapped > 0 {
            self.release_pass();
        }
        let grants = captured && self.rules.capture.capture_grants_ply;
        self.finish_movement_ply(captured, grants, if grants { to } else { 0 });
    }

    /// Ends a movement or removal ply: the turn passes unless `keep_turn`; with
    /// `continue_with` (a mailbox index) the next ply must move that piece, and if it has
    /// none the turn passes after all.
    fn finish_movement_ply(&mut self, captured: bool, keep_turn: bool, continue_with: usize) {
        self.hash ^= pending_key(self.pending);
        self.pending = 0;
        if keep_turn {
            self.pending = continue_with;
            self.hash ^= pending_key(continue_with);
        } else {
            self.turn = self.turn.opponent();
            self.hash ^= BLACK_TO_MOVE;
        }
        self.ply += 1;
        if captured {
            self.since_capture = 0;
            self.history.clear();
        } else {
            self.since_capture += 1;
        }
        self.push_history();
        if continue_with != 0 && !self.has_legal_move() {
            // The capturing piece has no ply: the turn passes after all.
            self.pass_turn();
        }
    }

    #[inline]
    fn push_history(&mut self) {
        if self.rules.end.repetition != Repetition::Off {
            self.history.push(self.hash);
        }
    }

    /// How often the current position has occurred since the last irreversible ply.
    fn repetition_count(&self) -> usize {
        self.history.count(self.hash)
    }

    /// Frees every trapped piece one of whose holders is not a free piece of the other side.
    fn release_pass(&mut self) {
        // Every trapped piece may be freed at once, however many there are.
        let mut to_free = SquareSet::default();
        let mut unseen = self.trapped;
        for color in 0..2 {
            for m in self.occ[color].iter_mb() {
                if unseen == 0 {
                    break;
                }
                let c = self.cells[m];
                if c & TRAPPED == 0 {
                    continue;
                }
                unseen -= 1;
                let axis = c >> 4;
                let holders = if axis == CORNER_AXIS {
                    self.corner_neighbours(m)
                } else {
                    let d = axis_offset(axis);
                    [step(m, d), step(m, -d)]
                };
                let holder_ok = |h: usize| {
                    self.cells[h] & (ID | TRAPPED) == PIECE | (color ^ 1) as u8
                        || self.cells[h] & (ID | TRAPPED) == PIECE | DUX | (color ^ 1) as u8
                };
                if !(holder_ok(holders[0]) && holder_ok(holders[1])) {
                    to_free.insert(raw_of(m));
                }
            }
        }
        for m in to_free.iter_mb() {
            let old = self.cells[m];
            let new = old & 0x0F & !TRAPPED;
            self.hash ^= zobrist(raw_of(m), old) ^ zobrist(raw_of(m), new);
            self.cells[m] = new;
            self.trapped -= 1;
        }
    }

    // ----- results -----

    fn material_outcome(&self, equal_reason: Reason) -> Outcome {
        let total = |c: usize| self.pieces[c] as u32 + self.hand[c][0] as u32 + self.hand[c][1] as u32;
        let (w, b) = (total(0), total(1));
        let winner = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => match self.rules.end.material_tie {
                MaterialTie::Draw => None,
                MaterialTie::White => Some(Color::White),
                MaterialTie::Black => Some(Color::Black),
            },
        };
        Outcome { winner, reason: if winner.is_some() { Reason::Material } else { equal_reason } }
    }

    fn dux_immobilized(&self, color: usize) -> bool {
        let d = self.dux[color];
        if d == 0 {
            return false;
        }
        let v = View { cells: &self.cells, from: 0, to: 0, piece: self.cells[0] };
        self.immobilized_after(&v, &Effects::default(), d, self.rules.end.dux_immobilized)
    }

    /// The ordered end checks of SEMANTICS.md after a ply by `mover`.
    fn end_checks(&self, mover: Color, mv: Move, dux_captured: bool) -> Option<Outcome> {
        let end = &self.rules.end;
        let (me, opp) = (mover.index(), mover.opponent().index());
        let win = |reason| Some(Outcome { winner: Some(mover), reason });
        let lose = |reason| Some(Outcome { winner: Some(mover.opponent()), reason });
        if let MoveKind::Place(_) = mv.kind {
            return self.final_checks();
        }
        // 1. Dux captured.
        if end.win_by_dux_capture && dux_captured {
            return win(Reason::DuxCaptured);
        }
        // 2. Immobilisation.
        if end.dux_immobilized != Immobilization::Off {
            let enemy = self.dux_immobilized(opp);
            let own = end.self_immobilization == SelfImmobilization::Loses && self.dux_immobilized(me);
            if enemy {
                return if own && !end.both_immobilized_mover_wins {
                    lose(Reason::Immobilized)
                } else {
                    win(Reason::Immobilized)
                };
            }
            if own {
                return lose(Reason::Immobilized);
            }
        }
        // 3. (parcae order) no legal move before bare.
        if end.stalemate_before_bare
            && !self.has_legal_move()
            && let Some(o) = self.no_moves_outcome()
        {
            return Some(o);
        }
        // 4. Bare / annihilated.
        if end.lose_at_soldiers >= 0 {
            let mut left = self.soldiers[opp] as i32 + self.hand[opp][0] as i32;
            if end.bare_counts_dux {
                left += i32::from(self.dux[opp] != 0) + self.hand[opp][1] as i32;
            }
            if left <= end.lose_at_soldiers {
                return win(if self.rules.has_dux { Reason::Bare } else { Reason::Annihilated });
            }
        }
        // 5. Repetition.
        match end.repetition {
            Repetition::Draw | Repetition::MoverLoses if self.repetition_count() >= end.repetition_count as usize => {
                return if end.repetition == Repetition::Draw {
                    Some(Outcome { winner: None, reason: Reason::Repetition })
                } else {
                    lose(Reason::Repetition)
                };
            }
            _ => {}
        }
        // 6. No-capture limit.
        if end.no_capture_limit > 0 && self.since_capture >= end.no_capture_limit {
            return Some(match end.no_capture_result {
                LimitResult::Draw => Outcome { winner: None, reason: Reason::NoCaptureLimit },
                LimitResult::Material => self.material_outcome(Reason::NoCaptureLimit),
            });
        }
        // 7, 8.
        self.final_checks()
    }

    /// The side to move has no legal ply: the outcome, or `None` when it passes
    /// (`no_moves = "pass"` and the other side can move).
    fn no_moves_outcome(&self) -> Option<Outcome> {
        Some(match self.rules.end.no_moves {
            NoMoves::Loses => Outcome { winner: Some(self.turn.opponent()), reason: Reason::Stalemate },
            NoMoves::Material => self.material_outcome(Reason::Stalemate),
            NoMoves::Pass if self.other_side_can_move() => return None,
            NoMoves::Pass => Outcome { winner: None, reason: Reason::Stalemate },
        })
    }

    /// Whether the side not to move would have a legal ply were it its turn (the same
    /// history, for repetition rules).
    fn other_side_can_move(&self) -> bool {
        let mut p = self.clone();
        p.turn = self.turn.opponent();
        p.hash ^= BLACK_TO_MOVE ^ pending_key(p.pending);
        p.pending = 0;
        p.has_legal_move()
    }

    /// With `no_moves = "pass"`: a side to move without a legal ply (and a game not over)
    /// passes the turn. The position with the other side to move replaces the last entry
    /// of the repetition history.
    fn pass_if_stuck(&mut self) {
        if self.outcome.is_some() || self.rules.end.no_moves != NoMoves::Pass || self.has_legal_move() {
            return;
        }
        self.pass_turn();
    }

    /// Hands the turn to the other side without a ply (a stuck side's pass, or a
    /// granted ply the capturing piece cannot make): the position with the other side to
    /// move, and no pending piece, replaces the last entry of the repetition history.
    fn pass_turn(&mut self) {
        self.history.pop_if_last(self.hash);
        self.hash ^= pending_key(self.pending) ^ BLACK_TO_MOVE;
        self.pending = 0;
        self.turn = self.turn.opponent();
        self.push_history();
    }

    /// Steps 7 and 8: no legal move for the side to move; the ply cap.
    fn final_checks(&self) -> Option<Outcome> {
        if !self.has_legal_move()
            && let Some(o) = self.no_moves_outcome()
        {
            return Some(o);
        }
        if self.ply >= self.ply_cap {
            return Some(Outcome { winner: None, reason: Reason::PlyCap });
        }
        None
    }
}

/// Who moves after the `done`-th placement (see `Position::next_turn_after_placement`),
/// given the hands after it and the player who made it.
fn next_placer(rules: &Rules, soldiers: u8, total: u16, hand: &[[u8; 2]; 2], done: u16, turn: Color) -> Color {
    if done >= total {
        return turn.opponent();
    }
    let soldiers = soldiers as u16;
    let scheduled = placer(rules.placement, rules.first_player, soldiers, done);
    let kind = if done < 2 * soldiers { 0 } else { 1 };
    if hand[scheduled.index()][kind] > 0 { scheduled } else { scheduled.opponent() }
}

/// The hands and the side to move after `done` placements from the start (each player
/// places soldiers first, then the Dux).
fn placement_state(rules: &Rules, hs: u8, hd: u8, done: u16) -> ([[u8; 2]; 2], Color) {
    let total = 2 * (hs as u16 + hd as u16);
    let mut hand = [[hs, hd]; 2];
    let mut turn = rules.first_player;
    for i in 0..done.min(total) {
        let h = &mut hand[turn.index()];
        let k = if h[0] > 0 { 0 } else { 1 };
        h[k] = h[k].saturating_sub(1);
        turn = next_placer(rules, hs, total, &hand, i + 1, turn);
    }
    (hand, turn)
}

/// Who makes placement number `i` (0-based) when each side places `soldiers` soldiers
/// (then, when both are done, one Dux each, first player first).
pub fn placer(order: Placement, first: Color, soldiers: u16, i: u16) -> Color {
    let second = first.opponent();
    if i >= 2 * soldiers {
        return if i == 2 * soldiers { first } else { second };
    }
    let first_places = match order {
        Placement::OneEach => i.is_multiple_of(2),
        Placement::TwoEach => (i / 2).is_multiple_of(2),
        Placement::OneTwoOne => i == 0 || ((i - 1) / 2) % 2 == 1,
    };
    if first_places { first } else { second }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Carrillo–Cetina before 9...Df5-f2 (12x8): the move breaks rule 16 only.
    fn before_illegal_dux_move() -> (Ruleset, Position, Move) {
        let rs = Ruleset::builtin("xxi").unwrap().with_board(12, 8).unwrap();
        let setup = Setup::from_fen("2s2sssssss/12/1SS1s7/3s1dD5/3S8/12/12/S3S1SSSSSS b - 1 17").unwrap();
        let pos = Position::from_setup(&rs, &setup).unwrap();
        let mv = Move::movement("f5".parse().unwrap(), "f2".parse().unwrap());
        (rs, pos, mv)
    }

    /// A 5x5 game of stepping soldiers whose stuck side passes (`no_moves = "pass"`).
    fn crowded_pass_rules() -> Ruleset {
        Ruleset::from_toml_str(
            "id = \"crowded\"\nname = \"t\"\nsource = \"test\"\nwidth = 5\nheight = 5\n\
             [setup]\nlayout = \"ranks\"\nsoldier_ranks = 2\n[movement]\nsoldier = \"step\"\n\
             [capture]\ncustodial = true\ncorner = \"none\"\n\
             [end]\ndux_immobilized = \"off\"\nself_immobilization = \"allowed\"\nno_moves = \"pass\"\n\
             repetition = \"illegal\"\nrepetition_count = 2\n",
            "crowded.toml",
        )
        .unwrap()
    }

    #[test]
    fn a_side_without_a_legal_ply_passes_and_two_stuck_sides_draw() {
        let rs = crowded_pass_rules();
        // Black's a5 is shut in by b5 and a4; after White's e1-e2 Black cannot move.
        let mut pos = Position::from_setup(&rs, &Setup::from_fen("sS3/S4/5/5/4S w").unwrap()).unwrap();
        pos.play(Move::movement("e1".parse().unwrap(), "e2".parse().unwrap()));
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.side_to_move(), Color::White, "Black passed");
        assert_eq!((pos.ply(), pos.plies_since_capture()), (1, 1), "a pass is not a ply");
        assert!(pos.has_legal_move());
        // Under the other rules the same ply ends the game.
        let mut loses = rs.clone();
        loses.end.no_moves = NoMoves::Loses;
        let mut p = Position::from_setup(&loses, &Setup::from_fen("sS3/S4/5/5/4S w").unwrap()).unwrap();
        p.play(Move::movement("e1".parse().unwrap(), "e2".parse().unwrap()));
        assert_eq!(p.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Stalemate }));
        // A full board: neither side can move, a draw.
        let full = Ruleset::from_toml_str(
            &rs.to_toml()
                .replace("width = 5", "width = 3")
                .replace("height = 5", "height = 3")
                .replace("soldier_ranks = 2", "soldier_ranks = 1"),
            "full.toml",
        )
        .unwrap();
        let p = Position::from_setup(&full, &Setup::from_fen("sSs/SsS/sSs w").unwrap()).unwrap();
        assert_eq!(p.outcome(), Some(Outcome { winner: None, reason: Reason::Stalemate }));
        // A setup whose side to move is stuck starts with the other side to move.
        let p = Position::from_setup(&rs, &Setup::from_fen("sS3/S4/5/5/4S b").unwrap()).unwrap();
        assert_eq!((p.side_to_move(), p.outcome()), (Color::White, None));
    }

    #[test]
    fn seega_placement_skips_the_centre_and_leaves_two_squares() {
        for id in ["ludii-seega-6x6", "ludii-kharebga-6x7", "ludii-seega-11x16", "ludii-kharebga-11x16"] {
            let rs = Ruleset::builtin(id).unwrap();
            let n = rs.width as usize * rs.height as usize;
            assert_eq!(2 * rs.in_hand().0 as usize, n - 2, "{id}: all squares but two are filled");
            let centre = Square::new(rs.width / 2, rs.height / 2).unwrap();
            let mut pos = Position::new(&rs);
            let mut rng = crate::FastRng::new(3);
            let mut placers = Vec::new();
            while pos.is_placement_phase() {
                let moves = pos.legal_move_list();
                assert!(moves.iter().all(|m| m.to != centre), "{id}: the centre is offered");
                placers.push(pos.side_to_move());
                pos.play(moves[rng.below(moves.len())]);
            }
            let empty: Vec<Square> = (0..rs.height)
                .flat_map(|r| (0..rs.width).map(move |f| Square::new(f, r).unwrap()))
                .filter(|&s| pos.piece_at(s).is_none())
                .collect();
            assert_eq!(empty.len(), 2, "{id}: all squares but two are filled");
            assert!(empty.contains(&centre), "{id}");
            // Two per turn (W W B B ...), and White moves first once all is placed.
            assert_eq!(&placers[..4], [Color::White, Color::White, Color::Black, Color::Black]);
            assert_eq!(pos.side_to_move(), Color::White, "{id}");
        }
    }

    #[test]
    fn a_ply_that_traps_can_repeat_a_position() {
        // Found by the differential test on ludii-schadler-1994 (traps, no repeated state):
        // Black's d4 trapped d5 (with d6), left (releasing it) and may not come back to
        // trap it again, which recreates the position after f8-e8. The engine skipped the
        // repetition check for any ply with effects, traps included.
        let rs = Ruleset::builtin("ludii-schadler-1994").unwrap();
        let moves = "g6g6 a8a8 e4e4 b4b4 f2f2 d7d7 f3f3 e3e3 b3b3 a7a7 g7g7 b2b2 b8b8 h8h8 d5d5 d6d6 f7f7 h4h4 \
                     g1g1 b1b1 b7b7 c2c2 a3a3 c3c3 c8c8 h7h7 h5h5 f8f8 d3d3 a5a5 b5b5 a4a4 g6g5 e3e5 h5h3 e5e6 \
                     h3g3 b2f4 f3h1 f4f5 g5e5 a4a6 h1h2 h8h6 e5g5 a5c7 g5g6 c3c4 e4e3 c2c1 d3d2 a7e5 d2d1 b4d4 \
                     g3g4 f8e8 g7g5 d4e4 g5g7";
        let mut pos = Position::new(&rs);
        for t in moves.split_whitespace() {
            let (from, to): (Square, Square) = (t[..2].parse().unwrap(), t[2..].parse().unwrap());
            let mv = if from == to { Move::place(PieceKind::Soldier, to) } else { Move::movement(from, to) };
            assert!(pos.try_play(mv).is_some(), "{t} is legal");
        }
        let back = Move::movement("e4".parse().unwrap(), "d4".parse().unwrap());
        assert!(!pos.is_legal(back), "e4-d4 would repeat the position after f8-e8");
        assert!(pos.effects(back).trapped() == vec!["d5".parse::<Square>().unwrap()], "it would trap d5");
    }

    #[test]
    fn hops_over_own_pieces_or_trapped_enemies_only() {
        // Schädler's rules (step, hop chains, trapping) with Seneca's hop restriction:
        // White's d4 may hop its own d5 and Black's trapped c4, not Black's free e4.
        let mut rs = Ruleset::builtin("schadler").unwrap();
        let hops = |rs: &Ruleset| {
            let setup = Setup::from_fen("8/8/8/2SS4/2tSs3/2S5/8/7s w").unwrap();
            let p = Position::from_setup(rs, &setup).unwrap();
            let from: Square = "d4".parse().unwrap();
            let mut to: Vec<String> = p
                .legal_move_list()
                .into_iter()
                .filter(|m| m.from == from && m.kind == MoveKind::Move)
                .filter(|m| m.from.file().abs_diff(m.to.file()) + m.from.rank().abs_diff(m.to.rank()) > 1)
                .map(|m| m.to.to_string())
                .collect();
            to.sort();
            to
        };
        assert_eq!(hops(&rs), ["b4", "d6", "f4"], "any piece");
        rs.movement.hop_over = HopOver::OwnOrTrapped;
        assert_eq!(hops(&rs), ["b4", "d6"], "own d5 and trapped c4, not free e4");
        rs.movement.hop_over = HopOver::Enemy;
        assert_eq!(hops(&rs), ["b4", "f4"], "enemies only");
    }

    #[test]
    fn an_empty_corner_is_an_anvil_with_corner_anvil() {
        let rules = |anvil: bool| {
            Ruleset::from_toml_str(
                &format!(
                    "id = \"t\"\nname = \"t\"\nsource = \"t\"\nwidth = 5\nheight = 5\n[setup]\nlayout = \"ranks\"\n\
                     soldier_ranks = 1\n[capture]\ncorner = \"none\"\ncorner_anvil = {anvil}\n[end]\n\
                     dux_immobilized = \"off\"\nself_immobilization = \"allowed\"\n"
                ),
                "t.toml",
            )
            .unwrap()
        };
        // d1-c1: b1 lies between c1 and the corner a1.
        let mv = Move::movement("d1".parse().unwrap(), "c1".parse().unwrap());
        let captured = |anvil: bool, fen: &str| {
            let mut p = Position::from_setup(&rules(anvil), &Setup::from_fen(fen).unwrap()).unwrap();
            p.play(mv).captured()
        };
        let b1: Vec<Square> = vec!["b1".parse().unwrap()];
        assert_eq!(captured(true, "s4/5/5/5/1s1S1 w"), b1, "the empty corner a1 is the anvil");
        assert!(captured(false, "s4/5/5/5/1s1S1 w").is_empty(), "without the parameter it is not");
        assert_eq!(captured(true, "s4/5/5/5/Ss1S1 w"), b1, "a white piece on a1 is an anvil anyway");
        assert!(captured(true, "s4/5/5/5/ss1S1 w").is_empty(), "a black piece on a1 is no anvil");
        // The default keeps the canonical TOML; trap effects are refused.
        assert!(!rules(false).to_toml().contains("corner_anvil"));
        let mut bad = rules(true);
        bad.capture.effect = CaptureEffect::Trap;
        assert!(bad.validate().unwrap_err().contains("corner_anvil"));
    }

    #[test]
    fn a_level_material_count_goes_where_material_tie_says() {
        // Kowalski's no-capture limit decides by material; 12+D against 12+D is level.
        let mut rs = Ruleset::builtin("kowalski").unwrap();
        rs.end.no_capture_limit = 2;
        let mut outcomes = Vec::new();
        for tie in [MaterialTie::Draw, MaterialTie::White, MaterialTie::Black] {
            rs.end.material_tie = tie;
            let mut pos = Position::new(&rs);
            for mv in ["a1-a2", "a8-a7"] {
                let m = crate::notation::parse_move(&rs, &pos, mv).unwrap().mv;
                pos.play(m);
            }
            outcomes.push(pos.outcome().expect("the limit ends the game"));
        }
        assert_eq!(outcomes[0], Outcome { winner: None, reason: Reason::NoCaptureLimit });
        assert_eq!(outcomes[1], Outcome { winner: Some(Color::White), reason: Reason::Material });
        assert_eq!(outcomes[2], Outcome { winner: Some(Color::Black), reason: Reason::Material });
        // The default leaves the canonical TOML, and so params_hash, as it was.
        let plain = Ruleset::builtin("kowalski").unwrap();
        assert!(!plain.to_toml().contains("material_tie"));
        rs.end.no_capture_limit = plain.end.no_capture_limit;
        assert!(rs.to_toml().contains("material_tie = \"black\""));
        assert_ne!(rs.params_hash(), plain.params_hash());
        let back = Ruleset::from_toml_str(&rs.to_toml(), "tie.toml").unwrap();
        assert_eq!(back.end.material_tie, MaterialTie::Black);
    }

    #[test]
    fn hands_larger_than_the_rulesets_are_refused() {
        // Found by fuzzing: a setup with seven Duxes in hand used to be accepted and
        // panicked at the second Dux placement.
        let rs = Ruleset::builtin("bell").unwrap();
        let setup = |fen: &str| Setup::from_fen(fen).unwrap();
        let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 0,7/1,0")).unwrap_err();
        assert!(matches!(e, PositionError::BadHand { color: Color::White, count: 7, max: 1, .. }), "{e}");
        assert!(e.to_string().contains("7 Duxes in hand") && e.to_string().contains("bell"), "{e}");
        let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 17,0/1,0")).unwrap_err();
        assert!(matches!(e, PositionError::BadHand { count: 17, max: 16, .. }), "{e}");
        // Found by fuzzing too: hands within the ruleset's that the placement order never
        // reaches (here White still holds 2 soldiers after Black ran out).
        let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 2,0/1,0")).unwrap_err();
        assert!(matches!(e, PositionError::BadPlacement { done: 31, .. }), "{e}");
        assert!(e.to_string().contains("never reaches"), "{e}");
        // Every position the placement order reaches is accepted back from its setup.
        let mut pos = Position::new(&rs);
        let mut rng = crate::FastRng::new(5);
        while pos.is_placement_phase() {
            let back = Position::from_setup(&rs, &pos.to_setup()).expect("a reached placement position");
            assert_eq!(back.legal_move_list(), pos.legal_move_list());
            let moves = pos.legal_move_list();
            pos.play(moves[rng.below(moves.len())]);
        }
    }

    /// The counted moves are the listed ones, on every built-in ruleset (placement,
    /// removal, passes, finished games), for the side to move and for the other side.
    #[test]
    fn legal_move_count_is_the_length_of_the_list() {
        for rs in Ruleset::all_builtin() {
            let mut rng = crate::FastRng::new(9);
            for _game in 0..3 {
                let mut pos = Position::new(&rs);
                pos.set_ply_cap(150);
                loop {
                    assert_eq!(pos.legal_move_count(), pos.legal_move_list().len(), "{} ply {}", rs.id, pos.ply());
                    let passed = pos.with_turn_passed();
                    assert_eq!(
                        passed.legal_move_count(),
                        passed.legal_move_list().len(),
                        "{} ply {}",
                        rs.id,
                        pos.ply()
                    );
                    if pos.is_over() {
                        break;
                    }
                    let moves = pos.legal_move_list();
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
        }
    }

    #[test]
    fn with_rules_switches_one_filter_and_keeps_the_state() {
        let (rs, pos, mv) = before_illegal_dux_move();
        assert!(!pos.is_legal(mv));
        let mut relaxed = rs.rules();
        relaxed.combat.dux_limits = false;
        let p = pos.with_rules(relaxed).unwrap();
        assert!(p.is_legal(mv));
        assert_eq!((p.hash(), p.ply(), p.plies_since_capture()), (pos.hash(), pos.ply(), pos.plies_since_capture()));
        assert_eq!(p.to_setup(), pos.to_setup());
        let other_board = Ruleset::builtin("xxi").unwrap().rules();
        assert!(matches!(pos.with_rules(other_board), Err(PositionError::BoardSize { .. })));
    }

    #[test]
    fn history_counts_equal_a_plain_scan_with_and_without_the_filter() {
        let mut rng = crate::FastRng::new(11);
        let mut h = History::default();
        let mut plain: Vec<u64> = Vec::new();
        // Few distinct values, so that repeats, pops and filter hits all happen.
        let pool: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
        for step in 0..5000 {
            let x = pool[rng.below(pool.len())];
            match step % 97 {
                0 => {
                    h.clear();
                    plain.clear();
                }
                1..=5 => {
                    let last = plain.last().copied().unwrap_or(x);
                    h.pop_if_last(last);
                    if plain.last() == Some(&last) {
                        plain.pop();
                    }
                }
                _ => {
                    h.push(x);
                    plain.push(x);
                }
            }
            assert_eq!(h.hashes, plain);
            if plain.len() > History::FILTER_FROM {
                assert!(h.filter.is_some(), "a long history has its filter");
            }
            for &y in pool.iter().take(40).chain([x, rng.next_u64()].iter()) {
                let n = plain.iter().filter(|&&z| z == y).count();
                assert_eq!(h.count(y), n, "step {step}");
                assert_eq!(h.at_most_once(y), n <= 1, "step {step}");
            }
            let mut twice: Vec<u64> = h.twice.clone();
            twice.sort_unstable();
            let mut expected: Vec<u64> =
                pool.iter().copied().filter(|&y| plain.iter().filter(|&&z| z == y).count() >= 2).collect();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(twice, expected, "step {step}: the hashes occurring twice or more");
        }
    }

    #[test]
    fn with_rules_keeps_the_repetition_history() {
        let rs = Ruleset::builtin("xxi").unwrap();
        let mut pos = Position::new(&rs);
        // Shuffle two soldiers back and forth: the start position occurs again.
        for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] {
            let (f, t) = m.split_once('-').unwrap();
            pos.play(Move::movement(f.parse().unwrap(), t.parse().unwrap()));
        }
        let same = pos.with_rules(rs.rules()).unwrap();
        assert_eq!(same.history, pos.history);
        assert_eq!(same.repetition_count(), 2);
    }

    /// Kowalski (slide, custodial and corner capture, Dux) on a `w`×`h` board with the
    /// given pieces (`D` prefix: a Dux).
    fn wide(w: u8, h: u8, white: &[&str], black: &[&str]) -> (Ruleset, Position) {
        let mut rs = Ruleset::builtin("kowalski").unwrap();
        rs.width = w;
        rs.height = h;
        rs.setup = crate::ruleset::SetupSpec {
            layout: crate::ruleset::Layout::Squares,
            white: white.iter().map(|s| s.to_string()).collect(),
            black: black.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        rs.validate().unwrap();
        let pos = Position::new(&rs);
        (rs, pos)
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn moves_from(pos: &Position, from: &str) -> Vec<String> {
        let mut v: Vec<String> =
            pos.legal_move_list().into_iter().filter(|m| m.from == sq(from)).map(|m| m.to.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_slide_runs_the_full_sixteen_squares_and_stops_at_the_edge() {
        let (_, pos) = wide(16, 16, &["a1", "Dh8"], &["c3", "Dk12"]);
        let mut want: Vec<String> = (2..=16).map(|r| format!("a{r}")).collect();
        want.extend((b'b'..=b'p').map(|f| format!("{}1", f as char)));
        want.sort();
        assert_eq!(moves_from(&pos, "a1"), want, "15 squares up the a-file and 15 along rank 1");
        // From the middle, every way to the edge; along the top rank up to the corner.
        let (_, pos) = wide(16, 16, &["h16", "Dc3"], &["b9", "Dk12"]);
        let along: Vec<String> = moves_from(&pos, "h16").into_iter().filter(|s| s.ends_with("16")).collect();
        assert_eq!(along.len(), 15, "{along:?}");
        assert!(along.contains(&"p16".to_string()) && along.contains(&"a16".to_string()));
        // On 16 files by 11 ranks the file ends at rank 11.
        let (_, pos) = wide(16, 11, &["p1", "Dh5"], &["c3", "Dk9"]);
        let up: Vec<String> = moves_from(&pos, "p1").into_iter().filter(|s| s.starts_with('p')).collect();
        assert_eq!(up.len(), 10, "{up:?}");
        assert!(up.contains(&"p11".to_string()) && !up.contains(&"p12".to_string()));
        assert_eq!(moves_from(&pos, "p1").len(), 10 + 15);
    }

    #[test]
    fn custodial_captures_on_file_p_and_rank_16() {
        // a16-p16 slides the whole top rank and takes p15 against p14 (file p).
        let (_, mut pos) = wide(16, 16, &["a16", "p14", "Dh8"], &["p15", "c3", "Dk12"]);
        let fx = pos.play(Move::movement(sq("a16"), sq("p16")));
        assert_eq!(fx.captured(), vec![sq("p15")]);
        assert_eq!(pos.piece_at(sq("p15")), None);
        assert_eq!(pos.piece_at(sq("p16")).map(|p| p.color), Some(Color::White));
        // i1-i16 slides the whole i-file and takes h16 against g16 (rank 16); j16 has
        // no anvil on k16.
        let (rs, mut pos) = wide(16, 16, &["i1", "g16", "Dh8"], &["h16", "j16", "p16", "c3", "Dk12"]);
        let fx = pos.play(Move::movement(sq("i1"), sq("i16")));
        assert_eq!(fx.captured(), vec![sq("h16")]);
        // FEN round trip on a 16 x 16 board, and the incremental hash is the recomputed one.
        let fen = pos.to_setup().to_fen();
        assert_eq!(fen, "6S1Ss5s/16/16/16/10d5/16/16/16/7D8/16/16/16/16/2s13/16/16 b - 0 1");
        let back = Position::from_setup(&rs, &Setup::from_fen(&fen).unwrap()).unwrap();
        assert_eq!(back, pos);
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.legal_move_list(), pos.legal_move_list());
        // The diagram (files a to p, ranks to 16) reads back too; it carries no counters.
        let mut setup = pos.to_setup();
        setup.ply = 0;
        let diagram = setup.diagram();
        assert!(diagram.contains("16  . . . . . . S . S s . . . . . s"), "{diagram}");
        assert!(diagram.contains("a b c d e f g h i j k l m n o p"), "{diagram}");
        assert_eq!(Setup::parse(&diagram).unwrap(), setup);
    }

    #[test]
    fn a_corner_capture_in_the_p16_corner() {
        // p1-p15 slides up file p (stopping below the occupied corner) and takes p16
        // against o16.
        let (_, mut pos) = wide(16, 16, &["p1", "o16", "Dh8"], &["p16", "c3", "Dk12"]);
        assert_eq!(moves_from(&pos, "p1").iter().filter(|s| s.starts_with('p')).count(), 14);
        let fx = pos.play(Move::movement(sq("p1"), sq("p15")));
        assert_eq!(fx.captured(), vec![sq("p16")]);
        assert_eq!(pos.piece_at(sq("p16")), None);
        // The same on 16 files by 11 ranks: the corner is p11.
        let (_, mut pos) = wide(16, 11, &["p1", "o11", "Dh5"], &["p11", "c3", "Dk9"]);
        assert_eq!(pos.play(Move::movement(sq("p1"), sq("p10"))).captured(), vec![sq("p11")]);
    }

    #[test]
    fn moves_on_file_p_and_rank_16_print_and_parse_back() {
        let (rs, pos) = wide(16, 16, &["p1", "o16", "a16", "Dh8"], &["p16", "c3", "Dk12"]);
        let mv = Move::movement(sq("p1"), sq("p15"));
        let text = pos.move_to_string(mv).unwrap();
        assert_eq!(text, "p1-p15xp16");
        assert_eq!(crate::notation::parse_move(&rs, &pos, &text).unwrap().mv, mv);
        let mv = Move::movement(sq("a16"), sq("n16"));
        assert_eq!(pos.move_to_string(mv).unwrap(), "a16-n16");
        assert_eq!(crate::notation::parse_move(&rs, &pos, "A16-N16").unwrap().mv, mv);
        assert!(crate::notation::parse_move(&rs, &pos, "p1-q1").is_err());
    }

    #[test]
    fn raising_the_ply_cap_reopens_a_game_ended_by_it() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let mut pos = Position::new(&rs);
        pos.set_ply_cap(0);
        assert_eq!(pos.outcome().map(|o| o.reason), Some(Reason::PlyCap));
        pos.set_ply_cap(10);
        assert_eq!(pos.outcome(), None);
    }
}
