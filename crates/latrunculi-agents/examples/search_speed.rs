//! Speed of the search player per ruleset: plays `GAMES` self-play games of
//! `alphabeta:nodes=N` (plies capped) on each ruleset given and prints nodes/s, mean
//! depth and milliseconds per move. In place of `NODES`, the options of any budget, e.g.
//! `ms=100` or `ms=100,cpu=1` (the `nodes_per_move` column, the budget for `NODES`, is
//! then the mean number of nodes searched a move).
//!
//! `cargo run --release -p latrunculi-agents --example search_speed -- NODES|OPTIONS PLYCAP GAMES [RULESET...]`

use latrunculi_agents::search::SearchAgent;
use latrunculi_agents::{Agent, parse_agent};
use latrunculi_rules::{Position, Ruleset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget = args.first().cloned().unwrap_or_else(|| "20000".to_string());
    let spec = if budget.parse::<u64>().is_ok() { format!("nodes={budget}") } else { budget };
    let cap: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let ids: Vec<String> =
        if args.len() > 3 { args[3..].to_vec() } else { Ruleset::builtin_ids().map(str::to_string).collect() };
    println!("ruleset,nodes_per_move,plies,searches,mean_depth,nodes_per_s,ms_per_move");
    for id in ids {
        let rs = Ruleset::builtin(&id).expect("ruleset");
        let parsed: latrunculi_agents::AgentSpec =
            format!("alphabeta:{spec}").parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
        let latrunculi_agents::PlayerSpec::Search(cfg) = parsed.player() else {
            panic!("{spec}: not the search player")
        };
        let mut a = SearchAgent::new(&format!("alphabeta:{spec}"), cfg.clone());
        let _ = parse_agent("random");
        let mut plies = 0;
        let mut s = latrunculi_agents::search::SearchStats::default();
        for g in 0..games {
            let mut p = Position::new(&rs);
            p.set_ply_cap(cap);
            a.new_game(g);
            while !p.is_over() {
                let start = std::time::Instant::now();
                let m = a.select(&p);
                s.add(&a.report(), start.elapsed().as_secs_f64());
                p.play(m);
                plies += 1;
            }
        }
        println!(
            "{id},{:.0},{plies},{},{:.2},{:.0},{:.1}",
            spec.strip_prefix("nodes=")
                .and_then(|n| n.parse().ok())
                .unwrap_or(s.nodes as f64 / s.searches.max(1) as f64),
            s.searches,
            s.mean_depth(),
            s.nodes_per_second(),
            1000.0 * s.seconds / s.searches.max(1) as f64
        );
    }
}
