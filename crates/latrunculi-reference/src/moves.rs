//! Pseudo-legal plies of the side to move: placements, removals of trapped pieces, and
//! walks and hops, each with its travel direction (SEMANTICS.md, movement).

use super::*;

impl RefGame {
    /// Every pseudo-legal ply of the side to move, one per `Move`.
    pub(crate) fn candidates(&self) -> Vec<Candidate> {
        if self.in_placement_phase() {
            return self.placement_candidates();
        }
        let mut out = self.movement_candidates();
        if let Some(p) = self.pending {
            // A granted ply: only the capturing piece moves.
            out.retain(|c| pos_of(c.mv.from) == p);
            return out;
        }
        if self.rules.capture.removal_move {
            out.extend(self.removal_candidates());
        }
        out
    }

    pub(crate) fn placement_candidates(&self) -> Vec<Candidate> {
        let (soldiers, duxes) = self.hand[self.side.index()];
        let kind = if soldiers > 0 {
            PieceKind::Soldier
        } else if duxes > 0 {
            PieceKind::Dux
        } else {
            return Vec::new();
        };
        // `centre_empty`: the square on file W/2 and rank H/2 (from 0) takes no piece.
        let centre = Square::new(self.rules.width / 2, self.rules.height / 2);
        let open = |p: Pos| !(self.rules.centre_empty && Some(square_of(p)) == centre);
        let empty = self.board.all_squares().into_iter().filter(|&p| self.board.is_empty(p) && open(p));
        empty.map(|p| Candidate { mv: Move::place(kind, square_of(p)), dir: None }).collect()
    }

    pub(crate) fn removal_candidates(&self) -> Vec<Candidate> {
        let enemy = self.side.opponent();
        let trapped = self
            .board
            .all_squares()
            .into_iter()
            .filter(|&p| self.board.get(p).is_some_and(|c| c.piece.color == enemy && c.piece.trapped));
        trapped.map(|p| Candidate { mv: Move::remove(square_of(p)), dir: None }).collect()
    }

    /// Slides, steps, displacements and hops of every free piece of the side to move.
    /// A `(from, to)` reachable both by a slide/step and by a hop chain is the slide/step
    /// (it has a travel direction).
    pub(crate) fn movement_candidates(&self) -> Vec<Candidate> {
        let mut moves: BTreeMap<(Pos, Pos), Option<Pos>> = BTreeMap::new();
        for from in self.board.all_squares() {
            let Some(cell) = self.board.get(from) else { continue };
            if cell.piece.color != self.side || cell.piece.trapped {
                continue;
            }
            for (to, d) in self.walk_destinations(from, cell.piece) {
                moves.insert((from, to), Some(d));
            }
            if self.may_hop(cell.piece.kind) {
                for to in self.hop_destinations(from, cell.piece.color) {
                    moves.entry((from, to)).or_insert(None);
                }
            }
        }
        moves
            .into_iter()
            .map(|((from, to), dir)| Candidate { mv: Move::movement(square_of(from), square_of(to)), dir })
            .collect()
    }

    pub(crate) fn walk_of(&self, kind: PieceKind) -> Walk {
        match kind {
            PieceKind::Soldier => match self.rules.movement.soldier {
                SoldierMove::Slide => Walk::Slide,
                SoldierMove::Step => Walk::Step,
                SoldierMove::StepForwardSideways => Walk::StepForwardSideways,
            },
            PieceKind::Dux => match self.rules.movement.dux {
                DuxMove::Slide => Walk::Slide,
                DuxMove::Step => Walk::Step,
            },
        }
    }

    /// Destinations of slides and steps (with their direction), and of displacements.
    pub(crate) fn walk_destinations(&self, from: Pos, piece: Piece) -> Vec<(Pos, Pos)> {
        let walk = self.walk_of(piece.kind);
        let forward = if piece.color == Color::White { 1 } else { -1 };
        let max_len = if walk == Walk::Slide { i32::MAX } else { 1 };
        let mut out = Vec::new();
        for d in line_directions(self.rules.movement.diagonal) {
            if walk == Walk::StepForwardSideways && d.1 == -forward {
                continue; // backward (straight or diagonal)
            }
            let mut k = 1;
            loop {
                let q = step(from, d, k);
                if !self.board.on_board(q) {
                    break;
                }
                if self.board.is_empty(q) {
                    out.push((q, d));
                    if k >= max_len {
                        break;
                    }
                    k += 1;
                    continue;
                }
                // The first occupied square beyond the empty run.
                if self.rules.capture.capture_by_displacement && self.is_trapped_enemy_soldier(q, piece.color) {
                    out.push((q, d));
                }
                break;
            }
        }
        out
    }

    pub(crate) fn is_trapped_enemy_soldier(&self, p: Pos, mover: Color) -> bool {
        self.board
            .get(p)
            .is_some_and(|c| c.piece.color == mover.opponent() && c.piece.kind == PieceKind::Soldier && c.piece.trapped)
    }

    pub(crate) fn may_hop(&self, kind: PieceKind) -> bool {
        match kind {
            PieceKind::Soldier => self.rules.movement.soldier_hops,
            PieceKind::Dux => self.rules.movement.dux_jumps,
        }
    }

    /// Whether a piece of `mover` may hop over the square `over` of board `b`.
    pub(crate) fn may_hop_over(&self, b: &Board, over: Pos, mover: Color) -> bool {
        let Some(cell) = b.get(over) else { return false };
        let own = cell.piece.color == mover;
        match self.rules.movement.hop_over {
            HopOver::Any => {}
            HopOver::Enemy if own => return false,
            HopOver::OwnOrTrapped if !own && !cell.piece.trapped => return false,
            _ => {}
        }
        !(self.rules.movement.no_jump_over_dux && cell.piece.kind == PieceKind::Dux)
    }

    /// Single hops from `p` on board `b` (where the moving piece has been lifted).
    pub(crate) fn single_hops(&self, b: &Board, p: Pos, mover: Color) -> Vec<Pos> {
        line_directions(self.rules.movement.diagonal)
            .into_iter()
            .filter(|&d| self.may_hop_over(b, step(p, d, 1), mover) && b.is_empty(step(p, d, 2)))
            .map(|d| step(p, d, 2))
            .collect()
    }

    /// Where a hop (or, with `hop_chain`, a hop chain) from `from` can end.
    ///
    /// The piece is lifted first. A hop never changes the board, so "a hop from `a` to
    /// `c`" depends only on the board, and it is symmetric: the reverse hop needs `a`
    /// empty, which holds for `from` (lifted) and every landing square (empty). Hence
    /// the ends of chains that never revisit a square are exactly the squares other than
    /// `from` reachable by hops at all (a shortest chain never revisits): a plain graph
    /// search.
    pub(crate) fn hop_destinations(&self, from: Pos, mover: Color) -> Vec<Pos> {
        let mut b = self.board.clone();
        b.set(from, None);
        if !self.rules.movement.hop_chain {
            return self.single_hops(&b, from, mover);
        }
        let mut seen = vec![from];
        let mut todo = vec![from];
        while let Some(p) = todo.pop() {
            for q in self.single_hops(&b, p, mover) {
                if !seen.contains(&q) {
                    seen.push(q);
                    todo.push(q);
                }
            }
        }
        seen.retain(|&q| q != from);
        seen
    }
}
