"""Ludus Latrunculorum reconstructions for reinforcement learning.

The rules engine, the batched simulator, the agents and the arena of the `latrunculi`
Rust workspace, from Python:

- ``Ruleset("kowalski")``: a reconstruction by id, TOML path or label (``"xxi@12x8"``);
  ``builtin_ids()`` lists them.
- ``Position(ruleset, fen=None)``: legal moves (notation and action indices), ``play``,
  FEN, outcome, observations, SVG; ``replay(record_text)`` replays a game record.
- ``BatchSim(ruleset, num_games, seed)``: numpy observations ``[N, planes, H, W]``,
  legal masks ``[N, A]`` and ``step(actions)``, the GIL released while Rust works.
- ``Agent(spec, ruleset)``: ``random``, ``greedy``, ``mcts:sims=200``,
  ``alphabeta:depth=2``, ``az:model=PATH,...``; ``play(...)`` and ``eval(...)`` return
  the rows the CLI writes.
- ``latrunculi.pettingzoo.env(ruleset=...)``: a PettingZoo AEC environment;
  ``latrunculi.gymnasium.LatrunculiEnv``: a single-agent Gymnasium environment against a
  baseline.

Errors from Rust are raised as ``LatrunculiError`` (a ``ValueError``) with the Rust
message; a refused move or action changes nothing.
"""

from ._latrunculi import (
    Agent,
    BatchSim,
    LatrunculiError,
    Position,
    Ruleset,
    __version__,
    builtin_ids,
    eval,
    play,
    replay,
    rust_sim_plies_per_s,
)

__all__ = [
    "Agent",
    "BatchSim",
    "LatrunculiError",
    "Position",
    "Ruleset",
    "__version__",
    "builtin_ids",
    "eval",
    "play",
    "replay",
    "rust_sim_plies_per_s",
]
