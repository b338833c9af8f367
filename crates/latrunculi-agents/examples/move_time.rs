//! CPU time a move of each agent: self-play of every spec given on each ruleset given,
//! the moves' CPU time of the playing thread (not wall-clock time, so other work on the
//! machine does not inflate it), `PLIES` plies a game from `GAMES` seeds.
//!
//! `cargo run --release -p latrunculi-agents --example move_time -- PLIES GAMES RULESET[,RULESET...] SPEC...`
//!
//! Prints `ruleset,agent,moves,cpu_ms_per_move,cpu_ms_max`. Unix only (it needs the
//! thread's CPU clock).

use latrunculi_agents::search::clock::thread_cpu_time;
use latrunculi_rules::{Position, Ruleset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: move_time PLIES GAMES RULESET[,RULESET...] SPEC...");
        std::process::exit(2);
    }
    let plies: u32 = args[0].parse().expect("PLIES");
    let games: u64 = args[1].parse().expect("GAMES");
    println!("ruleset,agent,moves,cpu_ms_per_move,cpu_ms_max");
    for id in args[2].split(',') {
        let rs = Ruleset::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        for spec in &args[3..] {
            let build = || -> Box<dyn latrunculi_agents::Agent> {
                spec.parse::<latrunculi_agents::AgentSpec>()
                    .and_then(|s| s.build(Some(&rs)))
                    .unwrap_or_else(|e| panic!("{spec}: {e}"))
            };
            let mut players = [build(), build()];
            let (mut moves, mut total, mut max) = (0u64, 0f64, 0f64);
            for g in 0..games {
                let mut p = Position::new(&rs);
                p.set_ply_cap(plies);
                players[0].new_game(2 * g);
                players[1].new_game(2 * g + 1);
                while !p.is_over() {
                    let before = thread_cpu_time().expect("a thread CPU clock");
                    let mv = players[p.side_to_move().index()].select(&p);
                    let ms = (thread_cpu_time().expect("a thread CPU clock") - before).as_secs_f64() * 1000.0;
                    (moves, total, max) = (moves + 1, total + ms, max.max(ms));
                    p.play(mv);
                }
            }
            println!("{id},{spec},{moves},{:.1},{max:.1}", total / moves.max(1) as f64);
        }
    }
}
