//! What a movement or removal ply does to the board: every capture rule of SEMANTICS.md
//! ("Captures of a movement ply") as its own small function, then the trap effect and
//! the release pass.
//!
//! Every rule looks at the board *after* the piece has moved and *before* anything is
//! removed; the findings are applied together at the end.

use std::collections::BTreeSet;

use latrunculi_rules::ruleset::{CaptureEffect, CornerCapture, DuxCapture, Immobilization};
use latrunculi_rules::{Color, PieceKind, Rules};

use crate::board::{Board, Cell, Pos, line_directions, perpendiculars, step};

/// The result of simulating one ply.
#[derive(Clone, Debug)]
pub(crate) struct PlyResult {
    /// The board after captures, traps and releases.
    pub board: Board,
    /// Squares whose piece was removed (captures, Dux capture, displacement, removal ply).
    pub removed: BTreeSet<Pos>,
    /// Squares whose piece became trapped by this ply (and was not also removed).
    pub trapped: BTreeSet<Pos>,
    /// Whether a Dux of the mover's enemy was among the removed pieces.
    pub enemy_dux_captured: bool,
}

/// A victim of a flank (custodial, line or active corner) and the two squares that
/// hold it, in case the effect is `trap`.
type Flanked = (Pos, (Pos, Pos));

/// Whether `p` holds a *capturer* of `side`: a free soldier, or a free Dux when
/// `capture.dux_captures`.
fn is_capturer(rules: &Rules, b: &Board, p: Pos, side: Color) -> bool {
    match b.get(p) {
        Some(c) if c.piece.color == side && !c.piece.trapped => match c.piece.kind {
            PieceKind::Soldier => true,
            PieceKind::Dux => rules.capture.dux_captures,
        },
        _ => false,
    }
}

/// Whether `p` holds an enemy soldier that a flank (custodial, line, active corner) may
/// take: under `effect = "trap"` it must be free.
fn is_flankable_soldier(rules: &Rules, b: &Board, p: Pos, enemy: Color) -> bool {
    flank_target(rules, b, p, enemy)
        && !(rules.capture.effect == CaptureEffect::Trap && b.get(p).is_some_and(|c| c.piece.trapped))
}

/// Whether `p` holds an enemy piece of a kind that flanks take: a soldier, or the Dux
/// too under `capture.dux = "like-soldier"`.
fn flank_target(rules: &Rules, b: &Board, p: Pos, enemy: Color) -> bool {
    b.has_soldier_of(p, enemy)
        || (rules.capture.dux == DuxCapture::LikeSoldier
            && b.get(p).is_some_and(|c| c.piece.color == enemy && c.piece.kind == PieceKind::Dux))
}

/// Directions used by custodial and line capture.
fn capture_directions(rules: &Rules) -> Vec<Pos> {
    line_directions(rules.capture.diagonal)
}

/// Custodial: `s+d` an enemy soldier, `s+2d` a capturer of the mover.
fn custodial(rules: &Rules, b: &Board, s: Pos, mover: Color) -> Vec<Flanked> {
    let enemy = mover.opponent();
    let mut out = Vec::new();
    for d in capture_directions(rules) {
        let victim = step(s, d, 1);
        let anvil = step(s, d, 2);
        // `corner_anvil`: an empty corner square is an anvil too.
        let corner = rules.capture.corner_anvil && b.is_empty(anvil) && b.corners().contains(&anvil);
        if is_flankable_soldier(rules, b, victim, enemy) && (is_capturer(rules, b, anvil, mover) || corner) {
            out.push((victim, (s, anvil)));
        }
    }
    out
}

/// Line: the maximal run `s+d … s+kd` (k ≥ 1) of enemy soldiers closed by a capturer
/// of the mover on `s+(k+1)d` is taken whole. A run ending at the enemy Dux (or at
/// anything else that is not a capturer of the mover) takes nothing.
///
/// Holders, should the effect be `trap`: the two ends `s` and `s+(k+1)d`.
fn line(rules: &Rules, b: &Board, s: Pos, mover: Color) -> Vec<Flanked> {
    let enemy = mover.opponent();
    let mut out = Vec::new();
    for d in capture_directions(rules) {
        let mut k = 0;
        while flank_target(rules, b, step(s, d, k + 1), enemy) {
            k += 1;
        }
        let closer = step(s, d, k + 1);
        if k >= 1 && is_capturer(rules, b, closer, mover) {
            for i in 1..=k {
                out.push((step(s, d, i), (s, closer)));
            }
        }
    }
    out
}

