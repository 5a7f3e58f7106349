"""Decision records: what the scheduler computed once per decision, from which every plugin call follows.

Upstream: pkg/scheduler/core/generic_scheduler.go @ v1.18.5 (findNodesThatPassFilters,
podPassesFiltersOnNode, prioritizeNodes, selectHost, Preempt, selectVictimsOnNode,
pickOneNodeForPreemption) and pkg/scheduler/framework/v1alpha1/framework.go (the Run…Plugins
runners). Each payload holds the facts upstream's function had at hand when it decided:

- ``FilterRun`` (FILTER_RUN): one findNodesThatPassFilters — the profile's Filter plugins, the
  snapshot's nodes, start index, numFeasibleNodesToFind, how many nodes were handed to the
  filters, and a ``NodeCheck`` for every visited node that did not simply pass (a failure, or
  the nominated-pods passes of podPassesFiltersOnNode). A node without one passed every plugin.
- ``ScoreRun`` (SCORE_RUN): one prioritizeNodes and the selectHost that read it — raw and
  normalized columns per Score plugin, weights, extender scores, totals, the pick; weighted
  scores and the tie set follow from them.
- ``Preemption`` (PREEMPTION): one genericScheduler.Preempt — eligibility, candidates,
  selectVictimsOnNode per potential node (with its filter checks), the pickOneNodeForPreemption
  rounds and the rule that decided, the result.
- ``PointRun`` (POINT_RUN): the plugins of an extension point that runs once per cycle
  (PreFilter, PreScore, Reserve, Permit, PreBind, Bind, PostBind, Unreserve), each with its status.

Every payload is frozen and holds plain values only. A column of scores is packed (``pack``:
one int, ``bytes``, a ``Deflated`` (the bytes of a long column, raw-deflate compressed: scores
take few distinct values), or a tuple of ints; ``unpack`` reads it, inflating a Deflated column
through a small cache), which keeps a ScoreRun to a few small objects whatever the number of
nodes; a run's ``nodes`` tuple is
shared between records while the snapshot's node list is unchanged. ``kubesched.trace.calls`` turns these records
into the per-call rows (PLUGIN_CALL) in the order the calls were made.

Deviations from per-call recording: a Filter plugin that returns ``Error`` is recorded with
the status RunFilterPlugins returned for it (the wrapped "running … filter plugin" error);
a plugin that raises (a bug, like a Go panic) leaves no status.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Union

__all__ = [
    "PASSED",
    "UNSCHEDULABLE_CODES",
    "Deflated",
    "ExtensionFailure",
    "FilterPass",
    "FilterRun",
    "NodeCheck",
    "PluginStatus",
    "PointRun",
    "Preemption",
    "PreemptionNode",
    "ScoreFailure",
    "ScoreRun",
    "pack",
    "unpack",
]

SUCCESS = "Success"
UNSCHEDULABLE_CODES = frozenset({"Unschedulable", "UnschedulableAndUnresolvable"})
MIN_NODE_SCORE, MAX_NODE_SCORE = 0, 100
_EXTENDER_FACTOR = 10  # MaxNodeScore / extenderv1.MaxExtenderPriority, as prioritizeNodes scales


class Deflated(bytes):
    """A long score column's bytes, raw-deflate compressed (``pack``); ``unpack`` gives the values back."""

    __slots__ = ()


Column = Union[int, bytes, Deflated, tuple[int, ...]]
DEFLATE_FROM = 256  # a bytes column this long or longer is stored deflated (shorter ones gain little)
_WBITS, _MEM_LEVEL = -9, 1  # raw deflate, 512-byte window, smallest state: cheap to set up per column


def pack(values: Sequence[int]) -> Column:
    """A column of scores in its smallest form.

    One int when every value is the same (a constant column: that score at every node);
    else ``bytes`` when every value is in 0..255 (scores are 0..100 most of the time), deflated
    (``Deflated``) from ``DEFLATE_FROM`` values on; else a tuple of the ints. Equal values give
    the same form, so columns compare by value.
    """
    if not values:
        return b""
    first = values[0]
    if values.count(first) == len(values):  # one pass in C, nothing built
        return first
    try:
        packed = bytes(values)  # one pass in C
    except (ValueError, TypeError):
        return tuple(values)
    if len(packed) < DEFLATE_FROM:
        return packed
    deflate = zlib.compressobj(1, zlib.DEFLATED, _WBITS, _MEM_LEVEL)
    return Deflated(deflate.compress(packed) + deflate.flush())


