//! The small fixed match of each iteration: the network against a baseline agent.

use latrunculi_agents::Agent;
use latrunculi_rules::{Color, Position, Ruleset, splitmix64};
use rayon::prelude::*;

use crate::AzError;
use crate::agent::AzAgent;
use crate::model::Network;
use crate::search::SearchConfig;

/// Plays `games` games between the network (colours alternated, White first) and the
/// baseline `opponent`; returns the network's score (win 1, draw ½) per game.
#[allow(clippy::too_many_arguments)]
pub fn match_score(
    net: &Network,
    net_cfg: &crate::model::NetworkConfig,
    ruleset: &Ruleset,
    search: SearchConfig,
    opponent: &str,
    games: u32,
    ply_cap: u32,
    seed: u64,
) -> Result<f64, AzError> {
    if games == 0 {
        return Ok(f64::NAN);
    }
    let opponent = crate::agent::players().parse(opponent)?;
    let scores: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| -> Result<f64, AzError> {
            let mut az = AzAgent::new("az", net.clone(), net_cfg, ruleset, search);
            let mut other = opponent.build(Some(ruleset))?;
            let game_seed = splitmix64(seed ^ splitmix64(g as u64 + 1));
            az.new_game(game_seed);
            other.new_game(splitmix64(game_seed));
            let az_colour = if g % 2 == 0 { Color::White } else { Color::Black };
            let mut pos = Position::new(ruleset);
            pos.set_ply_cap(ply_cap);
            let (white, black): (&mut dyn Agent, &mut dyn Agent) =
                if az_colour == Color::White { (&mut az, &mut *other) } else { (&mut *other, &mut az) };
            latrunculi_agents::play_out(&mut pos, white, black, |_, _, _, _, _| Ok::<(), AzError>(())).map_err(
                |e| match e {
                    latrunculi_agents::PlayOutError::Observer(e) => e,
                    illegal => AzError::Mismatch(format!("{illegal} in the match")),
                },
            )?;
            Ok(match pos.outcome().and_then(|o| o.winner) {
                Some(c) if c == az_colour => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(scores.iter().sum::<f64>() / games as f64)
}
