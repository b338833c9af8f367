"""A single-agent Gymnasium environment: one side of a ruleset against a baseline agent.

``LatrunculiEnv(ruleset="kowalski", opponent="greedy", play_as="white", ply_cap=200)``.
The opponent is any agent spec (``random``, ``greedy``, ``mcts:sims=200``,
``alphabeta:depth=2``, ``az:model=PATH``); it replies inside ``step`` until it is the
learner's turn again (or the game ends). Observations are float32
``[planes, height, width]`` from the learner's point of view; the legal-action mask is
``info["action_mask"]`` (int8) and ``action_masks()`` (for maskable policies such as
sb3-contrib's ``MaskablePPO``). Rewards: +1 win, -1 loss, 0 draw, at the end only. A
draw by the ply cap is a truncation. ``play_as="random"`` picks a side per episode from
the reset seed. An illegal action raises ``LatrunculiError`` and changes nothing, or,
with ``illegal_action="lose"``, ends the episode as a loss (reward -1, terminated,
``info["illegal_action"] = True``), for learners and checkers that sample from the whole
action space.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._latrunculi import Agent, Position, Ruleset
from ._render import render_position


class LatrunculiEnv(gym.Env):
    """One side of a Ludus Latrunculorum ruleset against a fixed opponent (module docs)."""

    metadata = {"render_modes": ["human", "ansi", "svg"]}

    def __init__(
        self,
        ruleset="kowalski",
        opponent: str = "greedy",
        play_as: str = "white",
        ply_cap: int = 200,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ):
        super().__init__()
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if play_as not in ("white", "black", "random"):
            raise ValueError(f"play_as must be 'white', 'black' or 'random', got {play_as!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
        self.opponent = Agent(opponent, self.rules)
        self.play_as = play_as
        self.ply_cap = int(ply_cap)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, shape=self.rules.observation_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.rules.action_size)
        self.position = Position(self.rules, ply_cap=self.ply_cap)
        self.side = "white" if play_as == "random" else play_as
        self._forfeited = False

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask, bool ``[action_size]``."""
        mask = np.zeros(self.rules.action_size, dtype=bool)
        if not self.position.is_over and self.position.side_to_move == self.side:
            mask[self.position.legal_actions()] = True
        return mask

    def _obs(self):
        return self.position.observation(perspective=self.side)

    def _info(self):
        info = {"action_mask": self.action_masks().astype(np.int8)}
        if self.position.outcome is not None:
            info["winner"], info["reason"] = self.position.outcome
        return info

    def _opponent_moves(self):
        while not self.position.is_over and self.position.side_to_move != self.side:
            self.position.play(self.opponent.select(self.position))

    def _result(self):
        outcome = self.position.outcome
        if outcome is None:
            return 0.0, False, False
        winner, reason = outcome
        reward = 0.0 if winner == "draw" else (1.0 if winner == self.side else -1.0)
        truncated = reason == "ply-cap"
        return reward, not truncated, truncated

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if self.play_as == "random":
            self.side = "white" if self.np_random.integers(2) == 0 else "black"
        self.opponent.new_game(int(self.np_random.integers(2**63)))
        self.position = Position(self.rules, ply_cap=self.ply_cap)
        self._forfeited = False
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action):
        if self.position.is_over or self._forfeited:
            raise RuntimeError("step() after the episode ended: call reset()")
        if self.illegal_action == "lose" and not self.action_masks()[int(action)]:
            info = self._info()
            info["illegal_action"] = True
            self._forfeited = True
            return self._obs(), -1.0, True, False, info
        self.position.play(int(action))
        self._opponent_moves()
        reward, terminated, truncated = self._result()
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self):
        return render_position(self.position, self.render_mode)
