"""Fake plugins and extenders of the generic-scheduler tests, and a harness to build them.

Upstream: pkg/scheduler/core/generic_scheduler_test.go (trueFilterPlugin,
falseFilterPlugin, matchFilterPlugin, noPodsFilterPlugin, FakeFilterPlugin,
numericMapPlugin, reverseNumericMapPlugin, trueMapPlugin, falseMapPlugin,
ErrReasonFake) and pkg/scheduler/core/extender_test.go (FakeExtender, its predicates
and priorities) — the fakes the vectors' ``notes`` describe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from kubesched.api.core import Node, Pod
from kubesched.scheduler.core.extender import HostPriority
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.interface import CODE_BY_NAME, Code, NodeScore, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.framework.v1alpha1.registry import Registry

ERR_REASON_FAKE = "Nodes failed the fake predicate"


def _unschedulable(reason: str = ERR_REASON_FAKE) -> Status:
    return Status(Code.UNSCHEDULABLE, (reason,))


class _Named:
    NAME = ""

    def name(self) -> str:
        return self.NAME


class TrueFilter(_Named):
    NAME = "TrueFilter"

    def filter(self, state: Any, pod: Pod, node_info: Any) -> Optional[Status]:
        return None


class FalseFilter(_Named):
    NAME = "FalseFilter"

    def filter(self, state: Any, pod: Pod, node_info: Any) -> Optional[Status]:
        return _unschedulable()


class MatchFilter(_Named):
    NAME = "MatchFilter"

    def filter(self, state: Any, pod: Pod, node_info: Any) -> Optional[Status]:
        if node_info.node is None:
            return Status(Code.ERROR, ("node not found",))
        return None if pod.metadata.name == node_info.node.metadata.name else _unschedulable()


class NoPodsFilter(_Named):
    NAME = "NoPodsFilter"

    def filter(self, state: Any, pod: Pod, node_info: Any) -> Optional[Status]:
        return None if not node_info.pods else _unschedulable()


@dataclass
class FakeFilter(_Named):
    """Counts calls; nodes in ``failed_node_return_code_map`` get that code."""

    NAME = "FakeFilter"
    failed_node_return_code_map: Mapping[str, Code] = field(default_factory=dict)
    num_filter_called: int = 0

    def filter(self, state: Any, pod: Pod, node_info: Any) -> Optional[Status]:
        self.num_filter_called += 1
        code = self.failed_node_return_code_map.get(node_info.node_name())
        if code is not None:
            return Status.new(code, f"injecting failure for pod {pod.metadata.name}")
        return None


def _numeric_score(node_name: str) -> tuple[int, Optional[Status]]:
    try:
        return int(node_name), None
    except ValueError:
        return 0, Status(Code.ERROR, (f"Error converting nodename to int: {node_name}",))


class NumericMap(_Named):
    NAME = "NumericMap"

    def score(self, state: Any, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        return _numeric_score(node_name)

    def score_extensions(self) -> None:
        return None


class ReverseNumericMap(_Named):
    NAME = "ReverseNumericMap"

    def score(self, state: Any, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        return _numeric_score(node_name)

    def score_extensions(self) -> "ReverseNumericMap":
        return self

    def normalize_score(self, state: Any, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        values = [float(s.score) for s in scores]
        high, low = max(values), min(values)
        for s in scores:
            s.score = int(high + low - float(s.score))
        return None


class TrueMap(_Named):
    NAME = "TrueMap"

    def score(self, state: Any, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        return 1, None

    def score_extensions(self) -> "TrueMap":
        return self

    def normalize_score(self, state: Any, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        for s in scores:
            if s.name == "":
                return Status(Code.ERROR, ("unexpected empty host name",))
        return None


class FalseMap(_Named):
    NAME = "FalseMap"

    def score(self, state: Any, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        return 0, Status(Code.ERROR, ("priority map encounters an error",))

    def score_extensions(self) -> None:
        return None


FAKE_PLUGINS: dict[str, type] = {cls.NAME: cls for cls in (
    TrueFilter, FalseFilter, MatchFilter, NoPodsFilter, FakeFilter, NumericMap, ReverseNumericMap, TrueMap,
    FalseMap)}

# vector key → Plugins attribute
_POINTS = {"queueSort": "queue_sort", "preFilter": "pre_filter", "filter": "filter", "preScore": "pre_score",
           "score": "score", "reserve": "reserve", "permit": "permit", "preBind": "pre_bind", "bind": "bind",
           "postBind": "post_bind", "unreserve": "unreserve"}


@dataclass
class BuiltFramework:
    """A framework and the fake plugin instances it holds (to read call counters)."""

    framework: Framework
    instances: dict[str, Any]


def _fake_factory(name: str, spec: Mapping[str, Any], instances: dict[str, Any]) -> Callable[[Any, Any], Any]:
    def factory(args: Any, handle: Any) -> Any:
        if name == "FakeFilter":
            codes = {k: CODE_BY_NAME[v] for k, v in (spec.get("failedNodeReturnCodeMap") or {}).items()}
            plugin = FakeFilter(codes)
        else:
            plugin = FAKE_PLUGINS[name]()
        instances[name] = plugin
        return plugin
    return factory


def build_framework(plugins_spec: Mapping[str, Any], extra: Optional[Mapping[str, Any]] = None,
                    **options: Any) -> BuiltFramework:
    """A Framework from a vector's ``args.plugins`` (names or ``{name, weight, …}`` per point).

    Fake plugins (``FAKE_PLUGINS``) come first in the registry, then ``extra`` (name → plugin
    instance), then the in-tree ones.
    """
    instances: dict[str, Any] = {}
    specs: dict[str, Mapping[str, Any]] = {}
    sets: dict[str, PluginSet] = {}
    for key, entries in plugins_spec.items():
        entries = entries if isinstance(entries, list) else [entries]
        enabled = []
        for entry in entries:
            entry = {"name": entry} if isinstance(entry, str) else entry
            specs.setdefault(entry["name"], entry)
            enabled.append(Plugin(entry["name"], int(entry.get("weight", 0))))
        sets[_POINTS[key]] = PluginSet(tuple(enabled))
    registry = Registry((name, _fake_factory(name, specs.get(name, {}), instances)) for name in FAKE_PLUGINS)
    for name, plugin in (extra or {}).items():
        instances[name] = plugin
        registry.register(name, lambda args, handle, plugin=plugin: plugin)
    registry.merge({k: v for k, v in new_in_tree_registry().items() if k not in registry})
    return BuiltFramework(Framework(registry, Plugins(**sets), **options), instances)


Predicate = Callable[[Pod, Node], bool]
Prioritizer = Callable[[Pod, list[Node]], list[HostPriority]]


@dataclass
class FakeExtender:
    """``FakeExtender`` of extender_test.go: predicates, weighted prioritizers, an ignorable flag.

    ``filter`` keeps the nodes every predicate accepts and reports the others as failed with
    ``"FakeExtender failed"``; ``prioritize`` sums ``score × prioritizer weight`` per host and
    returns the extender's ``weight``. ``fail_filter`` / ``fail_prioritize`` raise instead.
    """

    extender_name: str = "FakeExtender"
    predicates: list[Predicate] = field(default_factory=list)
    prioritizers: list[tuple[Prioritizer, int]] = field(default_factory=list)
    weight: int = 1
    ignorable: bool = False
    interested: bool = True
    fail_filter: bool = False
    fail_prioritize: bool = False
    filter_calls: int = 0

    def name(self) -> str:
        return self.extender_name

    def is_interested(self, pod: Pod) -> bool:
        return self.interested

    def is_ignorable(self) -> bool:
        return self.ignorable

    def supports_preemption(self) -> bool:
        return False

    def process_preemption(self, pod: Pod, node_to_victims: Any, node_infos: Any) -> Any:
        return node_to_victims

    def is_binder(self) -> bool:
        return False

    def bind(self, binding: Any) -> None:
        raise NotImplementedError("FakeExtender does not bind")

    def filter(self, pod: Pod, nodes: list[Node]) -> tuple[list[Node], dict[str, str]]:
        self.filter_calls += 1
        if self.fail_filter:
            raise RuntimeError("injected extender filter error")
        kept, failed = [], {}
        for node in nodes:
            if all(pred(pod, node) for pred in self.predicates):
                kept.append(node)
            else:
                failed[node.metadata.name] = "FakeExtender failed"
        return kept, failed

    def prioritize(self, pod: Pod, nodes: list[Node]) -> tuple[list[HostPriority], int]:
        if self.fail_prioritize:
            raise RuntimeError("injected extender prioritize error")
        combined: dict[str, int] = {node.metadata.name: 0 for node in nodes}
        for prioritizer, weight in self.prioritizers:
            for hp in prioritizer(pod, nodes):
                combined[hp.host] = combined.get(hp.host, 0) + hp.score * weight
        return [HostPriority(host, score) for host, score in combined.items()], self.weight
