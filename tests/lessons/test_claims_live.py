"""Claim forms about preemption and terminating pods, checked against a small live run."""

from __future__ import annotations

from kubesched.lessons import claims
from kubesched.sim import Simulation
from kubesched.trace import Kind

CLUSTER = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
status: {capacity: {cpu: "1", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, zone: b}}
status: {capacity: {cpu: "4", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low}
spec:
  nodeName: n1
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: high}
spec:
  priorityClassName: high
  nodeSelector: {zone: a}
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
"""


def test_preemption_claims_and_a_terminating_victim():
    sim = Simulation.from_yaml(CLUSTER)
    while not any(r.kind is Kind.CYCLE_END and r.pod == "default/high" for r in sim.trace[:sim.cursor]):
        sim.step("pod")
    sim.step("event")
    verdicts = {v.claim.text: (v.holds, v.actual) for v in claims.check_all([
        "potential nodes for preemption of high are [n1]",
        "node n2 is unresolvable for preemption of high",
        "node n1 is unresolvable for preemption of high",
        "preemption did not run for high",
        "preemption for high is not eligible because TerminatingPodsOnNominatedNode",
        "pod low is Terminating",
    ], sim)}
    assert verdicts == {
        "potential nodes for preemption of high are [n1]": (True, "['n1']"),
        "node n2 is unresolvable for preemption of high": (True, "unresolvable: ['n2']"),
        "node n1 is unresolvable for preemption of high": (False, "unresolvable: ['n2']"),
        "preemption did not run for high": (False, "1 PREEMPTION records"),
        "preemption for high is not eligible because TerminatingPodsOnNominatedNode": (False, "eligible"),
        "pod low is Terminating": (True, "Running (Terminating)"),
    }
