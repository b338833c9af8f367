"""The Python analysis code: the notebooks' reading code and the experiment scripts.

`notebooks/check_reading.py` must read every committed result (sample dataset, surveys,
training logs, ladders) and find them consistent; the study scripts (`xxi_claim.py`,
`ladder_table.py`, `selfplay_table.py`, `plot_study.py`, `plot_sensitivity.py`,
`ludii_vs_dlp.py`), `experiments/verdicts/estimate_cost.py` and `figure.py`, and
`experiments/az-all/table.py` are run on hand-made cells whose answers were worked out by
hand.

Needs numpy, pandas and matplotlib (`python3 -m pip install -r notebooks/requirements.txt`,
the first part of the README's test command). Run from anywhere:
`python3 -m pytest -q tests/python`.
"""

import csv
import pathlib
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INSTALL = "python3 -m pip install -r notebooks/requirements.txt"


def python(*args):
    """Runs `python3 ARGS...` (this interpreter) from the repository root."""
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True)


def text(out):
    return f"--- stdout ---\n{out.stdout}\n--- stderr ---\n{out.stderr}"


def script(path, *args):
    """Runs a script, asserting that it succeeds; returns its stdout and the whole result."""
    out = python(path, *args)
    assert out.returncode == 0, f"{path} failed:\n{text(out)}"
    return out.stdout, out


def scratch(tmp_path, *subfolders):
    """`tmp_path` with the given subfolders made."""
    for sub in subfolders:
        (tmp_path / sub).mkdir(parents=True, exist_ok=True)
    return tmp_path


def table_rows(stdout, *, skip=()):
    """The Markdown table rows of `stdout` (lines starting with "| "), less the separator
    rows and those starting with any prefix in `skip`."""
    return [
        line
        for line in stdout.splitlines()
        if line.startswith("| ") and not line.startswith("|---") and not any(line.startswith(s) for s in skip)
    ]


def test_notebook_reading_code_reads_all_committed_data_consistently():
    deps = python("-c", "import numpy, pandas")
    assert deps.returncode == 0, (
        "python3 cannot import numpy and pandas, which notebooks/check_reading.py needs.\n"
        f"Run `{INSTALL}` (from the repository root) and rerun the test.\n{text(deps)}"
    )
    out = python("notebooks/check_reading.py")
    assert out.returncode == 0, f"notebooks/check_reading.py failed ({out.returncode}):\n{text(out)}"
    assert "all checks passed" in out.stdout, f"unexpected output of check_reading.py:\n{text(out)}"


def test_xxi_claim_script_computes_newcombe_intervals_and_the_verdict(tmp_path):
    """`experiments/study/xxi_claim.py` on hand-made cells: Newcombe's worked example (56/70
    against 48/80: +0.200 [+0.052, +0.334], Newcombe 1998, method 10), an unresolved
    difference and a reversed one, ordered by Elo on classical, and the verdict sentence; a
    survey still running is counted from its finished games and marked provisional; each
    ruleset's own network (a model under a folder named after the ruleset) is one player."""
    d = scratch(tmp_path, "selfplay", "selfplay-running", "ladder/classical")
    (d / "selfplay/summary.csv").write_text(
        "ruleset,pairing,games,draws\n"
        "classical,strong vs strong,70,56\nxxi,strong vs strong,80,48\n"
        "classical,middle vs middle,50,10\nxxi,middle vs middle,50,12\n"
        "classical,weak vs weak,100,5\nxxi,weak vs weak,100,30\n"
        "classical,greedy vs random,50,1\n"
        "classical,only vs only,50,50\n"
        'classical,"az:model=nets/classical/n.az,sims=9 vs az:model=nets/classical/n.az,sims=9",40,20\n'
        'xxi,"az:model=nets/xxi/n.az,sims=9 vs az:model=nets/xxi/n.az,sims=9",40,4\n'
    )
    (d / "ladder/classical/ratings.csv").write_text(
        "agent,elo,elo_lo,elo_hi\nstrong,900,800,1000\nmiddle,500,400,600\nweak,100,0,200\nonly,50,0,100\n"
        '"az:model=nets/classical/n.az,sims=9",20,0,40\n'
    )
    # A survey still running: no summary.csv, a games.csv whose last line is half written
    # (left out); only self-play rows count.
    (d / "selfplay-running/games.csv").write_text(
        "ruleset,white,black,winner,plies\n"
        "classical,fresh,fresh,draw,10\nclassical,fresh,fresh,white,10\nclassical,fresh,greedy,draw,10\n"
        "xxi,fresh,fresh,black,10\nxxi,fresh,fresh,dr"
    )
    stdout, _ = script("experiments/study/xxi_claim.py", d)
    fresh = [line for line in stdout.splitlines() if line.startswith("| fresh |")]
    assert len(fresh) == 1 and "| 1/2 = 0.50 | 0/1 = 0.00 |" in fresh[0], stdout
    assert "Provisional: the cells of fresh are counted" in stdout, stdout
    rows = [
        line
        for line in stdout.splitlines()
        if line.startswith("| ") and not line.startswith("| player") and not line.startswith("| fresh")
    ]
    assert len(rows) == 4, f"one row per player on both rulesets:\n{stdout}"
    assert rows[0].startswith(
        "| az:model=nets/<ruleset>/n.az,sims=9 | 20 [0, 40] | — | 20/40 = 0.50 | 4/40 = 0.10 |"
    ), f"the two rulesets' networks, one player:\n{stdout}"
    assert rows[1].startswith("| weak |") and rows[3].startswith("| strong |"), f"weakest first:\n{stdout}"
    assert "+0.20 [+0.05, +0.33]" in rows[3] and "fewer draws under xxi" in rows[3], stdout
    assert "no difference resolved" in rows[2], stdout
    assert "-0.25 [" in rows[1] and "more draws under xxi" in rows[1], stdout
    assert "Not on both rulesets yet: only." in stdout, stdout
    assert "Verdict:" in stdout and "the claim fails there" in stdout, stdout


