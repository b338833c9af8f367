//! Times self-play games of one agent spec on one ruleset:
//! `cargo run --release -p latrunculi-agents --example selfplay -- SPEC RULESET [GAMES]`.

use std::time::Instant;

use latrunculi_agents::parse_agent;
use latrunculi_rules::{Color, Position, Ruleset};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().map_or("greedy", String::as_str);
    let rs = Ruleset::builtin(args.get(1).map_or("kowalski", String::as_str))?;
    let games: u64 = args.get(2).map_or(Ok(2), |s| s.parse())?;
    let (mut white, mut black) = (parse_agent(spec)?, parse_agent(spec)?);
    for g in 0..games {
        let t0 = Instant::now();
        let mut pos = Position::new(&rs);
        white.new_game(2 * g);
        black.new_game(2 * g + 1);
        while !pos.is_over() {
            let agent = if pos.side_to_move() == Color::White { &mut white } else { &mut black };
            let mv = agent.select(&pos);
            pos.play(mv);
        }
        let o = pos.outcome().ok_or("game not over")?;
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "{} {} game {g}: {} plies, {} ({:?}), {:.2} s, {:.1} ms/ply",
            rs.id,
            spec,
            pos.ply(),
            o.winner_text(),
            o.reason,
            secs,
            1000.0 * secs / pos.ply().max(1) as f64
        );
    }
    Ok(())
}
