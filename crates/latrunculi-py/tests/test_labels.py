"""Ruleset labels: every label a committed result file holds is a `Ruleset`, and
`Ruleset(label)` finds `configs/rulesets` as the `latrunculi` command does."""

import csv
import pathlib

import pytest

import latrunculi as lt


def committed_labels(root: pathlib.Path) -> set[str]:
    """The distinct cells of every `ruleset` column of the CSVs under experiments/ and
    data/; a row holding a `ruleset` cell is a header (some files repeat it per block)."""
    labels = set()
    for top in ("experiments", "data"):
        for path in sorted((root / top).rglob("*.csv")):
            with open(path, newline="") as f:
                column = None
                for row in csv.reader(f):
                    if "ruleset" in row:
                        column = row.index("ruleset")
                    elif column is not None and len(row) > column:
                        labels.add(row[column])
    return labels


def test_every_committed_label_is_a_ruleset(repo_root):
    labels = committed_labels(repo_root)
    assert len(labels) >= 50 and {"xxi@12x8", "kowalski+end.no_capture_limit=120"} <= labels
    for label in sorted(labels):
        r = lt.Ruleset(label, rules_dir=str(repo_root / "configs" / "rulesets"))
        head = label.split("+")[0]
        assert r.id == head.split("@")[0], label
        if "@" in head:
            assert f"{r.width}x{r.height}" == head.split("@")[1], label
        # A label is also accepted wherever a ruleset argument is.
        assert lt.Position(label).fen() == lt.Position(r).fen(), label


def test_labels_are_read_as_the_command_line_reads_them():
    assert lt.Ruleset(" xxi @ 12X8 + end.no_capture_limit = 120 ") == lt.Ruleset("xxi@12x8+end.no_capture_limit=120")
    for bad, says in [("xxi@12y8", "WxH"), ("kowalski+end.no_moves", "key=value"), ("@12x8", "names no ruleset")]:
        with pytest.raises(lt.LatrunculiError, match=says):
            lt.Ruleset(bad)


def test_configs_rulesets_in_the_working_directory_come_first(tmp_path, monkeypatch):
    builtin = lt.Ruleset("kowalski")
    rules = tmp_path / "configs" / "rulesets"
    rules.mkdir(parents=True)
    (rules / "kowalski.toml").write_text(builtin.with_param("end.no_capture_limit", "77").to_toml())
    monkeypatch.chdir(tmp_path)
    local = lt.Ruleset("kowalski@10x8")
    assert local.params_hash == builtin.with_param("end.no_capture_limit", "77").with_board(10, 8).params_hash
    # An explicit rules_dir replaces the default one.
    assert lt.Ruleset("kowalski", rules_dir=str(tmp_path)).params_hash == builtin.params_hash
