//! Fixed-work random playouts, for comparing two builds of the engine beyond speed:
//! `GAMES` uniformly random games per ruleset (seed 1, ply cap 1000, as `playout_speed`
//! plays them), printing `id,plies,checksum` where the checksum folds in every move, the
//! number of legal moves at every ply and each game's final hash. Two builds that print
//! the same lines played the same games with the same move order and hashes; under
//! `valgrind --tool=cachegrind` the fixed work gives instructions per ply.
//!
//!   cargo run --release -p latrunculi-rules --example playout_checksum -- GAMES ID...

use latrunculi_rules::{FastRng, Position, Ruleset};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    for id in args {
        let rs = Ruleset::builtin(&id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut rng = FastRng::new(1);
        let mut moves = Vec::new();
        let (mut plies, mut sum) = (0u64, 0u64);
        for _ in 0..games {
            let mut pos = Position::new(&rs);
            pos.set_ply_cap(1000);
            while !pos.is_over() {
                pos.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len())];
                let folded = m.from.raw() as u64 * 256 + m.to.raw() as u64 + moves.len() as u64;
                sum = sum.wrapping_mul(31).wrapping_add(folded);
                pos.play(m);
                plies += 1;
            }
            sum = sum.wrapping_mul(7).wrapping_add(pos.hash());
        }
        println!("{id},{plies},{sum:016x}");
    }
}
