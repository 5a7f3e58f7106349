"""Every sample cluster runs to idle (or its horizon) without error."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.sim import Simulation

SAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "sample_clusters").glob("*.yaml"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_cluster_runs_to_the_end(path):
    sim = Simulation.from_yaml(path)
    end = sim.run_until_idle()
    assert end == len(sim.trace) > 0
    assert sim.stopped_reason in ("idle", "horizon")
    state = sim.state()
    assert state.leader.startswith("scheduler-a_")
    assert sim.action_errors == ()
