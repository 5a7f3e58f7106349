"""Issue 13 item 6: a Pod ``update`` action gets the same defaulting as ``create``, so it only has to
say what changes (here: a toleration that lets a pending pod onto a tainted node at t=5)."""

from __future__ import annotations

from kubesched.cli.run import report
from kubesched.sim import Simulation
from tests.sim.clusters import scenario

CLUSTER = """---
apiVersion: v1
kind: Node
metadata:
  name: gpu-1
  labels: {kubernetes.io/hostname: gpu-1}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch}
value: 1000
globalDefault: true
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default, labels: {app: train}}
spec:
  containers: [{name: c, image: "trainer:1", resources: {requests: {cpu: "1"}}}]
"""
# The manifest repeats neither schedulerName, terminationGracePeriodSeconds, restartPolicy, priority,
# priorityClassName nor preemptionPolicy, which the API server set when the pod was created.
TOLERATE = ("{at: 5, update: {apiVersion: v1, kind: Pod, metadata: {name: trainer, labels: {app: train}}, "
            "spec: {containers: [{name: c, image: 'trainer:1', resources: {requests: {cpu: '1'}}}], "
            "tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]}}}")
RESIZE = ("{at: 5, update: {apiVersion: v1, kind: Pod, metadata: {name: trainer}, "
          "spec: {containers: [{name: c, image: 'trainer:1', resources: {requests: {cpu: '2'}}}]}}}")


def run(text: str) -> Simulation:
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    return sim


def test_an_update_that_only_adds_a_toleration_is_accepted_and_the_pod_is_scheduled_at_once():
    sim = run(CLUSTER + scenario(TOLERATE))
    assert sim.action_errors == ()
    cycles = [(c["cycle"], c["time"], c["result"], c["node"]) for c in report(sim)["cycles"]]
    assert cycles == [(1, 0.0, "unschedulable", None), (2, 5.0, "scheduled", "gpu-1")]
    stored = sim.engine.api.get("Pod", "default", "trainer")
    spec = stored.spec
    assert (spec.scheduler_name, spec.termination_grace_period_seconds, spec.priority, spec.priority_class_name,
            spec.preemption_policy, spec.node_name) == ("default-scheduler", 30, 1000, "batch",
                                                        "PreemptLowerPriority", "gpu-1")
    # DefaultTolerationSeconds admission runs on update too (plugin/pkg/admission/defaulttolerationseconds)
    assert [t.key for t in spec.tolerations] == [
        "dedicated", "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]
    assert sim.state().pod("default", "trainer").bound_at == 5.0


def test_an_update_that_changes_a_fixed_field_is_still_forbidden():
    sim = run(CLUSTER + scenario(RESIZE))
    (refused,) = sim.action_errors
    assert (refused.index, refused.time, refused.action) == (0, 5.0, "update Pod default/trainer")
    assert refused.error.startswith('Pod "trainer" is invalid: spec: Forbidden: pod updates may not change fields')
    assert sim.engine.api.get("Pod", "default", "trainer").spec.containers[0].resources.requests["cpu"].milli_value() \
        == 1000
