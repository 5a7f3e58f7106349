"""Every supported kind parses from a realistic manifest, with no warnings."""

from __future__ import annotations

import textwrap
from typing import ClassVar, Mapping

import pytest

from kubesched.api import apps, coordination, core, policy, scheduling, storage
from kubesched.api import kinds
from kubesched.api.fields import fld, mapping, model
from kubesched.api.inert import InertObject
from kubesched.api.kinds import KINDS, resolve
from kubesched.api.meta import ObjectMeta
from kubesched.api.validate import CRON_JOB_NOTE
from tests.api.helpers import load

MANIFESTS = {
    "Pod": """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          namespace: shop
          labels: {app: web}
          annotations: {team: storefront}
          ownerReferences:
          - {apiVersion: apps/v1, kind: ReplicaSet, name: web-rs, uid: "1", controller: true}
        spec:
          schedulerName: default-scheduler
          priorityClassName: system-cluster-critical
          nodeSelector: {disktype: ssd}
          initContainers:
          - name: init
            image: busybox
            resources: {requests: {cpu: 200m}}
          containers:
          - name: web
            image: nginx:1.19
            ports: [{containerPort: 80, hostPort: 8080, protocol: TCP, name: http}]
            resources:
              requests: {cpu: 100m, memory: 128Mi, ephemeral-storage: 1Gi}
              limits: {cpu: 500m, memory: 256Mi}
          overhead: {cpu: 10m}
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions: [{key: zone, operator: In, values: [a, b]}]
                  matchFields: [{key: metadata.name, operator: NotIn, values: [node-9]}]
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 10
                preference: {matchExpressions: [{key: gpu, operator: DoesNotExist}]}
            podAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 20
                podAffinityTerm:
                  labelSelector: {matchLabels: {app: cache}}
                  namespaces: [shop]
                  topologyKey: topology.kubernetes.io/zone
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector: {matchExpressions: [{key: app, operator: In, values: [web]}]}
                topologyKey: kubernetes.io/hostname
          tolerations:
          - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
          volumes:
          - {name: data, persistentVolumeClaim: {claimName: data}}
          - {name: gce, gcePersistentDisk: {pdName: disk-1, fsType: ext4}}
          - {name: ebs, awsElasticBlockStore: {volumeID: vol-1}}
          - {name: azure, azureDisk: {diskName: d, diskURI: "https://x/d"}}
          - {name: cinder, cinder: {volumeID: c-1}}
          - {name: rbd, rbd: {monitors: ["10.0.0.1:6789"], image: img}}
          - {name: iscsi, iscsi: {targetPortal: "10.0.0.2:3260", iqn: "iqn.2001-04.com.example:storage", lun: 0}}
          - {name: csi, csi: {driver: ebs.csi.aws.com, volumeAttributes: {size: "1"}}}
          - {name: host, hostPath: {path: /var/log, type: Directory}}
          - {name: tmp, emptyDir: {}}
          - {name: cfg, configMap: {name: web-config}}
        status:
          phase: Pending
          nominatedNodeName: node-2
          conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data, namespace: shop}
        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
        """,
    "Node": """
        apiVersion: v1
        kind: Node
        metadata:
          name: node-1
          labels: {kubernetes.io/hostname: node-1}
          annotations:
            scheduler.alpha.kubernetes.io/preferAvoidPods: '{"preferAvoidPods":[]}'
        spec:
          unschedulable: false
          taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110", nvidia.com/gpu: "1"}
          allocatable: {cpu: 3900m, memory: 15Gi, pods: "110", nvidia.com/gpu: "1"}
          conditions: [{type: Ready, status: "True"}]
          images: [{names: ["nginx:1.19"], sizeBytes: 132000000}]
        """,
    "PersistentVolume": """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv-1}
        spec:
          capacity: {storage: 10Gi}
          accessModes: [ReadWriteOnce]
          storageClassName: local
          persistentVolumeReclaimPolicy: Retain
          local: {path: /mnt/disk1}
          claimRef: {namespace: default, name: data}
          nodeAffinity:
            required:
              nodeSelectorTerms:
              - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]
        status: {phase: Bound}
        """,
    "PersistentVolumeClaim": """
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: local
          resources: {requests: {storage: 5Gi}}
          volumeName: pv-1
        status: {phase: Bound}
        """,
    "StorageClass": """
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: local}
        provisioner: kubernetes.io/no-provisioner
        volumeBindingMode: WaitForFirstConsumer
        reclaimPolicy: Delete
        allowedTopologies:
        - matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [zone-a]}]
        """,
    "CSINode": """
        apiVersion: storage.k8s.io/v1
        kind: CSINode
        metadata: {name: node-1}
        spec:
          drivers:
          - {name: ebs.csi.aws.com, nodeID: i-123, topologyKeys: [topology.ebs.csi.aws.com/zone], allocatable: {count: 25}}
        """,
    "Service": """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          selector: {app: web}
          ports: [{port: 80, targetPort: http, protocol: TCP}]
          type: ClusterIP
        """,
    "ReplicationController": """
        apiVersion: v1
        kind: ReplicationController
        metadata: {name: legacy}
        spec:
          replicas: 1
          selector: {app: legacy}
          template:
            metadata: {labels: {app: legacy}}
            spec: {containers: [{name: c, image: nginx}]}
        """,
    "ReplicaSet": """
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata: {name: rs}
        spec:
          replicas: 1
          selector: {matchLabels: {app: rs}}
          template:
            metadata: {labels: {app: rs}}
            spec: {containers: [{name: c, image: nginx}]}
        """,
    "Deployment": """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: deploy}
        spec:
          replicas: 1
          selector: {matchExpressions: [{key: app, operator: In, values: [deploy]}]}
          template:
            metadata: {labels: {app: deploy}}
            spec: {containers: [{name: c, image: nginx}]}
        """,
    "StatefulSet": """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: db}
        spec:
          replicas: 1
          serviceName: db
          selector: {matchLabels: {app: db}}
          podManagementPolicy: Parallel
          updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0}}
          template:
            metadata: {labels: {app: db}}
            spec: {containers: [{name: c, image: postgres}]}
          volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: fast
              resources: {requests: {storage: 1Gi}}
        status: {replicas: 1, readyReplicas: 1, currentRevision: db-7d9c, updateRevision: db-7d9c}
        """,
    "DaemonSet": """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: fluentd, namespace: kube-system, labels: {k8s-app: fluentd-logging}}
        spec:
          selector: {matchLabels: {name: fluentd}}
          updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}
          minReadySeconds: 0
          revisionHistoryLimit: 10
          template:
            metadata: {labels: {name: fluentd}}
            spec:
              tolerations:
              - {key: node-role.kubernetes.io/master, effect: NoSchedule}
              containers:
              - name: fluentd
                image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
                resources: {limits: {memory: 200Mi}, requests: {cpu: 100m, memory: 200Mi}}
              terminationGracePeriodSeconds: 30
        status: {currentNumberScheduled: 2, desiredNumberScheduled: 2, numberReady: 2, numberMisscheduled: 0}
        """,
    "Job": """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: pi}
        spec:
          completions: 3
          parallelism: 2
          backoffLimit: 4
          activeDeadlineSeconds: 100
          ttlSecondsAfterFinished: 60
          template:
            spec:
              containers:
              - {name: pi, image: perl}
              restartPolicy: Never
        status:
          active: 1
          succeeded: 2
          startTime: "2020-06-01T10:00:00Z"
          conditions: []
        """,
    "CronJob": """
        apiVersion: batch/v1beta1
        kind: CronJob
        metadata: {name: hello}
        spec:
          schedule: "*/1 * * * *"
          concurrencyPolicy: Forbid
          successfulJobsHistoryLimit: 3
          failedJobsHistoryLimit: 1
          jobTemplate:
            spec:
              template:
                spec:
                  containers:
                  - {name: hello, image: busybox}
                  restartPolicy: OnFailure
        """,
    "PodDisruptionBudget": """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata: {name: pdb}
        spec: {minAvailable: 50%, selector: {matchLabels: {app: web}}}
        status: {disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2}
        """,
    "PriorityClass": """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: high}
        value: 1000
        globalDefault: false
        preemptionPolicy: Never
        description: high priority
        """,
    "Namespace": """
        apiVersion: v1
        kind: Namespace
        metadata: {name: shop}
        """,
    "Event": """
        apiVersion: v1
        kind: Event
        metadata: {name: web.1625, namespace: shop}
        involvedObject: {kind: Pod, namespace: shop, name: web}
        reason: FailedScheduling
        message: "0/3 nodes are available: 3 Insufficient cpu."
        type: Warning
        count: 2
        source: {component: default-scheduler}
        """,
    "Endpoints": """
        apiVersion: v1
        kind: Endpoints
        metadata:
          name: kube-scheduler
          namespace: kube-system
          annotations: {control-plane.alpha.kubernetes.io/leader: '{"holderIdentity":"a"}'}
        """,
    "Lease": """
        apiVersion: coordination.k8s.io/v1
        kind: Lease
        metadata: {name: kube-scheduler, namespace: kube-system}
        spec: {holderIdentity: a, leaseDurationSeconds: 15, leaseTransitions: 0}
        """,
}

