"""Runs shared by the CLI and explain tests: one Simulation per input, run to idle once."""

from __future__ import annotations

import functools
import pathlib
from typing import Any

import pytest

from kubesched.cli.main import main

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_clusters"


@functools.cache
def simulated(source: str | pathlib.Path, trace: bool = True) -> Any:
    """A Simulation of ``source`` (YAML text or a path) run to idle; shared, read it only."""
    from kubesched.sim.simulation import Simulation
    sim = Simulation.from_yaml(source, trace=trace)
    sim.run_until_idle()
    return sim


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """``cli(*argv) -> (exit code, stdout, stderr)`` of ``python -m kubesched``."""
    def run(*argv: str) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


@pytest.fixture
def cluster_file(tmp_path: pathlib.Path):
    """``cluster_file(text, name="cluster.yaml") -> path`` of a file holding ``text``."""
    def write(text: str, name: str = "cluster.yaml") -> pathlib.Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write

