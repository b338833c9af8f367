//! Tests of the baseline agents: spec parsing, determinism, tactics and legality.

use latrunculi_agents::{Agent, AgentError, parse_agent};
use latrunculi_rules::{Color, Move, Position, Ruleset, Setup, Square};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn pos(ruleset: &str, fen: &str) -> Position {
    let rs = Ruleset::builtin(ruleset).unwrap();
    Position::from_setup(&rs, &Setup::from_fen(fen).unwrap()).unwrap()
}

/// Kowalski (12x8, any-blockers immobilisation): White c7-a7 shuts the black Dux on a8
/// in (a7 and b8 White) and wins at once.
const MATE_IN_ONE: &str = "dS10/2S9/12/11s/12/12/12/11D w";
/// Kowalski: the white Dux on a1 has b1 Black; Black threatens c2-a2, shutting it in.
/// Most White moves lose at once; moving the Dux, blocking or capturing b1 do not.
const THREAT: &str = "11d/12/12/7S4/12/10S1/2s9/Ds10 w";
/// Kowalski: d1-d4 captures the black soldier on e4 (f4 White); nothing else captures.
const FREE_CAPTURE: &str = "11d/12/12/12/4sS6/12/12/3S3D4 w";

fn opponent_can_win_after(p: &Position, mv: Move) -> bool {
    let me = p.side_to_move();
    let mut after = p.clone();
    after.play(mv);
    if after.is_over() {
        return after.outcome().unwrap().winner != Some(me) && after.outcome().unwrap().winner.is_some();
    }
    after.legal_move_list().into_iter().any(|r| {
        let mut q = after.clone();
        q.play(r);
        q.outcome().is_some_and(|o| o.winner == Some(me.opponent()))
    })
}

#[test]
fn test_positions_are_what_they_claim() {
    let p = pos("kowalski", MATE_IN_ONE);
    let mut q = p.clone();
    q.play(Move::movement(sq("c7"), sq("a7")));
    assert_eq!(q.outcome().unwrap().winner, Some(Color::White));
    let wins = p
        .legal_move_list()
        .into_iter()
        .filter(|&m| {
            let mut q = p.clone();
            q.play(m);
            q.is_over()
        })
        .count();
    assert_eq!(wins, 1);

    let t = pos("kowalski", THREAT);
    let moves = t.legal_move_list();
    let losing = moves.iter().filter(|&&m| opponent_can_win_after(&t, m)).count();
    assert!(losing * 2 > moves.len(), "{losing} of {} moves lose", moves.len());
    assert!(losing < moves.len());

    let f = pos("kowalski", FREE_CAPTURE);
    let caps: Vec<Move> = f.legal_move_list().into_iter().filter(|&m| !f.effects(m).is_empty()).collect();
    assert_eq!(caps, vec![Move::movement(sq("d1"), sq("d4"))]);
}

