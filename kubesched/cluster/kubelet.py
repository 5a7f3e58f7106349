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
Deviation: containers never exit on their own, except in a pod controlled by a Job:
its containers exit 0 ``JOB_POD_RUN_SECONDS`` after it started, and the pod becomes
``Succeeded`` (Initialized True, Ready and ContainersReady False with reason
PodCompleted, as kubelet/status/generate.go reports a completed pod). The scheduler's
pod informer drops it then, which frees its requests on the node.
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
JOB_POD_RUN_SECONDS: Final = 10.0
"""How long the containers of a Job's pod run before they exit 0 (a fixed, simulated duration)."""
POD_COMPLETED_REASON: Final = "PodCompleted"
KUBELET_COMPLETE_LABEL: Final = "kubelet: pod completed"
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
        ref = pod.metadata.controller_ref()
        if ref is not None and ref.kind == "Job":
            self._api.loop.call_later(JOB_POD_RUN_SECONDS, lambda: self._complete(namespace, name, uid),
                                      label=f"{KUBELET_COMPLETE_LABEL} {namespace}/{name}")

    def _complete(self, namespace: str, name: str, uid: str) -> None:
        """The pod's containers exited 0: phase Succeeded."""
        try:
            pod: Pod = self._api.get("Pod", namespace, name)
        except APIError:
            return
        if pod.metadata.uid != uid or pod.status.phase != pod_strategy.POD_RUNNING:
            return
        self._api.update_status(dataclasses.replace(pod, status=completed_status(pod, self._api.loop.now())))


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


def completed_status(pod: Pod, now: float) -> PodStatus:
    """The status of a pod whose containers all exited 0 (``GeneratePodReadyCondition`` and friends)."""
    others = tuple(c for c in pod.status.conditions if c.type not in KUBELET_CONDITIONS)
    owned = tuple(_transitioned(pod.status, t, now, status_value="False" if t in (POD_READY, CONTAINERS_READY)
                                else pod_strategy.CONDITION_TRUE,
                                reason="" if t == pod_strategy.POD_SCHEDULED else POD_COMPLETED_REASON)
                  for t in KUBELET_CONDITIONS)
    return dataclasses.replace(pod.status, phase=pod_strategy.POD_SUCCEEDED, conditions=others + owned)


def _transitioned(status: PodStatus, condition_type: str, now: float, *,
                  status_value: str = pod_strategy.CONDITION_TRUE, reason: str = "") -> PodCondition:
    old = pod_strategy.get_pod_condition(status, condition_type)
    keep = old is not None and old.status == status_value
    return PodCondition(type=condition_type, status=status_value, reason=reason,
                        last_transition_time=old.last_transition_time if keep and old else Time(now))
