"""Tests of `experiments/lib/latrunculi_analysis.py`, the code the analysis scripts share:
the intervals against values worked out by hand (and a published example), the CSV
readers on hand-made files, and the error a malformed file gets. Standard library and
pytest only: `python3 -m pytest -q tests/python/test_analysis_library.py`."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "experiments" / "lib"))

import latrunculi_analysis as la  # noqa: E402


def test_wilson_interval_matches_the_hand_computation():
    # 5 of 10 at z = 1.96: z² = 3.8416, d = 1 + 3.8416/10 = 1.38416, centre =
    # (0.5 + 3.8416/20) / d = 0.5, half = 1.96·sqrt(0.025 + 3.8416/400) / d
    # = 1.96·sqrt(0.034604) / 1.38416 = 0.263410 (to 6 places)
    lo, hi = la.wilson(5, 10, 1.96)
    assert lo == pytest.approx(0.236590, abs=2e-6)
    assert hi == pytest.approx(0.763410, abs=2e-6)
    # 0 of 10: the centre and the half width are both 0.19208 / 1.38416, so the interval
    # is [0, 2 · 0.138770…] = [0, 0.277540].
    lo, hi = la.wilson(0, 10, 1.96)
    assert lo == 0.0
    assert hi == pytest.approx(0.277540, abs=1e-6)
    # 10 of 10 mirrors it.
    assert la.wilson(10, 10, 1.96) == pytest.approx((1 - 0.277540, 1.0), abs=1e-6)
    # A score with halves (7 wins and a draw in 10): p = 0.75, centre = (0.75 + 0.19208) /
    # 1.38416 = 0.680615, half = 1.96·sqrt(0.01875 + 0.009604) / 1.38416 = 0.238439.
    assert la.wilson(7.5, 10, 1.96) == pytest.approx((0.442176, 0.919054), abs=2e-6)
    # No games: nothing is known.
    assert la.wilson(0, 0) == (0.0, 1.0)
    # The default z is the exact 95% quantile, not 1.96.
    assert la.Z95 == pytest.approx(1.959964, abs=1e-6)
    assert la.wilson(5, 10) != la.wilson(5, 10, 1.96)


def test_newcombe_matches_the_published_example():
    # Newcombe (1998), method 10: 56/70 against 48/80 gives +0.200 [+0.0524, +0.3339].
    d, lo, hi = la.newcombe(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=5e-5)
    assert hi == pytest.approx(0.3339, abs=5e-5)


def test_games_reader_reads_a_hand_made_file(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(
        "ruleset,game,white,black,winner,reason,plies\n"
        "kowalski,0,greedy,random,white,material,41\n"
        "\n"  # a blank line is skipped, as csv.DictReader does
        'xxi,1,"az:model=m.az,sims=9",greedy,draw,ply-cap,1000\n'
    )
    rows = la.read_games(path)
    assert [r["ruleset"] for r in rows] == ["kowalski", "xxi"]
    assert rows[1]["white"] == "az:model=m.az,sims=9"  # a quoted comma stays in its field
    assert rows[0]["plies"] == "41" and rows[1]["winner"] == "draw"
    assert list(rows[0]) == ["ruleset", "game", "white", "black", "winner", "reason", "plies"]


def test_finished_only_leaves_out_a_half_written_last_line(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text("ruleset,white,black,winner,plies\nxxi,a,a,draw,10\nxxi,a,a,white,12\nxxi,a,a,dr")
    assert [r["plies"] for r in la.read_games(path, finished_only=True)] == ["10", "12"]
    # Read as a finished file, the same line is an error that names it.
    with pytest.raises(la.DataError, match=r"games\.csv line 4: 4 fields where the header has 5"):
        la.read_games(path)


def test_summary_reader_and_survey_cells_of_a_running_survey(tmp_path):
    (tmp_path / "done").mkdir()
    (tmp_path / "done/summary.csv").write_text("ruleset,pairing,games,draw_rate\nxxi,a vs a,20,0.25\n")
    assert la.read_summary(tmp_path / "done/summary.csv") == [
        {"ruleset": "xxi", "pairing": "a vs a", "games": "20", "draw_rate": "0.25"}
    ]
    assert la.survey_cells(tmp_path / "done")[0]["draw_rate"] == "0.25"
    (tmp_path / "running").mkdir()
    (tmp_path / "running/games.csv").write_text(
        "ruleset,white,black,winner,plies\nxxi,a,a,draw,10\nxxi,a,a,white,20\nxxi,a,b,draw,5\nxxi,a,a,bl"
    )
    (cell,) = la.survey_cells(tmp_path / "running")
    assert (cell["pairing"], cell["games"], cell["draws"], cell["white_wins"]) == ("a vs a", "2", "1", "1")
    assert float(cell["draw_rate"]) == 0.5 and float(cell["mean_plies"]) == 15.0 and cell["partial"] == "1"
    assert (float(cell["draw_lo"]), float(cell["draw_hi"])) == la.wilson(1, 2)
    assert la.survey_cells(tmp_path / "nothing") == []


def test_malformed_files_get_an_error_naming_the_file_and_what_is_wrong(tmp_path):
    extra = tmp_path / "extra.csv"
    extra.write_text("ruleset,white,black,winner,plies\nxxi,a,b,draw,10\nxxi,a,b,draw,10,surplus\n")
    with pytest.raises(la.DataError, match=r"extra\.csv line 3: 6 fields where the header has 5"):
        la.read_games(extra)
    header = tmp_path / "header.csv"
    header.write_text("ruleset,white,black,plies\nxxi,a,b,10\n")
    with pytest.raises(la.DataError, match=r"header\.csv: no column winner \(its header is ruleset,white,black,plies\)"):
        la.read_games(header)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(la.DataError, match=r"empty\.csv: no column ruleset, pairing, games \(it is empty\)"):
        la.read_summary(empty)
    with pytest.raises(la.DataError, match=r"nowhere\.csv: no such file"):
        la.read_csv(tmp_path / "nowhere.csv")


def test_a_script_stops_on_a_malformed_file_with_one_line_and_no_traceback(tmp_path):
    (tmp_path / "ladder/toy").mkdir(parents=True)
    (tmp_path / "ladder/toy/ratings.csv").write_text("agent,elo\nrandom,0\ngreedy,300,extra\n")
    out = subprocess.run([sys.executable, str(ROOT / "experiments/study/ladder_table.py"), str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 1, out
    assert out.stderr.strip() == f"error: {tmp_path / 'ladder/toy/ratings.csv'} line 3: 3 fields where the header has 2"
    assert "Traceback" not in out.stderr


def test_markdown_helpers():
    assert la.markdown_header(["ruleset", "games", "rate"], right=["games"]) == (
        "| ruleset | games | rate |\n|---|---:|---|"
    )
    assert la.markdown_row(["xxi", 20, "0.25"]) == "| xxi | 20 | 0.25 |"
    assert la.interval_text(0.5, 0.2366, 0.7634) == "0.50 [0.24, 0.76]"
    assert la.interval_text(0.5, 0.2366, 0.7634, 3) == "0.500 [0.237, 0.763]"
