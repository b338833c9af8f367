//! Tests of the search player: spec keys, budgets, search exactness, quiescence.

use latrunculi_rules::{Color, FastRng, Move, Position, Ruleset, Setup, Square};

use super::features::moves_with_effects;
use super::*;
use crate::parse_agent;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn pos(ruleset: &str, fen: &str) -> Position {
    let rs = Ruleset::builtin(ruleset).unwrap();
    Position::from_setup(&rs, &Setup::from_fen(fen).unwrap()).unwrap()
}

fn agent(spec: &str) -> SearchAgent {
    let parsed: crate::AgentSpec = format!("alphabeta:{spec}").parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
    match parsed.player() {
        crate::PlayerSpec::Search(s) => SearchAgent::new(spec, s.clone()),
        other => panic!("{spec}: not the search player: {other:?}"),
    }
}

/// A position `plies` random plies into a game of `ruleset` (not over), or `None`.
fn random_position(ruleset: &str, plies: usize, seed: u64) -> Option<Position> {
    let rs = Ruleset::builtin(ruleset).unwrap();
    let mut p = Position::new(&rs);
    let mut rng = FastRng::new(seed);
    for _ in 0..plies {
        let moves = p.legal_move_list();
        if p.is_over() || moves.is_empty() {
            return None;
        }
        p.play(moves[rng.below(moves.len())]);
    }
    (!p.is_over()).then_some(p)
}

#[test]
fn a_budget_selects_the_search_player_and_depth_alone_the_old_one() {
    let new = parse_agent("alphabeta:nodes=5000").unwrap();
    assert_eq!(new.spec(), "alphabeta:nodes=5000");
    let e = parse_agent("alphabeta:depth=3,qs=1").err().expect("qs without a budget is refused");
    assert!(e.to_string().contains("budget"), "{e}");
    assert!(parse_agent("alphabeta:ms=50,depth=4,lmr=0,eval=material").is_ok());
    let e = parse_agent("alphabeta:nodes=10,frobnicate=1").err().unwrap();
    assert!(e.to_string().contains("frobnicate"), "{e}");
    let e = parse_agent("alphabeta:nodes=0").err().unwrap();
    assert!(e.to_string().contains("nodes"), "{e}");
    let e = parse_agent("alphabeta:nodes=100,eval=nowhere.toml").err().unwrap();
    assert!(e.to_string().contains("nowhere.toml"), "{e}");
    let e = parse_agent("alphabeta:nodes=100,qs=2").err().unwrap();
    assert!(e.to_string().contains("0 or 1"), "{e}");
    // cpu=1 says how ms counts time, so it needs ms.
    let e = parse_agent("alphabeta:nodes=100,cpu=1").err().unwrap();
    assert!(e.to_string().contains("cpu") && e.to_string().contains("ms"), "{e}");
    #[cfg(unix)]
    assert!(parse_agent("alphabeta:ms=20,cpu=1").is_ok());
}

#[cfg(unix)]
#[test]
fn a_cpu_time_budget_searches_until_the_threads_cpu_time_is_spent() {
    let pos = random_position("kowalski", 12, 5).expect("a position");
    let mut a = agent("ms=40,cpu=1");
    a.new_game(1);
    let before = super::clock::thread_cpu_time().unwrap();
    let r = a.search(&pos);
    let used = super::clock::thread_cpu_time().unwrap() - before;
    assert!(pos.legal_move_list().contains(&r.best));
    assert!(r.depth >= 1 && r.nodes > 0);
    // It stops on its CPU clock: at least the budget used (the first iteration always
    // finishes, so more is allowed).
    assert!(used >= std::time::Duration::from_millis(40), "{used:?}");
}

/// Plays a whole game between two copies of `spec` and returns its moves.
fn game(spec: &str, ruleset: &str, seed: u64, cap: u32) -> Vec<Move> {
    let rs = Ruleset::builtin(ruleset).unwrap();
    let mut p = Position::new(&rs);
    p.set_ply_cap(cap);
    let mut players = [agent(spec), agent(spec)];
    players[0].new_game(seed);
    players[1].new_game(seed ^ 1);
    let mut moves = Vec::new();
    while !p.is_over() {
        let mv = players[p.side_to_move().index()].select(&p);
        moves.push(mv);
        p.play(mv);
    }
    moves
}