CHECKS = {
    "Pod": lambda o: (len(o.spec.volumes), o.spec.affinity.pod_anti_affinity
                      .required_during_scheduling_ignored_during_execution[0].topology_key,
                      o.status.nominated_node_name) == (11, "kubernetes.io/hostname", "node-2"),
    "Node": lambda o: (o.spec.taints[0].effect, o.status.allocatable["cpu"].milli_value()) == ("NoSchedule", 3900),
    "PersistentVolume": lambda o: o.spec.local.path == "/mnt/disk1",
    "PersistentVolumeClaim": lambda o: o.spec.resources.requests["storage"].value() == 5 * 2**30,
    "StorageClass": lambda o: o.volume_binding_mode == "WaitForFirstConsumer",
    "CSINode": lambda o: o.spec.drivers[0].allocatable.count == 25,
    "Service": lambda o: o.spec.ports[0].target_port == "http",
    "ReplicationController": lambda o: dict(o.spec.selector) == {"app": "legacy"},
    "ReplicaSet": lambda o: o.spec.replicas == 1,
    "Deployment": lambda o: o.spec.selector.match_expressions[0].values == ("deploy",),
    "StatefulSet": lambda o: (o.spec.service_name, o.spec.pod_management_policy,
                              o.spec.volume_claim_templates[0].metadata.name, o.status.ready_replicas) == (
        "db", "Parallel", "data", 1),
    "DaemonSet": lambda o: (o.spec.selector.match_labels, o.status.number_ready,
                            o.metadata.annotations["deprecated.daemonset.template.generation"]) == (
        {"name": "fluentd"}, 2, "1"),
    "Job": lambda o: (o.spec.completions, o.spec.parallelism, o.spec.backoff_limit, o.status.succeeded,
                      o.spec.template.metadata.labels["job-name"]) == (3, 2, 4, 2, "pi"),
    "CronJob": lambda o: (o.spec.schedule, o.spec.job_template.spec.template.spec.restart_policy) == (
        "*/1 * * * *", "OnFailure"),
    "PodDisruptionBudget": lambda o: (o.spec.min_available, o.status.disruptions_allowed) == ("50%", 1),
    "PriorityClass": lambda o: (o.value, o.preemption_policy) == (1000, "Never"),
    "Namespace": lambda o: o.metadata.namespace == "",
    "Event": lambda o: (o.reason, o.count) == ("FailedScheduling", 2),
    "Endpoints": lambda o: "control-plane.alpha.kubernetes.io/leader" in o.metadata.annotations,
    "Lease": lambda o: o.spec.lease_duration_seconds == 15,
}


