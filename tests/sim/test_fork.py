"""apply(edit) at the cursor: the past stays byte for byte, the future forks, reproducibly."""

from __future__ import annotations

import pytest

from kubesched.api.decode import decode_strict
from kubesched.sim import Simulation
from kubesched.sim.edits import Cordon, Create, Delete, Uncordon, Update
from kubesched.sim.simulation import EditError
from kubesched.trace import Kind, digest
from tests.sim.clusters import node, pod

CLUSTER = node("n1", cpu="1") + pod("small", cpu="500m") + pod("big", cpu="2")
"""``big`` fits nowhere until a bigger node arrives."""


def big_node():
    return decode_strict({"apiVersion": "v1", "kind": "Node",
                          "metadata": {"name": "n2", "labels": {"kubernetes.io/hostname": "n2"}},
                          "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                                     "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})


def at_first_failure(sim):
    """Move the cursor to the end of big's first (failed) scheduling cycle."""
    while True:
        sim.step("pod")
        ends = [r for r in sim.trace[:sim.cursor] if r.kind is Kind.CYCLE_END and r.pod == "default/big"]
        if ends:
            assert ends[0].data.result == "failed"
            return sim.cursor


def forked():
    sim = Simulation.from_yaml(CLUSTER)
    cursor = at_first_failure(sim)
    sim.apply(Create(big_node()))
    assert sim.cursor == cursor
    sim.run_until_idle()
    return sim, cursor


def test_create_node_forks_the_future_and_keeps_the_past():
    plain = Simulation.from_yaml(CLUSTER)
    plain.run_until_idle()
    assert plain.stopped_reason == "horizon"
    assert plain.state().pod("default", "big").phase == "Pending"
    sim, cursor = forked()
    assert sim.stopped_reason == "idle"
    assert sim.trace[:cursor] == plain.trace[:cursor]
    assert digest(sim.trace[:cursor]) == digest(plain.trace[:cursor])
    assert sim.trace[cursor:] != plain.trace[cursor:cursor + len(sim.trace) - cursor]
    big = sim.state().pod("default", "big")
    assert (big.phase, big.node) == ("Running", "n2")
    moves = [r.data for r in sim.trace[cursor:] if r.kind is Kind.QUEUE_MOVE and r.pod == "default/big"]
    assert moves[0].event == "NodeAdd"


def test_fork_is_reproducible():
    one, _ = forked()
    two, _ = forked()
    assert digest(one.trace) == digest(two.trace)


def test_edit_history_and_positions():
    sim, cursor = forked()
    (edit,) = sim.edits
    mark = next(m for m in sim.engine.marks if m.trace_len == cursor)
    assert (edit.after_event, edit.time) == (mark.events, mark.time)


def test_edits_made_in_the_past_keep_later_edits():
    sim = Simulation.from_yaml(CLUSTER)
    sim.advance(3)
    sim.apply(Cordon("n1"))
    sim.back(10_000)
    sim.apply(Create(big_node()))
    sim.run_until_idle()
    assert [type(e.edit).__name__ for e in sim.edits] == ["Cordon", "Create"]
    assert sim.engine.api.get("Node", "", "n1").spec.unschedulable is True
    assert sim.state().pod("default", "big").node == "n2"


@pytest.mark.parametrize("edit, check", [
    (Cordon("n1"), lambda api: api.get("Node", "", "n1").spec.unschedulable),
    (Delete("Pod", "default", "small"), lambda api: [p.metadata.name for p in api.list("Pod")] == ["big"]),
])
def test_edits_reach_the_api_server(edit, check):
    sim = Simulation.from_yaml(CLUSTER)
    sim.advance(2)
    sim.apply(edit)
    sim.advance(60)
    assert check(sim.engine.api)


def test_uncordon_and_update_round_trip():
    sim = Simulation.from_yaml(CLUSTER)
    sim.apply(Cordon("n1"))
    sim.apply(Uncordon("n1"))
    node1 = sim.engine.api.get("Node", "", "n1")
    relabelled = node1.__class__(metadata=node1.metadata.__class__(name="n1", labels={"tier": "gold"}),
                                 spec=node1.spec, status=node1.status)
    sim.apply(Update(relabelled))
    sim.run_until_idle()
    stored = sim.engine.api.get("Node", "", "n1")
    assert (stored.spec.unschedulable, stored.metadata.labels) == (False, {"tier": "gold"})
    assert sim.state().node("n1").labels == (("tier", "gold"),)


def test_refused_edit_changes_nothing():
    sim = Simulation.from_yaml(CLUSTER)
    sim.step("pod")
    before = (sim.cursor, digest(sim.trace), sim.engine)
    with pytest.raises(EditError, match="delete Pod default/ghost"):
        sim.apply(Delete("Pod", "default", "ghost"))
    assert (sim.cursor, digest(sim.trace), sim.engine) == before
    assert sim.edits == []
