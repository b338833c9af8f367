"""PettingZoo's api_test and the Gymnasium wrapper."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import latrunculi as lt
from latrunculi.gymnasium import LatrunculiEnv
from latrunculi.pettingzoo import env as pz_env


@pytest.mark.parametrize("rid", ["kowalski", "schadler", "ludii-bell-8x8"])
def test_pettingzoo_api(rid):
    # schadler places its pieces first; Bell's captures grant a further ply.
    api_test(pz_env(ruleset=rid, ply_cap=120), num_cycles=200)


def test_pettingzoo_plays_a_whole_game():
    e = pz_env(ruleset="ludii-seega-6x6", ply_cap=150)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    plies = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert agent == {"white": "player_0", "black": "player_1"}[e.unwrapped.position.side_to_move]
        e.step(int(rng.choice(legal)))
        plies += 1
    assert plies > 0 and e.unwrapped.position.outcome is not None


def test_pettingzoo_illegal_action_raises():
    e = pz_env(ruleset="kowalski")
    e.reset()
    obs = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    fen = e.unwrapped.position.fen()
    with pytest.raises(lt.LatrunculiError):
        e.step(bad)
    assert e.unwrapped.position.fen() == fen


@pytest.mark.parametrize("side", ["white", "black"])
def test_gymnasium_against_greedy(side):
    env = LatrunculiEnv(ruleset="xxi", opponent="greedy", play_as=side, ply_cap=100)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    done = False
    total = 0.0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        done = terminated or truncated
    assert total in (-1.0, 0.0, 1.0)
    winner, reason = env.position.outcome
    assert (total == 1.0) == (winner == side)
    from gymnasium.utils.env_checker import check_env

    check_env(LatrunculiEnv(ruleset="kowalski", opponent="random", illegal_action="lose"), skip_render_check=True)
    with pytest.raises(lt.LatrunculiError):
        env.reset(seed=1)
        env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))


def test_gymnasium_illegal_action_can_lose():
    env = LatrunculiEnv(ruleset="kowalski", opponent="random", illegal_action="lose")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
