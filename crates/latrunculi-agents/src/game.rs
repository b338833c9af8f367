//! The one game loop between two agents, shared by the arena (`play`, `survey`, `eval`,
//! `ladder`, `dataset`, the Python package) and the AlphaZero trainer's matches.

use latrunculi_rules::{Color, Effects, Move, Position};

use crate::Agent;

/// Why [`play_out`] stopped before the game's end.
#[derive(Debug, thiserror::Error)]
pub enum PlayOutError<E> {
    /// An agent chose a move that is not legal (a bug in the agent).
    #[error("agent '{agent}' chose an illegal move {mv:?} at ply {ply}")]
    IllegalMove {
        /// The agent's spec.
        agent: String,
        /// The move it chose.
        mv: Move,
        /// The 1-based ply it was chosen for.
        ply: u32,
    },
    /// The observer returned an error.
    #[error(transparent)]
    Observer(E),
}

/// Plays `pos` to its end, `white` choosing White's moves and `black` Black's (the
/// agents must have been started with [`Agent::new_game`]). After every ply,
/// `after_ply(before, after, agent, mv, effects)` sees the position before and after the
/// move, the agent that chose it, the move and what it captured or trapped; an error
/// from it stops the game. Returns the number of plies played.
pub fn play_out<E>(
    pos: &mut Position,
    white: &mut dyn Agent,
    black: &mut dyn Agent,
    mut after_ply: impl FnMut(&Position, &Position, &dyn Agent, Move, &Effects) -> Result<(), E>,
) -> Result<u32, PlayOutError<E>> {
    let mut plies = 0u32;
    while !pos.is_over() {
        let agent: &mut dyn Agent = if pos.side_to_move() == Color::White { &mut *white } else { &mut *black };
        let mv = agent.select(pos);
        let before = pos.clone();
        let fx = pos.try_play(mv).ok_or_else(|| PlayOutError::IllegalMove {
            agent: agent.spec().to_string(),
            mv,
            ply: plies + 1,
        })?;
        plies += 1;
        after_ply(&before, pos, &*agent, mv, &fx).map_err(PlayOutError::Observer)?;
    }
    Ok(plies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_agent;
    use latrunculi_rules::Ruleset;

    #[test]
    fn plays_to_the_end_and_reports_every_ply() {
        let rs = Ruleset::builtin("xxi").unwrap();
        let mut pos = Position::new(&rs);
        pos.set_ply_cap(120);
        let (mut w, mut b) = (parse_agent("greedy").unwrap(), parse_agent("random").unwrap());
        w.new_game(1);
        b.new_game(2);
        let mut seen = 0u32;
        let plies = play_out(&mut pos, &mut *w, &mut *b, |before, after, agent, mv, _| -> Result<(), ()> {
            seen += 1;
            assert_eq!(after.ply(), before.ply() + 1);
            let expected = if before.side_to_move() == Color::White { "greedy" } else { "random" };
            assert_eq!(agent.spec(), expected);
            assert!(before.is_legal(mv));
            Ok(())
        })
        .unwrap();
        assert!(pos.is_over());
        assert_eq!(plies, seen);
        assert_eq!(plies, pos.ply());
    }

    #[test]
    fn an_observer_error_stops_the_game() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let mut pos = Position::new(&rs);
        let (mut w, mut b) = (parse_agent("random").unwrap(), parse_agent("random").unwrap());
        let r = play_out(
            &mut pos,
            &mut *w,
            &mut *b,
            |_, after, _, _, _| if after.ply() == 3 { Err("stop") } else { Ok(()) },
        );
        assert!(matches!(r, Err(PlayOutError::Observer("stop"))));
        assert_eq!(pos.ply(), 3);
    }
}
