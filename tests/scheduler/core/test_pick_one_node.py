"""pickOneNodeForPreemption: each rule deciding on its own, and the decision record."""

from __future__ import annotations

import pytest

from kubesched.scheduler.core import preemption as pr
from kubesched.scheduler.core.preemption import (
    Victims, pick_one_node_for_preemption, pick_one_node_for_preemption_decision)
from tests.scheduler.core.preemption_builders import pod


def victims(*specs, pdb: int = 0) -> Victims:
    """``specs``: (priority, start time) pairs, most important first."""
    return Victims(tuple(pod(f"v{i}", prio, start=start) for i, (prio, start) in enumerate(specs)), pdb)


HALF = -(2**30)

# (name, node -> victims, expected node, deciding rule)
CASES = [
    ("a node without victims wins at once, even after others",
     {"n1": victims((0, 1.0)), "n2": Victims(), "n3": Victims()}, "n2", pr.NO_VICTIMS),
    ("fewest PDB violations beats a lower victim priority",
     {"n1": victims((0, 1.0), pdb=1), "n2": victims((100, 1.0), pdb=0)}, "n2", pr.MIN_PDB_VIOLATIONS),
    ("lowest highest-priority victim beats a smaller sum and fewer victims",
     {"n1": victims((100, 1.0)), "n2": victims((50, 1.0), (50, 1.0), (50, 1.0))}, "n2",
     pr.MIN_HIGHEST_PRIORITY_VICTIM),
    ("the sum adds MaxInt32+1 per victim, so more negative victims cost more",
     {"n1": victims((10, 1.0), (-100, 1.0), (-100, 1.0)), "n2": victims((10, 1.0), (-100, 1.0))}, "n2",
     pr.MIN_SUM_OF_PRIORITIES),
    ("equal adjusted sums: fewest victims",
     {"n1": victims((10, 1.0), (HALF, 1.0), (HALF, 1.0)), "n2": victims((10, 1.0), (0, 1.0))}, "n2",
     pr.MIN_NUMBER_OF_VICTIMS),
    ("latest start time of the highest-priority victims",
     {"n1": victims((10, 100.0), (10, 100.0)), "n2": victims((10, 200.0), (10, 200.0)),
      "n3": victims((10, 150.0), (10, 150.0))}, "n2", pr.LATEST_START_TIME),
    ("the earliest start among a node's highest-priority victims counts, lower ones do not",
     {"n1": victims((10, 300.0), (10, 50.0)), "n2": victims((10, 100.0), (10, 100.0))}, "n2", pr.LATEST_START_TIME),
    ("a full tie keeps the first node in map order",
     {"n1": victims((10, 100.0)), "n2": victims((10, 100.0))}, "n1", pr.FIRST_REMAINING),
    ("a tie on the latest start time keeps the first of the tied nodes",
     {"n1": victims((10, 50.0)), "n2": victims((10, 100.0)), "n3": victims((10, 100.0))}, "n2", pr.FIRST_REMAINING),
    ("a single candidate is decided by the first rule",
     {"n1": victims((10, 1.0), pdb=3)}, "n1", pr.MIN_PDB_VIOLATIONS),
]


@pytest.mark.parametrize("name,node_to_victims,want_node,want_rule", CASES, ids=[c[0] for c in CASES])
def test_each_rule_decides(name, node_to_victims, want_node, want_rule):
    decision = pick_one_node_for_preemption_decision(node_to_victims, now=1000.0)
    assert (decision.node, decision.criterion) == (want_node, want_rule)
    assert pick_one_node_for_preemption(node_to_victims, now=1000.0) == want_node


def test_empty_map_picks_nothing():
    assert pick_one_node_for_preemption_decision({}, now=0.0) == pr.PickDecision(None)


def test_rounds_list_the_survivors_of_each_rule():
    node_to_victims = {"n1": victims((10, 1.0), (0, 1.0)), "n2": victims((10, 1.0), (5, 1.0)),
                       "n3": victims((20, 1.0)), "n4": victims((10, 1.0), (0, 1.0), pdb=1)}
    decision = pick_one_node_for_preemption_decision(node_to_victims, now=0.0)
    assert decision.node == "n1"
    assert decision.rounds == (
        (pr.MIN_PDB_VIOLATIONS, ("n1", "n2", "n3")),
        (pr.MIN_HIGHEST_PRIORITY_VICTIM, ("n1", "n2")),
        (pr.MIN_SUM_OF_PRIORITIES, ("n1",)),
    )


def test_victims_without_start_time_start_now():
    # n1's victim has no start time: it counts as "now", later than n2's explicit start.
    node_to_victims = {"n2": victims((10, 500.0)), "n1": Victims((pod("late", 10),), 0)}
    assert pick_one_node_for_preemption(node_to_victims, now=900.0) == "n1"
    assert pick_one_node_for_preemption(node_to_victims, now=100.0) == "n2"
