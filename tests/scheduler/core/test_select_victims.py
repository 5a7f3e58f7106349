"""selectVictimsOnNode, filterPodsWithPDBViolation and selectNodesForPreemption."""

from __future__ import annotations

import pytest

from kubesched.scheduler.core.preemption import (
    PreemptionReport, Victims, filter_pods_with_pdb_violation, select_nodes_for_preemption, select_victims_on_node)
from kubesched.scheduler.framework.v1alpha1.framework import (
    PRE_FILTER_EXTENSION_ADD_POD as ADD, PRE_FILTER_EXTENSION_REMOVE_POD as REMOVE)
from tests.scheduler.core.preemption_builders import Recorder, node, pdb, pod, setup

APP = {"app": "x"}


def names(pods):
    return [p.metadata.name for p in pods]


# ----------------------------------------------------------------------------- filterPodsWithPDBViolation

PDB_CASES = [
    ("no PDB: nothing violates", [], ["a", "b", "c"], []),
    ("the budget is consumed in order", [pdb("p", APP, 1)], ["a", "c"], ["b"]),
    ("zero budget: every matching pod violates", [pdb("p", APP, 0)], ["c"], ["a", "b"]),
    ("another namespace does not match", [pdb("p", APP, 0, namespace="other")], ["a", "b", "c"], []),
    ("an empty selector matches nothing", [pdb("p", {}, 0)], ["a", "b", "c"], []),
    ("a missing selector matches nothing", [pdb("p", None, 0)], ["a", "b", "c"], []),
    ("a pod violates once one matching PDB is exhausted",
     [pdb("p", APP, 5), pdb("q", {"tier": "db"}, 0)], ["a", "c"], ["b"]),
    ("a negative allowance counts as exhausted", [pdb("p", APP, -1)], ["c"], ["a", "b"]),
]


@pytest.mark.parametrize("name,pdbs,want_ok,want_violating", PDB_CASES, ids=[c[0] for c in PDB_CASES])
def test_filter_pods_with_pdb_violation(name, pdbs, want_ok, want_violating):
    pods = [pod("a", labels=APP), pod("b", labels={"app": "x", "tier": "db"}), pod("c")]
    violating, non_violating = filter_pods_with_pdb_violation(pods, pdbs)
    assert (names(non_violating), names(violating)) == (want_ok, want_violating)


# ----------------------------------------------------------------------------- selectVictimsOnNode

def on_node(pdbs=(), *, preemptor_cpu="600m"):
    """Node n1 (1000m) with three lower-priority 300m pods; the preemptor needs ``preemptor_cpu``."""
    pods = [pod("a", 10, "n1", "300m", start=1.0, labels=APP),
            pod("b", 20, "n1", "300m", start=2.0, labels=APP),
            pod("c", 5, "n1", "300m", start=3.0),
            pod("keep", 2000, "n1", "100m", start=0.0)]
    preemptor = pod("p", 1000, cpu=preemptor_cpu)
    g, prof, state, snapshot = setup(pods, [node("n1")], preemptor, pdbs)
    return g, prof, state, snapshot, preemptor


REPRIEVE_CASES = [
    # Without a PDB the most important pod (b) is reprieved first.
    ("no PDB: reprieve by importance", (), ["a", "c"], 0),
    # b consumes the only disruption, so a violates and is reprieved first, evicting b.
    ("PDB-violating pods are reprieved first", (pdb("p", APP, 1),), ["b", "c"], 0),
    # Both a and b violate: b (more important) is reprieved, a is a violating victim.
    ("violating victims come first and are counted", (pdb("p", APP, 0),), ["a", "c"], 1),
]


@pytest.mark.parametrize("name,pdbs,want_victims,want_violations", REPRIEVE_CASES,
                         ids=[c[0] for c in REPRIEVE_CASES])
def test_reprieve_order(name, pdbs, want_victims, want_violations):
    g, prof, state, snapshot, preemptor = on_node(pdbs)
    info = snapshot.get("n1").clone()
    victims, violations, fits = select_victims_on_node(g, prof, state.clone(), preemptor, info, list(pdbs), 100.0)
    assert (names(victims), violations, fits) == (want_victims, want_violations, True)
    # The working NodeInfo ends with the victims removed and the reprieved pods back.
    assert sorted(names(info.pods)) == sorted({"a", "b", "c", "keep"} - set(want_victims))


def test_equal_priority_later_start_is_evicted_first():
    pods = [pod("early", 10, "n1", "400m", start=1.0), pod("late", 10, "n1", "400m", start=2.0)]
    preemptor = pod("p", 1000, cpu="500m")
    g, prof, state, snapshot = setup(pods, [node("n1")], preemptor)
    victims, _, fits = select_victims_on_node(g, prof, state, preemptor, snapshot.get("n1").clone(), [], 10.0)
    assert (names(victims), fits) == (["late"], True)


def test_no_fit_even_without_lower_priority_pods():
    pods = [pod("high", 2000, "n1", "800m"), pod("low", 0, "n1", "100m")]
    preemptor = pod("p", 1000, cpu="500m")
    g, prof, state, snapshot = setup(pods, [node("n1")], preemptor)
    assert select_victims_on_node(g, prof, state, preemptor, snapshot.get("n1").clone(), [], 0.0) == ([], 0, False)


def test_select_nodes_works_on_clones_and_reports_each_node():
    pods = [pod("a", 0, "n1", "600m"), pod("b", 5000, "n2", "600m"), pod("c", 0, "n3", "100m")]
    preemptor = pod("p", 1000, cpu="500m")
    report = PreemptionReport()
    g, prof, state, snapshot = setup(pods, [node("n1"), node("n2"), node("n3")], preemptor, observer=Recorder())
    before = state.keys()
    result = select_nodes_for_preemption(g, prof, state, preemptor, snapshot.list(), [], 0.0, report)
    assert result == {"n1": Victims((pods[0],), 0), "n3": Victims((), 0)}
    assert [sorted(i.pods, key=lambda p: p.metadata.name) for i in snapshot.list()] == [[pods[0]], [pods[1]], [pods[2]]]
    assert state.keys() == before
    assert [(v.node, v.fits, names(v.victims)) for v in report.nodes] == [
        ("n1", True, ["a"]), ("n2", False, []), ("n3", True, [])]
    # n1: a removed, the pod fits; a re-added, the pod no longer fits, so a is removed again (the victim)
    steps = [(s[0], s[1].metadata.name) if isinstance(s, tuple) else bool(s.passes) for s in report.nodes[0].steps]
    assert steps == [(REMOVE, "a"), False, (ADD, "a"), True, (REMOVE, "a")]
