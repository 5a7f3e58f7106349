"""figure_cache: ``cached`` builds once per cursor; ``built_once`` once per input, whatever the cursor."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.ui import figure_cache
from kubesched.ui.session import SAMPLE_DIR


@pytest.fixture
def run(monkeypatch):
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    monkeypatch.setattr(figure_cache, "st", SimpleNamespace(session_state={}))
    monkeypatch.setattr(figure_cache.session, "current", lambda: sim)
    monkeypatch.setattr(figure_cache.session, "lang", lambda: "en")
    return sim


def _counting():
    built = []

    def build():
        built.append(1)
        return object()
    return built, build


def test_cached_builds_again_at_another_cursor(run):
    built, build = _counting()
    first = figure_cache.cached("v", build, "k")
    assert figure_cache.cached("v", build, "k") is first
    run.step("event")
    assert figure_cache.cached("v", build, "k") is not first
    assert len(built) == 2


def test_built_once_keeps_its_object_while_the_input_is_the_same(run):
    built, build = _counting()
    first = figure_cache.built_once("v", build, ("matrix", 1))
    for _ in range(3):
        run.step("event")
        assert figure_cache.built_once("v", build, ("matrix", 1)) is first
    assert figure_cache.built_once("v", build, ("matrix", 2)) is not first
    assert figure_cache.built_once("other", build, ("matrix", 1)) is not first
    assert len(built) == 3


def test_a_new_run_drops_what_was_built(run, monkeypatch):
    built, build = _counting()
    first = figure_cache.built_once("v", build, 1)
    other = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    monkeypatch.setattr(figure_cache.session, "current", lambda: other)
    assert figure_cache.built_once("v", build, 1) is not first and len(built) == 2