def test_ladder_table_script_counts_draws_among_the_top_three(tmp_path):
    """`experiments/study/ladder_table.py` on a hand-made ladder: Elo per player in the
    fixed column order (a network under "network", a missing player as "—"), the draws
    of all games and of the games among the three highest-rated players; a ladder still
    running (no ratings.csv) is left out."""
    d = scratch(tmp_path, "ladder/toy", "ladder/running")
    (d / "ladder/toy/ratings.csv").write_text(
        'rank,agent,elo\n1,alphabeta:depth=3,900.4\n2,"az:model=n.az,sims=200",700\n3,greedy,650.6\n4,random,0\n'
    )
    (d / "ladder/toy/pairings.csv").write_text(
        "ruleset,agent,opponent,games,wins,draws,losses\n"
        "toy,random,greedy,20,0,1,19\n"
        "toy,random,alphabeta:depth=3,20,0,2,18\n"
        'toy,random,"az:model=n.az,sims=200",20,0,3,17\n'
        "toy,greedy,alphabeta:depth=3,20,1,10,9\n"
        'toy,greedy,"az:model=n.az,sims=200",20,2,4,14\n'
        'toy,alphabeta:depth=3,"az:model=n.az,sims=200",20,5,6,9\n'
    )
    (d / "ladder/running/pairings.csv").write_text("ruleset,agent,opponent,games,wins,draws,losses\n")
    stdout, _ = script("experiments/study/ladder_table.py", d)
    rows = [line for line in stdout.splitlines() if line.startswith("| ") and not line.startswith("| ruleset")]
    assert rows == ["| toy | 0 | — | — | — | — | 651 | 900 | 700 | 120 | 26 (0.22) | 20 of 60 |"], stdout


def test_ladder_table_script_puts_ludii_ladders_apart_and_keeps_unknown_players(tmp_path):
    """`experiments/study/ladder_table.py` with a ladder on one of Ludii's rulesets: it gets
    a second table with agents-ludii.txt's columns (`mcts:sims=200` among them), and a
    player outside a table's usual columns gets a column of its own instead of vanishing."""
    d = scratch(tmp_path, "ladder/toy", "ladder/ludii-toy")
    pairings = (
        "ruleset,agent,opponent,games,wins,draws,losses\n"
        "r,random,greedy,10,0,1,9\n"
        "r,random,mcts:sims=200,10,0,2,8\n"
        "r,greedy,mcts:sims=200,10,3,4,3\n"
    )
    (d / "ladder/toy/ratings.csv").write_text("rank,agent,elo\n1,greedy,300\n2,mcts:sims=200,250.2\n3,random,0\n")
    (d / "ladder/toy/pairings.csv").write_text(pairings)
    (d / "ladder/ludii-toy/ratings.csv").write_text(
        "rank,agent,elo\n1,mcts:sims=200,410.6\n2,greedy,200\n3,random,0\n"
    )
    (d / "ladder/ludii-toy/pairings.csv").write_text(pairings)
    stdout, _ = script("experiments/study/ladder_table.py", d)
    assert table_rows(stdout) == [
        "| ruleset | random | mcts100 | ab1 | mcts1000 | ab2 | greedy | ab3 | network | mcts200 | games | draws | draws among the top three |",
        "| toy | 0 | — | — | — | — | 300 | — | — | 250 | 30 | 7 (0.23) | 7 of 30 |",
        "| ruleset | random | greedy | ab1 | mcts200 | ab2 | ab3 | games | draws | draws among the top three |",
        "| ludii-toy | 0 | 200 | — | 411 | — | — | 30 | 7 (0.23) | 7 of 30 |",
    ], stdout


def test_selfplay_table_script_puts_each_cell_beside_its_elo(tmp_path):
    """`experiments/study/selfplay_table.py --elo` on two survey folders: a row per ruleset, a
    column per self-play player of either folder (a pairing of two players left out),
    each cell's draw rate beside its player's Elo on the ruleset's ladder, `—` without a
    ladder, and the draw rate of the highest-rated player."""
    d = scratch(tmp_path, "study/ladder/ludii-toy", "weak", "strong")
    (d / "study/ladder/ludii-toy/ratings.csv").write_text(
        "rank,agent,elo,elo_lo,elo_hi\n1,greedy,300.4,100,500\n2,alphabeta:depth=3,200,50,350\n3,random,0,0,0\n"
    )
    header = "ruleset,pairing,games,draw_rate,draw_lo,draw_hi,mean_plies\n"
    (d / "weak/summary.csv").write_text(
        f"{header}ludii-toy,random vs random,50,1.0,0.93,1.0,1000\n"
        "ludii-toy,greedy vs greedy,50,0.84,0.78,0.88,900\n"
        "ludii-toy,random vs greedy,50,0.5,0.4,0.6,500\n"
        "ludii-other,random vs random,50,0.2,0.1,0.3,300\n"
    )
    (d / "strong/summary.csv").write_text(
        f"{header}ludii-toy,alphabeta:depth=3 vs alphabeta:depth=3,50,0,0,0.07,180\n"
    )
    stdout, _ = script("experiments/study/selfplay_table.py", d / "study", "--elo", d / "weak", d / "strong")
    assert table_rows(stdout) == [
        "| ruleset | random | greedy | ab3 | the highest-rated player's draw rate |",
        "| ludii-toy | 1.00 [0.93, 1.00] @ 0 | 0.84 [0.78, 0.88] @ 300 | 0.00 [0.00, 0.07] @ 200 | greedy 0.84 |",
        "| ludii-other | 0.20 [0.10, 0.30] @ — | — | — | — |",
    ], stdout
    assert "1 cells have no Elo yet" in stdout, stdout


