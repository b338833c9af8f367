//! What the search's ordering and window parts save: the nodes the search player needs to
//! finish a fixed depth, with each part switched, on the same positions.
//!
//! Per ruleset, the player (`alphabeta:nodes=10000`) plays one self-play game of at most
//! `PLIES` plies from seed 1; every `STRIDE`-th of its positions (forced moves left out) is
//! then searched to a fixed depth, `D` = one more than the whole part of the player's mean
//! depth in that game (the iteration its budget runs out in), by the player with each
//! switch in turn, every search from an empty table (`SearchAgent::new_game`). PVS,
//! aspiration windows, killers and history only order moves or narrow windows: the
//! depth-`D` search keeps its minimax result (the search's tests check PVS + table against
//! plain alpha-beta), so fewer nodes to `D` means a deeper search at equal nodes.
//! Late-move reductions and null-move pruning change what the depth-`D` search sees, so
//! their rows count nodes only.
//!
//! Prints CSV: ruleset, depth, positions, switch (`default` or the key that differs),
//! nodes (summed over the positions), ratio (nodes over the default's).
//!
//! `cargo run --release -p latrunculi-agents --example ordering_cost -- PLIES STRIDE [RULESET...]`

use latrunculi_agents::Agent;
use latrunculi_agents::search::{SearchAgent, SearchStats};
use latrunculi_agents::{AgentSpec, PlayerSpec};
use latrunculi_rules::{Position, Ruleset};

/// The switches measured, as spec options (`""` is the player as shipped).
const SWITCHES: [&str; 7] = ["", "pvs=0", "asp=0", "killers=0", "hist=0", "lmr=0", "null=1"];

fn agent(options: &str) -> SearchAgent {
    let spec: AgentSpec = format!("alphabeta:{options}").parse().unwrap_or_else(|e| panic!("{options}: {e}"));
    match spec.player() {
        PlayerSpec::Search(s) => SearchAgent::new(&spec.to_string(), s.clone()),
        other => panic!("{options}: not the search player: {other:?}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plies: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let stride: usize = args.get(1).and_then(|s| s.parse().ok()).filter(|&s| s >= 1).unwrap_or(4);
    let ids: Vec<String> =
        if args.len() > 2 { args[2..].to_vec() } else { Ruleset::builtin_ids().map(str::to_string).collect() };
    println!("ruleset,depth,positions,switch,nodes,ratio");
    for id in ids {
        let rs = Ruleset::builtin(&id).unwrap_or_else(|e| panic!("{id}: {e}"));
        // The positions, and the depth the player reaches on them at its budget.
        let mut player = agent("nodes=10000");
        player.new_game(1);
        let mut pos = Position::new(&rs);
        let mut positions = Vec::new();
        let mut searched = 0usize;
        let mut stats = SearchStats::default();
        while !pos.is_over() && pos.ply() < plies {
            let m = player.select(&pos);
            let before = stats.searches;
            stats.add(&player.report(), 0.0);
            if stats.searches > before {
                searched += 1;
                if searched % stride == 0 {
                    positions.push(pos.clone());
                }
            }
            pos.play(m);
        }
        let depth = stats.mean_depth().floor() as u32 + 1;
        let mut base = 0u64;
        for switch in SWITCHES {
            let options =
                format!("nodes={},depth={depth}{}{switch}", 1u64 << 40, if switch.is_empty() { "" } else { "," });
            let mut a = agent(&options);
            let mut nodes = 0;
            for (k, p) in positions.iter().enumerate() {
                a.new_game(k as u64);
                a.select(p);
                nodes += a.report().nodes.unwrap_or(0);
            }
            if switch.is_empty() {
                base = nodes;
            }
            let name = if switch.is_empty() { "default" } else { switch };
            println!("{id},{depth},{},{name},{nodes},{:.3}", positions.len(), nodes as f64 / base.max(1) as f64);
        }
    }
}
