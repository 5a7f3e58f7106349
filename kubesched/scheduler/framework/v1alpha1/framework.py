"""The framework runtime: builds a profile's plugins and runs them at each extension point.

Upstream: pkg/scheduler/framework/v1alpha1/framework.go @ v1.18 (NewFramework,
updatePluginList, pluginsNeeded, QueueSortFunc, RunPreFilterPlugins,
RunPreFilterExtensionAddPod/RemovePod, RunFilterPlugins, RunPreScorePlugins,
RunScorePlugins, RunReservePlugins, RunUnreservePlugins, RunPermitPlugins, WaitOnPermit,
RunPreBindPlugins, RunBindPlugins, RunPostBindPlugins, SnapshotSharedLister,
IterateOverWaitingPods, GetWaitingPod, RejectWaitingPod, HasFilterPlugins,
HasScorePlugins, ListPlugins, ClientSet, VolumeBinder).

Semantics kept from 1.18: one instance per plugin shared by every extension point; a
plugin's weight is taken from the last extension point (in upstream's list order) that
enables it, 0 becomes 1; Filter stops at a node's first non-success unless
``run_all_filters``; Unreserve and PostBind run every plugin in configured order and
ignore results; a Permit ``Wait`` is capped at 15 minutes.

Deviations:
- Upstream instantiates plugins ranging over the registry (a Go map); here in registry order,
  which only matters for which factory error is reported first.
- RunScorePlugins runs nodes and plugins in parallel upstream; here nodes in the given order,
  plugins in configured order, and the first failure in that order is reported.
- ``wait_on_permit`` does not block: it takes a callback (see ``waiting_pods_map``).
- ``observer`` (not upstream) hears ``extension_point_start(extension_point, pod, profile,
  node)`` / ``extension_point_end(extension_point, pod, profile, node, code, message,
  results)`` (keyword arguments) around the runners of PreFilter, PreScore, Score (with
  NormalizeScore and weighting), Reserve, Permit, PreBind, Bind, PostBind and Unreserve;
  ``code`` is the runner's resulting code name (``Success`` for Unreserve/PostBind) and
  ``results`` the ``(plugin, status, timeout)`` of each plugin called, in order (``timeout``:
  Permit's capped wait, else None; empty for Score, whose numbers go to a ``ScoreDetail``
  handed to ``score_columns``). The Filter walk's start/end belongs to the generic
  scheduler, which records Filter and the PreFilter extensions itself. Plugins do not know
  about the observer.
- Calls whose result a plugin promised (``PreFilterSkip``, ``PreScoreSkip`` in interface.py)
  are not made; records show them with the promised result.
- Metrics (``framework_extension_point_duration_seconds`` …) are not recorded.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence

from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, MAX_TOTAL_SCORE, MIN_NODE_SCORE, BindPlugin, Code, FilterPlugin, NodeScore, NodeScoreList,
    PermitPlugin, PostBindPlugin, PreBindPlugin, PreFilterPlugin, PreScorePlugin, QueueSortPlugin,
    ReservePlugin, ScorePlugin, Status, UnreservePlugin, code_of, is_success, message_of)
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, PluginConfig, raw_to_mapping
from kubesched.scheduler.framework.v1alpha1.waiting_pods_map import WaitingPod, WaitingPodsMap
from kubesched.util.strconv import go_quote
from kubesched.util.loop import EventLoop, Loop

MAX_TIMEOUT = 15 * 60.0  # maxTimeout: 15 minutes, in seconds

# Extension point names as upstream's constants (metrics labels, trace records).
FILTER, PRE_FILTER, PRE_FILTER_EXTENSION_ADD_POD = "Filter", "PreFilter", "PreFilterExtensionAddPod"
PRE_FILTER_EXTENSION_REMOVE_POD, PRE_SCORE, SCORE = "PreFilterExtensionRemovePod", "PreScore", "Score"
SCORE_EXTENSION_NORMALIZE, PRE_BIND, BIND, POST_BIND = "ScoreExtensionNormalize", "PreBind", "Bind", "PostBind"
RESERVE, UNRESERVE, PERMIT = "Reserve", "Unreserve", "Permit"

# getExtensionPoints order: (config attribute, Protocol, interface name).
EXTENSION_POINTS: tuple[tuple[str, type, str], ...] = (
    ("pre_filter", PreFilterPlugin, "PreFilterPlugin"),
    ("filter", FilterPlugin, "FilterPlugin"),
    ("reserve", ReservePlugin, "ReservePlugin"),
    ("pre_score", PreScorePlugin, "PreScorePlugin"),
    ("score", ScorePlugin, "ScorePlugin"),
    ("pre_bind", PreBindPlugin, "PreBindPlugin"),
    ("bind", BindPlugin, "BindPlugin"),
    ("post_bind", PostBindPlugin, "PostBindPlugin"),
    ("unreserve", UnreservePlugin, "UnreservePlugin"),
    ("permit", PermitPlugin, "PermitPlugin"),
    ("queue_sort", QueueSortPlugin, "QueueSortPlugin"),
)

PluginToStatus = dict[str, Status]
PluginToNodeScores = dict[str, list[NodeScore]]


class FrameworkInitError(ValueError):
    """``NewFramework`` failed; the text is upstream's error."""