def test_plot_study_joins_a_further_survey_folder_and_draws_ludii_apart(tmp_path):
    """`experiments/plot_study.py` with a further survey folder: its cells join the study's
    own on (ruleset, player), a cell without a rating is left out, and the `ludii-*`
    rulesets get their own figure; a survey still running is counted from its finished games."""
    d = scratch(tmp_path, "study/ladder/toy", "study/ladder/ludii-toy", "study/selfplay", "survey")
    ratings = "agent,elo,elo_lo,elo_hi\nrandom,0,0,0\ngreedy,310.4,200,420\n"
    (d / "study/ladder/toy/ratings.csv").write_text(ratings)
    (d / "study/ladder/ludii-toy/ratings.csv").write_text(ratings)
    header = "ruleset,pairing,games,draw_rate,draw_lo,draw_hi,mean_plies\n"
    (d / "study/selfplay/summary.csv").write_text(f"{header}toy,greedy vs greedy,50,0.1,0.04,0.21,120\n")
    (d / "survey/summary.csv").write_text(
        f"{header}ludii-toy,random vs random,50,0.9,0.79,0.96,950\n"
        "ludii-toy,mcts:sims=200 vs mcts:sims=200,50,0.5,0.37,0.63,700\n"
    )
    study = d / "study"
    stdout, out = script("experiments/plot_study.py", study, d / "survey")
    rows = [line for line in stdout.splitlines() if line.startswith("| ") and not line.startswith("| ruleset")]
    assert rows == [
        "| toy | greedy | 310 [200, 420] | 50 | 0.10 [0.04, 0.21] | 120 |",
        "| ludii-toy | random | 0 [0, 0] | 50 | 0.90 [0.79, 0.96] | 950 |",
    ], stdout
    assert "no rating yet for 1 self-play cells" in out.stderr, text(out)
    assert (study / "draw_vs_elo.png").is_file() and (study / "draw_vs_elo_ludii.png").is_file()
    missing = python("experiments/plot_study.py", study, d / "nowhere")
    assert missing.returncode != 0 and "is not a folder" in text(missing), text(missing)
    # A survey folder with no games yet is named in a note, not skipped in silence.
    (d / "empty").mkdir()
    empty = python("experiments/plot_study.py", study, d / "empty")
    assert empty.returncode == 0, f"plot_study.py failed:\n{text(empty)}"
    assert "has no summary.csv or games.csv yet" in empty.stderr, text(empty)
    # A survey still running (games.csv, no summary.csv yet): its self-play cells are counted
    # from the finished games (the half-written last line and the mixed pairing left out).
    (d / "running").mkdir()
    (d / "running/games.csv").write_text(
        "ruleset,white,black,winner,plies\n"
        "ludii-toy,greedy,greedy,draw,100\nludii-toy,greedy,greedy,white,50\nludii-toy,greedy,random,draw,10\n"
        "ludii-toy,greedy,greedy,dr"
    )
    running = python("experiments/plot_study.py", study, d / "running")
    assert running.returncode == 0, f"plot_study.py failed:\n{text(running)}"
    assert "| ludii-toy | greedy | 310 [200, 420] | 2 | 0.50 [0.09, 0.91] | 75 |" in running.stdout, running.stdout
    assert "counted from the 2 self-play games finished so far" in running.stderr, text(running)


def test_ludii_vs_dlp_script_prints_the_difference_and_its_interval(tmp_path):
    """`experiments/ludii_vs_dlp.py` on a hand-made metrics.csv: the DLP's figure beside ours
    and the difference's Newcombe interval, checked by hand: 0 draws in 50 against the
    DLP's 30 in 30 is −1.00 [−1.00, −0.87] (Wilson: 0/50 has upper bound 0.0714, 30/30
    lower bound 0.8865; −1 + √(0.0714² + 0.1135²) = −0.866), resolved; 50 in 50 against
    27 in 30 has a lower bound just above 0 (+0.003), printed with 3 decimals so that
    "resolved" does not stand beside a bound shown as 0; a ruleset without a DLP figure
    gets none."""
    d = scratch(tmp_path, "survey")
    head = "ruleset,pairing,games,draw,draw_lo,draw_hi,decisive,decisive_lo,decisive_hi,plies,plies_lo,plies_hi\n"
    (d / "survey/metrics.csv").write_text(
        f"{head}ludii-schadler-1994,ab vs ab,50,0,0,0.0714,1,0.9286,1,183,171,194\n"
        "ludii-falkener,ab vs ab,50,1,0.9286,1,0,0,0.0714,1000,1000,1000\n"
        "ludii-seneca,ab vs ab,50,0,0,0.0714,1,0.9286,1,217,198,236\n"
    )
    stdout, _ = script("experiments/ludii_vs_dlp.py", d / "survey")

    def row(ruleset):
        return next((line for line in stdout.splitlines() if line.startswith(f"| {ruleset} |")), "")

    assert row("ludii-schadler-1994").endswith("| 1.00 | -1.00 [-1.00, -0.87] resolved |"), stdout
    assert row("ludii-falkener").endswith("| 0.90 | +0.10 [+0.003, +0.26] resolved |"), stdout
    assert row("ludii-seneca").endswith("|  |  |"), stdout


def test_selfplay_table_script_marks_open_cells(tmp_path):
    """`experiments/study/selfplay_table.py` on a hand-made survey folder: a column per
    self-play pairing in the config's order, each cell `rate [CI] (games)`, `*` on a cell
    still open (interval wider than ±half_width below its cap, or between two round
    boundaries) and none on one at its `[[cap]]`; a missing cell is "—"."""
    d = scratch(tmp_path, "study/selfplay")
    (d / "study/selfplay/config.toml").write_text(
        'rulesets = ["toy", "other"]\n'
        'pairings = [["random", "random"], ["greedy", "greedy"], ["greedy", "random"]]\n'
        "games = 400\nmin_games = 50\nbatch = 50\nhalf_width = 0.05\n\n"
        '[[cap]]\npairing = ["random", "random"]\ngames = 150\n'
    )
    # toy/random: 75 of 150 drawn, at its cap (closed); toy/greedy: 50 of 100 (open);
    # other/greedy: 0 of 50 (closed); other/random: none.
    (d / "study/selfplay/summary.csv").write_text(
        "ruleset,pairing,games,draws,draw_rate,draw_lo,draw_hi\n"
        "toy,random vs random,150,75,0.5,0.4208,0.5792\n"
        "toy,greedy vs greedy,100,50,0.5,0.4038,0.5962\n"
        "toy,greedy vs random,100,0,0,0,0.037\n"
        "other,greedy vs greedy,50,0,0,0,0.0713\n"
    )
    stdout, _ = script("experiments/study/selfplay_table.py", d / "study")
    lines = stdout.splitlines()
    assert lines[0] == "| ruleset | random | greedy |", stdout
    assert lines[2] == "| toy | 0.50 [0.42, 0.58] (150) | 0.50 [0.40, 0.60] (100)* |", stdout
    assert lines[3] == "| other | — | 0.00 [0.00, 0.07] (50) |", stdout
    assert "Provisional" not in stdout, stdout