@lru_cache(maxsize=64)
def _inflate(column: Deflated) -> bytes:
    return zlib.decompress(column, _WBITS)


def unpack(column: Column, count: int) -> Sequence[int]:
    """A column's values as an int sequence (``count``: how many a constant column stands for)."""
    kind = type(column)
    if kind is int:
        return (column,) * count
    return _inflate(column) if kind is Deflated else column


# -- statuses ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PluginStatus:
    """A plugin's result: its name, the Status code's name and the reasons."""

    plugin: str
    code: str = SUCCESS
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ExtensionFailure:
    """A PreFilter extension (``PreFilterExtensionAddPod`` / ``…RemovePod``) that did not succeed."""

    extension_point: str
    pod: str                                   # the pod being added or removed
    plugin: str
    code: str
    reasons: tuple[str, ...] = ()


# -- Filter ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FilterPass:
    """One RunFilterPlugins at a node: its non-success statuses (plugin order) and their merge.

    v1.18 stops at a node's first failing plugin (unless runAllFilters), so the plugins after
    it were not evaluated; ``code``/``reasons`` are PluginToStatus.Merge of ``statuses``.
    """

    statuses: tuple[PluginStatus, ...] = ()
    code: str = SUCCESS
    reasons: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.statuses


@dataclass(frozen=True, slots=True)
class NodeCheck:
    """podPassesFiltersOnNode at one node: its filter passes.

    ``nominated_pods`` is None when no pod is nominated to the node (one pass on the
    originals); otherwise pass 0 ran with the equal/higher-priority nominated pods it lists
    added (maybe none), and pass 1 without them only if pods were added and pass 0 passed.
    ``add_pod_failure``: adding a nominated pod failed in an AddPod extension (no pass ran).
    """

    passes: tuple[FilterPass, ...] = (FilterPass(),)
    nominated_pods: tuple[str, ...] | None = None
    add_pod_failure: ExtensionFailure | None = None

    @property
    def fits(self) -> bool:
        """podPassesFiltersOnNode's ``fits``: the last pass that ran passed."""
        return self.add_pod_failure is None and bool(self.passes) and self.passes[-1].passed

    @property
    def unschedulable(self) -> bool:
        """Rejected with an Unschedulable(AndUnresolvable) status (an Error ends the walk instead)."""
        return (not self.fits and bool(self.passes) and self.add_pod_failure is None
                and self.passes[-1].code in UNSCHEDULABLE_CODES)

    def deciding_pass(self) -> FilterPass | None:
        """The pass whose outcome counts: the first that failed, else the last one run."""
        return next((p for p in self.passes if not p.passed), self.passes[-1] if self.passes else None)

    def first_failure(self) -> PluginStatus | None:
        """The plugin that stopped the node (first failing plugin of the deciding pass)."""
        deciding = self.deciding_pass()
        return deciding.statuses[0] if deciding is not None and deciding.statuses else None


PASSED = NodeCheck()  # a node without a nominated pod where every Filter plugin passed


@dataclass(frozen=True, slots=True)
class FilterRun:
    """One findNodesThatPassFilters of a pod (the walk from ``start_index``, wrapping).

    ``visited`` nodes were handed to the filters, in ``walk_order()``: the walk stops once
    ``num_nodes_to_find`` are feasible. ``checks`` holds (walk position, check) for every
    visited node that did not simply pass; ``error`` is the error that ended the walk.
    With no Filter plugin the first ``num_nodes_to_find`` nodes of the list are taken as
    they are (positions 0 … in list order, whatever the start index).
    """

    plugins: tuple[str, ...]                  # the profile's Filter plugins, in configured order
    nodes: tuple[str, ...]                    # the snapshot's node list (NodeInfoList order)
    percentage: int                           # percentageOfNodesToScore
    num_nodes_to_find: int
    start_index: int
    visited: int
    next_start_node_index: int
    checks: tuple[tuple[int, NodeCheck], ...] = ()
    add_pod_plugins: tuple[str, ...] = ()     # PreFilter plugins with extensions (AddPod for nominated pods)
    run_all_filters: bool = False
    phase: str = "Schedule"
    error: str = ""

    @property
    def num_all_nodes(self) -> int:
        return len(self.nodes)

    @property
    def has_filter_plugins(self) -> bool:
        return bool(self.plugins)

    def _position(self, i: int) -> int:
        return i if not self.plugins else (self.start_index + i) % len(self.nodes)

    def walk_order(self) -> tuple[str, ...]:
        """The visited nodes, in the order the walk handed them to the filters."""
        nodes = self.nodes
        return tuple(nodes[self._position(i)] for i in range(self.visited))

    def not_visited(self) -> tuple[str, ...]:
        """The nodes the walk never reached, in walk order from the start index."""
        nodes, n, start = self.nodes, len(self.nodes), self.start_index
        if not self.plugins:
            return tuple(nodes[(start + i) % n] for i in range(n) if (start + i) % n >= self.visited)
        return tuple(nodes[(start + i) % n] for i in range(self.visited, n))

    def outcomes(self) -> list[tuple[str, NodeCheck]]:
        """(node, check) of every visited node in walk order (``PASSED`` for a plain pass)."""
        checks = dict(self.checks)
        return [(node, checks.get(i, PASSED)) for i, node in enumerate(self.walk_order())]

    def check_of(self, node: str) -> NodeCheck | None:
        """The check of a visited node (its first visit), None if the walk never reached it."""
        return next((check for name, check in self.outcomes() if name == node), None)

    def feasible(self) -> tuple[str, ...]:
        return tuple(node for node, check in self.outcomes() if check.fits)

    def failed(self) -> tuple[str, ...]:
        """Nodes the walk recorded as failed (the FitError's node statuses)."""
        return tuple(node for node, check in self.outcomes() if check.unschedulable)

    @property
    def processed(self) -> int:
        """findNodesThatPassFilters' processed count: feasible + failed."""
        return sum(1 for _, check in self.outcomes() if check.fits or check.unschedulable)


