"""Every relative link of the repository's Markdown files points at something that exists.

A link `[text](path)` or `![alt](path)` outside code blocks, taken relative to the file
that holds it, must name a file or folder of the repository; a `#anchor` on a Markdown
file must name one of its headings (GitHub's rule: lower case, punctuation but `-` and
`_` dropped, spaces turned into `-`, a repeated heading numbered `-1`, `-2`, ...).
Addresses with a scheme (`https:`, `mailto:`) are not checked. Build outputs (`target/`)
and hidden folders are left out. Run from anywhere: `python3 -m pytest -q tests/python`.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def markdown_files(root):
    """The Markdown files under `root`, build outputs and hidden folders left out."""
    for path in sorted(root.rglob("*.md")):
        parts = path.relative_to(root).parts
        if parts[0] == "target" or any(p.startswith(".") for p in parts):
            continue
        yield path


def slug(heading):
    """GitHub's anchor of a heading."""
    heading = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return heading.replace(" ", "-")


def anchors(text):
    """Every anchor the headings of a Markdown text define, repeats numbered."""
    seen = {}
    out = set()
    for match in HEADING.finditer(FENCE.sub("", text)):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(path):
    """`(link, why)` for each relative link of `path` that does not resolve."""
    text = path.read_text(encoding="utf-8")
    broken = []
    for match in LINK.finditer(FENCE.sub("", text)):
        link = match.group(1)
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", link):
            continue
        target, _, anchor = link.partition("#")
        resolved = (path.parent / target).resolve() if target else path
        if not resolved.exists():
            broken.append((link, "no such file"))
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved.read_text(encoding="utf-8")):
            broken.append((link, "no such heading"))
    return broken


def test_the_checker_finds_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Title\n\n## Two words\n\n## Two words\n")
    (tmp_path / "README.md").write_text(
        "[ok](docs/a.md) [ok](docs/a.md#two-words-1) [ok](https://example.org/x) [ok](#here)\n"
        "# Here\n"
        "[bad](docs/b.md) [bad](docs/a.md#three) ![bad](img/x.png)\n"
        "```\n[in code](nowhere.md)\n```\n"
    )
    assert broken_links(tmp_path / "README.md") == [
        ("docs/b.md", "no such file"),
        ("docs/a.md#three", "no such heading"),
        ("img/x.png", "no such file"),
    ]
    assert [p.name for p in markdown_files(tmp_path)] == ["README.md", "a.md"]


def test_every_relative_link_resolves():
    files = list(markdown_files(ROOT))
    assert ROOT / "README.md" in files and ROOT / "docs" / "findings.md" in files
    broken = [f"{path.relative_to(ROOT)}: {link} ({why})" for path in files for link, why in broken_links(path)]
    assert broken == [], "broken links:\n" + "\n".join(broken)