def test_selfplay_table_script_lists_the_networks(tmp_path):
    """`experiments/study/selfplay_table.py DIR --networks`: a row per network self-play folder
    with the network's Elo and rank from the ruleset's ladder, its draw rate, its draws by
    reason counted from games.csv (decisive games and other players' games left out) and
    the mean plies; a folder still running (no summary.csv) is provisional and open."""
    d = scratch(tmp_path, "study/selfplay-az-toy", "study/selfplay-az-run", "study/ladder/toy")
    study = d / "study"
    config = (
        'pairings = [["az:model=n.az", "az:model=n.az"]]\n'
        "games = 400\nmin_games = 50\nbatch = 50\nhalf_width = 0.05\n"
    )
    for sub, ruleset in [("selfplay-az-toy", "toy"), ("selfplay-az-run", "run")]:
        (study / sub / "config.toml").write_text(f'rulesets = ["{ruleset}"]\n{config}')
    (study / "selfplay-az-toy/summary.csv").write_text(
        "ruleset,pairing,games,draws,draw_rate,draw_lo,draw_hi,mean_plies\n"
        "toy,az:model=n.az vs az:model=n.az,4,3,0.75,0.3,0.95,12.5\n"
    )
    (study / "selfplay-az-toy/games.csv").write_text(
        "ruleset,white,black,winner,reason,plies\n"
        "toy,az:model=n.az,az:model=n.az,draw,repetition,10\ntoy,az:model=n.az,az:model=n.az,draw,ply-cap,20\n"
        "toy,az:model=n.az,az:model=n.az,draw,repetition,10\ntoy,az:model=n.az,az:model=n.az,white,bare,10\n"
        "toy,az:model=n.az,greedy,draw,ply-cap,10\n"
    )
    (study / "selfplay-az-run/games.csv").write_text(
        "ruleset,white,black,winner,reason,plies\nrun,az:model=n.az,az:model=n.az,black,bare,30\nrun,az:model=n.az,az:m"
    )
    (study / "ladder/toy/ratings.csv").write_text(
        "rank,agent,elo,elo_lo,elo_hi\n1,greedy,900,800,1000\n2,az:model=n.az,700.4,600,800\n3,random,0,0,0\n"
    )
    stdout, _ = script("experiments/study/selfplay_table.py", study, "--networks")
    lines = stdout.splitlines()
    assert len(lines) == 4, stdout
    assert lines[2] == "| run | `az:model=n.az` | — | 0.00 [0.00, 0.79] (1)* (provisional) | — | 30.0 |", stdout
    assert (
        lines[3]
        == "| toy | `az:model=n.az` | 700 [600, 800] (2 of 3) | 0.75 [0.30, 0.95] (4)* | repetition 2, ply-cap 1 | 12.5 |"
    ), stdout


def test_plot_sensitivity_script_gives_differences_with_newcombe_intervals(tmp_path):
    """`experiments/plot_sensitivity.py` on hand-made cells: a variant's difference to the
    published ruleset with Newcombe's interval (his worked example: 56/70 against 48/80 is
    +0.200 [+0.052, +0.334], marked * as it excludes 0), an unresolved one unmarked; a
    survey still running is read from its finished games and said to be provisional."""
    d = scratch(tmp_path, "done", "running")
    (d / "done/summary.csv").write_text(
        "ruleset,pairing,games,white_wins,black_wins,draws,draw_rate,draw_lo,draw_hi,white_score,white_score_lo,white_score_hi\n"
        "toy,p vs p,80,16,16,48,0.6,0.4904,0.7003,0.5,0.3923,0.6077\n"
        "toy+end.x=1,p vs p,70,7,7,56,0.8,0.6920,0.8770,0.5,0.3850,0.6150\n"
        "toy@8x8,p vs p,80,16,18,46,0.575,0.4655,0.6778,0.4875,0.3801,0.5960\n"
    )
    stdout, _ = script("experiments/plot_sensitivity.py", d / "done")

    def row(variant):
        return next((line for line in stdout.splitlines() if line.startswith(f"|   {variant} |")), "")

    assert "| +0.20 [+0.05, +0.33]* |" in row("+end.x=1"), stdout
    assert row("+end.x=1").endswith("| +0.00 [-0.16, +0.16] |"), stdout
    assert "| -0.03 [" in row("@8x8") and "*" not in row("@8x8"), stdout
    assert (d / "done/tornado.png").exists()

    (d / "running/games.csv").write_text(
        "ruleset,white,black,winner,plies\ntoy,p,p,draw,10\ntoy,p,p,white,10\ntoy+end.x=1,p,p,draw,9\ntoy+end.x=1,p,p,dr"
    )
    stdout, out = script("experiments/plot_sensitivity.py", d / "running")
    assert "provisional" in out.stderr, text(out)
    assert any(line.startswith("| toy | 2 | 0.50 [") for line in stdout.splitlines()), stdout
    assert any(line.startswith("|   +end.x=1 | 1 | 1.00 [") for line in stdout.splitlines()), stdout