# -- Score -------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ScoreFailure:
    """The Score call that failed and ended RunScorePlugins (node-major call order)."""

    node_index: int
    plugin_index: int
    raw_score: int
    code: str
    reasons: tuple[str, ...] = ()


_PACKED = (int, bytes, Deflated)


@dataclass(frozen=True, slots=True)
class ScoreRun:
    """One prioritizeNodes (RunScorePlugins inside it) and the selectHost that read it.

    ``raw[p]`` is plugin ``p``'s Score column, node by node in ``nodes`` order (only the calls
    made when a Score call failed); ``normalized[p]`` every plugin's scores once NormalizeScore
    was over (a plugin without NormalizeScore keeps its raw scores; () when it never ran);
    columns are packed (``pack``; read them with ``raw_scores``/``normalized_scores``).
    ``normalize_plugins`` the plugins whose NormalizeScore ran, in order. ``totals`` (derived)
    is what selectHost read (empty when RunScorePlugins failed, ``error`` then says why);
    ``selected`` its pick.
    """

    plugins: tuple[str, ...]
    weights: tuple[int, ...]
    nodes: tuple[str, ...]
    raw: tuple[Column, ...]
    normalized: tuple[Column, ...] = ()
    normalize_plugins: tuple[int, ...] = ()
    score_failure: ScoreFailure | None = None
    normalize_failure: PluginStatus | None = None
    error: str = ""
    extender_scores: tuple[tuple[str, int], ...] = ()  # combined extender score × weight, before × 10
    fixed_totals: Column | None = None         # the totals when no Score plugin ran (1 per node without extenders)
    selected: str = ""
    phase: str = "Schedule"

    def __post_init__(self) -> None:  # a loaded trace gives int lists: pack them as the recorder did
        for name in ("raw", "normalized"):
            columns = getattr(self, name)
            if any(type(c) not in _PACKED for c in columns):
                object.__setattr__(self, name, tuple(c if type(c) in _PACKED else pack(c) for c in columns))
        if self.fixed_totals is not None and type(self.fixed_totals) not in _PACKED:
            object.__setattr__(self, "fixed_totals", pack(self.fixed_totals))

    def raw_scores(self, plugin_index: int) -> Sequence[int]:
        return unpack(self.raw[plugin_index], len(self.nodes))

    def normalized_scores(self, plugin_index: int) -> Sequence[int]:
        return unpack(self.normalized[plugin_index], len(self.nodes))

    @property
    def scored(self) -> bool:
        """NormalizeScore succeeded: the Score calls have normalized and weighted scores."""
        return bool(self.normalized) and self.score_failure is None and self.normalize_failure is None

    def cell(self, node_index: int, plugin_index: int) -> tuple[int | None, int | None, int, int | None]:
        """(raw, normalized, weight, weighted) of one Score call; weighted is None out of [0, 100]."""
        failure = self.score_failure
        if failure is not None and (node_index, plugin_index) == (failure.node_index, failure.plugin_index):
            raw: int | None = failure.raw_score
        else:
            raw = self.raw_scores(plugin_index)[node_index]
        weight = self.weights[plugin_index]
        if not self.scored:
            return raw, None, weight, None
        norm = self.normalized_scores(plugin_index)[node_index]
        return raw, norm, weight, norm * weight if MIN_NODE_SCORE <= norm <= MAX_NODE_SCORE else None

    def calls(self) -> int:
        """How many Score calls were made (node-major: every plugin at a node, then the next node)."""
        failure = self.score_failure
        if failure is None:
            return len(self.nodes) * len(self.plugins)
        return failure.node_index * len(self.plugins) + failure.plugin_index + 1

    @property
    def totals(self) -> Sequence[int]:
        """prioritizeNodes' sums, node by node: the weighted scores plus the extender score × 10
        (MaxNodeScore / MaxExtenderPriority); ``fixed_totals`` when no Score plugin ran; ()
        when RunScorePlugins failed."""
        if self.fixed_totals is not None:
            return tuple(unpack(self.fixed_totals, len(self.nodes)))
        if self.error or not self.scored:
            return ()
        extender = dict(self.extender_scores)
        columns = [[v * w for v in self.normalized_scores(p)] for p, w in enumerate(self.weights)]
        return tuple(sum(column[i] for column in columns) + extender.get(node, 0) * _EXTENDER_FACTOR
                     for i, node in enumerate(self.nodes))

    @property
    def max_score(self) -> int | None:
        totals = self.totals
        return max(totals) if totals else None

    def ties(self) -> tuple[str, ...]:
        """The nodes with the highest total, in list order (selectHost draws among them)."""
        totals = self.totals
        best = max(totals) if totals else None
        return tuple(node for node, total in zip(self.nodes, totals) if total == best)


