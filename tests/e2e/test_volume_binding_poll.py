"""Issue 13 item 2: BindPodVolumes waits for its poll (``wait.Poll(time.Second, bindTimeout, …)``).

A pod with an unbound WaitForFirstConsumer claim (a matching PV exists) is assumed at t=0 but
bound only at the poll's first check, t=1; a pod whose claims are all bound skips BindPodVolumes and binds at t=0.
"""

from __future__ import annotations

from kubesched.cli.run import report
from kubesched.sim import Simulation
from kubesched.trace import Kind
from tests.sim.clusters import node

def wait_class_and_claim(class_name: str, provisioner: str, storage: str) -> str:
    """A WaitForFirstConsumer StorageClass and the claim ``data`` of that class."""
    return f"""---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {{name: {class_name}}}
provisioner: {provisioner}
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {{name: data, namespace: default}}
spec:
  storageClassName: {class_name}
  accessModes: [ReadWriteOnce]
  resources: {{requests: {{storage: {storage}}}}}
"""


STORAGE = wait_class_and_claim("wait", "kubernetes.io/no-provisioner", "1Gi") + """---
apiVersion: v1
kind: PersistentVolume
metadata: {name: local-1}
spec:
  storageClassName: wait
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /data}
status: {phase: Available}
"""


def pod_with(name: str, claim: str = "") -> str:
    volumes = f"\n  volumes:\n  - name: v\n    persistentVolumeClaim: {{claimName: {claim}}}" if claim else ""
    return f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  containers: [{{name: c, image: nginx}}]{volumes}
"""


def run(text: str) -> Simulation:
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    return sim


def phases(sim: Simulation, pod: str) -> list[tuple[float, str, str, str]]:
    return [(r.time, r.kind.value, r.data.phase, r.data.code) for r in sim.trace
            if r.kind in (Kind.PHASE_START, Kind.PHASE_END) and r.pod == f"default/{pod}"
            and r.data.phase in ("Reserve", "BindVolumes", "PreBind", "Bind")]


def test_unbound_wait_for_first_consumer_claim_binds_one_second_after_the_cycle():
    sim = run(node("n1") + STORAGE + pod_with("db", "data"))
    assert phases(sim, "db") == [
        (0.0, "PHASE_START", "Reserve", ""), (0.0, "PHASE_END", "Reserve", "Success"),
        (0.0, "PHASE_START", "BindVolumes", ""), (1.0, "PHASE_END", "BindVolumes", "Success"),
        (1.0, "PHASE_START", "PreBind", ""), (1.0, "PHASE_END", "PreBind", "Success"),
        (1.0, "PHASE_START", "Bind", ""), (1.0, "PHASE_END", "Bind", "Success")]
    data = report(sim)
    assert [(c["cycle"], c["time"], c["pod"], c["node"]) for c in data["cycles"]] == [(1, 0.0, "default/db", "n1")]
    assert [(p["name"], p["node"], p["boundAt"]) for p in data["pods"]] == [("db", "n1", 1.0)]
    scheduled = [(e["time"], e["message"]) for e in data["events"] if e["reason"] == "Scheduled"]
    assert scheduled == [(1.0, "Successfully assigned default/db to n1")]
    claim = sim.engine.api.get("PersistentVolumeClaim", "default", "data")
    volume = sim.engine.api.get("PersistentVolume", "", "local-1")
    assert (claim.spec.volume_name, volume.spec.claim_ref.name, volume.status.phase) == ("local-1", "data", "Bound")


def test_a_pod_without_claims_to_bind_is_not_delayed_and_the_next_cycle_does_not_wait():
    sim = run(node("n1") + STORAGE + pod_with("db", "data") + pod_with("web"))
    data = report(sim)
    assert [(c["cycle"], c["time"], c["pod"]) for c in data["cycles"]] == [(1, 0.0, "default/db"),
                                                                          (2, 0.0, "default/web")]
    assert [(p["name"], p["boundAt"]) for p in data["pods"]] == [("db", 1.0), ("web", 0.0)]
    assert [r.time for r in sim.trace if r.kind is Kind.PHASE_START and r.data.phase == "BindVolumes"] == [0.0]


PROVISIONED = wait_class_and_claim("fast", "example.com/csi", "2Gi")


def test_a_claim_to_provision_gets_its_pv_and_the_pod_binds_at_the_first_check():
    sim = run(node("n1") + PROVISIONED + pod_with("db", "data"))
    assert [(p["name"], p["node"], p["boundAt"]) for p in report(sim)["pods"]] == [("db", "n1", 1.0)]
    api = sim.engine.api
    claim = api.get("PersistentVolumeClaim", "default", "data")
    volume = api.get("PersistentVolume", "", f"pvc-{claim.metadata.uid}")
    assert (claim.spec.volume_name, claim.metadata.annotations["volume.kubernetes.io/selected-node"]) == (
        volume.metadata.name, "n1")
    assert (volume.status.phase, volume.spec.claim_ref.name, str(volume.spec.capacity["storage"]),
            volume.spec.storage_class_name) == ("Bound", "data", "2Gi", "fast")