def test_verdicts_cost_estimate_follows_the_adaptive_rule(tmp_path):
    """`experiments/verdicts/estimate_cost.py` on a hand-made sample: kowalski timed at
    3.6 CPU seconds a ply at both budgets (3,600 s over 1,000 plies), the only ruleset
    timed, so every ruleset costs that (the pooled figure). xxi: the study's depth=3
    self-play drew 0 of 50 in 56.2 plies, so a cell stops at 50 games: 50 x 56.2 x 3.6 s =
    2.81 core-hours a budget, no adjudication-off cell. kowalski: 0.125 draws (its interval
    is first at most +-0.05 wide at 200 games: 25 of 200 is [0.086, 0.178]) in 147.6 plies:
    200 x 147.6 x 3.6 s = 29.52 core-hours a budget, and its adjudication-off cell at the
    cap of 400 games: 59.04. The rule variants of sensitivity.toml: kowalski's no-capture
    limit at 30 drew 230 of 400 (0.575) in 45.4 plies at depth 2, where kowalski drew in
    94.1 plies (147.6 at depth 3): 45.4 x 147.6 / 94.1 = 71.21 plies; 0.575 needs the cap
    of 400 games (at 350 the half-width is 0.052): 400 x 71.21 x 3.6 s = 28.48. With the
    limit off every game went to the 1,000-ply cap (1,000 x 147.6 / 94.1 is more, so the
    cap): all drawn, 50 games, 50 x 1000 x 3.6 s = 50.00."""
    # The budgets are those of the committed experiment file (run.sh's defaults).
    config = tomllib.loads((ROOT / "experiments/verdicts/selfplay.toml").read_text())
    weak, strong = (int(spec.split("nodes=")[1]) for spec, _ in config["pairings"])
    sample = tmp_path / "sample.csv"
    sample.write_text(f"ruleset,nodes,games,plies,cpu_s\nkowalski,{weak},2,1000,3600\nkowalski,{strong},2,1000,3600\n")
    stdout, _ = script("experiments/verdicts/estimate_cost.py", sample)
    assert "| xxi | 0.00, 56 | 50 | 2.81 | 2.81 | 0.00 |" in stdout, stdout
    assert "| kowalski | 0.12, 148 | 200 | 29.52 | 29.52 | 59.04 |" in stdout, stdout
    assert "| kowalski+end.no_capture_limit=30 | 0.57, 45 (as depth=3: 71) | 400 | 28.48 |" in stdout, stdout
    assert "| kowalski+end.no_capture_limit=0 | 1.00, 1000 (as depth=3: 1000) | 50 | 50.00 |" in stdout, stdout
    assert f"pooled CPU seconds per ply: nodes={weak} 3600.0 ms, nodes={strong} 3600.0 ms" in stdout, stdout


def test_verdicts_cost_spent_prices_each_game_by_its_budget(tmp_path):
    """`estimate_cost.py --spent` on a hand-made verdicts folder. The sample: kowalski at
    3.6 s a ply at 1,000 nodes (3,600 s over 1,000 plies) and 7.2 at 4,000, xxi 3.6 at
    4,000; pooled at 4,000: 9,000 s over 1,500 plies = 6.0. selfplay: kowalski at 1,000
    (100 plies, 360 s: 0.1 core-hours); at 4,000 kowalski (200 plies, its own 7.2: 1,440 s)
    and ludii-x, not timed (300 plies at the pooled 6.0: 1,800 s): 0.9. The adjudication-off
    shards: kowalski's variant at kowalski's figure (250 x 7.2 = 1,800 s) and xxi's (100 x
    3.6 = 360 s): 0.6. settle at 16,000 nodes, a budget the sample did not time: 4,000's
    pooled 6.0 x 4 = 24 s a ply, 100 plies in two rulesets' folders: 2,400 s, 0.7. A
    network's cell is counted, not priced. In all 8,160 s = 2.3 core-hours, 0.07 of 32. A
    budget below every timed one is refused."""
    d = tmp_path / "verdicts"
    sample = tmp_path / "sample.csv"
    sample.write_text("ruleset,nodes,games,plies,cpu_s\nkowalski,1000,2,1000,3600\nkowalski,4000,2,1000,7200\n"
                      "xxi,4000,2,500,1800\n")

    def games(folder, *rows):
        (d / folder).mkdir(parents=True)
        (d / folder / "games.csv").write_text(
            "ruleset,white,black,winner,plies\n" + "".join(f"{r},{w},{w},draw,{p}\n" for r, w, p in rows))

    games("selfplay", ("kowalski", "alphabeta:nodes=1000", 100), ("kowalski", "alphabeta:nodes=4000", 200),
          ("ludii-x", "alphabeta:nodes=4000", 300))
    games("adjudication-off-shard-1", ("kowalski+end.adjudication=draw", "alphabeta:nodes=4000", 250))
    games("adjudication-off-shard-2", ("xxi+end.adjudication=draw", "alphabeta:nodes=4000", 100))
    games("settle/kowalski", ("kowalski", "alphabeta:nodes=16000", 60))
    games("settle/xxi", ("xxi", "alphabeta:nodes=16000", 40))
    games("networks/kowalski", ("kowalski", "az:model=k.az", 30), ("kowalski", "az:model=k.az", 30))
    stdout, _ = script("experiments/verdicts/estimate_cost.py", "--spent", d, sample)
    rows = stdout.splitlines()
    for row in ["| selfplay | alphabeta:nodes=1000 | 1 | 100 | 0.1 |",
                "| selfplay | alphabeta:nodes=4000 | 2 | 500 | 0.9 |",
                "| adjudication-off | alphabeta:nodes=4000 | 2 | 350 | 0.6 |",
                "| settle | alphabeta:nodes=16000 | 2 | 100 | 0.7 |",
                "| networks/kowalski | network | 2 | 60 | not priced |"]:
        assert row in rows, stdout
    assert rows[-1].startswith("the search player's games: 2.3 core-hours, 0.07 times the 32 core-hours"), stdout
    assert rows[-1].endswith("2 network games not priced"), stdout

    games("sensitivity", ("kowalski+end.no_capture_limit=30", "alphabeta:nodes=500", 10))
    out = python("experiments/verdicts/estimate_cost.py", "--spent", d, sample)
    assert out.returncode != 0 and "no timed games at nodes=500" in out.stderr, text(out)