# -- Preempt --------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PreemptionNode:
    """selectVictimsOnNode at one potential node.

    ``steps`` is what it did, in order: ``("PreFilterExtensionRemovePod", pod)`` /
    ``("PreFilterExtensionAddPod", pod)`` for each pod removed from or re-added to the node
    (every lower-priority pod removed, then each reprieve: re-added, checked, removed again
    if the pod no longer fits), and a ``NodeCheck`` for each podPassesFiltersOnNode.
    ``extension_failure``: the last step's extension failed (the node is no candidate).
    """

    node: str
    fits: bool
    victims: tuple[str, ...] = ()
    num_pdb_violations: int = 0
    pdb_violating: tuple[str, ...] = ()
    steps: tuple[tuple[str, str] | NodeCheck, ...] = ()
    extension_failure: ExtensionFailure | None = None


@dataclass(frozen=True, slots=True)
class Preemption:
    """One genericScheduler.Preempt after a FitError.

    ``eligible``/``reason``/``terminating_pods``: podEligibleToPreemptOthers. ``potential_nodes``
    (None when Preempt stopped before nodesWherePreemptionMightHelp) and the unresolvable rest;
    ``nodes``: selectVictimsOnNode per potential node, snapshot order; ``criterion``/``rounds``:
    pickOneNodeForPreemption (``PICK_CRITERIA``, "" when no node was left to pick from);
    ``node``/``victims``/``nominated_pods_to_clear``: what Preempt returned (``done``), unless
    ``error`` ended it. ``plugins``/``add_pod_plugins``/``run_all_filters`` are the profile's,
    for the calls the checks made.
    """

    eligible: bool
    reason: str = ""                           # "", PreemptionPolicyNever, TerminatingPodsOnNominatedNode
    terminating_pods: tuple[str, ...] = ()
    potential_nodes: tuple[str, ...] | None = None
    unresolvable_nodes: tuple[str, ...] = ()
    nodes: tuple[PreemptionNode, ...] = ()
    criterion: str = ""
    rounds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    done: bool = False
    node: str = ""
    victims: tuple[str, ...] = ()
    nominated_pods_to_clear: tuple[str, ...] = ()
    error: str = ""
    plugins: tuple[str, ...] = ()
    add_pod_plugins: tuple[str, ...] = ()
    run_all_filters: bool = False
    phase: str = "Preempt"


# -- once-per-cycle extension points ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PointRun:
    """The plugins an extension point ran for the pod, in call order, each with its status.

    PreFilter … Permit stop at the first non-success (Bind also passes over ``Skip``);
    Unreserve and PostBind run every plugin and ignore results. ``timeouts``: Permit's wait
    per call (capped at 15 minutes), empty for the other points.
    """

    extension_point: str
    results: tuple[PluginStatus, ...]
    timeouts: tuple[float, ...] = ()
    phase: str = ""