PluginResult = tuple[str, Optional[Status], Optional[float]]  # (plugin, status, Permit timeout)


class ExtensionPointObserver(Protocol):
    """Start/end of one extension point's runner (keyword arguments), with each plugin's result."""

    def extension_point_start(self, *, extension_point: str, pod: Any, profile: str, node: str) -> None: ...

    def extension_point_end(self, *, extension_point: str, pod: Any, profile: str, node: str, code: str,
                            message: str, results: Sequence[PluginResult]) -> None: ...


@dataclass(frozen=True, slots=True)
class PluginFailure:
    """A PreFilter extension that did not succeed (not upstream): the plugin, its status, the runner's error."""

    plugin: str
    status: Status
    error: Status


@dataclass(slots=True)
class ScoreDetail:
    """RunScorePlugins' and prioritizeNodes' numbers for an observer (not upstream).

    ``score_columns`` fills plugins … normalize_failure: ``raw[p]`` plugin ``p``'s scores
    node by node (``constants[p]`` when the plugin promised one score for every node),
    ``normalized[p]`` its scores after NormalizeScore (``raw[p]`` itself for a plugin without
    NormalizeScore; None if it never ran),
    ``normalize_plugins`` the plugins whose NormalizeScore ran, ``score_failure`` (node index,
    plugin index, score, status) of a failed Score call. The generic scheduler adds
    ``extender_scores`` and ``totals`` (prioritizeNodes' result) and ``error``. The
    lists are the runner's own, taken as they are (an observer reads them, never changes them).
    """

    plugins: list[str] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    raw: list[list[int]] = field(default_factory=list)
    constants: dict[int, int] = field(default_factory=dict)
    normalized: Optional[list[list[int]]] = None
    normalize_plugins: list[int] = field(default_factory=list)
    normalize_failure: Optional[Status] = None
    score_failure: Optional[tuple[int, int, int, Status]] = None
    extender_scores: dict[str, int] = field(default_factory=dict)
    totals: Optional[list[int]] = None
    error: str = ""


@dataclass(frozen=True, slots=True)
class _FilterPlan:
    """The Filter plugins one pod needs called."""

    pod: Any
    called: tuple[Any, ...]


def _skips_filter(pl: Any, pod: Any) -> bool:
    skip = getattr(pl, "skip_filter", None)
    return skip is not None and skip(pod)


def _constant_score(pl: Any, state: Any, pod: Any, nodes: list[Any]) -> Optional[int]:
    shortcut = getattr(pl, "constant_score", None)
    return shortcut(state, pod, nodes) if shortcut is not None else None


def _pod_name(pod: Any) -> str:
    return pod.metadata.name if pod is not None else ""


