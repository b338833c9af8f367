//! Diagnosing illegal moves: the rule a move breaks, found by replaying the question
//! under copies of the ruleset with the legality filters switched off one by one.

use super::*;

/// A legality filter of SEMANTICS.md that a ruleset can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filter {
    DuxLimits,
    LockedSoldiers,
    SelfImmobilization,
    BetweenEnemies,
    RepetitionIllegal,
}

pub(super) const FILTERS: [Filter; 5] = [
    Filter::DuxLimits,
    Filter::LockedSoldiers,
    Filter::SelfImmobilization,
    Filter::BetweenEnemies,
    Filter::RepetitionIllegal,
];

pub(super) fn has_filter(rs: &Ruleset, f: Filter) -> bool {
    match f {
        Filter::DuxLimits => rs.combat.dux_limits,
        Filter::LockedSoldiers => rs.combat.locked_soldiers,
        Filter::SelfImmobilization => rs.end.self_immobilization == SelfImmobilization::Illegal,
        Filter::BetweenEnemies => rs.movement.rule7_no_entering_between_enemies,
        Filter::RepetitionIllegal => rs.end.repetition == Repetition::Illegal,
    }
}

pub(super) fn switch_off(rs: &mut Ruleset, f: Filter) {
    match f {
        Filter::DuxLimits => rs.combat.dux_limits = false,
        Filter::LockedSoldiers => rs.combat.locked_soldiers = false,
        Filter::SelfImmobilization => rs.end.self_immobilization = SelfImmobilization::Allowed,
        Filter::BetweenEnemies => rs.movement.rule7_no_entering_between_enemies = false,
        Filter::RepetitionIllegal => rs.end.repetition = Repetition::Off,
    }
}

/// A copy of the ruleset with every legality filter switched off except `keep`.
pub(crate) fn relaxed(rs: &Ruleset, keep: Option<Filter>) -> Ruleset {
    let mut r = rs.clone();
    for f in FILTERS {
        if Some(f) != keep {
            switch_off(&mut r, f);
        }
    }
    r
}

/// Whether `mv` is legal under `rs` on the pieces of `setup` (no repetition history,
/// no ply cap).
pub(super) fn legal_under(rs: &Ruleset, setup: &Setup, mv: Move) -> bool {
    let mut s = setup.clone();
    s.ply = 0;
    Position::from_setup(rs, &s).is_ok_and(|p| p.is_legal(mv))
}

/// Why the movement `mv` (whose piece, side and `D` are right) is not legal in `pos`.
pub(super) fn diagnose(ruleset: &Ruleset, pos: &Position, mv: Move) -> MoveError {
    if mv.kind != MoveKind::Move {
        let reason = "the engine does not allow it here".to_string();
        return match mv.kind {
            MoveKind::Remove => MoveError::BadRemoval { square: mv.to, reason },
            _ => MoveError::BadPlacement { square: mv.to, reason },
        };
    }
    let (from, to) = (mv.from, mv.to);
    let dux = pos.piece_at(from).is_some_and(|p| p.kind == PieceKind::Dux);
    let setup = pos.to_setup();
    if legal_under(ruleset, &setup, mv) {
        // Legal on the bare position: only the repetition history can forbid it.
        return MoveError::Illegal { dux, from, to, breaches: vec![RuleBreach::Repetition] };
    }
    if !legal_under(&relaxed(ruleset, None), &setup, mv) {
        return MoveError::Unreachable { dux, from, to, reason: unreachable_reason(pos, from, to) };
    }
    let mut breaches = Vec::new();
    for f in FILTERS {
        if has_filter(ruleset, f) && !legal_under(&relaxed(ruleset, Some(f)), &setup, mv) {
            breaches.push(name_breach(pos, f, from));
        }
    }
    MoveError::Illegal { dux, from, to, breaches }
}

/// The precise rule behind a filter that forbids a move of the piece on `from`.
pub(super) fn name_breach(pos: &Position, f: Filter, from: Square) -> RuleBreach {
    let Some(piece) = pos.piece_at(from) else {
        return RuleBreach::SelfImmobilization;
    };
    let me = piece.color;
    let enemies: Vec<Square> =
        neighbours_in(pos, from).filter(|&n| pos.piece_at(n).is_some_and(|p| p.color != me)).collect();
    let sole: Vec<Square> = enemies.iter().copied().filter(|&e| sole_attacker(pos, from, e, me)).collect();
    match f {
        Filter::DuxLimits => {
            if open_sides(pos, from) == 1 && !enemies.is_empty() {
                RuleBreach::DuxPartiallyImmobilized { dux: from }
            } else if sole.len() >= 2 {
                RuleBreach::DuxDoubleCombat { dux: from, enemies: sole }
            } else {
                RuleBreach::DuxSingleCombat { dux: from, enemy: sole.first().copied().unwrap_or(from) }
            }
        }
        Filter::LockedSoldiers => {
            RuleBreach::LockedSoldier { soldier: from, enemy: sole.first().copied().unwrap_or(from) }
        }
        Filter::SelfImmobilization => RuleBreach::SelfImmobilization,
        Filter::BetweenEnemies => RuleBreach::BetweenEnemies,
        Filter::RepetitionIllegal => RuleBreach::Repetition,
    }
}

/// Why the piece on `from` cannot physically reach `to`.
pub(super) fn unreachable_reason(pos: &Position, from: Square, to: Square) -> String {
    let rules = pos.rules();
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    let is_dux = piece.kind == PieceKind::Dux;
    let mv = &rules.movement;
    let hops = if is_dux { mv.dux_jumps } else { mv.soldier_hops };
    let slide = if is_dux { mv.dux == crate::ruleset::DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
    if let Some(p) = pos.piece_at(to) {
        let whose = if p.color == piece.color { "its own side" } else { "the enemy" };
        return format!("{to} is occupied by a piece of {whose}");
    }
    let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
    let straight = df == 0 || dr == 0;
    let diagonal = df.abs() == dr.abs();
    let on_line = straight || (mv.diagonal && diagonal);
    let what = if is_dux { "the Dux" } else { "a soldier" };
    if !on_line && !hops {
        return if mv.diagonal {
            format!("{to} is not on a rank, file or diagonal through {from}")
        } else {
            format!("{to} is not on the same rank or file as {from}")
        };
    }
    if on_line {
        let (sf, sr) = (df.signum(), dr.signum());
        let dist = df.abs().max(dr.abs());
        if !is_dux && mv.soldier == SoldierMove::StepForwardSideways {
            let back = if piece.color == Color::White { -1 } else { 1 };
            if sr == back {
                return format!("{what} may not move backward");
            }
        }
        let mut blocked = None;
        for k in 1..dist {
            let sq = Square::new((from.file() as i32 + k * sf) as u8, (from.rank() as i32 + k * sr) as u8);
            if let Some(sq) = sq
                && pos.piece_at(sq).is_some()
            {
                blocked = Some(sq);
                break;
            }
        }
        if dist > 1 && !slide && !hops {
            return format!("{what} moves only one square in this ruleset");
        }
        if let Some(b) = blocked {
            return if hops {
                format!("the path is blocked at {b} and no hop or hop chain ends on {to}")
            } else {
                format!("the path is blocked at {b}")
            };
        }
    }
    if hops {
        format!("no step, slide or hop of {what} on {from} ends on {to}")
    } else {
        format!("no move of {what} on {from} ends on {to}")
    }
}
