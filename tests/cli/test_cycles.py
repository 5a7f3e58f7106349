"""kubesched.explain.cycles: the result of a cycle and the per-cycle summaries of a run."""

from __future__ import annotations

import pytest

from kubesched.explain.cycles import classify, cycle_summaries
from tests.cli.clusters import AFFINITY_REASON, TAINT_REASON, THREE_NODES
from tests.cli.conftest import simulated

CLASSIFY = [
    # schedule phase code, CYCLE_END result, binding result, SchedulingFailure reason -> result
    ("Success", "assumed", "", None, "scheduled"),            # binding cycle still running
    ("Success", "assumed", "bound", None, "scheduled"),
    ("Success", "assumed", "failed", "SchedulerError", "error"),           # Bind rejected
    ("Success", "assumed", "failed", "Unschedulable", "unschedulable"),    # WaitOnPermit rejected
    ("Unschedulable", "failed", "", "Unschedulable", "unschedulable"),     # FitError / no nodes
    ("Error", "failed", "", "Unschedulable", "error"),       # Schedule error: upstream's reason is still Unschedulable
    ("Success", "failed", "", "SchedulerError", "error"),    # Reserve / AssumePod failure
    ("Success", "failed", "", "Unschedulable", "unschedulable"),          # Permit rejected
]


@pytest.mark.parametrize("code, end, binding, reason, expected", CLASSIFY)
def test_classify(code, end, binding, reason, expected):
    assert classify(code, end, binding, reason) == expected


def test_summaries_of_the_three_node_cluster():
    sim = simulated(THREE_NODES)
    rows: dict[str, set] = {}
    for c in cycle_summaries(sim.trace):   # pending pods may be retried (flushes) with the same outcome
        rows.setdefault(c.pod, set()).add((c.result, c.node, c.evaluated_nodes, c.feasible_nodes, c.message))
    assert rows == {
        "default/small": {("scheduled", "small-node", 3, 2, "")},
        "default/tolerant": {("scheduled", "gpu-node", 3, 3, "")},
        "default/hungry": {("unschedulable", "", 3, 0,
                            f"0/3 nodes are available: 1 {TAINT_REASON}, 2 Insufficient cpu.")},
        "default/picky": {("unschedulable", "", 3, 0, f"0/3 nodes are available: 3 {AFFINITY_REASON}.")},
    }
    cycles = [c.cycle for c in cycle_summaries(sim.trace)]
    assert cycles == sorted(cycles) and len(set(cycles)) == len(cycles)
    assert {c.profile for c in cycle_summaries(sim.trace)} == {"default-scheduler"}
