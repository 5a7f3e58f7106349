"""Claim forms about one scheduling cycle: the pop order, plugin calls per extension point, and
podPassesFiltersOnNode's nominated-pod pass — parsed, then checked against a small live run."""

from __future__ import annotations

import pytest

from kubesched.lessons import claims
from kubesched.sim import Simulation
from kubesched.trace import Kind

PARSED = [
    ("pop order is [web, api, batch]", "pop-order", ("[web, api, batch]",)),
    ("InterPodAffinity calls at PreFilter for web == 1", "calls-at", ("InterPodAffinity", "PreFilter", "web", "1")),
    ("NodeResourcesFit calls at Filter == 3", "calls-at", ("NodeResourcesFit", "Filter", "", "3")),
    ("nominated pods added on n1 for late are [high]", "nominated-added", ("n1", "late", "[high]")),
    ("nominated pods added on n1 are []", "nominated-added", ("n1", "", "[]")),
    ("filter passes on n1 for late == 2", "filter-passes", ("n1", "late", "2")),
]


@pytest.mark.parametrize(("text", "form", "args"), PARSED)
def test_cycle_claims_parse(text: str, form: str, args: tuple[str, ...]) -> None:
    claim = claims.parse(text)
    assert (claim.form, claim.args) == (form, args)


# n1 runs low (priority 0, 1 of 2 CPUs); high (1000, 2 CPUs) preempts it and is nominated to n1;
# late (0, 1 CPU) arrives at t=5 s while low terminates: it would fit beside low, not beside high.
CLUSTER = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
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
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "2"}}}]
---
apiVersion: kubesched/v1alpha1
kind: Scenario
metadata: {name: late}
spec:
  actions:
  - at: 5
    create:
      apiVersion: v1
      kind: Pod
      metadata: {name: late}
      spec:
        containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
"""


@pytest.fixture(scope="module")
def at_late_cycle_end() -> Simulation:
    sim = Simulation.from_yaml(CLUSTER)
    while not any(r.kind is Kind.CYCLE_END and r.pod == "default/late" for r in sim.trace[:sim.cursor]):
        sim.step("pod")
    return sim


CHECKS = [
    ("pop order is [high, late]", True, "['high', 'late']"),
    ("pop order is [late, high]", False, "['high', 'late']"),
    ("NodeResourcesFit calls at PreFilter for high == 1", True, "1"),
    ("NodeResourcesFit calls at Filter for high == 1", True, "1"),          # the preemption simulation is not counted
    ("InterPodAffinity calls at Score for high == 0", True, "0"),
    ("InterPodAffinity calls at PreFilterExtensionAddPod for late == 1", True, "1"),   # adding the nominated high
    ("NodeResourcesFit calls at PreFilterExtensionAddPod for late == 0", True, "0"),   # Fit has no extensions
    ("NodeResourcesFit calls at Filter for late == 2", False, "1"),
    ("nominated pods added on n1 for late are [high]", True, "['high']"),
    ("nominated pods added on n1 for late are []", False, "['high']"),
    ("nominated pods added on n1 for high are []", False, "no pod nominated to the node"),
    ("filter passes on n1 for late == 1", True, "1"),                     # pass 0 failed: no pass 1
    ("filter passes on n1 for late == 2", False, "1"),
]


@pytest.mark.parametrize(("text", "holds", "actual"), CHECKS)
def test_cycle_claims_against_a_nominated_pod(at_late_cycle_end: Simulation, text: str, holds: bool,
                                              actual: str) -> None:
    verdict = claims.check(text, at_late_cycle_end)
    assert (verdict.holds, verdict.actual) == (holds, actual)


def test_a_node_the_walk_did_not_visit_is_a_claim_error(at_late_cycle_end: Simulation) -> None:
    with pytest.raises(claims.ClaimError, match="did not visit n9"):
        claims.check("filter passes on n9 for late == 1", at_late_cycle_end)
