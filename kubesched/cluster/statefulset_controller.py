"""The StatefulSet controller: pods ``<set>-0 .. <set>-N-1`` in order, each with its claims.

Upstream: pkg/controller/statefulset/stateful_set.go @ v1.18.5 (addPod/updatePod/deletePod,
getPodsForStatefulSet, sync), stateful_set_control.go (updateStatefulSet,
updateStatefulSetStatus) and stateful_pod_control.go (CreateStatefulPod,
createPersistentVolumeClaims, DeleteStatefulPod, recordPodEvent, recordClaimEvent).

``OrderedReady`` (the default) is monotonic: one sync creates at most one pod, the lowest
missing ordinal, and only once every lower ordinal is Running and Ready; a terminating pod
blocks until it is gone; scale-down deletes the highest ordinal first, one at a time.
``Parallel`` creates (and deletes) every pod in one sync. Before a pod is created its
claims ``<template>-<set>-<ordinal>`` are created when missing (and then kept, as in 1.18).
A pod that is deleted comes back with the same name once the old one is removed.

Deviation: no rolling updates or ControllerRevisions (a changed template affects only new
pods; the revision label is ``<set>-<compute_hash(template)>``); failed pods are not
recreated (pods never fail here); a pod whose identity or storage drifted is not repaired.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Optional

from kubesched.api.apps import StatefulSet, StatefulSetStatus
from kubesched.api.core import Pod
from kubesched.cluster import controller_utils as cu
from kubesched.cluster import statefulset_util as util
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError, NotFound
from kubesched.cluster.watch import WatchEvent

COMPONENT: Final = "statefulset-controller"
SYNC_LABEL: Final = "statefulset-controller: sync"


class StatefulSetController:
    """Creates and removes the pods (and claims) of every StatefulSet, in ordinal order."""

    def __init__(self, api: APIServer):
        self._api = api
        self._queue = cu.SyncQueue(api.loop, self._sync, SYNC_LABEL)
        self.stop = api.watch(self._on_event, kinds=("StatefulSet", "Pod"))
        for sts in api.list("StatefulSet"):
            self._queue.add(cu.key_of(sts))

    def _on_event(self, event: WatchEvent) -> None:
        if event.kind == "StatefulSet":
            self._queue.add(cu.key_of(event.obj))
            return
        cu.enqueue_pod_owners(self._api, self._queue, StatefulSet.KIND, event.obj)

    # -- sync ------------------------------------------------------------------------------------
    def _sync(self, key: cu.Key) -> None:
        try:
            sts: StatefulSet = self._api.get(StatefulSet.KIND, *key)
        except APIError:
            return
        if sts.spec.template is None:
            return
        self._update_stateful_set(sts, self._pods(sts))
        cu.write_status(self._api, sts, self._status(sts, self._pods(sts)))

    def _pods(self, sts: StatefulSet) -> list[Pod]:
        """``getPodsForStatefulSet``: claimed pods whose name says they belong to the set."""
        return cu.claim_pods(self._api, sts, sts.spec.selector, lambda p: util.is_member_of(sts, p))

    def _update_stateful_set(self, sts: StatefulSet, pods: list[Pod]) -> None:
        """``updateStatefulSet``: create the missing ordinals, then scale down, in order."""
        count = sts.spec.replicas if sts.spec.replicas is not None else 1
        replicas: list[Optional[Pod]] = [None] * count
        condemned: list[Pod] = []
        for pod in pods:
            ordinal = util.ordinal_of(pod)
            if 0 <= ordinal < count:
                replicas[ordinal] = pod
            elif ordinal >= count:
                condemned.append(pod)
        condemned.sort(key=util.ordinal_of)
        unhealthy = [p for p in [*replicas, *condemned] if p is not None and not util.is_healthy(p)]
        first_unhealthy = min(unhealthy, key=util.ordinal_of) if unhealthy else None
        if sts.metadata.deletion_timestamp is not None:
            return
        monotonic = not util.allows_burst(sts)
        for ordinal, pod in enumerate(replicas):
            if pod is None:
                self._create_stateful_pod(sts, ordinal)
                if monotonic:
                    return
                continue
            if monotonic and (util.is_terminating(pod) or not util.is_running_and_ready(pod)):
                return
        for pod in reversed(condemned):
            if util.is_terminating(pod):
                if monotonic:
                    return
                continue
            if monotonic and not util.is_running_and_ready(pod) and pod is not first_unhealthy:
                return
            self._delete_stateful_pod(sts, pod)
            if monotonic:
                return

    # -- pod control -----------------------------------------------------------------------------
    def _create_stateful_pod(self, sts: StatefulSet, ordinal: int) -> None:
        """``CreateStatefulPod``: the claims first, then the pod; an event for each."""
        classes = {pc.metadata.name: pc for pc in self._api.list("PriorityClass")}
        pod = util.new_stateful_set_pod(sts, ordinal, classes)
        error = self._create_claims(sts, pod, ordinal)
        if error is None:
            try:
                self._api.create(dataclasses.replace(pod, metadata=dataclasses.replace(pod.metadata, uid="")))
            except APIError as err:
                error = str(err)
        self._record_pod_event("create", sts, pod, error)

    def _create_claims(self, sts: StatefulSet, pod: Pod, ordinal: int) -> Optional[str]:
        """``createPersistentVolumeClaims``: every missing claim; the errors joined (None: all there)."""
        errors: list[str] = []
        for claim in util.persistent_volume_claims(sts, ordinal).values():
            try:
                self._api.get("PersistentVolumeClaim", claim.metadata.namespace, claim.metadata.name)
                continue
            except NotFound:
                pass
            try:
                self._api.create(dataclasses.replace(claim, metadata=dataclasses.replace(claim.metadata, uid="")))
            except APIError as err:
                errors.append(f"failed to create PVC {claim.metadata.name}: {err}")
                self._record_claim_event(sts, pod, claim, str(err))
                continue
            self._record_claim_event(sts, pod, claim, None)
        return "; ".join(errors) if errors else None

    def _delete_stateful_pod(self, sts: StatefulSet, pod: Pod) -> None:
        error = None
        try:
            self._api.delete("Pod", pod.metadata.namespace, pod.metadata.name)
        except APIError as err:
            error = str(err)
        self._record_pod_event("delete", sts, pod, error)

    def _record_pod_event(self, verb: str, sts: StatefulSet, pod: Pod, error: Optional[str]) -> None:
        """``recordPodEvent``."""
        if error is None:
            self._api.record_event(sts, cu.EVENT_NORMAL, f"Successful{verb.title()}",
                                   f"{verb} Pod {pod.metadata.name} in StatefulSet {sts.metadata.name} successful",
                                   component=COMPONENT)
        else:
            self._api.record_event(sts, cu.EVENT_WARNING, f"Failed{verb.title()}",
                                   f"{verb} Pod {pod.metadata.name} in StatefulSet {sts.metadata.name} "
                                   f"failed error: {error}", component=COMPONENT)

    def _record_claim_event(self, sts: StatefulSet, pod: Pod, claim: Any, error: Optional[str]) -> None:
        """``recordClaimEvent`` for the verb create."""
        names = (claim.metadata.name, pod.metadata.name, sts.metadata.name)
        if error is None:
            self._api.record_event(sts, cu.EVENT_NORMAL, "SuccessfulCreate",
                                   "create Claim {} Pod {} in StatefulSet {} success".format(*names),
                                   component=COMPONENT)
        else:
            self._api.record_event(sts, cu.EVENT_WARNING, "FailedCreate",
                                   "create Claim {} for Pod {} in StatefulSet {} failed error: {}".format(
                                       *names, error), component=COMPONENT)

    # -- status ------------------------------------------------------------------------------------
    @staticmethod
    def _status(sts: StatefulSet, pods: list[Pod]) -> StatefulSetStatus:
        """The status ``updateStatefulSet`` computes (one revision: current = update)."""
        revision = util.revision_name(sts)
        current = sum(1 for p in pods if not util.is_terminating(p)
                      and p.metadata.labels.get(util.STATEFUL_SET_REVISION_LABEL) == revision)
        return dataclasses.replace(
            sts.status, observed_generation=sts.metadata.generation, replicas=len(pods),
            ready_replicas=sum(1 for p in pods if util.is_running_and_ready(p)), current_replicas=current,
            updated_replicas=current, current_revision=revision, update_revision=revision)
