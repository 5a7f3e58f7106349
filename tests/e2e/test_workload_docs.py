"""The Kubernetes docs' workload and storage examples, end to end through Simulation (controllers + scheduler).

Each manifest is the docs' own (2020, v1.18 docs), with nodes added. The expected outcome is
what the page states, or, where it states none, the 1.18 derivation written next to it.
"""

from __future__ import annotations

import pathlib

from kubesched.sim import Simulation

NODE = """---
apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{kubernetes.io/hostname: {name}}}
{spec}status:
  capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}
"""


def node(name: str, taints: str = "") -> str:
    return NODE.format(name=name, spec=f"spec:\n  taints: {taints}\n" if taints else "")


def run(text: str) -> Simulation:
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    return sim


def events_of(sim: Simulation, kind: str, name: str) -> list[tuple]:
    return [(e.first_timestamp, e.count, e.type, e.reason, e.message)
            for e in sorted(sim.engine.api.list("Event"), key=lambda e: (e.first_timestamp, e.metadata.name))
            if (e.involved_object.kind, e.involved_object.name) == (kind, name)]


# https://kubernetes.io/docs/tasks/configure-pod-container/configure-persistent-volume-storage/
PV_TASK = """
apiVersion: v1
kind: PersistentVolume
metadata:
  name: task-pv-volume
  labels:
    type: local
spec:
  storageClassName: manual
  capacity:
    storage: 10Gi
  accessModes:
    - ReadWriteOnce
  hostPath:
    path: "/mnt/data"
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: task-pv-claim
spec:
  storageClassName: manual
  accessModes:
    - ReadWriteOnce
  resources:
    requests:
      storage: 3Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: task-pv-pod
spec:
  volumes:
    - name: task-pv-storage
      persistentVolumeClaim:
        claimName: task-pv-claim
  containers:
    - name: task-pv-container
      image: nginx
      ports:
        - containerPort: 80
          name: "http-server"
"""


def test_pv_task_claim_binds_and_the_pod_runs_on_the_node() -> None:
    # the page: "kubectl get pv task-pv-volume" STATUS Bound, CLAIM default/task-pv-claim;
    # "kubectl get pvc task-pv-claim" STATUS Bound, VOLUME task-pv-volume, CAPACITY 10Gi, RWO, manual
    sim = run(node("node-1") + "---" + PV_TASK)
    api = sim.engine.api
    pv = api.get("PersistentVolume", "", "task-pv-volume")
    pvc = api.get("PersistentVolumeClaim", "default", "task-pv-claim")
    assert (pv.status.phase, f"{pv.spec.claim_ref.namespace}/{pv.spec.claim_ref.name}") == (
        "Bound", "default/task-pv-claim")
    assert (pvc.status.phase, pvc.spec.volume_name, str(pvc.status.capacity["storage"]), pvc.status.access_modes,
            pvc.spec.storage_class_name) == ("Bound", "task-pv-volume", "10Gi", ("ReadWriteOnce",), "manual")
    pod = api.get("Pod", "default", "task-pv-pod")
    assert (pod.spec.node_name, pod.status.phase) == ("node-1", "Running")
    # the PV controller bound the claim before the scheduler first tried: one attempt, no FailedScheduling
    assert [e[3] for e in events_of(sim, "Pod", "task-pv-pod")] == ["Scheduled"]


# https://kubernetes.io/docs/concepts/storage/storage-classes/#local and
# https://kubernetes.io/docs/concepts/storage/volumes/#local (the PV), with a claim and a pod using it
LOCAL = """
kind: StorageClass
apiVersion: storage.k8s.io/v1
metadata:
  name: local-storage
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: example-pv
spec:
  capacity:
    storage: 100Gi
  volumeMode: Filesystem
  accessModes:
  - ReadWriteOnce
  persistentVolumeReclaimPolicy: Delete
  storageClassName: local-storage
  local:
    path: /mnt/disks/ssd1
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - key: kubernetes.io/hostname
          operator: In
          values:
          - example-node
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: local-claim
spec:
  storageClassName: local-storage
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 50Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: local-user
spec:
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: local-claim
  containers:
  - name: app
    image: nginx
"""


