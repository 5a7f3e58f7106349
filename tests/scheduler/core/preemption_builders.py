"""Small fixtures for the preemption tests: pods, nodes, PDBs, a profile and a scheduler."""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.policy import PodDisruptionBudget
from kubesched.conformance._harness import as_object
from kubesched.scheduler.core.generic_scheduler import GenericScheduler
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers
from tests.testing.wrappers import make_node, make_pod
from tests.scheduler.core.support import Recorder  # noqa: F401 - re-exported for the preemption tests


def pod(name: str, priority: int = 0, node: str = "", cpu: str = "", start: Optional[float] = None,
        labels: Optional[dict] = None, namespace: str = "default", deleting: bool = False,
        policy: Optional[str] = None, nominated: str = "") -> Pod:
    w = make_pod().name(name).uid(name).namespace(namespace).labels(labels).priority(priority)
    w.container("c", {"cpu": cpu} if cpu else None)
    if node:
        w.node(node)
    if policy is not None:
        w.preemption_policy(policy)
    if deleting:
        w.terminating(1.0)
    if start is not None:
        w.start_time(start)
    if nominated:
        w.nominated_node_name(nominated)
    return w.obj()


def node(name: str, cpu: str = "1000m") -> Node:
    return make_node().name(name).label("hostname", name).capacity(
        {"cpu": cpu, "memory": "10Gi", "pods": "100"}).obj()


def pdb(name: str, match_labels: Optional[dict], allowed: int, namespace: str = "default") -> PodDisruptionBudget:
    spec = {} if match_labels is None else {"selector": {"matchLabels": match_labels}}
    return as_object({"metadata": {"name": name, "namespace": namespace}, "spec": spec,
                      "status": {"disruptionsAllowed": allowed}}, "PodDisruptionBudget")


@dataclasses.dataclass
class Profile:
    framework: Framework
    name: str = "default-scheduler"


class NominatedQueue:
    """The scheduling-queue methods preemption and podPassesFiltersOnNode read."""

    def __init__(self, nominated: dict[str, list[Pod]]) -> None:
        self.nominated = nominated

    def nominated_pods_for_node(self, node_name: str) -> Optional[list[Pod]]:
        return self.nominated.get(node_name)

    def has_nominated_pods(self) -> bool:
        return any(self.nominated.values())


def setup(pods: list[Pod], nodes: list[Node], preemptor: Pod, pdbs: tuple = (), extenders: tuple = (),
          enable_non_preempting: bool = False, queue: Any = None, observer: Any = None
          ) -> tuple[GenericScheduler, Profile, CycleState, Snapshot]:
    """A NodeResourcesFit profile and a generic scheduler over a snapshot; PreFilter already run."""
    snapshot = Snapshot.new(pods, nodes)
    listers = InformerListers(pdbs)
    names = PluginSet((Plugin("NodeResourcesFit"),))
    plugins = Plugins(queue_sort=PluginSet((Plugin("PrioritySort"),)), pre_filter=names, filter=names,
                      bind=PluginSet((Plugin("DefaultBinder"),)))
    fwk = Framework(new_in_tree_registry(), plugins, snapshot_shared_lister=snapshot, listers=listers)
    g = GenericScheduler(None, snapshot, list(extenders), 0, False, listers, observer=observer,
                         scheduling_queue=queue, enable_non_preempting=enable_non_preempting)
    state = CycleState()
    assert fwk.run_pre_filter_plugins(state, preemptor) is None
    return g, Profile(fwk), state, snapshot
