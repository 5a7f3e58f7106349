"""The controllers of kube-controller-manager that decide what the scheduler sees.

Upstream: cmd/kube-controller-manager/app/controllermanager.go (NewControllerInitializers,
StartControllers) with the controllers started by apps.go, batch.go and core.go
(startReplicaSetController, startReplicationController, startStatefulSetController,
startDaemonSetController, startJobController, startPersistentVolumeBinderController).

Deviation: only these controllers run (no garbage collector, node lifecycle, endpoints,
Deployment, CronJob or TTL controller); they start in this fixed order at the moment the
cluster is built (upstream: a map's order, after leader election).
"""

from __future__ import annotations

from dataclasses import dataclass

from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.daemonset_controller import DaemonSetsController
from kubesched.cluster.job_controller import JobController
from kubesched.cluster.replicaset_controller import ReplicaSetController
from kubesched.cluster.statefulset_controller import StatefulSetController
from kubesched.controller.volume.persistentvolume.pv_controller import RESYNC_LABEL, PersistentVolumeController

BACKGROUND_LABELS = frozenset({RESYNC_LABEL})
"""Loop callbacks that only repeat work (a run may be idle while they are pending)."""


@dataclass(frozen=True)
class ControllerManager:
    persistent_volume: PersistentVolumeController
    replica_set: ReplicaSetController
    stateful_set: StatefulSetController
    daemon_set: DaemonSetsController
    job: JobController


def start(api: APIServer) -> ControllerManager:
    """Start every modelled controller on ``api`` (each lists what exists and watches from there)."""
    return ControllerManager(persistent_volume=PersistentVolumeController(api), replica_set=ReplicaSetController(api),
                             stateful_set=StatefulSetController(api), daemon_set=DaemonSetsController(api),
                             job=JobController(api))
