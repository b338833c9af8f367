//! Agent specs as the arena reads them: [`AgentSpec`]s parsed once by the player factory
//! the caller hands in ([`Players`]: the kinds of `latrunculi-agents`, and the `az` kind
//! where the program was put together with networks), checked against the ruleset of
//! their games, then built afresh for every game ([`AgentSpec::build`]) without being
//! read again.

use latrunculi_agents::{AgentError, AgentSpec, Players};
use latrunculi_rules::Ruleset;

use crate::error::ArenaError;

/// Parses an agent spec. An `az` spec where `players` has no `az` kind is an error that
/// says so ([`ArenaError::NoNetworks`]).
pub fn parse_spec(players: &Players, text: &str) -> Result<AgentSpec, ArenaError> {
    players.parse(text).map_err(|source| agent_error(players, text.trim(), source))
}

fn agent_error(players: &Players, spec: &str, source: AgentError) -> ArenaError {
    match source {
        AgentError::UnknownAgent { name, .. } if name == "az" && !players.has("az") => {
            ArenaError::NoNetworks { spec: spec.to_string() }
        }
        source => ArenaError::Agent { spec: spec.to_string(), source },
    }
}

/// Parses lists of specs such as `greedy,mcts:sims=100,depth=5` ([`Players::parse_list`]).
pub fn parse_list(players: &Players, lists: &[String]) -> Result<Vec<AgentSpec>, ArenaError> {
    players.parse_list(lists).map_err(|source| agent_error(players, &lists.join(" "), source))
}

/// Checks that the agent of `spec` can play `ruleset`'s games by building it once (an
/// `az` model is made for one board size).
pub fn check_plays(spec: &AgentSpec, ruleset: &Ruleset) -> Result<(), ArenaError> {
    spec.build(Some(ruleset)).map(|_| ()).map_err(|source| ArenaError::Agent { spec: spec.to_string(), source })
}

/// [`parse_spec`], then [`check_plays`] for `ruleset`.
pub fn spec_for(players: &Players, text: &str, ruleset: &Ruleset) -> Result<AgentSpec, ArenaError> {
    let spec = parse_spec(players, text)?;
    check_plays(&spec, ruleset)?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_once_and_checked_for_the_board() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let players = Players::baseline();
        assert_eq!(spec_for(&players, " mcts : sims = 5 ", &rs).unwrap().to_string(), "mcts:sims=5");
        let e = crate::error::full_message(&parse_spec(&players, "alphazero").unwrap_err());
        assert!(e.contains("unknown agent 'alphazero'") && e.contains("valid agents"), "{e}");
    }

    #[test]
    fn an_az_spec_where_the_players_have_no_networks_says_why() {
        let players = Players::baseline();
        assert!(!players.valid_agents().contains("az:"));
        let e = parse_spec(&players, "az:model=x.az").unwrap_err();
        assert!(matches!(e, ArenaError::NoNetworks { .. }), "{e}");
        let e = e.to_string();
        assert!(e.contains("az:model=x.az") && e.contains("no networks"), "{e}");
        let e = parse_list(&players, &["greedy,az:model=x.az,sims=2".to_string()]).unwrap_err();
        assert!(matches!(e, ArenaError::NoNetworks { .. }), "{e}");
    }

    #[test]
    fn the_arena_does_not_depend_on_the_network_crate() {
        let manifest = include_str!("../Cargo.toml");
        let deps = manifest.split("[dependencies]").nth(1).expect("a [dependencies] table");
        assert!(!deps.contains("latrunculi-az"), "the arena builds players from the factory it is given");
        assert!(!manifest.contains("[features]"), "no feature brings the network crate back");
    }
}
