//! The search's per-node move scan, before and after the landing-square shortcut, in one
//! run: on positions of random games of each ruleset given, the time to list the legal
//! moves with each one's effect count by asking the rules engine for every move
//! (`Position::effects`, as the search first did) and by
//! `search::features::moves_with_effects` (which asks only for moves landing on or next
//! to an enemy piece). Prints `ruleset,positions,engine_ns,shortcut_ns,speedup`, rounds
//! alternated A/B/A/B to even out a noisy machine.
//!
//! `cargo run --release -p latrunculi-agents --example effects_speed -- [RULESET...]`

use std::time::Instant;

use latrunculi_agents::search::features::moves_with_effects;
use latrunculi_rules::{FastRng, Position, Ruleset};

fn positions(rs: &Ruleset, n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = FastRng::new(7);
    while out.len() < n {
        let mut p = Position::new(rs);
        let plies = 20 + rng.below(80);
        for _ in 0..plies {
            let m = p.legal_move_list();
            if p.is_over() || m.is_empty() {
                break;
            }
            p.play(m[rng.below(m.len())]);
        }
        if !p.is_over() && !p.is_placement_phase() {
            out.push(p);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ids: Vec<String> = if args.is_empty() { Ruleset::builtin_ids().map(str::to_string).collect() } else { args };
    println!("ruleset,positions,engine_ns,shortcut_ns,speedup");
    for id in ids {
        let rs = Ruleset::builtin(&id).expect("ruleset");
        let ps = positions(&rs, 300);
        let (mut a, mut b) = (0u128, 0u128);
        let mut check = 0usize;
        let mut moves = Vec::new();
        let mut scored = Vec::new();
        for round in 0..21 {
            let t = Instant::now();
            for p in &ps {
                p.legal_moves(&mut moves);
                check += moves.iter().map(|&m| p.effects(m).len()).sum::<usize>();
            }
            if round > 0 {
                a += t.elapsed().as_nanos();
            }
            let t = Instant::now();
            for p in &ps {
                moves_with_effects(p, &mut scored);
                check -= scored.iter().map(|&(_, n)| n as usize).sum::<usize>();
            }
            if round > 0 {
                b += t.elapsed().as_nanos();
            }
        }
        assert_eq!(check, 0, "{id}: the two scans disagree");
        let n = 20 * ps.len() as u128;
        println!("{id},{},{},{},{:.2}", ps.len(), a / n, b / n, a as f64 / b as f64);
    }
}