def test_az_all_table_meets_by_the_bar_or_the_drawn_exception(tmp_path):
    """`experiments/az-all/table.py` on four hand-made ruleset folders. `won`: 13-4-0 with
    SPRT H1 at 0.88 [0.66, 0.97] meets the bar (yes). `drawn`: 0-73-0, H0, its teacher's
    games 97% drawn: the exception for a ruleset drawn whoever plays (drawn). `lost`: 0-48-3,
    H0, teacher 92% drawn: three losses, so no. `open`: 2-3-1 after 6 games with no SPRT
    decision: empty. `drawn` again with its teacher at 85% drawn would be no (the second
    table). `won@10x8`, a ruleset on another board, is left out."""
    def folder(name, wins, draws, losses, sprt, teacher_draws):
        d = tmp_path / name
        d.mkdir(exist_ok=True)
        (d / "times.csv").write_text("step,seconds\nteacher,1800\ntrain,1800\n")
        (d / "train_log.csv").write_text(
            "iteration,games,draw_rate\n" f"0,1000,{teacher_draws}\n" "1,1100,0.5\n"
        )
        games = wins + draws + losses
        score = (wins + draws / 2) / games
        (d / "vs-ab3.csv").write_text(
            "agent,opponent,games,wins,draws,losses,score,score_lo,score_hi,sprt\n"
            f"az,alphabeta:depth=3,{games},{wins},{draws},{losses},{score:.4f},{score - 0.2:.4f},{score + 0.1:.4f},{sprt}\n"
        )
        (d / "vs-ab3-games.csv").write_text("winner,reason\n" + "none,ply-cap\n" * draws)

    folder("won", 13, 4, 0, "H1", 0.58)
    folder("drawn", 0, 73, 0, "H0", 0.97)
    folder("lost", 0, 48, 3, "H0", 0.92)
    folder("open", 2, 3, 1, "", 0.5)
    # A ruleset on another board (a family's comparison) has no row.
    folder("won@10x8", 13, 4, 0, "H1", 0.58)

    def meets():
        script("experiments/az-all/table.py", tmp_path)
        with (tmp_path / "table.csv").open() as f:
            return {r["ruleset"]: r["meets"] for r in csv.DictReader(f)}

    assert meets() == {"won": "yes", "drawn": "drawn", "lost": "no", "open": ""}
    folder("drawn", 0, 73, 0, "H0", 0.85)
    assert meets()["drawn"] == "no"


def test_az_all_twelve_takes_each_rulesets_better_recipe(tmp_path):
    """`experiments/az-all/table.py --twelve` on hand-made folders of both recipes, with a
    rulesets.txt of four: `a` missed the bar under self-play (0-48-3, H0) and met it under
    imitation (13-4-0, H1): imitation. `b` met it under self-play (12-0-0) and missed it
    under imitation: self-play. `c` ran under self-play only (missed): self-play, with the
    other recipe's score empty. `d` ran under neither: self-play, every cell empty."""
    def folder(path, wins, draws, losses, sprt):
        path.mkdir(parents=True)
        (path / "times.csv").write_text("step,seconds\nteacher,1800\ntrain,1800\n")
        (path / "train_log.csv").write_text("iteration,games,draw_rate\n0,1000,0.5\n")
        games = wins + draws + losses
        score = (wins + draws / 2) / games
        (path / "vs-ab3.csv").write_text(
            "agent,opponent,games,wins,draws,losses,score,score_lo,score_hi,sprt\n"
            f"az,alphabeta:depth=3,{games},{wins},{draws},{losses},{score:.4f},{score - 0.2:.4f},{score + 0.1:.4f},{sprt}\n"
        )

    (tmp_path / "rulesets.txt").write_text("# four\na\nb\nc\nd\n")
    folder(tmp_path / "a", 0, 48, 3, "H0")
    folder(tmp_path / "imitate" / "a", 13, 4, 0, "H1")
    folder(tmp_path / "b", 12, 0, 0, "H1")
    folder(tmp_path / "imitate" / "b", 1, 30, 6, "H0")
    folder(tmp_path / "c", 1, 30, 6, "H0")
    stdout, _ = script("experiments/az-all/table.py", "--twelve", tmp_path)
    with (tmp_path / "twelve.csv").open() as f:
        rows = {r["ruleset"]: r for r in csv.DictReader(f)}
    assert list(rows) == ["a", "b", "c", "d"]
    assert {k: r["recipe"] for k, r in rows.items()} == {"a": "imitation", "b": "selfplay", "c": "selfplay", "d": "selfplay"}
    assert (rows["a"]["wins_ab3"], rows["a"]["meets"], rows["a"]["score_ab3_selfplay"]) == ("13", "yes", "0.4706")
    assert (rows["b"]["wins_ab3"], rows["b"]["score_ab3_imitation"]) == ("12", "0.4324")
    assert (rows["c"]["meets"], rows["c"]["score_ab3_imitation"]) == ("no", "")
    assert rows["d"]["games_ab3"] == "" and rows["d"]["meets"] == ""
    assert "| a | imitation |" in stdout and "| selfplay 0.47 |" in stdout and "| c | selfplay |" in stdout and "not run" in stdout
    assert {k: r["separate"] for k, r in rows.items()} == {"a": "imitation", "b": "selfplay", "c": "selfplay", "d": "selfplay"}
    assert all(r["score_ab3_family"] == "" for r in rows.values())


def net_folder(path, wins, draws, losses, sprt, stem="vs-ab3", times=True, seconds=(1800, 1800), cap=400, init=""):
    """A hand-made network folder of experiments/az-all (times.csv with the teacher's and
    the training's SECONDS, train_log.csv, config.toml at ply cap CAP, from INIT where
    given; none of those without TIMES) and its match STEM.csv against depth 3."""
    path.mkdir(parents=True, exist_ok=True)
    if times:
        (path / "times.csv").write_text(f"step,seconds\nteacher,{seconds[0]}\ntrain,{seconds[1]}\n")
        (path / "train_log.csv").write_text("iteration,games,draw_rate\n0,1000,0.5\n")
        init_line = f'init_network = "{init}"\n' if init else ""
        (path / "config.toml").write_text(f"{init_line}[selfplay]\nply_cap = {cap}\n")
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    (path / f"{stem}.csv").write_text(
        "agent,opponent,games,wins,draws,losses,score,score_lo,score_hi,sprt\n"
        f"az,alphabeta:depth=3,{games},{wins},{draws},{losses},{score:.4f},{score - 0.2:.4f},{score + 0.1:.4f},{sprt}\n"
    )


