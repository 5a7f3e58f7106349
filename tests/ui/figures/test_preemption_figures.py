"""Preemption figure builders on real traces: attempts, victims per node, pick rounds, victims' fate."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.scheduler.core.preemption import PICK_CRITERIA
from kubesched.sim.simulation import Simulation
from kubesched.trace.records import Kind
from kubesched.ui import theme
from kubesched.ui.figures import preemption as fp

ROOT = Path(__file__).resolve().parents[3]

# One node full of a low-priority ReplicaSet's pods; a high-priority pod arrives at t=5.
REPLICASET_CLUSTER = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata:
  name: only-node
  labels: {kubernetes.io/hostname: only-node}
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "110"}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: filler}
spec:
  replicas: 2
  selector:
    matchLabels: {app: filler}
  template:
    metadata:
      labels: {app: filler}
    spec:
      priorityClassName: low
      containers:
      - {name: c, image: "busybox:1.32", resources: {requests: {cpu: 900m}}}
---
apiVersion: kubesched/v1alpha1
kind: Scenario
spec:
  actions:
  - at: 5
    create:
      apiVersion: v1
      kind: Pod
      metadata: {name: vip}
      spec:
        priorityClassName: high
        containers:
        - {name: c, image: "busybox:1.32", resources: {requests: {cpu: "1"}}}
"""


def _records(source):
    sim = Simulation.from_yaml(source)
    sim.run_until_idle()
    return sim.trace[:len(sim.trace)]


@pytest.fixture(scope="module")
def records():
    return _records(ROOT / "sample_clusters" / "preemption.yaml")


@pytest.fixture(scope="module")
def rs_records():
    return _records(REPLICASET_CLUSTER)


def test_one_attempt_per_preempting_cycle(records):
    attempts = fp.preemption_attempts(records)
    preempts = [r for r in records if r.kind is Kind.PREEMPTION]
    assert [a.cycle for a in attempts] == [r.cycle for r in preempts]
    assert [a.pod for a in attempts] == [r.pod for r in preempts]
    for a in attempts:
        cycle = [r for r in records if r.cycle == a.cycle]
        failure = next(r.data.message for r in cycle if r.kind is Kind.SCHEDULING_FAILURE)
        assert a.failure == failure and a.done
        (run,) = [r.data for r in cycle if r.kind is Kind.PREEMPTION]
        assert [(c.node, c.victims, c.num_pdb_violations) for c in a.candidates] == [
            (v.node, v.victims, v.num_pdb_violations) for v in run.nodes]
        assert a.nominated_node == next(r.node for r in cycle if r.kind is Kind.NOMINATE)
        assert a.victims == tuple(r.pod for r in cycle if r.kind is Kind.VICTIM)


def test_the_showcase_prefers_the_node_without_pdb_violations(records):
    """preemption.yaml: the batch pods are under a PDB allowing no disruption, so node-2 (cache) wins."""
    first = fp.preemption_attempts(records)[0]
    assert first.pod == "default/critical-api" and first.eligible
    by_node = {c.node: c for c in first.candidates}
    assert by_node["node-1"].num_pdb_violations == 1 and by_node["node-2"].num_pdb_violations == 0
    assert first.criterion == "MinPDBViolations" and first.nominated_node == "node-2"
    assert first.rounds == (("MinPDBViolations", ("node-2",)),)


def test_pick_rounds_codes(records):
    first = fp.preemption_attempts(records)[0]
    nodes, rules, codes = fp.pick_rounds(first)
    assert rules == tuple(r for r in PICK_CRITERIA if r != "NoVictims")
    row = dict(zip(nodes, codes))
    assert row["node-1"] == (fp.ROUND_DROPPED,) + (fp.ROUND_OUT,) * (len(rules) - 1)
    assert row["node-2"] == (fp.ROUND_KEPT,) + (fp.ROUND_UNUSED,) * (len(rules) - 1)
    (heat,) = fp.pick_rounds_figure(first).data
    assert heat.type == "heatmap" and (heat.zmin, heat.zmax) == (-0.5, len(theme.FILTER_OUTCOMES) - 0.5)
    assert [list(r) for r in heat.text] == [["✗"] + ["·"] * 5, ["✓"] + ["–"] * 5]
    assert list(heat.y) == ["node-1", "◆ node-2"]


