//! Tests of the batched simulator against the rules engine, over every built-in ruleset.

use std::collections::BTreeSet;

use latrunculi_rules::{Color, FastRng, Outcome, PieceKind, Position, Ruleset};
use latrunculi_sim::observation::{
    ENEMY_DUX, ENEMY_IN_HAND, ENEMY_SOLDIERS, ENEMY_TRAPPED, NO_CAPTURE, OWN_DUX, OWN_IN_HAND, OWN_SOLDIERS,
    OWN_TRAPPED, PLACEMENT_PHASE, PLY, WHITE_TO_MOVE,
};
use latrunculi_sim::{ActionSpace, BatchSim, NUM_PLANES, ObservationEncoder, PLANES, SimError};
use ndarray::{Array3, Axis};

/// Short games keep the tests fast.
const CAP: u32 = 120;

/// Every built-in ruleset, and Kowalski on the largest board (16 × 16).
fn rulesets() -> Vec<Ruleset> {
    let mut v = Ruleset::all_builtin();
    v.push(Ruleset::builtin("kowalski").unwrap().with_board(16, 16).unwrap());
    v
}

fn sorted_actions(space: &ActionSpace, pos: &Position) -> Vec<usize> {
    let mut v: Vec<usize> = pos.legal_move_list().into_iter().map(|m| space.encode(m)).collect();
    v.sort_unstable();
    v
}

#[test]
fn planes_are_documented() {
    assert_eq!(PLANES.len(), NUM_PLANES);
    let names: BTreeSet<_> = PLANES.iter().map(|p| p.name).collect();
    assert_eq!(names.len(), NUM_PLANES, "plane names are unique");
    assert!(PLANES.iter().all(|p| !p.doc.is_empty()));
}