def test_local_volume_binds_when_its_consumer_is_scheduled_to_the_volumes_node() -> None:
    # the page: WaitForFirstConsumer "will delay the binding and provisioning of a PersistentVolume until a
    # Pod using the PersistentVolumeClaim is created"; the PV's nodeAffinity sends the pod to example-node
    sim = run(node("another-node") + node("example-node") + node("third-node") + "---" + LOCAL)
    api = sim.engine.api
    assert api.get("Pod", "default", "local-user").spec.node_name == "example-node"
    pvc = api.get("PersistentVolumeClaim", "default", "local-claim")
    assert (pvc.status.phase, pvc.spec.volume_name) == ("Bound", "example-pv")
    assert api.get("PersistentVolume", "", "example-pv").status.phase == "Bound"
    assert events_of(sim, "PersistentVolumeClaim", "local-claim") == [
        (0.0, 1, "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding")]


def test_a_local_claim_without_its_consumer_stays_pending() -> None:
    without_pod = LOCAL[:LOCAL.index("---\napiVersion: v1\nkind: Pod")]
    sim = run(node("example-node") + "---" + without_pod)
    api = sim.engine.api
    assert api.get("PersistentVolumeClaim", "default", "local-claim").status.phase == "Pending"
    assert api.get("PersistentVolume", "", "example-pv").status.phase == "Available"


# https://kubernetes.io/docs/tutorials/stateful-application/basic-stateful-set/ (web.yaml), its claims
# served by two local volumes (one per node) of the class above
WEB = """
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: "nginx"
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: k8s.gcr.io/nginx-slim:0.8
        ports:
        - containerPort: 80
          name: web
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      storageClassName: local-storage
      resources:
        requests:
          storage: 1Gi
"""


def local_pv(name: str, node_name: str) -> str:
    return f"""---
apiVersion: v1
kind: PersistentVolume
metadata: {{name: {name}}}
spec:
  capacity: {{storage: 5Gi}}
  accessModes: [ReadWriteOnce]
  storageClassName: local-storage
  local: {{path: /mnt/disks/ssd1}}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [{node_name}]}}]
"""


def test_stateful_set_with_claims_over_local_volumes() -> None:
    # the tutorial: web-0 is created first and web-1 "is not launched until web-0 is Running and Ready";
    # claims www-web-0 and www-web-1 are Bound. With one local volume per node, web-1 must take the other node.
    storage_class = LOCAL[:LOCAL.index("---")]
    text = (node("node-a") + node("node-b") + "---" + storage_class + local_pv("pv-a", "node-a")
            + local_pv("pv-b", "node-b") + "---" + WEB)
    sim = run(text)
    api = sim.engine.api
    pods = {p.metadata.name: p for p in api.list("Pod")}
    assert sorted(pods) == ["web-0", "web-1"]
    # web-0's claim is WaitForFirstConsumer: BindPodVolumes' poll binds web-0 at t=1, the kubelet starts it at t=2
    assert (pods["web-0"].metadata.creation_timestamp, pods["web-1"].metadata.creation_timestamp) == (0.0, 2.0)
    assert pods["web-1"].metadata.creation_timestamp == pods["web-0"].status.start_time  # Running and Ready
    assert {pods["web-0"].spec.node_name, pods["web-1"].spec.node_name} == {"node-a", "node-b"}
    for ordinal in (0, 1):
        claim = api.get("PersistentVolumeClaim", "default", f"www-web-{ordinal}")
        volume = api.get("PersistentVolume", "", claim.spec.volume_name)
        node_of_volume = volume.spec.node_affinity.required.node_selector_terms[0].match_expressions[0].values[0]
        assert (claim.status.phase, node_of_volume) == ("Bound", pods[f"web-{ordinal}"].spec.node_name)


# https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/ (controllers/daemonset.yaml)
FLUENTD = """
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
  labels:
    k8s-app: fluentd-logging
spec:
  selector:
    matchLabels:
      name: fluentd-elasticsearch
  template:
    metadata:
      labels:
        name: fluentd-elasticsearch
    spec:
      tolerations:
      # this toleration is to have the daemonset runnable on master nodes
      # remove it if your masters can't run pods
      - key: node-role.kubernetes.io/master
        effect: NoSchedule
      containers:
      - name: fluentd-elasticsearch
        image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
        resources:
          limits:
            memory: 200Mi
          requests:
            cpu: 100m
            memory: 200Mi
      terminationGracePeriodSeconds: 30
"""

