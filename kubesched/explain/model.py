"""Explanation objects: why a pod is where it is (or still pending), as plain frozen data.

Upstream: no counterpart. The words inside come from v1.18.5 unchanged: plugin names,
Filter reasons (``Insufficient cpu``), the FitError message (pkg/scheduler/core/
generic_scheduler.go, FitError.Error) and Event messages, all read from the trace.

Builders live in ``pod.py`` (``explain_pod``) and ``cycles.py``; renderers in ``text.py``.
Nothing here prints or parses arguments, so the dashboard's "Explain" reuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BindInfo",
    "CycleSummary",
    "Explanation",
    "NodeScores",
    "NodeVerdict",
    "PickInfo",
    "PluginScore",
    "PodStatus",
    "PreemptionInfo",
    "VictimsOnNode",
]

# NodeVerdict.verdict values
PASSED = "passed"                  # passed every Filter plugin (and extender)
REJECTED = "rejected"              # a Filter plugin (or an extender) rejected it
NOT_VISITED = "not visited"        # numFeasibleNodesToFind was reached before this node


@dataclass(frozen=True, slots=True)
class PodStatus:
    """Where the pod is at the end of the run (from the state, else from the trace)."""

    namespace: str
    name: str
    phase: str                     # Pending | Bound | Running | Deleted
    node: str = ""
    nominated_node: str = ""
    attempts: int = 0
    bound_at: float | None = None

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class NodeVerdict:
    """One node's Filter outcome in a scheduling cycle.

    ``plugin`` is the Filter plugin that stopped the node (v1.18 stops at a node's first
    failing filter, so later filters did not run) or the extender's name; ``passed``
    lists the Filter plugins that ran before it (or all of them for a feasible node).
    """

    node: str
    verdict: str
    plugin: str = ""
    code: str = ""
    reasons: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()
    extender: bool = False
    nominated_pods: tuple[str, ...] = ()   # nominated pods assumed on the node for the failing pass


@dataclass(frozen=True, slots=True)
class PluginScore:
    plugin: str
    raw: int | None
    normalized: int | None
    weight: int | None
    weighted: int | None


@dataclass(frozen=True, slots=True)
class NodeScores:
    """A feasible node's scores: one row per Score plugin, plus extenders, and the total."""

    node: str
    plugins: tuple[PluginScore, ...]
    extender: int | None
    total: int | None


@dataclass(frozen=True, slots=True)
class PickInfo:
    """selectHost: the highest total, the nodes sharing it, the one picked."""

    max_score: int | None
    ties: tuple[str, ...]
    selected: str
    shortcut: bool = False         # one feasible node: upstream skips scoring altogether


@dataclass(frozen=True, slots=True)
class BindInfo:
    node: str
    time: float
    binder: str = ""
    error: str | None = None


@dataclass(frozen=True, slots=True)
class VictimsOnNode:
    node: str
    fits: bool
    victims: tuple[str, ...]
    pdb_violations: int


@dataclass(frozen=True, slots=True)
class PreemptionInfo:
    """What the failed cycle's ``Preempt`` did (v1.18: core/generic_scheduler.go, genericScheduler.Preempt)."""

    attempted: bool
    eligible: bool = True
    ineligible_reason: str = ""
    potential_nodes: tuple[str, ...] = ()
    unresolvable_nodes: tuple[str, ...] = ()
    candidates: tuple[VictimsOnNode, ...] = ()
    criterion: str = ""
    nominated_node: str = ""
    victims: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CycleSummary:
    """One scheduling cycle, as ``run --format json`` prints it (``cycles[]``)."""

    cycle: int
    time: float
    pod: str
    profile: str
    result: str                    # scheduled | unschedulable | error
    node: str
    evaluated_nodes: int
    feasible_nodes: int
    message: str
    replica: str = ""              # the scheduler replica (hostname) that ran the cycle
    identity: str = ""             # its leader-election identity


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why ``pod`` is where it is; ``focus`` narrows it to one node (``--node``)."""

    pod: str
    found: bool
    status: PodStatus | None = None
    cycle: int | None = None
    cycle_time: float | None = None
    profile: str = ""
    result: str = ""               # scheduled | unschedulable | error | "" (never attempted)
    message: str = ""              # the FitError (or error) message of the last failed cycle
    num_all_nodes: int | None = None
    nodes: tuple[NodeVerdict, ...] = ()
    scores: tuple[NodeScores, ...] = ()
    pick: PickInfo | None = None
    bind: BindInfo | None = None
    preemption: PreemptionInfo | None = None
    preemption_cycle: int | None = None    # the cycle ``preemption`` comes from
    preempted_by: tuple[tuple[str, str, float], ...] = ()  # (preemptor, node, time): the pod was a victim
    events: tuple[tuple[float, str, str, str], ...] = ()   # (time, type, reason, message) of the pod
    focus: str | None = None
    cycle_ended: bool = False      # the cycle's CYCLE_END is in the trace read (not still running)

    def verdict(self, node: str) -> NodeVerdict | None:
        return next((v for v in self.nodes if v.node == node), None)

    def scores_of(self, node: str) -> NodeScores | None:
        return next((s for s in self.scores if s.node == node), None)

    def common_score(self) -> int:
        """The part of every total that all scored nodes share: the weighted scores of the plugins
        that gave each of them the same amount (0 with fewer than 2 scored nodes)."""
        if len(self.scores) < 2:
            return 0
        common = 0
        for column in zip(*(s.plugins for s in self.scores)):
            values = {p.weighted for p in column}
            if len(values) == 1 and None not in values:
                common += values.pop() or 0
        return common