def test_victims_figure_splits_pdb_violations(records):
    for attempt in fp.preemption_attempts(records):
        fig = fp.victims_figure(attempt)
        pdb, plain = fig.data
        fitting = [c for c in attempt.candidates if c.fits]
        assert list(pdb.x) == [sum(v in c.pdb_violating for v in c.victims) for c in fitting]
        assert [a + b for a, b in zip(pdb.x, plain.x)] == [len(c.victims) for c in fitting]
        assert pdb.marker.color != plain.marker.color and pdb.marker.pattern.shape == "/"
        assert [y.removeprefix("◆ ") for y in pdb.y] == [c.node for c in fitting]
        assert [y for y in pdb.y if y.startswith("◆")] == [f"◆ {attempt.nominated_node}"]


def test_candidate_rows_show_priorities(records):
    first = fp.preemption_attempts(records)[0]
    rows = fp.candidate_rows(first, {"default/cache-2": 100, "default/batch-2": 100})
    assert [r["node"] for r in rows] == ["node-1", "◆ node-2"]
    assert rows[1]["victims (priority)"] == "default/cache-2 (100)" and rows[0]["PDB violations"] == 1


def test_victims_terminate_with_the_default_grace_period(records):
    for attempt in fp.preemption_attempts(records):
        fates = fp.victim_fates(records, attempt)
        assert [f.pod for f in fates] == list(attempt.victims)
        for f in fates:
            deleted = next(r.time for r in records if r.kind is Kind.INFORMER_EVENT and r.pod == f.pod
                           and r.data.event_type == "DELETED")
            assert f.deleted_at == deleted and f.grace_period == 30  # terminationGracePeriodSeconds default
            assert f.replacement == "" and f.preemptor == attempt.pod


def test_replicaset_victim_is_replaced(rs_records):
    (attempt,) = [a for a in fp.preemption_attempts(rs_records) if a.victims]
    (fate,) = fp.victim_fates(rs_records, attempt, ["default/filler"])
    assert fate.pod.startswith("default/filler-") and fate.preemptor == "default/vip"
    added = [r for r in rs_records if r.kind is Kind.INFORMER_EVENT and r.data.event_type == "ADDED"
             and r.data.object_kind == "Pod" and r.pod.startswith("default/filler-") and r.seq > attempt.start_seq]
    assert fate.replacement == added[0].pod != fate.pod
    assert fate.preempted_at <= fate.replaced_at <= fate.deleted_at
    rows = fp.fate_rows([fate])
    assert rows[0]["replaced by"].startswith(fate.replacement)
    assert fp.victim_fates(rs_records, attempt)[0].replacement == ""  # no controller named: no guess


def test_attempts_are_cut_at_the_cursor(records):
    start = next(r for r in records if r.kind is Kind.PHASE_START and r.data.phase == "Preempt")
    (attempt,) = fp.preemption_attempts(records[:start.seq + 1])   # Preempt started, its record not yet visible
    assert attempt.eligible is None and attempt.potential_nodes == () and attempt.candidates == ()
    assert attempt.nominated_node == "" and not attempt.done
    decided = next(r for r in records if r.kind is Kind.PREEMPTION)
    (attempt,) = fp.preemption_attempts(records[:decided.seq + 1])
    assert attempt.eligible and attempt.potential_nodes == ("node-1", "node-2")
    assert [c.node for c in attempt.candidates] == ["node-1", "node-2"] and attempt.nominated_node == "node-2"
    assert not attempt.done  # the Preempt phase has not ended yet
    assert fp.preemption_attempts(records[:start.seq]) == ()
