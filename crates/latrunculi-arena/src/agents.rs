//! Agent specs as the arena reads them: [`AgentSpec`]s parsed once against the registry
//! of agent kinds (with the `az` kind when the `az` feature is on), checked against the
//! ruleset of their games, then built afresh for every game ([`AgentSpec::build`]).

use latrunculi_agents::{AgentError, AgentSpec};
use latrunculi_rules::Ruleset;

use crate::error::ArenaError;

/// Adds the agent kinds of other crates to the registry (the `az` kind with the `az`
/// feature). Every function of this module calls it; it is cheap after the first call.
pub fn register_kinds() {
    #[cfg(feature = "az")]
    latrunculi_az::register_agent();
}

/// The usage of every agent kind this build plays, comma-separated (for help texts).
pub fn valid_agents() -> String {
    register_kinds();
    latrunculi_agents::valid_agents()
}

/// Parses an agent spec. An `az` spec in a build without the `az` feature is an error
/// that says so.
pub fn parse_spec(text: &str) -> Result<AgentSpec, ArenaError> {
    register_kinds();
    text.parse::<AgentSpec>().map_err(|source| match source {
        AgentError::UnknownAgent { name, .. } if name == "az" && !cfg!(feature = "az") => {
            ArenaError::NoNetworks { spec: text.trim().to_string() }
        }
        source => ArenaError::Agent { spec: text.trim().to_string(), source },
    })
}

/// Parses lists of specs such as `greedy,mcts:sims=100,depth=5` ([`AgentSpec::parse_list`]).
pub fn parse_list(lists: &[String]) -> Result<Vec<AgentSpec>, ArenaError> {
    register_kinds();
    let specs = AgentSpec::parse_list(lists).map_err(|source| ArenaError::Agent { spec: lists.join(" "), source })?;
    // The names are known, so no `az` spec got here in a build without networks unless
    // the kind is registered.
    Ok(specs)
}

/// Checks that the agent of `spec` can play `ruleset`'s games by building it once (an
/// `az` model is made for one board size).
pub fn check_plays(spec: &AgentSpec, ruleset: &Ruleset) -> Result<(), ArenaError> {
    spec.build(Some(ruleset)).map(|_| ()).map_err(|source| ArenaError::Agent { spec: spec.to_string(), source })
}

/// [`parse_spec`], then [`check_plays`] for `ruleset`.
pub fn spec_for(text: &str, ruleset: &Ruleset) -> Result<AgentSpec, ArenaError> {
    let spec = parse_spec(text)?;
    check_plays(&spec, ruleset)?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_once_and_checked_for_the_board() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        assert_eq!(spec_for(" mcts : sims = 5 ", &rs).unwrap().to_string(), "mcts:sims=5");
        let e = crate::error::full_message(&parse_spec("alphazero").unwrap_err());
        assert!(e.contains("unknown agent 'alphazero'") && e.contains("valid agents"), "{e}");
    }

    #[cfg(feature = "az")]
    #[test]
    fn the_az_kind_is_registered_with_the_feature() {
        assert!(valid_agents().contains("az:model=PATH"));
        let e = crate::error::full_message(&parse_spec("az:sims=3").unwrap_err());
        assert!(e.contains("missing key 'model'"), "{e}");
    }

    #[cfg(not(feature = "az"))]
    #[test]
    fn an_az_spec_without_the_feature_says_why() {
        assert!(!valid_agents().contains("az:"));
        let e = parse_spec("az:model=x.az").unwrap_err().to_string();
        assert!(e.contains("az") && e.contains("feature"), "{e}");
    }
}