def family_folder(path, *members):
    """A hand-made family network's folder of experiments/az-family (PATH/family: its
    MEMBERS, 5,400 s of training, 3,000 teacher games); returns PATH/family."""
    fam = path / "family"
    fam.mkdir(parents=True)
    (fam / "members.txt").write_text("".join(f"{m}\n" for m in members))
    (fam / "times.csv").write_text("step,seconds\ntrain,5400\n")
    (fam / "train_log.csv").write_text("iteration,games,draw_rate\n0,3000,0.4\n")
    return fam


def test_az_all_twelve_takes_a_family_network_only_where_it_meets_the_bar(tmp_path):
    """`experiments/az-all/table.py --twelve FOLDER FAMILIES` with two family folders.
    `c`'s own network missed the bar (self-play 1-30-6, H0); the family `fam` (members b,
    c and x@10x8, on another board) met it on c (14-2-0, H1): c takes the family network,
    `family:FAMILIES/fam` with c's own ply cap, the family's training time and the sum of
    its members' teacher seconds, and separate stays selfplay. `b`'s own network met the
    bar (12-0-0); the family's 13-0-0 scores higher but meets the same bar, so b keeps its
    own, with the family's score beside it. A second family, `half`, whose match on c is
    undecided (3-1-1 after 5 games), replaces nothing. `a` (imitation 13-4-0 beside
    self-play 0-48-3) is in no family: imitation, as before."""
    folder = net_folder
    nets = tmp_path / "az-all"
    nets.mkdir()
    (nets / "rulesets.txt").write_text("a\nb\nc\n")
    folder(nets / "a", 0, 48, 3, "H0")
    folder(nets / "imitate" / "a", 13, 4, 0, "H1")
    folder(nets / "b", 12, 0, 0, "H1")
    folder(nets / "c", 1, 30, 6, "H0")
    folder(nets / "x@10x8", 1, 0, 0, "")
    fams = tmp_path / "az-family"
    fam = family_folder(fams / "fam", "b", "c", "x@10x8")
    folder(fam, 13, 0, 0, "H1", stem="b-vs-ab3", times=False)
    folder(fam, 14, 2, 0, "H1", stem="c-vs-ab3", times=False)
    folder(fam, 1, 0, 0, "H1", stem="c-vs-ms100", times=False)
    half = fams / "half" / "family"
    half.mkdir(parents=True)
    (half / "members.txt").write_text("c\nb\n")
    folder(half, 3, 1, 1, "", stem="c-vs-ab3", times=False)
    stdout, _ = script("experiments/az-all/table.py", "--twelve", nets, fams)
    with (nets / "twelve.csv").open() as f:
        rows = {r["ruleset"]: r for r in csv.DictReader(f)}
    family = f"family:{(fams / 'fam').resolve()}"
    assert {k: (r["recipe"], r["separate"]) for k, r in rows.items()} == {
        "a": ("imitation", "imitation"), "b": ("selfplay", "selfplay"), "c": (family, "selfplay")}
    c = rows["c"]
    assert (c["wins_ab3"], c["meets"], c["ply_cap"], c["train_s"], c["teacher_s"], c["teacher_games"]) == (
        "14", "yes", "400", "5400", "5400", "3000"), c
    assert (c["games_ms100"], c["score_ab3_selfplay"], c["score_ab3_family"]) == ("1", "0.4324", "0.9375"), c
    assert (rows["b"]["wins_ab3"], rows["b"]["score_ab3_family"]) == ("12", "1.0000"), rows["b"]
    assert rows["a"]["score_ab3_family"] == "", rows["a"]
    assert f"| c | {family} |" in stdout and "| selfplay 0.43 |" in stdout and "| family 1.00 |" in stdout, stdout


def test_az_all_twelve_takes_a_tuned_network_only_where_it_meets_the_bar(tmp_path):
    """`experiments/az-all/table.py --twelve` with a folder of tuned networks (tune.sh's
    `tune-cap-1000`), each started from the family network `fam` (members b and c). `c`'s
    own network and the family's on c missed the bar; its tuned network met it (15-2-3,
    H1): c takes `tune:FOLDER/tune-cap-1000`, with the tuning's ply cap, teacher games and
    matches, and the family's seconds (its members' teacher games, its training) added to
    the tuning's. `b`'s own network met the bar; its tuned one meets the same bar at a
    higher score, so b keeps its own, the tuned score beside it."""
    folder = net_folder
    nets = tmp_path / "az-all"
    nets.mkdir()
    (nets / "rulesets.txt").write_text("b\nc\n")
    folder(nets / "b", 12, 0, 0, "H1")
    folder(nets / "c", 1, 30, 6, "H0")
    fams = tmp_path / "az-family"
    fam = family_folder(fams / "fam", "b", "c")
    folder(fam, 3, 10, 5, "H0", stem="c-vs-ab3", times=False)
    tunes = nets / "tune-cap-1000"
    init = fam / "latest.az"
    folder(tunes / "c", 15, 2, 3, "H1", seconds=(1527, 532), cap=1000, init=init)
    folder(tunes / "b", 13, 0, 0, "H1", seconds=(1000, 500), cap=1000, init=init)
    stdout, _ = script("experiments/az-all/table.py", "--twelve", nets, fams)
    with (nets / "twelve.csv").open() as f:
        rows = {r["ruleset"]: r for r in csv.DictReader(f)}
    tuned = f"tune:{tunes.resolve()}"
    assert {k: (r["recipe"], r["separate"]) for k, r in rows.items()} == {
        "b": ("selfplay", "selfplay"), "c": (tuned, "selfplay")}
    c = rows["c"]
    assert (c["wins_ab3"], c["meets"], c["ply_cap"], c["teacher_games"]) == ("15", "yes", "1000", "1000"), c
    # The family's members' teacher games (1800 s each) and its training (5400 s) added.
    assert (c["teacher_s"], c["train_s"]) == (str(1527 + 3600), str(532 + 5400)), c
    assert (c["score_ab3_family"], c["score_ab3_tune"], c["score_ab3_selfplay"]) == ("0.4444", "0.8000", "0.4324"), c
    assert (rows["b"]["wins_ab3"], rows["b"]["score_ab3_tune"]) == ("12", "1.0000"), rows["b"]
    assert f"| c | {tuned} | 1000 |" in stdout and "| selfplay 0.43, family 0.44 |" in stdout, stdout