/// Active corner: an enemy soldier on a corner, `s` one of the corner's two orthogonal
/// neighbours, the other one holding a capturer of the mover.
fn corner_active(rules: &Rules, b: &Board, s: Pos, mover: Color) -> Vec<Flanked> {
    let enemy = mover.opponent();
    let mut out = Vec::new();
    for c in b.corners() {
        if !is_flankable_soldier(rules, b, c, enemy) {
            continue;
        }
        let n = b.neighbours4(c);
        debug_assert_eq!(n.len(), 2, "a corner of a board at least 3 × 3 has two neighbours");
        for (here, other) in [(n[0], n[1]), (n[1], n[0])] {
            if here == s && is_capturer(rules, b, other, mover) {
                out.push((c, (n[0], n[1])));
            }
        }
    }
    out
}

/// Passive corner: every enemy soldier on a corner whose on-board orthogonal neighbours
/// all hold pieces of the mover (any pieces), wherever the mover landed.
fn corner_passive(rules: &Rules, b: &Board, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    b.corners()
        .into_iter()
        .filter(|&c| flank_target(rules, b, c, enemy))
        .filter(|&c| b.neighbours4(c).iter().all(|&n| b.has_piece_of(n, mover)))
        .collect()
}

/// Push and crush (13a/13b) along the travel direction `d`: `s+d` a capturer of the
/// mover, `s+2d` an enemy soldier, `s+3d` off the board or a capturer of the mover.
fn push_and_crush(rules: &Rules, b: &Board, s: Pos, d: Pos, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    let (partner, victim, back) = (step(s, d, 1), step(s, d, 2), step(s, d, 3));
    let backed = !b.on_board(back) || is_capturer(rules, b, back, mover);
    if is_capturer(rules, b, partner, mover) && b.has_soldier_of(victim, enemy) && backed {
        vec![victim]
    } else {
        Vec::new()
    }
}

/// Flank attack (14) along `d`: `s+d … s+kd` enemy pieces (any kind), k ≥ 2 the maximal
/// run, `s+(k+1)d` a capturer of the mover → `s+d` if it is a soldier.
fn flank(rules: &Rules, b: &Board, s: Pos, d: Pos, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    let mut k = 0;
    while b.has_piece_of(step(s, d, k + 1), enemy) {
        k += 1;
    }
    let first = step(s, d, 1);
    if k >= 2 && is_capturer(rules, b, step(s, d, k + 1), mover) && b.has_soldier_of(first, enemy) {
        vec![first]
    } else {
        Vec::new()
    }
}

/// Phalanx (15) along `d`: `s+d … s+kd` capturers of the mover, k ≥ 1 the maximal run,
/// `s+(k+1)d` an enemy soldier, and for a sideways `p` all of `s+p … s+p+kd` capturers.
fn phalanx(rules: &Rules, b: &Board, s: Pos, d: Pos, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    let mut k = 0;
    while is_capturer(rules, b, step(s, d, k + 1), mover) {
        k += 1;
    }
    let victim = step(s, d, k + 1);
    if k < 1 || !b.has_soldier_of(victim, enemy) {
        return Vec::new();
    }
    let rectangle =
        perpendiculars(d).into_iter().any(|p| (0..=k).all(|i| is_capturer(rules, b, step(step(s, p, 1), d, i), mover)));
    if rectangle { vec![victim] } else { Vec::new() }
}

/// Whether every on-board orthogonal neighbour of `p` holds a piece of `color`.
fn surrounded_by(b: &Board, p: Pos, color: Color) -> bool {
    b.neighbours4(p).iter().all(|&n| b.has_piece_of(n, color))
}

/// Enclosure: every enemy soldier orthogonally adjacent to `s` whose on-board orthogonal
/// neighbours all hold pieces of the mover.
fn enclosure(b: &Board, s: Pos, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    b.neighbours4(s).into_iter().filter(|&v| b.has_soldier_of(v, enemy) && surrounded_by(b, v, mover)).collect()
}

/// Dux capture: the enemy Dux orthogonally adjacent to `s` whose on-board orthogonal
/// neighbours all hold pieces of the mover (`enclosure`), and for `four-sides` all four
/// neighbours are on the board.
fn dux_capture(rules: &Rules, b: &Board, s: Pos, mover: Color) -> Vec<Pos> {
    let enemy = mover.opponent();
    let mut out = Vec::new();
    for v in b.neighbours4(s) {
        let is_enemy_dux = b.get(v).is_some_and(|c| c.piece.color == enemy && c.piece.kind == PieceKind::Dux);
        if !is_enemy_dux || !surrounded_by(b, v, mover) {
            continue;
        }
        let ok = match rules.capture.dux {
            DuxCapture::Never | DuxCapture::LikeSoldier => false,
            DuxCapture::Enclosure => true,
            DuxCapture::FourSides => b.neighbours4(v).len() == 4,
        };
        if ok {
            out.push(v);
        }
    }
    out
}

