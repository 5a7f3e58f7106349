"""The loop's clock skips the flushes and sweeps that would change nothing (issue 17 item 3): a long quiet
stretch costs no callbacks, and every trace, end time and stop reason is what running them gives."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.sim import Simulation
from tests.sim.clusters import SMALL

ROOT = pathlib.Path(__file__).resolve().parents[2]
NO_ELECTION = ("---\napiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
               "leaderElection: {leaderElect: false}\n")
CORDON_AT_290 = "---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  actions:\n  - {at: 290, cordon: n1}\n"


@pytest.mark.parametrize("config, events", [
    (NO_ELECTION, 27),   # nothing but idle flushes, sweeps and PV resyncs between t=15 and t=290: none runs
    ("", 174),           # the leader renews its lease every 2 s: those still run
], ids=["no-leader-election", "leader-election"])
def test_a_quiet_stretch_costs_no_callbacks(config, events):
    sim = Simulation.from_text(SMALL + config + CORDON_AT_290)
    sim.run_until_idle()
    assert (sim.engine.events, sim.time, sim.stopped_reason) == (events, 290.0, "idle")
    assert sim.state().nodes[0].unschedulable


@pytest.mark.parametrize("sample, end", [
    ("default.yaml", (249, 301.0, "horizon", 747)),       # 881 callbacks without the skip, the same trace
    ("lessons/04-queues.yaml", (76, 95.0, "idle", 157)),  # 275 without
])
def test_samples_end_where_they_ended_before(sample, end):
    sim = Simulation.from_path(ROOT / "sample_clusters" / sample, seed=0)
    sim.run_until_idle()
    assert (sim.engine.events, sim.time, sim.stopped_reason, len(sim.trace)) == end
