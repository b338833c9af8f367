//! The placement phase: who places next, and a placement applied.

use super::*;

impl Position {
    /// Who moves after a placement by the side to move: the next scheduled placer (the
    /// other player if the scheduled one has nothing left of that kind), or, once all is
    /// placed, the player who did not place last.
    pub(super) fn next_turn_after_placement(&self) -> Color {
        next_placer(
            &self.rules,
            self.soldiers_per_side,
            self.placements_total,
            &self.hand,
            self.placements_done,
            self.turn,
        )
    }

    pub(super) fn apply_placement(&mut self, kind: PieceKind, to: usize) {
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
}

/// Who moves after the `done`-th placement (see `Position::next_turn_after_placement`),
/// given the hands after it and the player who made it.
pub(super) fn next_placer(
    rules: &Rules,
    soldiers: u8,
    total: u16,
    hand: &[[u8; 2]; 2],
    done: u16,
    turn: Color,
) -> Color {
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
pub(super) fn placement_state(rules: &Rules, hs: u8, hd: u8, done: u16) -> ([[u8; 2]; 2], Color) {
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
