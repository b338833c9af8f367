"""Rulesets, positions, notation, FEN, replay and errors."""

import numpy as np
import pytest

import latrunculi as lt


def test_builtin_rulesets_load():
    ids = lt.builtin_ids()
    assert "kowalski" in ids and "xxi" in ids and len(ids) >= 12
    for rid in ids:
        r = lt.Ruleset(rid)
        assert r.id == rid
        p, h, w = r.observation_shape
        assert (h, w) == (r.height, r.width) and p >= 12
        assert r.action_size > 0


def test_labels_and_params():
    r = lt.Ruleset("xxi@12x8")
    assert (r.width, r.height) == (12, 8)
    r2 = lt.Ruleset("kowalski").with_param("end.no_capture_limit", "100")
    assert r2.params_hash != lt.Ruleset("kowalski").params_hash
    assert lt.Ruleset.from_toml(lt.Ruleset("bell").to_toml()) == lt.Ruleset("bell")


def test_unknown_ruleset_is_a_clear_error():
    with pytest.raises(lt.LatrunculiError, match="nosuchrules"):
        lt.Ruleset("nosuchrules")
    with pytest.raises(lt.LatrunculiError):
        lt.Position("nosuchrules")


def test_bad_fen_is_a_clear_error():
    with pytest.raises(lt.LatrunculiError, match="bad FEN"):
        lt.Position("kowalski", fen="this is not a fen")


def test_masks_equal_legal_moves():
    for rid in ["kowalski", "xxi", "schadler", "bell", "ludii-seega-6x6"]:
        pos = lt.Position(rid, ply_cap=120)
        rng = np.random.default_rng(7)
        while not pos.is_over:
            moves = pos.legal_moves()
            actions = pos.legal_actions()
            mask = pos.action_mask()
            assert mask.dtype == np.bool_ and mask.shape == (pos.ruleset.action_size,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions.tolist())
            assert len(moves) == len(actions)
            # Notation and action index name the same moves.
            assert sorted(pos.action_of(m) for m in moves) == sorted(actions.tolist())
            a = int(rng.choice(actions))
            pos.play(a)
        assert pos.outcome is not None


def test_illegal_action_raises_and_changes_nothing():
    pos = lt.Position("kowalski")
    fen, ply = pos.fen(), pos.ply
    mask = pos.action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(lt.LatrunculiError, match="not legal"):
        pos.play(illegal)
    with pytest.raises(lt.LatrunculiError, match="out of range"):
        pos.play(10**9)
    with pytest.raises(lt.LatrunculiError):
        pos.play("a1-a9")
    assert pos.fen() == fen and pos.ply == ply


def test_play_by_notation_round_trips_through_fen():
    pos = lt.Position("xxi")
    text = pos.play(pos.legal_moves()[0])
    assert text
    again = lt.Position("xxi", fen=pos.fen())
    assert again.fen() == pos.fen()
    assert again.side_to_move == pos.side_to_move == "black"
    assert sorted(again.legal_moves()) == sorted(pos.legal_moves())


def test_observation_perspective():
    pos = lt.Position("kowalski")
    own = pos.observation()
    assert own.dtype == np.float32 and own.shape == pos.ruleset.observation_shape
    np.testing.assert_array_equal(own, pos.observation(perspective="white"))
    other = pos.observation(perspective="black")
    # Black sees its own soldiers (plane 0) where White sees the enemy's (plane 2), ranks flipped.
    np.testing.assert_array_equal(other[0], own[2][::-1])
    np.testing.assert_array_equal(other[2], own[0][::-1])


def test_svg_and_diagram():
    pos = lt.Position("kowalski")
    svg = pos.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert len(pos.diagram().splitlines()) >= pos.ruleset.height


def test_replay_a_recorded_game(repo_root):
    text = (repo_root / "data/games/xxi/carrillo-cetina-2016-07.txt").read_text()
    report = lt.replay(text, continue_on_illegal=True)
    assert report["ruleset"] == "xxi"
    assert len(report["moves"]) > 20
    assert report["moves"][0]["status"] == "legal"
    # The record itself notes that Black's 9th move broke rule 16.
    assert any(m["status"] == "played-illegal" for m in report["moves"])
    with pytest.raises(lt.LatrunculiError):
        lt.replay('[Ruleset "nosuchrules"]\n1.a1-a2')


def test_agents_choose_legal_moves():
    pos = lt.Position("kowalski")
    for spec in ["random", "greedy", "mcts:sims=20", "alphabeta:depth=1"]:
        agent = lt.Agent(spec, "kowalski", seed=3)
        mv = agent.select(pos)
        assert mv in pos.legal_moves() or pos.action_of(mv) in pos.legal_actions()
        assert agent.select_action(pos) in pos.legal_actions()
    with pytest.raises(lt.LatrunculiError, match="bad agent spec"):
        lt.Agent("mcts:sims=banana", "kowalski")
    with pytest.raises(lt.LatrunculiError, match="ruleset"):
        lt.Agent("random", "xxi").select(pos)
