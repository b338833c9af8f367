"""The batched simulator: shapes, equality with Position and with the CLI's datasets, errors."""

import json

import numpy as np
import pytest

import latrunculi as lt


def random_actions(sim, rng):
    actions, offsets = sim.legal_actions()
    counts = np.diff(offsets)
    assert (counts > 0).all()
    pick = offsets[:-1] + (rng.random(sim.num_games) * counts).astype(np.int64)
    return actions[pick]


@pytest.mark.parametrize("rid", ["kowalski", "schadler", "ludii-bell-8x8"])
def test_batch_equals_positions(rid):
    sim = lt.BatchSim(rid, 6, seed=11, ply_cap=60)
    rng = np.random.default_rng(1)
    n, (p, h, w), a = sim.num_games, sim.observation_shape, sim.action_size
    ended = 0
    for _ in range(150):
        obs, mask = sim.observations(), sim.legal_mask()
        assert obs.shape == (n, p, h, w) and obs.dtype == np.float32
        assert mask.shape == (n, a) and mask.dtype == np.bool_
        players = sim.current_player()
        for i in range(n):
            pos = sim.position(i)
            np.testing.assert_array_equal(obs[i], pos.observation())
            np.testing.assert_array_equal(mask[i], pos.action_mask())
            assert players[i] == (0 if pos.side_to_move == "white" else 1)
        out = sim.step(random_actions(sim, rng))
        assert set(out) == {"rewards", "done", "winner", "plies", "captures"}
        ended += int(out["done"].sum())
        # A decided game rewards its last mover +1 or -1; a draw or a running game 0.
        decided = out["done"] & (out["winner"] >= 0)
        assert (np.abs(out["rewards"][decided]) == 1).all()
        assert (out["rewards"][~decided] == 0).all()
    assert ended > 0


def test_indexed_actions_equal_the_flat_ones():
    sim = lt.BatchSim("ludii-seega-6x6", 5, seed=3)
    rng = np.random.default_rng(4)
    for _ in range(80):
        actions, offsets = sim.legal_actions()
        counts = sim.legal_counts()
        np.testing.assert_array_equal(counts, np.diff(offsets))
        index = (rng.random(5) * counts).astype(np.int64)
        chosen = sim.legal_action_at(index)
        np.testing.assert_array_equal(chosen, actions[offsets[:-1] + index])
        sim.step(chosen)
    bad = np.zeros(5, dtype=np.int64)
    bad[2] = sim.legal_counts()[2]
    with pytest.raises(lt.LatrunculiError, match="game 2"):
        sim.legal_action_at(bad)
    with pytest.raises(lt.LatrunculiError, match="one index per game"):
        sim.legal_action_at(np.zeros(4, dtype=np.int64))


def test_same_seed_same_games():
    def run():
        sim = lt.BatchSim("xxi", 4, seed=5, ply_cap=80)
        rng = np.random.default_rng(2)
        trace = []
        for _ in range(100):
            out = sim.step(random_actions(sim, rng))
            trace.append((out["plies"].copy(), out["done"].copy()))
        return sim.observations(), trace, sim.seeds()

    a, b = run(), run()
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[2], b[2])
    for (pa, da), (pb, db) in zip(a[1], b[1]):
        np.testing.assert_array_equal(pa, pb)
        np.testing.assert_array_equal(da, db)


def test_illegal_action_raises_and_plays_nothing():
    sim = lt.BatchSim("kowalski", 3, seed=1)
    before = sim.observations()
    mask = sim.legal_mask()
    legal = [int(np.flatnonzero(mask[i])[0]) for i in range(3)]
    bad = list(legal)
    bad[1] = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(lt.LatrunculiError, match="game 1"):
        sim.step(np.array(bad, dtype=np.int64))
    with pytest.raises(lt.LatrunculiError, match="one action per game"):
        sim.step(np.array(legal[:2], dtype=np.int64))
    with pytest.raises(lt.LatrunculiError):
        sim.step([-1, legal[1], legal[2]])
    np.testing.assert_array_equal(before, sim.observations())
    sim.step(legal)  # a plain list works too
    assert not np.array_equal(before, sim.observations())


def test_errors_for_bad_batches():
    with pytest.raises(lt.LatrunculiError, match="at least one game"):
        lt.BatchSim("kowalski", 0)
    with pytest.raises(lt.LatrunculiError):
        lt.BatchSim("nosuchrules", 4)


def test_observations_and_masks_equal_the_cli_dataset(repo_root):
    """data/sample was written by `latrunculi dataset` (Rust): replaying its games
    through Python gives the same observations and legal masks, row for row."""
    d = repo_root / "data/sample"
    meta = json.loads((d / "meta.json").read_text())
    obs = np.load(d / "observations.npy")
    masks = np.load(d / "legal_masks.npy")
    actions = np.load(d / "actions.npy")
    args = meta["args"]
    rules = lt.Ruleset(args["ruleset"]).with_board(*meta["board"])
    row = 0
    for line in (d / "games.jsonl").read_text().splitlines():
        game = json.loads(line)
        pos = lt.Position(rules, ply_cap=args["ply_cap"])
        for mv in game["moves"]:
            np.testing.assert_array_equal(pos.observation(), obs[row])
            np.testing.assert_array_equal(pos.action_mask(), masks[row])
            assert pos.action_of(mv) == actions[row]
            pos.play(mv)
            row += 1
        assert pos.outcome[0] == game["winner"]
    assert row == len(obs)
