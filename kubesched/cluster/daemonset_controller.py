"""The DaemonSet controller: one pod per eligible node, placed by the default scheduler.

Upstream: pkg/controller/daemon/daemon_controller.go @ v1.18.5 (addNode, updateNode,
shouldIgnoreNodeUpdate, addPod/updatePod/deletePod, syncDaemonSet, manage,
podsShouldBeOnNode, syncNodes, nodeShouldRunDaemonPod, Predicates,
getUnscheduledPodsWithoutNode, updateDaemonSetStatus, storeDaemonSetStatus,
podByCreationTimestampAndPhase) and util/daemonset_util.go (kubesched.cluster.daemonset_util).

A node should run the daemon pod when ``NewPod`` for it (the template with the daemon
tolerations) passes ``Predicates``: its nodeSelector and required node affinity match the
node, and it tolerates the node's NoSchedule and NoExecute taints. A pod that only
tolerates the NoExecute ones may keep running but is not created. Each missing pod is
created with the template hash and generation labels, the daemon tolerations and the
affinity ``metadata.name In [node]``; the scheduler binds it. Pods on nodes that should
not run one, extra pods on a node (the oldest scheduled one stays) and unscheduled pods
aimed at a node that no longer exists are deleted. A node added later, or a node whose
labels or taints change what it should run, queues every DaemonSet.

Deviation: nodes are walked in name order (upstream: the lister's order); pod names are
``<daemonset>-<5 chars>`` from a stable hash of (daemonset, node, count); the template
hash is kubesched's ``compute_hash`` with no ControllerRevision objects and no rolling
update (a changed template does not replace running pods); failed daemon pods are not
modelled (pods never fail here); no burst limit beyond upstream's 250 creates per sync.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Optional

from kubesched.api import v1helper
from kubesched.api.apps import DaemonSet
from kubesched.api.controllers import compute_hash, pod_from_template
from kubesched.api.core import Node, Pod, PodTemplateSpec
from kubesched.api.names import generate_name
from kubesched.api.node_affinity import pod_matches_node_selector_and_affinity_terms
from kubesched.cluster import controller_utils as cu
from kubesched.cluster import daemonset_util as util
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import ADDED, MODIFIED, WatchEvent

COMPONENT: Final = "daemonset-controller"
SYNC_LABEL: Final = "daemonset-controller: sync"
BURST_REPLICAS: Final = 250
SELECTING_ALL_REASON: Final = "SelectingAll"
SELECTING_ALL_MESSAGE: Final = "This daemon set is selecting all pods. A non-empty selector is required."


def node_should_run_daemon_pod(node: Node, ds: DaemonSet) -> tuple[bool, bool]:
    """``nodeShouldRunDaemonPod``: (shouldRun, shouldContinueRunning)."""
    template = ds.spec.template or PodTemplateSpec()
    if template.spec.node_name not in ("", node.metadata.name):
        return False, False
    pod = util.new_pod(ds, node.metadata.name)
    fits_node_name, fits_node_affinity, fits_taints = predicates(pod, node)
    if not fits_node_name or not fits_node_affinity:
        return False, False
    if not fits_taints:
        keeps = v1helper.tolerations_tolerate_taints_with_filter(
            pod.spec.tolerations, node.spec.taints, lambda t: t.effect == v1helper.TAINT_EFFECT_NO_EXECUTE)
        return False, keeps
    return True, True


def predicates(pod: Pod, node: Node) -> tuple[bool, bool, bool]:
    """``Predicates``: (fitsNodeName, fitsNodeAffinity, fitsTaints for NoExecute and NoSchedule)."""
    fits_node_name = not pod.spec.node_name or pod.spec.node_name == node.metadata.name
    fits_node_affinity = pod_matches_node_selector_and_affinity_terms(pod, node)
    fits_taints = v1helper.tolerations_tolerate_taints_with_filter(
        pod.spec.tolerations, node.spec.taints,
        lambda t: t.effect in (v1helper.TAINT_EFFECT_NO_EXECUTE, v1helper.TAINT_EFFECT_NO_SCHEDULE))
    return fits_node_name, fits_node_affinity, fits_taints


def by_creation_timestamp_and_phase(pod: Pod) -> tuple:
    """``podByCreationTimestampAndPhase``: scheduled pods first, then oldest, then by name."""
    return (not pod.spec.node_name, pod.metadata.creation_timestamp or 0.0, pod.metadata.name)


def _condition_types(node: Node) -> frozenset[str]:
    return frozenset(c.type for c in node.status.conditions if c.status == "True")


def should_ignore_node_update(old: Node, new: Node) -> bool:
    """``shouldIgnoreNodeUpdate``: same true conditions and nothing else changed but the version."""
    if _condition_types(old) != _condition_types(new):
        return False
    meta = dataclasses.replace(old.metadata, resource_version=new.metadata.resource_version)
    status = dataclasses.replace(old.status, conditions=new.status.conditions)
    return dataclasses.replace(old, metadata=meta, status=status) == new


class DaemonSetsController:
    """Keeps one pod of every DaemonSet on each node that should run it."""

    def __init__(self, api: APIServer):
        self._api = api
        self._queue = cu.SyncQueue(api.loop, self._sync, SYNC_LABEL)
        self._made: dict[tuple[str, str, str], int] = {}  # (namespace, daemonset, node) -> pods created
        self.stop = api.watch(self._on_event, kinds=("DaemonSet", "Pod", "Node"))
        for ds in api.list("DaemonSet"):
            self._queue.add(cu.key_of(ds))

    # -- event handlers ------------------------------------------------------------------------
    def _on_event(self, event: WatchEvent) -> None:
        if event.kind == "DaemonSet":
            self._queue.add(cu.key_of(event.obj))
        elif event.kind == "Pod":
            cu.enqueue_pod_owners(self._api, self._queue, DaemonSet.KIND, event.obj)
        elif event.type == ADDED:
            self._on_node(None, event.obj)
        elif event.type == MODIFIED:
            self._on_node(event.old, event.obj)

    def _on_node(self, old: Optional[Node], node: Node) -> None:
        """addNode / updateNode: queue the DaemonSets whose decision for this node changed."""
        if old is not None and should_ignore_node_update(old, node):
            return
        for ds in self._api.list("DaemonSet"):
            if old is None:
                wanted = node_should_run_daemon_pod(node, ds)[0]
            else:
                wanted = node_should_run_daemon_pod(old, ds) != node_should_run_daemon_pod(node, ds)
            if wanted:
                self._queue.add(cu.key_of(ds))

    # -- sync --------------------------------------------------------------------------------------
    def _sync(self, key: cu.Key) -> None:
        """``syncDaemonSet``."""
        try:
            ds: DaemonSet = self._api.get(DaemonSet.KIND, *key)
        except APIError:
            return
        selector = ds.spec.selector
        if selector is not None and not selector.match_labels and not selector.match_expressions:
            self._api.record_event(ds, cu.EVENT_WARNING, SELECTING_ALL_REASON, SELECTING_ALL_MESSAGE,
                                   component=COMPONENT)
            return
        if ds.metadata.deletion_timestamp is not None or ds.spec.template is None:
            return
        nodes = self._api.list("Node")
        hash_ = compute_hash(ds.spec.template)
        self._manage(ds, nodes, hash_)
        self._update_status(ds, nodes, hash_)

    def _nodes_to_daemon_pods(self, ds: DaemonSet) -> dict[str, list[Pod]]:
        """``getNodesToDaemonPods``: claimed pods grouped by the node they run on or aim at."""
        out: dict[str, list[Pod]] = {}
        for pod in cu.claim_pods(self._api, ds, ds.spec.selector):
            node_name = util.get_target_node_name(pod)
            if node_name is not None:
                out.setdefault(node_name, []).append(pod)
        return out

    def _manage(self, ds: DaemonSet, nodes: list[Node], hash_: str) -> None:
        """``manage`` and ``syncNodes``: create the missing pods, delete the ones that must go."""
        node_to_pods = self._nodes_to_daemon_pods(ds)
        needing: list[str] = []
        to_delete: list[str] = []
        for node in nodes:
            create, delete = self._pods_should_be_on_node(node, node_to_pods, ds)
            needing += create
            to_delete += delete
        running = {node.metadata.name for node in nodes}
        to_delete += [pod.metadata.name for name, pods in sorted(node_to_pods.items()) if name not in running
                      for pod in pods if not pod.spec.node_name]
        template = util.create_pod_template(ds.spec.template, util.template_generation(ds), hash_)
        classes = {pc.metadata.name: pc for pc in self._api.list("PriorityClass")}
        for node_name in needing[:BURST_REPLICAS]:
            cu.create_pod(self._api, ds, self._new_daemon_pod(ds, template, node_name, classes), COMPONENT)
        for name in to_delete[:BURST_REPLICAS]:
            cu.delete_pod(self._api, ds, name, COMPONENT)

    @staticmethod
    def _pods_should_be_on_node(node: Node, node_to_pods: dict[str, list[Pod]],
                                ds: DaemonSet) -> tuple[list[str], list[str]]:
        """``podsShouldBeOnNode``: (nodes needing a pod, pods to delete) for one node."""
        should_run, should_continue = node_should_run_daemon_pod(node, ds)
        pods = node_to_pods.get(node.metadata.name)
        if should_run and pods is None:
            return [node.metadata.name], []
        if should_continue:
            alive = sorted((p for p in pods or [] if p.metadata.deletion_timestamp is None),
                           key=by_creation_timestamp_and_phase)
            return [], [p.metadata.name for p in alive[1:]]
        if pods is not None:
            return [], [p.metadata.name for p in pods if p.metadata.deletion_timestamp is None]
        return [], []

    def _new_daemon_pod(self, ds: DaemonSet, template: PodTemplateSpec, node_name: str,
                        classes: dict[str, Any]) -> Pod:
        namespace, name = cu.key_of(ds)
        count = self._made.get((namespace, name, node_name), 0)
        self._made[(namespace, name, node_name)] = count + 1
        spec = dataclasses.replace(template.spec, affinity=util.replace_node_name_node_affinity(
            template.spec.affinity, node_name))
        pod_name = generate_name(f"{name}-", f"DaemonSet/{namespace}/{name}/{node_name}/{count}")
        return pod_from_template(ds, template, pod_name, classes, generate_name=f"{name}-", spec=spec)

    # -- status ------------------------------------------------------------------------------------
    def _update_status(self, ds: DaemonSet, nodes: list[Node], hash_: str) -> None:
        """``updateDaemonSetStatus`` / ``storeDaemonSetStatus``."""
        node_to_pods = self._nodes_to_daemon_pods(ds)
        generation = util.template_generation(ds)
        now = self._api.loop.now()
        desired = current = misscheduled = ready = updated = available = 0
        for node in nodes:
            should_run = node_should_run_daemon_pod(node, ds)[0]
            pods = sorted(node_to_pods.get(node.metadata.name, []), key=by_creation_timestamp_and_phase)
            if not should_run:
                misscheduled += bool(pods)
                continue
            desired += 1
            if not pods:
                continue
            current += 1
            if cu.is_pod_ready(pods[0]):
                ready += 1
                available += cu.is_pod_available(pods[0], ds.spec.min_ready_seconds, now)
            updated += util.is_pod_updated(pods[0], hash_, generation)
        status = dataclasses.replace(
            ds.status, observed_generation=ds.metadata.generation, desired_number_scheduled=desired,
            current_number_scheduled=current, number_misscheduled=misscheduled, number_ready=ready,
            updated_number_scheduled=updated, number_available=available,
            number_unavailable=desired - available)
        cu.write_status(self._api, ds, status)
        if ds.spec.min_ready_seconds > 0 and ready != available:
            self._queue.add_after(cu.key_of(ds), ds.spec.min_ready_seconds)
