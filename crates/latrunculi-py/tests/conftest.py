"""Shared fixtures: the repository root and the CLI binary (for the CLI comparisons)."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> str:
    """The `latrunculi` binary: $LATRUNCULI_BIN, else target/{debug,release}/latrunculi
    under $CARGO_TARGET_DIR or the repository, else built with cargo."""
    env = os.environ.get("LATRUNCULI_BIN")
    if env:
        return env
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("debug", "release"):
        p = target / profile / "latrunculi"
        if p.is_file():
            return str(p)
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("no latrunculi binary: set LATRUNCULI_BIN or build it with `cargo build -p latrunculi-cli`")
    subprocess.run([cargo, "build", "-q", "-p", "latrunculi-cli"], cwd=ROOT, check=True)
    return str(target / "debug" / "latrunculi")