#[test]
fn parses_valid_specs() {
    for spec in [
        "random",
        "greedy",
        "mcts:sims=200",
        "mcts:sims=10,depth=5,c=0.7",
        "alphabeta:depth=3",
        "alphabeta:depth=2,tt=1",
    ] {
        let a = parse_agent(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(a.spec(), spec);
    }
    assert!(parse_agent(" mcts : sims = 5 ").is_ok());
}

#[test]
fn rejects_bad_specs_with_clear_errors() {
    let err = |s: &str| match parse_agent(s) {
        Ok(_) => panic!("{s} was accepted"),
        Err(e) => e,
    };
    let e = err("mcts:sims=x");
    assert!(matches!(e, AgentError::BadValue { .. }));
    let msg = e.to_string();
    assert!(msg.contains("'x'") && msg.contains("sims"), "{msg}");

    let msg = err("foo").to_string();
    assert!(msg.contains("'foo'") && msg.contains("random") && msg.contains("alphabeta:depth=N"), "{msg}");

    let e = err("alphabeta:depth=0");
    assert!(matches!(e, AgentError::BadValue { .. }), "{e}");
    assert!(e.to_string().contains("depth"));

    let msg = err("mcts:sims=10,speed=3").to_string();
    assert!(msg.contains("'speed'") && msg.contains("sims, depth, c"), "{msg}");
    let msg = err("alphabeta:depth=2,sims=3").to_string();
    assert!(msg.contains("'sims'") && msg.contains("depth, tt, nodes, ms"), "{msg}");

    assert!(matches!(err("mcts"), AgentError::MissingKey { key: "sims", .. }));
    assert!(matches!(err("alphabeta:tt=4"), AgentError::MissingKey { key: "depth", .. }));
    assert!(matches!(err("random:x=1"), AgentError::NoParameters { .. }));
    assert!(matches!(err("mcts:sims"), AgentError::Malformed { .. }));
    assert!(matches!(err("mcts:sims=1,sims=2"), AgentError::DuplicateKey { .. }));
    assert!(matches!(err("mcts:sims=5,c=-1"), AgentError::BadValue { .. }));
    assert!(matches!(err(""), AgentError::Empty { .. }));
}

/// Plays a game between two agents; returns the moves.
fn play_game(white: &mut dyn Agent, black: &mut dyn Agent, mut p: Position, seed: u64, cap: u32) -> Vec<Move> {
    p.set_ply_cap(cap);
    white.new_game(seed);
    black.new_game(seed.wrapping_add(1));
    let mut moves = Vec::new();
    while !p.is_over() {
        let agent: &mut dyn Agent = if p.side_to_move() == Color::White { &mut *white } else { &mut *black };
        let mv = agent.select(&p);
        assert!(p.is_legal(mv), "{} played illegal {mv:?}", agent.spec());
        p.play(mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn same_seed_same_game_for_every_agent() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    for spec in ["random", "greedy", "mcts:sims=20,depth=10", "alphabeta:depth=2,tt=1"] {
        let game = |seed| {
            let mut a = parse_agent(spec).unwrap();
            let mut b = parse_agent(spec).unwrap();
            play_game(a.as_mut(), b.as_mut(), Position::new(&rs), seed, 60)
        };
        let g1 = game(5);
        assert_eq!(g1, game(5), "{spec}");
        if spec != "alphabeta:depth=2,tt=1" && spec != "greedy" {
            assert_ne!(g1, game(6), "{spec}: another seed should give another game");
        }
        // An agent reused for a second game with the same seed repeats it too.
        let mut a = parse_agent(spec).unwrap();
        let mut b = parse_agent(spec).unwrap();
        let first = play_game(a.as_mut(), b.as_mut(), Position::new(&rs), 9, 30);
        let second = play_game(a.as_mut(), b.as_mut(), Position::new(&rs), 9, 30);
        assert_eq!(first, second, "{spec}: reuse");
    }
}

#[test]
fn greedy_takes_a_free_capture() {
    let p = pos("kowalski", FREE_CAPTURE);
    for seed in 0..5 {
        let mut g = parse_agent("greedy").unwrap();
        g.new_game(seed);
        assert_eq!(g.select(&p), Move::movement(sq("d1"), sq("d4")));
    }
}

#[test]
fn greedy_and_alphabeta_avoid_an_immediate_loss() {
    let p = pos("kowalski", THREAT);
    for spec in ["greedy", "alphabeta:depth=2", "alphabeta:depth=3,tt=1"] {
        for seed in 0..5 {
            let mut a = parse_agent(spec).unwrap();
            a.new_game(seed);
            let mv = a.select(&p);
            assert!(!opponent_can_win_after(&p, mv), "{spec} seed {seed}: {mv:?} lets Black win");
        }
    }
}

#[test]
fn tactical_agents_find_mate_in_one() {
    let p = pos("kowalski", MATE_IN_ONE);
    let mate = Move::movement(sq("c7"), sq("a7"));
    for spec in ["greedy", "alphabeta:depth=2", "alphabeta:depth=1,tt=0", "mcts:sims=1500"] {
        for seed in 0..3 {
            let mut a = parse_agent(spec).unwrap();
            a.new_game(seed);
            assert_eq!(a.select(&p), mate, "{spec} seed {seed}");
        }
    }
}

#[test]
fn alphabeta_finds_mate_in_one_in_xxi() {
    // XXI (10x8): the black Dux on a8 has b8 White; c7-a7 (over the empty b7) shuts it in.
    let p = pos("xxi", "dS8/2S7/10/9s/10/10/s9/9D w");
    let mate = Move::movement(sq("c7"), sq("a7"));
    let mut q = p.clone();
    q.play(mate);
    assert_eq!(q.outcome().map(|o| o.winner), Some(Some(Color::White)));
    let mut a = parse_agent("alphabeta:depth=2").unwrap();
    a.new_game(0);
    assert_eq!(a.select(&p), mate);
}

#[test]
fn every_agent_plays_legal_moves_in_every_builtin_ruleset() {
    for rs in Ruleset::all_builtin() {
        for (i, spec) in ["random", "greedy", "mcts:sims=16,depth=8", "alphabeta:depth=2,tt=1"].iter().enumerate() {
            let start = Position::new(&rs);
            if start.is_over() {
                continue;
            }
            let mut a = parse_agent(spec).unwrap();
            let mut r = parse_agent("random").unwrap();
            // The agent plays White in one game and Black in the other.
            play_game(a.as_mut(), r.as_mut(), start.clone(), i as u64, 40);
            play_game(r.as_mut(), a.as_mut(), start, i as u64 + 100, 40);
        }
    }
}

#[test]
fn greedy_and_random_play_every_builtin_ruleset_to_its_end() {
    // Whole games (the default cap of 1000 plies), not only openings: every ruleset's
    // end rules are reached by agents, whatever they are (issue 15).
    for rs in Ruleset::all_builtin() {
        let mut g = parse_agent("greedy").unwrap();
        let mut r = parse_agent("random").unwrap();
        let start = Position::new(&rs);
        let mut end = start.clone();
        for m in play_game(g.as_mut(), r.as_mut(), start, 3, latrunculi_rules::DEFAULT_PLY_CAP) {
            end.play(m);
        }
        assert!(end.outcome().is_some(), "{}: no outcome after {} plies", rs.id, end.ply());
    }
}

#[test]
fn uct_speed_is_measured() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    assert!(latrunculi_agents::uct_simulations_per_second(&rs, 0.05) > 0.0);
}
