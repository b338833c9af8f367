"""A PettingZoo AEC environment of any ruleset (classic board-game conventions).

``env(ruleset="kowalski", ply_cap=200, render_mode=None)`` returns the environment
wrapped in PettingZoo's usual checks (``OrderEnforcingWrapper``); ``raw_env`` is the
bare one. Agents are ``"player_0"`` (White, who moves first in most rulesets) and
``"player_1"`` (Black), as in PettingZoo's classic games. Observations are dicts:

- ``observation``: float32 ``[planes, height, width]`` (the planes of the simulator,
  crates/latrunculi-sim/README.md) from the observing agent's point of view: ranks are
  flipped for Black and "own" planes are the observer's pieces;
- ``action_mask``: int8 ``[action_size]``, 1 at the observer's legal actions (all zeros
  when it is not the observer's turn).

Rewards: +1 to the winner and -1 to the loser when a game is decided, 0 otherwise (and
for draws). A draw by the ply cap is a *truncation*, every other end a *termination*.
A side may move twice in a row (a capture that grants a further ply, a pass, a
removal followed by a move): ``agent_selection`` always names the side to move.
An illegal action raises ``LatrunculiError`` and changes nothing.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._latrunculi import Position, Ruleset
from ._render import render_position

AGENTS = ["player_0", "player_1"]
COLOUR = {"player_0": "white", "player_1": "black"}
AGENT = {"white": "player_0", "black": "player_1"}


def env(**kwargs):
    """The AEC environment with PettingZoo's order-enforcing wrapper."""
    e = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Ludus Latrunculorum for two agents, ``"player_0"`` (White) and ``"player_1"`` (Black); see the module docs."""

    metadata = {"render_modes": ["human", "ansi", "svg"], "name": "latrunculi_v0", "is_parallelizable": False}

    def __init__(self, ruleset="kowalski", ply_cap: int = 200, render_mode: str | None = None):
        super().__init__()
        self.rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.ply_cap = int(ply_cap)
        self.possible_agents = list(AGENTS)
        shape = self.rules.observation_shape
        size = self.rules.action_size
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.position = Position(self.rules, ply_cap=self.ply_cap)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        obs = self.position.observation(perspective=COLOUR[agent])
        mask = np.zeros(self.rules.action_size, dtype=np.int8)
        if not self.position.is_over and agent == AGENT[self.position.side_to_move]:
            mask[self.position.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.position = Position(self.rules, ply_cap=self.ply_cap)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENT[self.position.side_to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.position.play(int(action))
        self.rewards = {a: 0 for a in self.agents}
        outcome = self.position.outcome
        if outcome is not None:
            winner, reason = outcome
            for a in self.agents:
                self.infos[a] = {"winner": winner, "reason": reason}
                if winner == "draw":
                    self.rewards[a] = 0
                else:
                    self.rewards[a] = 1 if COLOUR[a] == winner else -1
                if reason == "ply-cap":
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        else:
            self.agent_selection = AGENT[self.position.side_to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='human', 'ansi' or 'svg'")
            return None
        return render_position(self.position, self.render_mode)

    def close(self):
        pass
