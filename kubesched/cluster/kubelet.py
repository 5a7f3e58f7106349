"""A minimal kubelet: a pod bound to an existing node starts running after a fixed delay.

Upstream: pkg/kubelet/kubelet.go (syncPod), kubelet_pods.go (generateAPIPodStatus:
conditions Initialized, Ready, ContainersReady, PodScheduled in that order) and
pkg/kubelet/status/status_manager.go (the pod status write).
Deviation: no containers, images, probes or node status are modelled. Every
bound pod whose node exists becomes ``Running`` ``POD_START_DELAY_SECONDS`` after
the binding is observed, with ``startTime`` = that moment and every condition
True. A pod that is being deleted, was deleted, or was replaced by another pod of
the same name (different uid) in the meantime is not started. Termination is the
API server's job (see apiserver.APIServer.delete).
"""

from __future__ import annotations

import dataclasses
from typing import Final

from kubesched.api.core import Pod, PodCondition, PodStatus
from kubesched.api.meta import Time
from kubesched.cluster import pod_strategy
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import DELETED, WatchEvent

POD_START_DELAY_SECONDS: Final = 1.0
"""Time from the binding to ``Running`` (image pull and container start, collapsed)."""
POD_INITIALIZED: Final = "Initialized"
POD_READY: Final = "Ready"
CONTAINERS_READY: Final = "ContainersReady"
KUBELET_LABEL: Final = "kubelet: start pod"
KUBELET_CONDITIONS: Final = (POD_INITIALIZED, POD_READY, CONTAINERS_READY, pod_strategy.POD_SCHEDULED)
"""``kubetypes.PodConditionsByKubelet`` in the order generateAPIPodStatus appends them."""


class Kubelet:
    """One kubelet for every node of the cluster, driven by pod watch events."""

    def __init__(self, api: APIServer):
        self._api = api
        self._starting: set[str] = set()
        self.stop = api.watch(self._on_pod, kinds=("Pod",))
        for pod in api.list("Pod"):
            self._on_pod(WatchEvent("ADDED", "Pod", pod, None, pod.metadata.resource_version))

    def _on_pod(self, event: WatchEvent) -> None:
        pod: Pod = event.obj
        uid = pod.metadata.uid
        if event.type == DELETED or not _should_start(pod) or uid in self._starting:
            return
        self._starting.add(uid)
        ns, name = pod.metadata.namespace, pod.metadata.name
        self._api.loop.call_later(POD_START_DELAY_SECONDS, lambda: self._start(ns, name, uid),
                                  label=f"{KUBELET_LABEL} {ns}/{name}")

    def _start(self, namespace: str, name: str, uid: str) -> None:
        self._starting.discard(uid)
        try:
            pod: Pod = self._api.get("Pod", namespace, name)
            self._api.get("Node", "", pod.spec.node_name)
        except APIError:
            return
        if pod.metadata.uid != uid or not _should_start(pod):
            return
        self._api.update_status(dataclasses.replace(pod, status=running_status(pod, self._api.loop.now())))


def _should_start(pod: Pod) -> bool:
    return (bool(pod.spec.node_name) and pod.metadata.deletion_timestamp is None
            and pod.status.phase in ("", pod_strategy.POD_PENDING))


def running_status(pod: Pod, now: float) -> PodStatus:
    """The status generateAPIPodStatus reports once every container runs and is ready.

    Upstream: status_manager mergePodStatus (conditions the kubelet does not own stay
    first, then the kubelet's in its order) and updateLastTransitionTime (a condition
    keeps its old transition time unless its status changed).
    """
    others = tuple(c for c in pod.status.conditions if c.type not in KUBELET_CONDITIONS)
    owned = tuple(_transitioned(pod.status, t, now) for t in KUBELET_CONDITIONS)
    return dataclasses.replace(pod.status, phase=pod_strategy.POD_RUNNING, start_time=Time(now),
                               conditions=others + owned)


def _transitioned(status: PodStatus, condition_type: str, now: float) -> PodCondition:
    old = pod_strategy.get_pod_condition(status, condition_type)
    keep = old is not None and old.status == pod_strategy.CONDITION_TRUE
    return PodCondition(type=condition_type, status=pod_strategy.CONDITION_TRUE,
                        last_transition_time=old.last_transition_time if keep and old else Time(now))
