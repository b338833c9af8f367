//! Random-playout speed of the rules engine alone, one thread, no other crate: for an
//! A/B comparison of two versions of the engine (build this example in both trees and
//! run them alternately). The `latrunculi bench` command measures more (all cores, the
//! batched simulator, UCT); this one compiles in seconds.
//!
//!   cargo run --release -p latrunculi-rules --example playout_speed -- SECONDS ID...
//!
//! Prints `id,plies_per_s` per ruleset (all built-in rulesets when no id is given).

use std::time::Instant;

use latrunculi_rules::{FastRng, Position, Ruleset};

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let ids: Vec<String> = args.collect();
    let rulesets: Vec<Ruleset> = if ids.is_empty() {
        Ruleset::all_builtin()
    } else {
        ids.iter().map(|id| Ruleset::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"))).collect()
    };
    println!("id,plies_per_s");
    for rs in rulesets {
        let mut rng = FastRng::new(1);
        let mut moves = Vec::new();
        let (mut plies, start) = (0u64, Instant::now());
        while start.elapsed().as_secs_f64() < seconds {
            let mut pos = Position::new(&rs);
            pos.set_ply_cap(1000);
            while !pos.is_over() {
                pos.legal_moves(&mut moves);
                pos.play(moves[rng.below(moves.len())]);
                plies += 1;
            }
        }
        println!("{},{:.0}", rs.id, plies as f64 / start.elapsed().as_secs_f64());
    }
}