#[test]
fn a_node_budget_gives_the_same_game_twice() {
    for rs in ["kowalski", "schadler"] {
        let a = game("nodes=1500", rs, 11, 60);
        let b = game("nodes=1500", rs, 11, 60);
        assert_eq!(a, b, "{rs}");
        assert!(a.len() >= 20, "{rs}: {} plies", a.len());
        let c = game("nodes=1500", rs, 12, 60);
        assert_ne!(a, c, "{rs}: another seed, another game (the evaluation's noise)");
    }
}

#[test]
fn more_nodes_reach_deeper() {
    let p = random_position("kowalski", 20, 3).unwrap();
    let mut small = agent("nodes=500,noise=0");
    let mut big = agent("nodes=20000,noise=0");
    small.new_game(1);
    big.new_game(1);
    let (s, b) = (small.search(&p), big.search(&p));
    assert!(b.depth > s.depth, "depth {} with 20,000 nodes, {} with 500", b.depth, s.depth);
    assert!(s.nodes >= 500 && s.nodes < 500 + 50_000, "nodes {}", s.nodes);
    assert_eq!((small.report().nodes, small.report().depth), (Some(s.nodes), Some(s.depth)));
}

/// Plain alpha-beta (no table, no ordering, no reductions) on the engine's evaluation.
fn plain_alphabeta(e: &Engine, p: &Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
    let mut moves = Vec::new();
    moves_with_effects(p, &mut moves);
    if depth == 0 {
        return e.evaluate(p, &moves);
    }
    let me = p.side_to_move();
    let mut best = -WIN - 1;
    for &(m, _) in &moves {
        let mut c = p.clone();
        c.play(m);
        let s = if let Some(o) = c.outcome() {
            match o.winner {
                Some(w) if w == me => WIN - ply as i32 - 1,
                Some(_) => -(WIN - ply as i32 - 1),
                None => 0,
            }
        } else if c.side_to_move() == me {
            plain_alphabeta(e, &c, depth - 1, alpha, beta, ply + 1)
        } else {
            -plain_alphabeta(e, &c, depth - 1, -beta, -alpha, ply + 1)
        };
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[test]
fn pvs_and_the_table_give_plain_alpha_betas_root_score() {
    // Rulesets whose positions do not depend on the path (no repetition rule, no
    // no-capture limit), where a table cannot change a score.
    let mut checked = 0;
    for (rs, seed) in [("kowalski-parcae", 1), ("kowalski-parcae", 2), ("xxi", 3), ("xxi", 4), ("kowalski-parcae", 5)] {
        let Some(p) = random_position(rs, 16, seed) else { continue };
        for depth in 1..=3 {
            let spec = format!("nodes=100000000,depth={depth},qs=0,lmr=0,noise=0");
            let mut a = agent(&spec);
            a.new_game(0);
            let r = a.search(&p);
            let reference = {
                let e = Engine::new(a.config().clone(), a.weights_for(&p).weights);
                plain_alphabeta(&e, &p, depth, -WIN - 1, WIN + 1, 0)
            };
            assert_eq!(r.depth, depth);
            assert_eq!(r.score, reference, "{rs} seed {seed} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 9);
}

/// Kowalski: White d1-d4 captures e4 (f4 White), but Black e8-e4 then captures d4 and
/// f4 at once (c4 and g4 Black): a capture that loses two pieces for one.
const POISONED_CAPTURE: &str = "4s6d/12/12/12/2s1sSs5/12/12/3S7D w";

#[test]
fn quiescence_sees_the_recapture_that_a_fixed_depth_misses() {
    let p = pos("kowalski", POISONED_CAPTURE);
    let capture = Move::movement(sq("d1"), sq("d4"));
    let mut after = p.clone();
    assert_eq!(after.play(capture).len(), 1);
    assert_eq!(after.effects(Move::movement(sq("e8"), sq("e4"))).len(), 2);

    // One ply without quiescence: the capture looks like a won piece.
    // Material only: Black is two soldiers up (-1,000 for White at 500 a piece).
    let mut blind = agent("nodes=1000000,depth=1,qs=0,eval=material,noise=0,pursuit=0");
    blind.new_game(0);
    let r = blind.search(&p);
    assert_eq!((r.best, r.score), (capture, -500));
    let mut old = parse_agent("alphabeta:depth=1").unwrap();
    old.new_game(0);
    assert_eq!(old.select(&p), capture, "the fixed-depth player takes the piece too");
    // With quiescence the same one-ply search sees the double recapture.
    let mut seeing = agent("nodes=1000000,depth=1,qs=1,eval=material,noise=0,pursuit=0");
    seeing.new_game(0);
    let r = seeing.search(&p);
    assert_ne!(r.best, capture);
    assert_eq!(r.score, -1000, "no material is won or lost");
}

#[test]
fn a_won_position_is_played_out() {
    // Kowalski: White c7-a7 shuts the black Dux on a8 in and wins at once.
    let p = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D w");
    let mut a = agent("nodes=20000");
    a.new_game(5);
    let r = a.search(&p);
    assert_eq!(r.best, Move::movement(sq("c7"), sq("a7")));
    assert!(r.score > WIN - 10);
    assert_eq!(p.side_to_move(), Color::White);
}

/// Schädler (trap rules): White b4-c4 traps the black soldier on d4 (e4 White). The
/// fitted weights value a trapped soldier below a free one, so the trap is a gain; a
/// count of pieces that takes a trapped soldier for a free one sees nothing in it.
const TRAP: &str = "s6s/8/8/8/1S1sS3/8/8/7S w";

#[test]
fn a_trap_is_valued_on_schadler() {
    let p = pos("schadler", TRAP);
    assert!(!p.is_placement_phase());
    let trap = Move::movement(sq("b4"), sq("c4"));
    let mut after = p.clone();
    let fx = after.play(trap);
    assert_eq!(fx.trapped(), vec![sq("d4")]);

    let w = EvalWeights::builtin_for(p.rules()).expect("schadler has fitted weights");
    assert_eq!(w.ruleset, "schadler");
    use super::features::idx;
    assert!(
        w.weights[idx::TRAPPED] < w.weights[idx::SOLDIERS],
        "a trapped soldier is worth less than a free one: {:?}",
        w.weights
    );
    // One ply, no quiescence: the fitted evaluation alone must prefer the trap.
    let mut fitted = agent("nodes=1000000,depth=1,qs=0,noise=0");
    fitted.new_game(0);
    let r = fitted.search(&p);
    assert_eq!(r.best, trap);
    // Material only: the trap changes no count, so it scores like a quiet move.
    let mut counting = agent("nodes=1000000,depth=1,qs=0,noise=0,eval=material,pursuit=0");
    counting.new_game(0);
    let e = Engine::new(counting.config().clone(), EvalWeights::material_only().weights);
    let score_after = |m: Move| {
        let mut c = p.clone();
        c.play(m);
        let mut moves = Vec::new();
        moves_with_effects(&c, &mut moves);
        -e.evaluate(&c, &moves)
    };
    let quiet = Move::movement(sq("h1"), sq("h2"));
    assert_eq!(score_after(trap), score_after(quiet));
}

/// Kowalski: White (three soldiers on a1-c1, Dux on l1) has twice Black's pieces (Dux
/// on a8, soldier on l8), with no capture in reach.
const AHEAD: &str = "d10s/12/12/12/12/12/12/SSS8D w";

#[test]
fn the_pursuit_term_brings_the_side_ahead_closer() {
    use super::features::{hunt_distance, piece_totals};
    let p = pos("kowalski", AHEAD);
    assert_eq!(piece_totals(&p), (4, 2));
    // a8 from a1 and b1: 7 + 8; l8 from c1 and b1 (a1 is as far as b1 is not): 16 + 17.
    assert_eq!(hunt_distance(&p, Color::White), 15 + 16 + 17);
    let closer = pos("kowalski", "d10s/2S9/12/12/12/12/12/SS9D w");
    assert!(hunt_distance(&closer, Color::White) < hunt_distance(&p, Color::White));

    // The search player ahead closes in where the capture lies beyond its horizon.
    let mut a = agent("nodes=20000,pursuit=10");
    a.new_game(1);
    let r = a.search(&p);
    let mut after = p.clone();
    after.play(r.best);
    assert!(hunt_distance(&after, Color::White) < hunt_distance(&p, Color::White), "{:?} does not close in", r.best);
    assert!(r.score > 0);
    // Where neither side has twice the other's pieces the term is off: same search.
    let even = pos("kowalski", "d10s/12/12/12/12/12/12/SS9D w");
    let (mut on, mut off) = (agent("nodes=5000,pursuit=10"), agent("nodes=5000,pursuit=0"));
    on.new_game(2);
    off.new_game(2);
    assert_eq!(on.search(&even), off.search(&even));
    assert!(parse_agent("alphabeta:nodes=100,pursuit=-1").is_err());
}

#[test]
fn the_soft_policy_sums_to_one_over_the_legal_moves_and_favours_the_best() {
    // Kowalski: White c7-a7 shuts the black Dux in and wins at once.
    let won = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D w");
    for p in [won, random_position("kowalski", 30, 3).unwrap(), random_position("xxi", 40, 4).unwrap()] {
        let mut a = agent("nodes=20000,soft=200");
        a.new_game(1);
        let best = a.select(&p);
        let policy = a.report().policy.expect("soft gives a policy");
        let legal = p.legal_move_list();
        assert_eq!(policy.len(), legal.len());
        assert!(policy.iter().all(|(m, q)| legal.contains(m) && *q >= 0.0));
        let total: f32 = policy.iter().map(|(_, q)| q).sum();
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        let top = policy.iter().map(|(_, q)| *q).fold(0.0, f32::max);
        let chosen = policy.iter().find(|(m, _)| *m == best).unwrap().1;
        assert_eq!(chosen, top, "the move played has the most weight");
        // The scores are those of the search: the best move keeps its score.
        let r = a.search(&p);
        assert!(r.root_scores.iter().all(|&(_, s)| s <= r.score));
    }
    // Without `soft`: no policy, no root scores.
    let mut plain = agent("nodes=2000");
    plain.new_game(1);
    plain.select(&random_position("kowalski", 30, 3).unwrap());
    assert!(plain.report().policy.is_none());
    assert!(plain.search(&random_position("kowalski", 30, 3).unwrap()).root_scores.is_empty());
    // The moves played do not depend on `soft` (the scoring comes after the search).
    assert_eq!(game("nodes=3000,soft=200", "kowalski", 7, 40), game("nodes=3000", "kowalski", 7, 40));
}

#[test]
fn the_report_gives_the_move_its_line_nodes_depth_score_and_value() {
    let p = random_position("xxi", 12, 5).unwrap();
    let mut a = agent("nodes=4000");
    a.new_game(3);
    assert_eq!(a.report(), crate::Report::default(), "no move yet");
    let mv = a.select(&p);
    let r = a.report();
    assert_eq!(r.mv, Some(mv));
    assert!(r.nodes.is_some_and(|n| n > 0), "{r:?}");
    assert!(r.depth.is_some_and(|d| d >= 1), "{r:?}");
    assert_eq!(r.line.first(), Some(&mv), "the principal line starts with the move played: {r:?}");
    let score = r.score.expect("a score");
    assert_eq!(r.value, Some(super::value_of_score(score)));
    assert!((r.policy, r.priors) == (None, None), "no soft policy without soft, no priors");
    let mut again = agent("nodes=4000");
    again.new_game(3);
    assert_eq!(again.select(&p), mv, "asking for the report changes nothing");
    a.new_game(4);
    assert_eq!(a.report(), crate::Report::default(), "a new game forgets the last search");
}