#[test]
fn encode_decode_round_trips_on_random_games() {
    for rs in rulesets() {
        let space = ActionSpace::new(rs.width, rs.height).unwrap();
        let mut rng = FastRng::new(rs.params_hash());
        for _game in 0..3 {
            let mut pos = Position::new(&rs);
            pos.set_ply_cap(CAP);
            while !pos.is_over() {
                let moves = pos.legal_move_list();
                let mut seen = BTreeSet::new();
                for &mv in &moves {
                    let a = space.encode(mv);
                    assert!(a < space.size(), "{}: {mv:?} -> {a}", rs.id);
                    assert_eq!(space.decode(a).unwrap(), mv, "{}: {mv:?}", rs.id);
                    assert!(seen.insert(a), "{}: two legal moves share action {a}", rs.id);
                }
                pos.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn mask_equals_engine_legal_moves_at_every_step() {
    for rs in rulesets() {
        let n = 4;
        let mut sim = BatchSim::new(&rs, n, 7).unwrap();
        sim.set_ply_cap(CAP).unwrap();
        let space = sim.action_space();
        let mut rng = FastRng::new(rs.params_hash() ^ 1);
        for step in 0..150 {
            let mask = sim.legal_mask().clone();
            assert_eq!(mask.shape(), &[n, space.size()]);
            let mut actions = Vec::with_capacity(n);
            for i in 0..n {
                let from_mask: Vec<usize> =
                    mask.index_axis(Axis(0), i).iter().enumerate().filter(|(_, b)| **b).map(|(a, _)| a).collect();
                let from_engine = sorted_actions(&space, sim.position(i).unwrap());
                assert_eq!(from_mask, from_engine, "{} game {i} step {step}", rs.id);
                assert!(!from_mask.is_empty(), "{} game {i} step {step}: no legal action", rs.id);
                actions.push(from_mask[rng.below(from_mask.len())]);
            }
            sim.step(&actions).unwrap();
        }
    }
}

/// A finished game: (game index, outcome, plies, captures).
type Finished = (usize, Outcome, u32, u32);

#[test]
fn batched_play_equals_sequential_play() {
    for rs in Ruleset::all_builtin() {
        let n = 6;
        let steps = 300;
        let seed = rs.params_hash();

        // Batched.
        let mut sim = BatchSim::new(&rs, n, 0).unwrap();
        sim.set_ply_cap(CAP).unwrap();
        let mut rngs: Vec<FastRng> = (0..n as u64).map(|i| FastRng::new(seed ^ i)).collect();
        let mut batched: Vec<Finished> = Vec::new();
        let mut out = Default::default();
        for _ in 0..steps {
            let mask = sim.legal_mask();
            let actions: Vec<usize> = (0..n)
                .map(|i| {
                    let legal: Vec<usize> =
                        mask.index_axis(Axis(0), i).iter().enumerate().filter(|(_, b)| **b).map(|(a, _)| a).collect();
                    legal[rngs[i].below(legal.len())]
                })
                .collect();
            let movers: Vec<Color> = (0..n).map(|i| sim.current_player(i).unwrap()).collect();
            sim.step_into(&actions, &mut out).unwrap();
            let res: &latrunculi_sim::StepResult = &out;
            #[allow(clippy::needless_range_loop)]
            for i in 0..n {
                assert_eq!(res.done[i], res.outcomes[i].is_some());
                if let Some(o) = res.outcomes[i] {
                    batched.push((i, o, res.plies[i], res.captures[i]));
                    let want = match o.winner {
                        None => 0.0,
                        Some(w) if w == movers[i] => 1.0,
                        Some(_) => -1.0,
                    };
                    assert_eq!(res.rewards[i], want);
                    assert_eq!(sim.ply(i).unwrap(), Position::new(&rs).ply(), "game {i} was reset");
                } else {
                    assert_eq!(res.rewards[i], 0.0);
                }
            }
        }

        // Sequential, with the same choices.
        let space = ActionSpace::new(rs.width, rs.height).unwrap();
        let mut sequential: Vec<Finished> = Vec::new();
        let mut finals = Vec::new();
        for i in 0..n {
            let mut rng = FastRng::new(seed ^ i as u64);
            let fresh = || {
                let mut p = Position::new(&rs);
                p.set_ply_cap(CAP);
                p
            };
            let mut pos = fresh();
            let mut captures = 0;
            for _ in 0..steps {
                let legal = sorted_actions(&space, &pos);
                let mv = space.decode(legal[rng.below(legal.len())]).unwrap();
                let enemy = pos.side_to_move().opponent();
                let before = pos.pieces_on_board(enemy);
                pos.play(mv);
                captures += before - pos.pieces_on_board(enemy);
                if let Some(o) = pos.outcome() {
                    sequential.push((i, o, pos.ply(), captures));
                    pos = fresh();
                    captures = 0;
                }
            }
            finals.push((pos, captures));
        }
        batched.sort_by_key(|f| f.0);
        assert_eq!(batched, sequential, "{}", rs.id);
        assert!(!batched.is_empty(), "{}: some games finish within {steps} steps", rs.id);
        for (i, (pos, captures)) in finals.iter().enumerate() {
            assert_eq!(sim.position(i).unwrap(), pos, "{} game {i}: final positions", rs.id);
            assert_eq!(sim.captures(i).unwrap(), *captures);
        }
    }
}

fn check_observation(rs: &Ruleset, enc: &ObservationEncoder, pos: &Position, obs: ndarray::ArrayView3<f32>) {
    let me = pos.side_to_move();
    let h = rs.height as usize;
    let plane_sum = |p: usize| obs.index_axis(Axis(0), p).sum();
    let mut counts = [0f32; 6];
    for color in Color::ALL {
        for sq in pos.squares_of(color) {
            let piece = pos.piece_at(sq).unwrap();
            let own = color == me;
            let plane = match (own, piece.kind, piece.trapped) {
                (true, PieceKind::Dux, _) => OWN_DUX,
                (true, _, false) => OWN_SOLDIERS,
                (true, _, true) => OWN_TRAPPED,
                (false, PieceKind::Dux, _) => ENEMY_DUX,
                (false, _, false) => ENEMY_SOLDIERS,
                (false, _, true) => ENEMY_TRAPPED,
            };
            counts[plane] += 1.0;
            let row = if me == Color::Black { h - 1 - sq.rank() as usize } else { sq.rank() as usize };
            assert_eq!(obs[[plane, row, sq.file() as usize]], 1.0, "{}: {sq} in plane {}", rs.id, PLANES[plane].name);
            assert_eq!(enc.square_at(me, row, sq.file() as usize), Some(sq));
        }
    }
    for (plane, &c) in counts.iter().enumerate() {
        assert_eq!(plane_sum(plane), c, "{}: plane {}", rs.id, PLANES[plane].name);
    }
    assert_eq!(
        plane_sum(OWN_SOLDIERS) + plane_sum(OWN_TRAPPED),
        pos.soldiers_on_board(me) as f32,
        "{}: own soldiers",
        rs.id
    );
    assert_eq!(plane_sum(ENEMY_SOLDIERS) + plane_sum(ENEMY_TRAPPED), pos.soldiers_on_board(me.opponent()) as f32);
    let constant = |p: usize| {
        let v = obs[[p, 0, 0]];
        assert!(obs.index_axis(Axis(0), p).iter().all(|&x| x == v), "{}: plane {} not constant", rs.id, PLANES[p].name);
        assert!((0.0..=1.0).contains(&v));
        v
    };
    assert_eq!(constant(WHITE_TO_MOVE), if me == Color::White { 1.0 } else { 0.0 });
    assert_eq!(constant(PLACEMENT_PHASE), if pos.is_placement_phase() { 1.0 } else { 0.0 });
    let initial = rs.in_hand().0 as f32;
    let hand = |c: Color| {
        if initial == 0.0 { 0.0 } else { pos.in_hand(c).0 as f32 / initial }
    };
    assert_eq!(constant(OWN_IN_HAND), hand(me));
    assert_eq!(constant(ENEMY_IN_HAND), hand(me.opponent()));
    constant(NO_CAPTURE);
    assert_eq!(constant(PLY), (pos.ply() as f32 / pos.ply_cap() as f32).min(1.0));
}

#[test]
fn observation_planes_match_positions() {
    for rs in rulesets() {
        let n = 3;
        let mut sim = BatchSim::new(&rs, n, 0).unwrap();
        sim.set_ply_cap(CAP).unwrap();
        let enc = *sim.encoder();
        let mut rng = FastRng::new(rs.params_hash() ^ 2);
        let mut saw_black = false;
        for _ in 0..100 {
            let obs = sim.observations().clone();
            assert_eq!(obs.shape(), &[n, NUM_PLANES, rs.height as usize, rs.width as usize]);
            for i in 0..n {
                let pos = sim.position(i).unwrap();
                saw_black |= pos.side_to_move() == Color::Black;
                check_observation(&rs, &enc, pos, obs.index_axis(Axis(0), i));
                // The standalone encoder writes the same, into any buffer.
                let mut buf = Array3::from_elem(enc.shape(), 9.0f32);
                enc.write(pos, buf.view_mut()).unwrap();
                assert_eq!(buf, obs.index_axis(Axis(0), i));
            }
            let actions: Vec<usize> = (0..n)
                .map(|i| {
                    let moves = sim.legal_moves(i).unwrap();
                    sim.action_space().encode(moves[rng.below(moves.len())])
                })
                .collect();
            sim.step(&actions).unwrap();
        }
        assert!(saw_black, "{}", rs.id);
    }
}

#[test]
fn observation_of_start_is_flipped_for_black() {
    let rs = Ruleset::all_builtin().into_iter().find(|r| r.in_hand() == (0, 0)).unwrap();
    let enc = ObservationEncoder::new(&rs);
    let white = Position::new(&rs);
    let black = white.with_turn_passed();
    assert_eq!(black.side_to_move(), white.side_to_move().opponent());
    let mut a = Array3::zeros(enc.shape());
    let mut b = Array3::zeros(enc.shape());
    enc.write(&white, a.view_mut()).unwrap();
    enc.write(&black, b.view_mut()).unwrap();
    // Own pieces start on the lowest rows for whichever side is to move.
    for obs in [&a, &b] {
        assert_eq!(obs[[OWN_SOLDIERS, 0, 0]] + obs[[OWN_DUX, 0, 0]], 1.0);
        assert_eq!(obs[[ENEMY_SOLDIERS, rs.height as usize - 1, 0]] + obs[[ENEMY_DUX, rs.height as usize - 1, 0]], 1.0);
    }
    let mut wrong = Array3::zeros((NUM_PLANES, 2, 2));
    assert!(matches!(enc.write(&white, wrong.view_mut()), Err(SimError::ObservationShape { .. })));
}

#[test]
fn illegal_actions_are_errors_and_change_nothing() {
    let rs = Ruleset::all_builtin().remove(0);
    let mut sim = BatchSim::new(&rs, 3, 0).unwrap();
    let space = sim.action_space();
    let legal: Vec<usize> = (0..3).map(|i| space.encode(sim.legal_moves(i).unwrap()[0])).collect();
    let before: Vec<Position> = (0..3).map(|i| sim.position(i).unwrap().clone()).collect();

    // From a square to itself is never a legal move.
    let mut actions = legal.clone();
    actions[1] = 0;
    match sim.step(&actions) {
        Err(SimError::IllegalAction { game: 1, action: 0, .. }) => {}
        other => panic!("expected an illegal-action error for game 1, got {other:?}"),
    }
    actions[1] = legal[1];
    actions[2] = space.size() + 5;
    let err = sim.step(&actions).unwrap_err();
    assert!(matches!(err, SimError::IllegalAction { game: 2, .. }), "{err}");
    assert!(err.to_string().contains("game 2"), "{err}");
    assert!(matches!(sim.step(&legal[..2]), Err(SimError::ActionCount { expected: 3, got: 2 })));
    for (i, p) in before.iter().enumerate() {
        assert_eq!(sim.position(i).unwrap(), p, "game {i} untouched");
    }
    assert!(matches!(sim.current_player(3), Err(SimError::GameIndex { index: 3, len: 3 })));
    assert!(matches!(BatchSim::new(&rs, 0, 0), Err(SimError::NoGames)));
    assert!(sim.step(&legal).is_ok());
}

/// The tactical planes against a direct computation by playing every move on a copy:
/// what each side's moves capture (by comparing the boards before and after), on random
/// games of every ruleset; the first `NUM_PLANES` planes equal the plain encoder's.
#[test]
fn tactical_planes_match_played_captures() {
    use latrunculi_sim::{NUM_TACTICAL_PLANES, TACTICAL_PLANES};
    assert_eq!(TACTICAL_PLANES.len(), NUM_TACTICAL_PLANES);
    let mut saw_threat = 0usize;
    for rs in rulesets() {
        let plain = ObservationEncoder::new(&rs);
        let enc = plain.with_tactical(true);
        assert_eq!(enc.shape()[0], NUM_PLANES + NUM_TACTICAL_PLANES);
        let mut rng = FastRng::new(rs.params_hash() ^ 3);
        let mut pos = Position::new(&rs);
        pos.set_ply_cap(CAP);
        while !pos.is_over() {
            let mut obs = Array3::from_elem(enc.shape(), 7.0f32);
            enc.write(&pos, obs.view_mut()).unwrap();
            let mut base = Array3::from_elem(plain.shape(), 7.0f32);
            plain.write(&pos, base.view_mut()).unwrap();
            assert_eq!(obs.slice(ndarray::s![..NUM_PLANES, .., ..]), base, "{}", rs.id);
            let me = pos.side_to_move();
            let mut want = Array3::<f32>::zeros((NUM_TACTICAL_PLANES, rs.height as usize, rs.width as usize));
            let passed = pos.with_turn_passed();
            for (side, to_plane) in [(&pos, 0usize), (&passed, 2usize)] {
                if side.is_over() || (to_plane == 2 && pos.is_placement_phase()) {
                    continue;
                }
                for mv in side.legal_move_list() {
                    let mut after = side.clone();
                    after.play(mv);
                    let mut any = false;
                    for f in 0..rs.width {
                        for r in 0..rs.height {
                            let sq = latrunculi_rules::Square::new(f, r).unwrap();
                            let (b, a) = (side.piece_at(sq), after.piece_at(sq));
                            // A piece of the side not moving vanished or became trapped.
                            let hit = b.is_some_and(|p| {
                                p.color != side.side_to_move()
                                    && (a.is_none() || a.is_some_and(|q| q.trapped && !p.trapped))
                            });
                            // A removal ply takes a piece of either side.
                            let removed = mv.kind == latrunculi_rules::MoveKind::Remove && sq == mv.to;
                            if hit || removed {
                                any = true;
                                let row = if me == Color::Black { rs.height - 1 - r } else { r } as usize;
                                want[[to_plane + 1, row, f as usize]] = 1.0;
                            }
                        }
                    }
                    if any {
                        let r = mv.to.rank();
                        let row = if me == Color::Black { rs.height - 1 - r } else { r } as usize;
                        want[[to_plane, row, mv.to.file() as usize]] = 1.0;
                    }
                }
            }
            saw_threat += (want.sum() > 0.0) as usize;
            assert_eq!(obs.slice(ndarray::s![NUM_PLANES.., .., ..]), want, "{} ply {}", rs.id, pos.ply());
            let moves = pos.legal_move_list();
            pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(saw_threat > 50, "random games should show some capture threats ({saw_threat})");
}
