"""Agents, play and eval: the same rows as the CLI."""

import csv
import subprocess

import latrunculi as lt


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_play_equals_the_cli(cli, tmp_path):
    out = tmp_path / "games.csv"
    subprocess.run(
        [cli, "play", "--ruleset", "xxi", "--white", "greedy", "--black", "random", "--games", "3",
         "--seed", "9", "--swap", "--ply-cap", "150", "--out", str(out)],
        check=True, capture_output=True,
    )
    cli_rows = read_csv(out)
    rows = lt.play("xxi", "greedy", "random", games=3, seed=9, swap=True, ply_cap=150)
    assert len(rows) == len(cli_rows) == 3
    for py_row, cli_row in zip(rows, cli_rows):
        assert {k: ("" if v is None else str(v)) for k, v in py_row.items()} == cli_row


def test_eval_equals_the_cli(cli, tmp_path):
    out = tmp_path / "eval.csv"
    subprocess.run(
        [cli, "eval", "--ruleset", "kowalski", "--agent", "greedy", "--vs", "random,alphabeta:depth=1",
         "--games", "4", "--seed", "3", "--ply-cap", "120", "--out", str(out)],
        check=True, capture_output=True,
    )
    cli_rows = read_csv(out)
    summary, games = lt.eval("kowalski", "greedy", ["random", "alphabeta:depth=1"], games=4, seed=3, ply_cap=120)
    assert len(summary) == 2 and len(games) == 8
    for py_row, cli_row in zip(summary, cli_rows):
        assert set(py_row) == set(cli_row)
        for k, v in cli_row.items():
            if v == "":
                assert py_row[k] is None
            elif isinstance(py_row[k], float):
                assert abs(py_row[k] - float(v)) < 1e-9, k
            else:
                assert str(py_row[k]) == v, k


def test_bad_specs_raise():
    import pytest

    with pytest.raises(lt.LatrunculiError, match="nosuchagent"):
        lt.play("xxi", "nosuchagent", "random")
