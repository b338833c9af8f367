//! Speed of the search player per ruleset: plays `GAMES` self-play games of
//! `alphabeta:nodes=N` (plies capped) on each ruleset given and prints nodes/s, mean
//! depth and milliseconds per move.
//!
//! `cargo run --release -p latrunculi-agents --example search_speed -- NODES PLYCAP GAMES [RULESET...]`

use latrunculi_agents::{Agent, parse_agent};
use latrunculi_agents::search::SearchAgent;
use latrunculi_rules::{Position, Ruleset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let cap: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let ids: Vec<String> =
        if args.len() > 3 { args[3..].to_vec() } else { Ruleset::builtin_ids().map(str::to_string).collect() };
    println!("ruleset,nodes_per_move,plies,searches,mean_depth,nodes_per_s,ms_per_move");
    for id in ids {
        let rs = Ruleset::builtin(&id).expect("ruleset");
        let spec = format!("nodes={nodes}");
        let pairs: Vec<(&str, &str)> = vec![("nodes", spec.trim_start_matches("nodes="))];
        let mut a = SearchAgent::new(&format!("alphabeta:{spec}"), latrunculi_agents::SearchConfig::from_pairs(&pairs).unwrap());
        let _ = parse_agent("random");
        let mut plies = 0;
        for g in 0..games {
            let mut p = Position::new(&rs);
            p.set_ply_cap(cap);
            a.new_game(g);
            while !p.is_over() {
                let m = a.select(&p);
                p.play(m);
                plies += 1;
            }
        }
        let s = a.stats();
        println!(
            "{id},{nodes},{plies},{},{:.2},{:.0},{:.1}",
            s.searches,
            s.mean_depth(),
            s.nodes_per_second(),
            1000.0 * s.seconds / s.searches.max(1) as f64
        );
    }
}
