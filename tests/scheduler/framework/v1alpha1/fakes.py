"""Fake plugins for framework tests, after upstream framework_test.go (TestPlugin, injectedResult)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.framework.v1alpha1.registry import Registry
from tests.testing.wrappers import make_node, make_pod

QUEUE_SORT_PLUGIN = "no-op-queue-sort-plugin"
BIND_PLUGIN = "bind-plugin"


def pod(name: str = "", uid: str = "", namespace: str = "") -> Pod:
    return make_pod().name(name).uid(uid).namespace(namespace).obj()


def node(name: str) -> Node:
    return make_node().name(name).obj()


def status(code: Code, msg: str = "injected status") -> Optional[Status]:
    return Status.new(code, msg)


@dataclass
class Injected:
    """upstream injectedResult: the code each extension point returns."""

    score_res: int = 0
    normalize_res: int = 0
    score_status: Code = Code.SUCCESS
    normalize_status: Code = Code.SUCCESS
    pre_filter_status: Code = Code.SUCCESS
    add_pod_status: Code = Code.SUCCESS
    remove_pod_status: Code = Code.SUCCESS
    filter_status: Code = Code.SUCCESS
    pre_score_status: Code = Code.SUCCESS
    reserve_status: Code = Code.SUCCESS
    pre_bind_status: Code = Code.SUCCESS
    bind_status: Code = Code.SUCCESS
    permit_status: Code = Code.SUCCESS
    permit_timeout: float = 0.0


@dataclass
class TestPlugin:
    """Implements every extension point; records calls in ``calls`` (a shared list if given)."""

    __test__ = False  # not a pytest class

    plugin_name: str
    inj: Injected = field(default_factory=Injected)
    calls: list = field(default_factory=list)
    normalize: bool = False

    def name(self) -> str:
        return self.plugin_name

    def pre_filter(self, state, p):
        self.calls.append(("PreFilter", self.plugin_name))
        return status(self.inj.pre_filter_status)

    def pre_filter_extensions(self):
        return self

    def add_pod(self, state, pod_to_schedule, pod_to_add, node_info):
        self.calls.append(("AddPod", self.plugin_name))
        return status(self.inj.add_pod_status)

    def remove_pod(self, state, pod_to_schedule, pod_to_remove, node_info):
        self.calls.append(("RemovePod", self.plugin_name))
        return status(self.inj.remove_pod_status)

    def filter(self, state, p, node_info):
        self.calls.append(("Filter", self.plugin_name))
        return status(self.inj.filter_status, "injected filter status")

    def pre_score(self, state, p, nodes):
        self.calls.append(("PreScore", self.plugin_name))
        return status(self.inj.pre_score_status)

    def score(self, state, p, node_name):
        self.calls.append(("Score", self.plugin_name, node_name))
        if self.inj.score_status != Code.SUCCESS:
            return 0, status(self.inj.score_status, "injecting failure.")
        return self.inj.score_res, None

    def score_extensions(self):
        return self if self.normalize else None

    def normalize_score(self, state, p, scores):
        if self.inj.normalize_status != Code.SUCCESS:
            return status(self.inj.normalize_status, "injecting failure.")
        for s in scores:
            s.score = self.inj.normalize_res
        return None

    def reserve(self, state, p, node_name):
        self.calls.append(("Reserve", self.plugin_name))
        return status(self.inj.reserve_status)

    def pre_bind(self, state, p, node_name):
        self.calls.append(("PreBind", self.plugin_name))
        return status(self.inj.pre_bind_status)

    def post_bind(self, state, p, node_name):
        self.calls.append(("PostBind", self.plugin_name))

    def unreserve(self, state, p, node_name):
        self.calls.append(("Unreserve", self.plugin_name))

    def permit(self, state, p, node_name):
        self.calls.append(("Permit", self.plugin_name))
        return status(self.inj.permit_status), self.inj.permit_timeout

    def bind(self, state, p, node_name):
        self.calls.append(("Bind", self.plugin_name))
        return status(self.inj.bind_status)

    def less(self, a, b) -> bool:
        return False


class QueueSortOnly:
    def name(self) -> str:
        return QUEUE_SORT_PLUGIN

    def less(self, a, b) -> bool:
        return False


class BindOnly:
    def name(self) -> str:
        return BIND_PLUGIN

    def bind(self, state, p, node_name):
        return None


class NameOnly:
    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name


def constant(instance: Any):
    return lambda args, handle: instance


def registry_of(*plugins: Any) -> Registry:
    r = Registry()
    for p in plugins:
        r.register(p.name(), constant(p))
    return r


def plugin_set(*names: str, weights: dict[str, int] | None = None) -> PluginSet:
    return PluginSet(enabled=tuple(Plugin(n, (weights or {}).get(n, 0)) for n in names))


def with_queue_sort_and_bind(registry: Registry, plugins: Plugins, configs=(), **options) -> Framework:
    """upstream newFrameworkWithQueueSortAndBind."""
    registry.setdefault(QUEUE_SORT_PLUGIN, constant(QueueSortOnly()))
    registry.setdefault(BIND_PLUGIN, constant(BindOnly()))
    import dataclasses
    changes = {}
    if plugins.queue_sort is None or not plugins.queue_sort.enabled:
        changes["queue_sort"] = plugin_set(QUEUE_SORT_PLUGIN)
    if plugins.bind is None or not plugins.bind.enabled:
        changes["bind"] = plugin_set(BIND_PLUGIN)
    return Framework(registry, dataclasses.replace(plugins, **changes), configs, **options)


def framework_at(point: str, *plugins: TestPlugin, **options) -> Framework:
    """A framework with ``plugins`` enabled (weight 1 for Score) at one extension point."""
    names = [p.name() for p in plugins]
    weights = {n: 1 for n in names} if point == "score" else None
    return with_queue_sort_and_bind(registry_of(*plugins), Plugins(**{point: plugin_set(*names, weights=weights)}),
                                    **options)