NODE_LATER = """---
apiVersion: kubesched/v1alpha1
kind: Scenario
spec:
  actions:
  - at: 30
    create:
      apiVersion: v1
      kind: Node
      metadata: {name: worker-3, labels: {kubernetes.io/hostname: worker-3}}
      status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def test_daemon_set_runs_one_pod_on_every_node_and_on_a_node_added_later() -> None:
    # the page: "As nodes are added to the cluster, Pods are added to them"; the toleration lets it run on
    # the master; each pod is bound by the default scheduler to the node its affinity names
    master = node("master", "[{key: node-role.kubernetes.io/master, effect: NoSchedule}]")
    sim = run(master + node("worker-1") + node("worker-2") + "---" + FLUENTD + NODE_LATER)
    api = sim.engine.api
    pods = sorted(api.list("Pod", "kube-system"), key=lambda p: p.spec.node_name)
    assert [(p.spec.node_name, p.metadata.creation_timestamp, p.status.phase) for p in pods] == [
        ("master", 0.0, "Running"), ("worker-1", 0.0, "Running"), ("worker-2", 0.0, "Running"),
        ("worker-3", 30.0, "Running")]
    for p in pods:
        assert [e[3] for e in events_of(sim, "Pod", p.metadata.name)] == ["Scheduled"]
    ds = api.get("DaemonSet", "kube-system", "fluentd-elasticsearch")
    assert (ds.status.desired_number_scheduled, ds.status.number_ready) == (4, 4)


# https://kubernetes.io/docs/concepts/workloads/controllers/job/ (controllers/job.yaml)
PI = """
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl
      restartPolicy: Never
  backoffLimit: 4
"""


def test_job_runs_its_pod_to_completion() -> None:
    # the page: "Pods Statuses: 0 Running / 1 Succeeded / 0 Failed"; completions and parallelism default to 1.
    # kubesched's pods run 10 s (kubelet model): bound at 0 s, Running at 1 s, Succeeded at 11 s
    sim = run(node("node-1") + "---" + PI)
    api = sim.engine.api
    [pod] = api.list("Pod")
    assert (pod.metadata.name.startswith("pi-"), pod.status.phase) == (True, "Succeeded")
    job = api.get("Job", "default", "pi")
    assert (job.spec.completions, job.spec.parallelism, job.status.succeeded, job.status.active,
            job.status.completion_time, [c.type for c in job.status.conditions]) == (1, 1, 1, 0, 11.0, ["Complete"])


def test_the_workloads_sample_cluster() -> None:
    path = pathlib.Path(__file__).resolve().parents[2] / "sample_clusters" / "workloads.yaml"
    sim = Simulation.from_yaml(path)
    sim.run_until_idle()
    api = sim.engine.api
    agents = sorted(p.spec.node_name for p in api.list("Pod", "kube-system"))
    assert agents == ["node-1", "node-2"]  # gpu-1's taint is not tolerated
    db = {p.metadata.name: p for p in api.list("Pod", "default") if p.metadata.name.startswith("db-")}
    assert [db[n].metadata.creation_timestamp for n in ("db-0", "db-1")] == [0.0, 2.0]  # db-0 bound at t=1 (poll)
    assert {db["db-0"].spec.node_name, db["db-1"].spec.node_name} == {"node-1", "node-2"}
    reports = sorted(p.metadata.creation_timestamp for p in api.list("Pod", "default")
                     if p.metadata.name.startswith("report-"))
    assert reports == [0.0, 0.0, 11.0]
    assert api.get("Job", "default", "report").status.completion_time == 22.0
    assert all(c.status.phase == "Bound" for c in api.list("PersistentVolumeClaim"))


# https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ (application/job/cronjob.yaml)
HELLO = """
apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "*/1 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox
          restartPolicy: OnFailure
"""

HELLO_JOB = """---
apiVersion: kubesched/v1alpha1
kind: Scenario
spec:
  actions:
  - at: 60
    create:
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: hello-1593594000
        ownerReferences: [{apiVersion: batch/v1beta1, kind: CronJob, name: hello, uid: 5f3c1a8e-cron-hello, controller: true}]
      spec:
        template:
          spec:
            containers: [{name: hello, image: busybox}]
            restartPolicy: OnFailure
"""


def test_a_cron_job_runs_only_the_job_a_scenario_action_creates() -> None:
    # kubesched starts no Job on the clock: at 60 s a Scenario action creates the Job the CronJob would
    sim = run(node("node-1") + "---" + HELLO + HELLO_JOB)
    api = sim.engine.api
    [pod] = api.list("Pod")
    assert (pod.metadata.name.startswith("hello-1593594000-"), pod.metadata.creation_timestamp,
            pod.status.phase) == (True, 60.0, "Succeeded")
    assert api.get("Job", "default", "hello-1593594000").status.completion_time == 71.0