/// The release pass: every trapped piece one of whose holder squares does not hold a
/// free piece of the opposing side is freed. All decisions are taken on the board as it
/// is before the pass, then applied.
pub(crate) fn release_pass(b: &mut Board) {
    let mut to_free = Vec::new();
    for p in b.all_squares() {
        let Some(cell) = b.get(p) else { continue };
        let Some((h1, h2)) = cell.holders else { continue };
        let holder_side = cell.piece.color.opponent();
        if !b.has_free_piece_of(h1, holder_side) || !b.has_free_piece_of(h2, holder_side) {
            to_free.push(p);
        }
    }
    for p in to_free {
        let cell = b.get(p).map(Cell::released);
        b.set(p, cell);
    }
}

/// Simulates the movement of the (free) piece on `from` to `to`, where `dir` is the
/// travel direction of a slide or step (`None` for a hop or hop chain).
pub(crate) fn resolve_movement(rules: &Rules, before: &Board, from: Pos, to: Pos, dir: Option<Pos>) -> PlyResult {
    let mut b = before.clone();
    // Internal invariant: candidates start on a free piece of the side to move.
    let moving = b.get(from).expect("a movement starts on a piece");
    let mover = moving.piece.color;
    let enemy = mover.opponent();
    // Displacement: the destination holds a trapped enemy soldier, taken by landing.
    let displaced = b.get(to).is_some();
    b.set(from, None);
    b.set(to, Some(Cell::free(mover, moving.piece.kind)));
    let s = to;
    let cap = &rules.capture;

    let mut flanked: Vec<Flanked> = Vec::new();
    let mut taken: Vec<Pos> = Vec::new();
    if is_capturer(rules, &b, s, mover) {
        if cap.line {
            flanked.extend(line(rules, &b, s, mover));
        } else if cap.custodial {
            flanked.extend(custodial(rules, &b, s, mover));
        }
        if cap.corner == CornerCapture::Active {
            flanked.extend(corner_active(rules, &b, s, mover));
        }
        if let Some(d) = dir {
            if cap.push_and_crush {
                taken.extend(push_and_crush(rules, &b, s, d, mover));
            }
            if cap.flank {
                taken.extend(flank(rules, &b, s, d, mover));
            }
            if cap.phalanx {
                taken.extend(phalanx(rules, &b, s, d, mover));
            }
        }
    }
    if cap.corner == CornerCapture::Passive {
        taken.extend(corner_passive(rules, &b, mover));
    }
    if cap.enclosure {
        taken.extend(enclosure(&b, s, mover));
    }
    if cap.dux.by_enclosure() {
        taken.extend(dux_capture(rules, &b, s, mover));
    }

    // Effects: flanks trap under `trap`, everything else is removed.
    let trap_effect = cap.effect == CaptureEffect::Trap;
    let mut removed: BTreeSet<Pos> = taken.into_iter().collect();
    if !trap_effect {
        removed.extend(flanked.iter().map(|(v, _)| *v));
    }
    let enemy_dux_captured =
        removed.iter().any(|&v| b.get(v).is_some_and(|c| c.piece.color == enemy && c.piece.kind == PieceKind::Dux));
    for &v in &removed {
        debug_assert_ne!(v, s, "the moved piece is never its own victim");
        b.set(v, None);
    }
    let mut trapped = BTreeSet::new();
    if trap_effect {
        for (v, (h1, h2)) in flanked {
            if removed.contains(&v) || trapped.contains(&v) {
                continue;
            }
            let cell = b.get(v).map(|c| c.trapped_by(h1, h2));
            b.set(v, cell);
            trapped.insert(v);
        }
    }
    if displaced {
        removed.insert(s);
    }
    release_pass(&mut b);
    PlyResult { board: b, removed, trapped, enemy_dux_captured }
}

/// Simulates the removal ply of the trapped piece on `at`.
pub(crate) fn resolve_removal(before: &Board, at: Pos) -> PlyResult {
    let mut b = before.clone();
    let enemy_dux_captured = false; // only soldiers are ever trapped
    b.set(at, None);
    release_pass(&mut b);
    PlyResult { board: b, removed: BTreeSet::from([at]), trapped: BTreeSet::new(), enemy_dux_captured }
}

/// Whether the Dux on `p` is immobilised under `def` (`off` reads as `any-blockers`):
/// `any-blockers`: no orthogonal neighbour is an empty on-board square;
/// `enemy-only`: every on-board orthogonal neighbour holds a piece of its enemy.
pub(crate) fn dux_immobilised(b: &Board, p: Pos, def: Immobilization) -> bool {
    let Some(cell) = b.get(p) else { return false };
    match def {
        Immobilization::Off | Immobilization::AnyBlockers => b.neighbours4(p).iter().all(|&n| !b.is_empty(n)),
        Immobilization::EnemyOnly => surrounded_by(b, p, cell.piece.color.opponent()),
    }
}