def test_every_kind_has_a_manifest() -> None:
    assert set(MANIFESTS) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(MANIFESTS))
def test_kind_parses(kind: str) -> None:
    cluster = load(textwrap.dedent(MANIFESTS[kind]))
    obj = cluster.objects[0]
    warnings = tuple(w for w in cluster.warnings if w.message != CRON_JOB_NOTE)
    assert (type(obj) is KINDS[kind], warnings) == (True, ())
    assert CHECKS[kind](obj)


def test_modules_cover_kinds() -> None:
    assert {core.Pod, apps.Deployment, storage.CSINode, policy.PodDisruptionBudget, scheduling.PriorityClass,
            coordination.Lease} <= set(KINDS.values())


CONFIGMAP = """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings, namespace: shop}
    data: {mode: fast}
"""


@model
class ConfigMap:
    """A model the way a new kind gets one (the controllers' DaemonSet, Job …)."""

    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "ConfigMap"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    data: Mapping[str, str] = mapping()


def test_an_unmodelled_kind_loads_inert_and_stops_being_inert_once_modelled(monkeypatch) -> None:
    cluster = load(CONFIGMAP)
    assert (cluster.objects, [(o.kind, o.metadata.namespace, o.metadata.name, dict(o.body["data"]))
                              for o in cluster.inert]) == ((), [("ConfigMap", "shop", "settings", {"mode": "fast"})])
    assert cluster.inert_summary() == "kept 1 ConfigMap: not used by kube-scheduler"

    monkeypatch.setitem(kinds.KINDS, "ConfigMap", ConfigMap)
    monkeypatch.setitem(kinds.API_VERSIONS, "ConfigMap", ("v1",))
    cluster = load(CONFIGMAP)
    assert ([type(o).__name__ for o in cluster.objects], cluster.inert) == (["ConfigMap"], ())
    assert not isinstance(cluster.objects[0], InertObject)


@pytest.mark.parametrize("api_version,kind,want", [
    ("v1", "ConfigMap", "inert"),
    ("apps/v1", "DaemonSet", "DaemonSet"),
    ("batch/v1beta1", "CronJob", "CronJob"),
    ("batch/v2alpha1", "CronJob", "inert"),          # served by v1.18; the model reads v1beta1
    ("v1", "Secret", "inert"),
    ("events.k8s.io/v1beta1", "Event", "inert"),        # the core Event model reads v1 only
    ("cert-manager.io/v1", "Certificate", "custom"),
    ("v1", "Pod", "Pod"),
    ("policy/v1beta1", "PodDisruptionBudget", "PodDisruptionBudget"),
    ("policy/v1", "PodDisruptionBudget", "policy/v1 PodDisruptionBudget is not in Kubernetes v1.18 (added in 1.21); "
                                         "use policy/v1beta1"),
    ("apps/v1beta1", "StatefulSet", "apps/v1beta1 StatefulSet is not served by Kubernetes v1.18 (removed in 1.16); "
                                    "use apps/v1"),
    ("resource.k8s.io/v1", "ResourceClaim", "resource.k8s.io/v1 ResourceClaim is not in Kubernetes v1.18 "
                                            "(added in 1.34)"),
    ("v1", "Podd", 'unknown kind "Podd" in v1 (did you mean "Pod"?)'),
])
def test_resolve(api_version: str, kind: str, want: str) -> None:
    r = resolve(api_version, kind)
    got = r.error or (r.model.__name__ if r.model else ("custom" if r.custom else "inert"))
    assert got == want