def _node_name(node_info: Any) -> str:
    return node_info.node_name() if node_info is not None else ""


def _extension_point(point: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a ``Run…Plugins`` runner with the observer's start/end calls (when there is one).

    The runner's node is its third argument when that is a node name; its status is what it
    returns (the second item of RunScorePlugins' pair); the plugins' results are what the
    runner handed ``_observe`` meanwhile.
    """
    def wrap(run: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(run)
        def runner(self: Framework, state: Any, pod: Any, *rest: Any) -> Any:
            po = self.observer
            if po is None:
                return run(self, state, pod, *rest)
            node = rest[0] if rest and isinstance(rest[0], str) else ""
            po.extension_point_start(extension_point=point, pod=pod, profile=self.profile_name, node=node)
            self._results = results = []
            try:
                out = run(self, state, pod, *rest)
            finally:
                self._results = None
            status = out[1] if isinstance(out, tuple) else out
            po.extension_point_end(extension_point=point, pod=pod, profile=self.profile_name, node=node,
                                   code=str(code_of(status)), message=message_of(status), results=results)
            return out
        return runner
    return wrap


class Framework:
    """``framework``: the plugins of one profile, and the FrameworkHandle given to them."""

    def __init__(self, registry: Mapping[str, Callable[[Any, Any], Any]], plugins: Any,
                 plugin_configs: Sequence[PluginConfig] = (), *, client_set: Any = None,
                 listers: Any = None, snapshot_shared_lister: Any = None, volume_binder: Any = None,
                 informer_factory: Any = None, run_all_filters: bool = False,
                 loop: Optional[Loop] = None, observer: Optional[ExtensionPointObserver] = None,
                 profile_name: str = "") -> None:
        self.registry = registry
        self._client_set = client_set
        self._listers = listers
        self._snapshot_shared_lister = snapshot_shared_lister
        self._volume_binder = volume_binder
        self._informer_factory = informer_factory
        self.run_all_filters = run_all_filters
        self._loop = loop
        self.observer = observer
        self.profile_name = profile_name
        self._results: Optional[list[PluginResult]] = None  # the running runner's results, when observed
        self.waiting_pods = WaitingPodsMap()
        self._plan: Optional[_FilterPlan] = None
        self.plugin_name_to_weight: dict[str, int] = {}
        self.plugins_by_point: dict[str, list[Any]] = {attr: [] for attr, _, _ in EXTENSION_POINTS}
        if plugins is not None:
            self._build(plugins, plugin_configs)

    # ------------------------------------------------------------------ construction (NewFramework)
    def _build(self, plugins: Any, plugin_configs: Sequence[PluginConfig]) -> None:
        needed = plugins_needed(plugins)
        args: dict[str, Any] = {}
        for cfg in plugin_configs:
            if cfg.name in args:
                raise FrameworkInitError(f"repeated config for plugin {cfg.name}")
            args[cfg.name] = cfg.args
        instances = self._instantiate(needed, args)
        for attr, proto, iface in EXTENSION_POINTS:
            self.plugins_by_point[attr] = _plugin_list(getattr(plugins, attr, None), instances, proto, iface)
        for pl in self.plugins_by_point["score"]:
            if self.plugin_name_to_weight.get(pl.name(), 0) == 0:
                raise FrameworkInitError(f"score plugin {go_quote(pl.name())} is not configured with weight")
        if not self.plugins_by_point["queue_sort"]:
            raise FrameworkInitError("no queue sort plugin is enabled")
        if len(self.plugins_by_point["queue_sort"]) > 1:
            raise FrameworkInitError("only one queue sort plugin can be enabled")
        if not self.plugins_by_point["bind"]:
            raise FrameworkInitError("at least one bind plugin is needed")

    def _instantiate(self, needed: Mapping[str, Plugin], args: Mapping[str, Any]) -> dict[str, Any]:
        instances: dict[str, Any] = {}
        total = 0
        for name, factory in self.registry.items():
            if name not in needed:
                continue
            try:
                instances[name] = factory(raw_to_mapping(args.get(name)), self)
            except Exception as exc:  # noqa: BLE001 - a factory error is a config error upstream
                raise FrameworkInitError(f"error initializing plugin {go_quote(name)}: {exc}") from exc
            weight = needed[name].weight or 1
            self.plugin_name_to_weight[name] = weight
            if weight * MAX_NODE_SCORE > MAX_TOTAL_SCORE - total:
                raise FrameworkInitError("total score of Score plugins could overflow")
            total += weight * MAX_NODE_SCORE
        return instances

    # ------------------------------------------------------------------ queue sort
    def queue_sort_func(self) -> Callable[[Any, Any], bool]:
        """``QueueSortFunc``: the single QueueSort plugin's ``less``."""
        plugins = self.plugins_by_point["queue_sort"]
        if not plugins:
            raise RuntimeError("No QueueSort plugin is registered in the framework.")
        return plugins[0].less

    # ------------------------------------------------------------------ scheduling cycle
    @_extension_point(PRE_FILTER)
    def run_pre_filter_plugins(self, state: Any, pod: Any) -> Optional[Status]:
        for pl in self.plugins_by_point["pre_filter"]:
            status = pl.pre_filter(state, pod)
            self._observe(pl, status)
            if not is_success(status):
                if status.is_unschedulable():
                    return Status(status.code, (f"rejected by {go_quote(pl.name())} at prefilter: {status.message()}",))
                return _error(f"error while running {go_quote(pl.name())} prefilter plugin for pod "
                              f"{go_quote(_pod_name(pod))}: {status.message()}")
        return None

    def run_pre_filter_extension_add_pod(self, state: Any, pod_to_schedule: Any, pod_to_add: Any,
                                         node_info: Any) -> Optional[Status]:
        failure = self.run_pre_filter_extension(PRE_FILTER_EXTENSION_ADD_POD, state, pod_to_schedule, pod_to_add,
                                                node_info)
        return None if failure is None else failure.error

    def run_pre_filter_extension_remove_pod(self, state: Any, pod_to_schedule: Any, pod_to_remove: Any,
                                            node_info: Any) -> Optional[Status]:
        failure = self.run_pre_filter_extension(PRE_FILTER_EXTENSION_REMOVE_POD, state, pod_to_schedule,
                                                pod_to_remove, node_info)
        return None if failure is None else failure.error

    def run_pre_filter_extension(self, point: str, state: Any, pod_to_schedule: Any, other: Any,
                                 node_info: Any) -> Optional[PluginFailure]:
        """RunPreFilterExtensionAddPod/RemovePod (``point``): the first extension that did not succeed.

        Not upstream as such: upstream returns only ``failure.error``; the plugin and its own
        status are what a trace records of the call.
        """
        op = "AddPod" if point == PRE_FILTER_EXTENSION_ADD_POD else "RemovePod"
        for pl in self.plugins_by_point["pre_filter"]:
            ext = pl.pre_filter_extensions()
            if ext is None:
                continue
            call = ext.add_pod if op == "AddPod" else ext.remove_pod
            status = call(state, pod_to_schedule, other, node_info)
            if not is_success(status):
                return PluginFailure(pl.name(), status, _error(
                    f"error while running {op} for plugin {go_quote(pl.name())} while scheduling pod "
                    f"{go_quote(_pod_name(pod_to_schedule))}: {status.message()}"))
        return None

    def pre_filter_extension_names(self) -> tuple[str, ...]:
        """The PreFilter plugins with extensions, in order: each AddPod/RemovePod calls them (not upstream)."""
        return tuple(pl.name() for pl in self.plugins_by_point["pre_filter"] if pl.pre_filter_extensions() is not None)

    def run_filter_plugins(self, state: Any, pod: Any, node_info: Any) -> PluginToStatus:
        """``RunFilterPlugins``: plugin name → non-success status (empty: the node fits).

        Plugins whose ``skip_filter(pod)`` holds are not called (see ``PreFilterSkip``).
        """
        statuses: PluginToStatus = {}
        for pl in self._filter_plan(pod).called:
            status = pl.filter(state, pod, node_info)
            if status is not None and status.code != Code.SUCCESS:
                statuses[pl.name()] = status
                failed = self._filter_failure(pl, pod, status)
                if failed is not None:
                    return failed
                if not self.run_all_filters:
                    return statuses
        return statuses

    def _filter_plan(self, pod: Any) -> _FilterPlan:
        """Which Filter plugins ``pod`` needs called (asked once per pod; pods are immutable)."""
        plan = self._plan
        if plan is None or plan.pod is not pod:
            plugins = self.plugins_by_point["filter"]
            plan = self._plan = _FilterPlan(pod, tuple(pl for pl in plugins if not _skips_filter(pl, pod)))
        return plan

    @staticmethod
    def _filter_failure(pl: Any, pod: Any, status: Status) -> Optional[PluginToStatus]:
        """The runner's result for a status that is neither success nor unschedulable (else None)."""
        if status.is_unschedulable():
            return None
        return {pl.name(): _error(f"running {go_quote(pl.name())} filter plugin for pod "
                                  f"{go_quote(_pod_name(pod))}: {status.message()}")}

    @_extension_point(PRE_SCORE)
    def run_pre_score_plugins(self, state: Any, pod: Any, nodes: list[Any]) -> Optional[Status]:
        for pl in self.plugins_by_point["pre_score"]:
            status = pl.pre_score(state, pod, nodes)
            self._observe(pl, status)
            if not is_success(status):
                return _error(f"error while running {go_quote(pl.name())} prescore plugin for pod "
                              f"{go_quote(_pod_name(pod))}: {status.message()}")
        return None

    def run_score_plugins(self, state: Any, pod: Any,
                          nodes: list[Any]) -> tuple[Optional[PluginToNodeScores], Optional[Status]]:
        """``RunScorePlugins``: plugin name → NodeScores in the order of ``nodes`` (``score_columns``)."""
        columns, status = self.score_columns(state, pod, nodes)
        if columns is None:
            return None, status
        names = [node.metadata.name for node in nodes]
        return {plugin: list(map(NodeScore, names, column)) for plugin, column in columns.items()}, None

    @_extension_point(SCORE)
    def score_columns(self, state: Any, pod: Any, nodes: list[Any], detail: Optional[ScoreDetail] = None
                      ) -> tuple[Optional[dict[str, list[int]]], Optional[Status]]:
        """RunScorePlugins' work: Score per node → NormalizeScore → range check → × weight.

        Returns each plugin's weighted scores as plain ints in the order of ``nodes`` (what
        ``prioritizeNodes`` sums). Plugins whose ``constant_score(state, pod, nodes)`` is an int
        are not called (see ``PreScoreSkip``); every node gets that score. NodeScores are made
        only for NormalizeScore, which changes them in place as upstream's plugins do.
        ``detail`` (an observer's) gets the numbers (see ``ScoreDetail``).
        """
        plugins = self.plugins_by_point["score"]
        node_names = [node.metadata.name for node in nodes]
        raw: list[list[int]] = [[] for _ in plugins]
        normalize: list[tuple[int, Optional[Status]]] = []
        constants: dict[int, int] = {}
        if detail is not None:
            detail.plugins = [pl.name() for pl in plugins]
            detail.weights = [self.plugin_name_to_weight.get(name) for name in detail.plugins]
            detail.nodes, detail.raw, detail.constants = node_names, raw, constants
        failed = self._score_nodes(state, pod, nodes, node_names, plugins, raw, constants)
        if failed is not None:
            if detail is not None:
                detail.score_failure = failed
            return None, _error(f"error while running score plugin for pod {go_quote(_pod_name(pod))}: "
                                f"{failed[3].message()}")
        lists, failure = self._normalize(state, pod, plugins, node_names, raw, normalize)
        values = [scores if lst is None else [ns.score for ns in lst] for scores, lst in zip(raw, lists)]
        if detail is not None:
            detail.normalized, detail.normalize_plugins = values, [index for index, _ in normalize]
            detail.normalize_failure = normalize[-1][1] if failure is not None else None
        if failure is not None:
            return None, _error(f"error while running normalize score plugin for pod "
                                f"{go_quote(_pod_name(pod))}: {failure}")
        columns, failure = self._apply_weights(plugins, values)
        if failure is not None:
            return None, _error(f"error while applying score defaultWeights for pod "
                                f"{go_quote(_pod_name(pod))}: {failure}")
        return columns, None

    def _score_nodes(self, state: Any, pod: Any, nodes: list[Any], node_names: list[str], plugins: list[Any],
                     raw: list[list[int]], constants: dict[int, int]) -> Optional[tuple[int, int, int, Status]]:
        """Score every node, node-major, into ``raw`` (one int list per plugin).

        Returns (node index, plugin index, score, status) of a failed call, which ends the
        scoring. A plugin with a constant score gets its whole list at once (and its entry
        in ``constants``); the others are called.
        """
        called = []
        for index, pl in enumerate(plugins):
            constant = _constant_score(pl, state, pod, nodes)
            if constant is None:
                called.append((index, pl.score, raw[index].append))
            else:
                raw[index] = [constant] * len(node_names)
                constants[index] = constant
        for i, node_name in enumerate(node_names):
            for index, score_fn, append in called:
                score, status = score_fn(state, pod, node_name)
                if status is not None and status.code != Code.SUCCESS:
                    return i, index, score, status
                append(score)
        return None

    def _normalize(self, state: Any, pod: Any, plugins: list[Any], node_names: list[str], raw: list[list[int]],
                   calls: list[tuple[int, Optional[Status]]]) -> tuple[list[Optional[NodeScoreList]], Optional[str]]:
        """NormalizeScore in plugin order on NodeScore lists made for it (None for plugins without).

        Each call's (plugin index, status) goes to ``calls``; returns the lists and the
        first failure's text.
        """
        lists: list[Optional[NodeScoreList]] = []
        for index, pl in enumerate(plugins):
            ext = pl.score_extensions()
            if ext is None:
                lists.append(None)
                continue
            scores = list(map(NodeScore, node_names, raw[index]))
            lists.append(scores)
            status = ext.normalize_score(state, pod, scores)
            calls.append((index, status))
            if not is_success(status):
                lists.extend([None] * (len(plugins) - len(lists)))
                return lists, f"normalize score plugin {go_quote(pl.name())} failed with error {status.message()}"
        return lists, None

    def _apply_weights(self, plugins: list[Any], normalized: list[list[int]]
                       ) -> tuple[Optional[dict[str, list[int]]], Optional[str]]:
        """Range-check each plugin's scores (after NormalizeScore) in order and multiply by its weight:
        (columns, failure)."""
        columns: dict[str, list[int]] = {}
        for pl, values in zip(plugins, normalized):
            name = pl.name()
            weight = self.plugin_name_to_weight[name]
            if values and (min(values) < MIN_NODE_SCORE or max(values) > MAX_NODE_SCORE):
                bad = next(v for v in values if v > MAX_NODE_SCORE or v < MIN_NODE_SCORE)
                return None, (f"score plugin {go_quote(name)} returns an invalid score {bad}, "
                              f"it should in the range of [{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after normalizing")
            columns[name] = [v * weight for v in values]
        return columns, None

    @_extension_point(RESERVE)
    def run_reserve_plugins(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        for pl in self.plugins_by_point["reserve"]:
            status = pl.reserve(state, pod, node_name)
            self._observe(pl, status)
            if not is_success(status):
                return _error(f"error while running {go_quote(pl.name())} reserve plugin for pod "
                              f"{go_quote(_pod_name(pod))}: {status.message()}")
        return None

    @_extension_point(UNRESERVE)
    def run_unreserve_plugins(self, state: Any, pod: Any, node_name: str) -> None:
        """``RunUnreservePlugins``: every plugin, in configured order (1.18 does not reverse)."""
        for pl in self.plugins_by_point["unreserve"]:
            pl.unreserve(state, pod, node_name)
            self._observe(pl, None)

    @_extension_point(PERMIT)
    def run_permit_plugins(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        """``RunPermitPlugins``; on Wait the pod joins the waiting-pods map with one timer per plugin."""
        waits: dict[str, float] = {}
        for pl in self.plugins_by_point["permit"]:
            status, timeout = pl.permit(state, pod, node_name)
            if status is not None and status.code == Code.WAIT:
                timeout = min(timeout, MAX_TIMEOUT)
            self._observe(pl, status, timeout)
            if is_success(status):
                continue
            if status.is_unschedulable():
                return Status(status.code, (f"rejected pod {go_quote(_pod_name(pod))} by permit plugin "
                                            f"{go_quote(pl.name())}: {status.message()}",))
            if status.code != Code.WAIT:
                return _error(f"error while running {go_quote(pl.name())} permit plugin for pod "
                              f"{go_quote(_pod_name(pod))}: {status.message()}")
            waits[pl.name()] = timeout
        if waits:
            self.waiting_pods.add(WaitingPod(pod, waits, self.loop))
            return Status(Code.WAIT, (f"one or more plugins asked to wait and no plugin rejected pod "
                                      f"{go_quote(_pod_name(pod))}",))
        return None

    # ------------------------------------------------------------------ binding cycle
    def wait_on_permit(self, pod: Any, on_done: Callable[[Optional[Status]], None]) -> None:
        """``WaitOnPermit`` without blocking: ``on_done(status)`` gets what upstream returns.

        Not a waiting pod, or a signal already buffered → ``on_done`` runs now. Otherwise it
        runs from the loop after the Allow/Reject/timeout that ends the wait. The pod leaves
        the waiting-pods map just before ``on_done`` runs.
        """
        uid = pod.metadata.uid
        wp = self.waiting_pods.get(uid)
        if wp is None:
            on_done(None)
            return

        def receive(signal: Status) -> None:
            self.waiting_pods.remove(uid)
            on_done(_wait_result(pod, signal))

        wp.subscribe(receive)

    @_extension_point(PRE_BIND)
    def run_pre_bind_plugins(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        for pl in self.plugins_by_point["pre_bind"]:
            status = pl.pre_bind(state, pod, node_name)
            self._observe(pl, status)
            if not is_success(status):
                return _error(f"error while running {go_quote(pl.name())} prebind plugin for pod "
                              f"{go_quote(_pod_name(pod))}: {status.message()}")
        return None

    @_extension_point(BIND)
    def run_bind_plugins(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        """``RunBindPlugins``: Skip passes to the next binder; all skipped → the last Skip."""
        plugins = self.plugins_by_point["bind"]
        if not plugins:
            return Status(Code.SKIP, ("",))
        status: Optional[Status] = None
        for pl in plugins:
            status = pl.bind(state, pod, node_name)
            self._observe(pl, status)
            if status is not None and status.code == Code.SKIP:
                continue
            if not is_success(status):
                meta = pod.metadata
                return _error(f'plugin {go_quote(pl.name())} failed to bind pod "{meta.namespace}/{meta.name}": '
                              f"{status.message()}")
            return status
        return status

    @_extension_point(POST_BIND)
    def run_post_bind_plugins(self, state: Any, pod: Any, node_name: str) -> None:
        for pl in self.plugins_by_point["post_bind"]:
            pl.post_bind(state, pod, node_name)
            self._observe(pl, None)

    # ------------------------------------------------------------------ handle
    @property
    def loop(self) -> Loop:
        """The loop permit timers run on; a private one if none was given (tests drive it)."""
        if self._loop is None:
            self._loop = EventLoop()
        return self._loop

    def snapshot_shared_lister(self) -> Any:
        return self._snapshot_shared_lister

    def listers(self) -> Any:
        return self._listers

    def client_set(self) -> Any:
        return self._client_set

    def shared_informer_factory(self) -> Any:
        return self._informer_factory

    def volume_binder(self) -> Any:
        return self._volume_binder

    def iterate_over_waiting_pods(self, callback: Callable[[WaitingPod], object]) -> None:
        self.waiting_pods.iterate(callback)

    def get_waiting_pod(self, uid: str) -> Optional[WaitingPod]:
        return self.waiting_pods.get(uid)

    def reject_waiting_pod(self, uid: str) -> None:
        wp = self.waiting_pods.get(uid)
        if wp is not None:
            wp.reject("removed")

    def has_filter_plugins(self) -> bool:
        return bool(self.plugins_by_point["filter"])

    def has_score_plugins(self) -> bool:
        return bool(self.plugins_by_point["score"])

    def plugin_weight(self, name: str) -> int:
        return self.plugin_name_to_weight.get(name, 0)

    def list_plugins(self) -> Optional[dict[str, list[Plugin]]]:
        """``ListPlugins``: interface name → configured plugins (weights for Score only)."""
        out: dict[str, list[Plugin]] = {}
        for attr, _, iface in EXTENSION_POINTS:
            names = [pl.name() for pl in self.plugins_by_point[attr]]
            if names:
                out[iface] = [Plugin(n, self.plugin_name_to_weight.get(n, 0) if attr == "score" else 0)
                              for n in names]
        return out or None

    # ------------------------------------------------------------------ observer
    def _observe(self, pl: Any, status: Optional[Status], timeout: Optional[float] = None) -> None:
        """Keep one plugin's result for the observer's ``extension_point_end`` (when observed)."""
        results = self._results
        if results is not None:
            results.append((pl.name(), status, timeout))


def new_framework(registry: Mapping[str, Callable[[Any, Any], Any]], plugins: Any,
                  plugin_configs: Sequence[PluginConfig] = (), **options: Any) -> Framework:
    """``NewFramework``; raises ``FrameworkInitError`` with upstream's message."""
    return Framework(registry, plugins, plugin_configs, **options)


def plugins_needed(plugins: Any) -> dict[str, Plugin]:
    """``pluginsNeeded``: every enabled name; the last extension point listing it sets the weight."""
    needed: dict[str, Plugin] = {}
    if plugins is None:
        return needed
    for attr, _, _ in EXTENSION_POINTS:
        plugin_set = getattr(plugins, attr, None)
        for pg in (plugin_set.enabled if plugin_set is not None else ()):
            needed[pg.name] = pg
    return needed


def _plugin_list(plugin_set: Any, instances: Mapping[str, Any], proto: type, iface: str) -> list[Any]:
    """``updatePluginList``: the instances for one extension point, in configured order."""
    if plugin_set is None:
        return []
    out, seen = [], set()
    for pg in plugin_set.enabled:
        pl = instances.get(pg.name)
        if pl is None:
            raise FrameworkInitError(f"{iface} {go_quote(pg.name)} does not exist")
        if not isinstance(pl, proto):
            raise FrameworkInitError(f"plugin {go_quote(pg.name)} does not extend {iface} plugin")
        if pg.name in seen:
            raise FrameworkInitError(f"plugin {go_quote(pg.name)} already registered as {go_quote(iface)}")
        seen.add(pg.name)
        out.append(pl)
    return out


def _wait_result(pod: Any, signal: Status) -> Optional[Status]:
    if signal.is_success():
        return None
    if signal.is_unschedulable():
        return Status(signal.code, (f"pod {go_quote(_pod_name(pod))} rejected while waiting on permit: "
                                    f"{signal.message()}",))
    return _error(f"error received while waiting on permit for pod {go_quote(_pod_name(pod))}: {signal.message()}")


def _error(msg: str) -> Status:
    return Status(Code.ERROR, (msg,))