def test_az_all_at_cap_counts_who_was_ahead_when_the_cap_came(tmp_path):
    """`experiments/az-all/at_cap.py` on a hand-made match of five games: one won, four
    drawn at the ply cap with the network (white in two, black in two) ahead, ahead, level
    and behind in pieces; and on a hand-made study file, the share of depth-3 self-play
    games past 200 plies and their median."""
    d = scratch(tmp_path, "net")
    net = '"az:model=m.az,sims=200,wincheck=1"'
    (d / "net" / "vs-ab3-games.csv").write_text(
        "white,black,winner,reason,plies,pieces_white,pieces_black\n"
        f"{net},alphabeta:depth=3,white,material,150,8,6\n"
        f"{net},alphabeta:depth=3,draw,ply-cap,400,9,5\n"  # ahead as White
        f"alphabeta:depth=3,{net},draw,ply-cap,400,4,7\n"  # ahead as Black
        f"alphabeta:depth=3,{net},draw,ply-cap,400,6,6\n"  # level
        f"{net},alphabeta:depth=3,draw,ply-cap,400,3,5\n"  # behind
    )
    study = d / "study.csv"
    study.write_text(
        "ruleset,white,black,plies\n"
        "common,alphabeta:depth=3,alphabeta:depth=3,100\n"
        "common,alphabeta:depth=3,alphabeta:depth=3,300\n"
        "common,alphabeta:depth=3,alphabeta:depth=3,250\n"
        "common,greedy,greedy,900\n"  # not depth 3's self-play
        "ludii-seneca,alphabeta:depth=3,alphabeta:depth=3,900\n"  # not a seed ruleset
    )
    stdout, _ = script("experiments/az-all/at_cap.py", d / "net", "--study", study)
    rows = table_rows(stdout, skip=("| folder", "| ruleset"))
    assert rows[0].endswith("| 5 | 4 | 2 | 1 | 1 |"), stdout
    assert rows[1:] == ["| common | 3 | 0.67 | 250 |"], stdout
    missing = python("experiments/az-all/at_cap.py", d / "nothing")
    assert missing.returncode != 0 and "vs-ab3-games.csv is missing" in missing.stderr


def test_verdicts_figure_lists_each_ruleset_with_its_variants(tmp_path):
    """`experiments/verdicts/figure.py` on a hand-made verdicts.csv whose rows come in the
    order `latrunculi verdicts` meets them in the games: Ludii rulesets first, a variant
    of kowalski before kowalski, petteia-xxi on another board. The table lists the
    rulesets of the sources first (kowalski, then its adjudication-off variant, then
    petteia-xxi and its 10x8 board), Ludii's after by name with board sizes by number
    (bell-8x8, seega-6x6, seega-10x10); each row gives the larger budget's
    figures and the smaller budget's draw rate; a row without a budget (a pairing of two
    players) is left out; the figure is written."""
    header = ("ruleset,player,budget,games,draw_rate,draw_lo,draw_hi,won_by_play_rate,won_by_play_lo,"
              "won_by_play_hi,adjudicated_rate,adjudicated_lo,adjudicated_hi,verdict,compared_with,"
              "dlp_draw_rate,dlp_trials")

    def row(ruleset, budget, draw, play, count, verdict="", dlp=""):
        return (f"{ruleset},alphabeta,{budget},50,{draw},{draw - 0.05:.2f},{draw + 0.05:.2f},{play},{play},{play},"
                f"{count},{count},{count},{verdict},,{dlp},{'100' if dlp else ''}")

    src = tmp_path / "verdicts.csv"
    src.write_text("\n".join([
        header,
        row("ludii-seega-10x10", "nodes=4000", 1.0, 0.0, 0.0, "drawish"),
        row("ludii-seega-6x6", "nodes=1000", 0.40, 0.60, 0.0),
        row("ludii-seega-6x6", "nodes=4000", 0.42, 0.58, 0.0, "decisive", "0.55"),
        row("kowalski+end.adjudication=draw", "nodes=4000", 1.0, 0.0, 0.0, "drawish"),
        row("kowalski", "nodes=1000", 0.20, 0.05, 0.75),
        row("kowalski", "nodes=4000", 0.26, 0.02, 0.72, "decisive"),
        "kowalski,random vs greedy,,50,0.1,0.05,0.15,0.9,0.9,0.9,0,0,0,,,,",
        row("petteia-xxi@10x8", "nodes=4000", 0.0, 1.0, 0.0, "decisive"),
        row("petteia-xxi", "nodes=4000", 0.0, 1.0, 0.0, "decisive"),
        row("ludii-bell-8x8", "nodes=4000", 0.0, 0.0, 1.0, "decisive"),
    ]) + "\n")
    png = tmp_path / "verdicts.png"
    stdout, _ = script("experiments/verdicts/figure.py", src, png)
    rows = table_rows(stdout, skip=("| ruleset ",))
    assert [r.split(" | ")[0].removeprefix("| ") for r in rows] == [
        "kowalski", "kowalski+end.adjudication=draw", "petteia-xxi", "petteia-xxi@10x8",
        "ludii-bell-8x8", "ludii-seega-6x6", "ludii-seega-10x10",
    ], stdout
    assert rows[0].startswith(
        "| kowalski | `alphabeta` at `nodes=4000` | decisive | 0.26 [0.21, 0.31] | 0.02 [0.02, 0.02] | "
        "0.72 [0.72, 0.72] | 50 | 0.20 [0.15, 0.25] (`nodes=1000`) |"), stdout
    assert rows[-2].endswith("| 0.40 [0.35, 0.45] (`nodes=1000`) | 0.55 (100) |"), stdout
    assert png.stat().st_size > 0
