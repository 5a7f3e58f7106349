"""Preemption: find a node where evicting lower-priority pods lets a pod fit, and the victims.

Upstream: pkg/scheduler/core/generic_scheduler.go @ v1.18.5 (genericScheduler.Preempt,
processPreemptionWithExtenders, getLowerPriorityNominatedPods, pickOneNodeForPreemption,
selectNodesForPreemption, filterPodsWithPDBViolation, selectVictimsOnNode,
nodesWherePreemptionMightHelp, podEligibleToPreemptOthers) and
staging/src/k8s.io/kube-scheduler/extender/v1/types.go (Victims, MetaPod, MetaVictims).
Upstream keeps Preempt in generic_scheduler.go; it is split out here for size, and
``GenericScheduler.preempt`` delegates to :func:`preempt`.

What ``preempt`` reads from the generic scheduler ``g``: ``node_info_snapshot`` (the same
snapshot as the failed cycle: Preempt does not refresh it), ``enable_non_preempting``,
``extenders``, ``listers.pod_disruption_budgets()``, ``scheduling_queue`` (nominated pods),
``pod_passes_filters_on_node`` and ``observer``. The time given to pods without
``status.startTime`` is the profile's loop clock (``prof.framework.loop.now()``).

The 1.18 form of filterPodsWithPDBViolation reads only ``status.disruptionsAllowed``: a
matching PDB with no allowance left makes the pod violating; otherwise one disruption is
consumed. (Skipping pods listed in ``status.disruptedPods`` came with 1.19.)

Deviations:
- selectNodesForPreemption checks the potential nodes with 16 goroutines and fills a Go map
  keyed by ``*v1.Node``; here the nodes are checked one by one in snapshot order and the
  map (``NodeToVictims``) is a dict keyed by node name in that order. So wherever upstream
  takes "the first node" of that map (a node with no victims; the last tie of
  pickOneNodeForPreemption) it is here the first in snapshot order, where upstream's is
  effectively random. Extenders' ``process_preemption`` receive and return such a dict.
- The potential victims are sorted with a stable sort (upstream: ``sort.Slice``, not
  stable), so victims of equal priority and start time keep the node's pod order.
- GetPodStartTime reads ``time.Now()`` at every call for a pod without a start time; here
  one ``now`` (the simulation clock) serves the whole preemption attempt.
- The PDB lister's order (a cache index upstream) is the listers' insertion order.
- Logging (klog) is not reproduced; the observer hooks below carry the same facts.

Observer hooks (not upstream): when ``g.observer`` is set, these methods are called with
keyword arguments only; a hook the observer does not define is skipped.
- ``preemption_extender(pod, extender, nodes_in, nodes_out, error, ignored)``
- ``preemption(pod, profile, report)``: once per Preempt that got a FitError, at its end:
  ``report`` is a ``PreemptionReport`` (eligibility, candidates, ``VictimsReport`` per
  potential node with the steps selectVictimsOnNode took, the ``PickDecision``, the result
  or the error that ended Preempt).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

from kubesched import features
from kubesched.api.core import Pod
from kubesched.api.labels import SelectorError, label_selector_as_selector
from kubesched.api.policy import PodDisruptionBudget
from kubesched.scheduler.core.fit_error import FitError, NoNodesAvailableError
from kubesched.api.pod_util import get_pod_priority
from kubesched.scheduler.core.filter_check import CheckLog, FilterCheck
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import (
    PRE_FILTER_EXTENSION_ADD_POD, PRE_FILTER_EXTENSION_REMOVE_POD, PluginFailure)
from kubesched.scheduler.framework.v1alpha1.interface import Code, FrameworkError, code_of
from kubesched.scheduler.listers.listers import NodeInfoNotFoundError
from kubesched.scheduler.nodeinfo.node_info import NodeInfo, PodKeyError
from kubesched.scheduler.util.utils import get_earliest_pod_start_time, get_pod_start_time

__all__ = [
    "Victims", "MetaPod", "MetaVictims", "NodeToVictims", "PickDecision", "PICK_CRITERIA", "PREEMPT_NEVER",
    "PreemptionReport", "VictimsReport",
    "preempt", "pod_eligible_to_preempt_others", "nodes_where_preemption_might_help",
    "select_nodes_for_preemption", "select_victims_on_node", "filter_pods_with_pdb_violation",
    "process_preemption_with_extenders", "pick_one_node_for_preemption", "pick_one_node_for_preemption_decision",
    "get_lower_priority_nominated_pods",
]

MAX_INT32 = 2**31 - 1
PREEMPT_NEVER = "Never"  # v1.PreemptNever

# pickOneNodeForPreemption's rules, in the order they are applied.
NO_VICTIMS = "NoVictims"
MIN_PDB_VIOLATIONS = "MinPDBViolations"
MIN_HIGHEST_PRIORITY_VICTIM = "MinHighestPriorityVictim"
MIN_SUM_OF_PRIORITIES = "MinSumOfPriorities"
MIN_NUMBER_OF_VICTIMS = "MinNumberOfVictims"
LATEST_START_TIME = "LatestStartTimeOfHighestPriorityVictims"
FIRST_REMAINING = "FirstRemaining"
PICK_CRITERIA = (NO_VICTIMS, MIN_PDB_VIOLATIONS, MIN_HIGHEST_PRIORITY_VICTIM, MIN_SUM_OF_PRIORITIES,
                 MIN_NUMBER_OF_VICTIMS, LATEST_START_TIME, FIRST_REMAINING)


# ----------------------------------------------------------------------------- extenderv1 types

@dataclass(frozen=True, slots=True)
class Victims:
    """``extenderv1.Victims``: the pods to evict on one node and how many of them violate a PDB."""

    pods: tuple[Pod, ...] = ()
    num_pdb_violations: int = 0


@dataclass(frozen=True, slots=True)
class MetaPod:
    """``extenderv1.MetaPod``: a pod by UID (what nodeCacheCapable extenders exchange)."""

    uid: str


@dataclass(frozen=True, slots=True)
class MetaVictims:
    """``extenderv1.MetaVictims``: ``Victims`` with pods by UID."""

    pods: tuple[MetaPod, ...] = ()
    num_pdb_violations: int = 0


NodeToVictims = dict[str, Victims]  # upstream map[*v1.Node]*extenderv1.Victims, here by node name


@dataclass(frozen=True, slots=True)
class PickDecision:
    """What pickOneNodeForPreemption chose and which rule decided (not upstream)."""

    node: Optional[str]
    criterion: str = ""
    rounds: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(slots=True)
class VictimsReport:
    """selectVictimsOnNode at one node, for the observer (not upstream).

    ``steps`` in order: ``(extension point, pod)`` for each RemovePod / AddPod made and a
    ``FilterCheck`` for each podPassesFiltersOnNode; ``extension_failure``: the last step's
    extension that failed.
    """

    node: str
    fits: bool = False
    victims: list[Pod] = field(default_factory=list)
    num_pdb_violations: int = 0
    pdb_violating: list[Pod] = field(default_factory=list)
    steps: list[Union[tuple[str, Pod], FilterCheck]] = field(default_factory=list)
    extension_failure: Optional[tuple[str, Pod, PluginFailure]] = None


@dataclass(slots=True)
class PreemptionReport:
    """What one Preempt found and decided, for the observer (not upstream).

    ``potential_nodes`` is None until nodesWherePreemptionMightHelp ran; ``done`` when
    Preempt returned ``node``/``victims``/``nominated_pods_to_clear``; ``error`` the text of
    the error that ended it instead.
    """

    eligible: bool = True
    reason: str = ""
    terminating_pods: list[Pod] = field(default_factory=list)
    potential_nodes: Optional[list[str]] = None
    unresolvable_nodes: list[str] = field(default_factory=list)
    nodes: list[VictimsReport] = field(default_factory=list)
    decision: PickDecision = PickDecision(None)
    done: bool = False
    node: str = ""
    victims: list[Pod] = field(default_factory=list)
    nominated_pods_to_clear: list[Pod] = field(default_factory=list)
    error: str = ""
    filter_plugins: tuple[str, ...] = ()      # the profile's, for the calls the filter checks made
    add_pod_plugins: tuple[str, ...] = ()
    run_all_filters: bool = False


def _notify(g: Any, hook: str, **fields: Any) -> None:
    observer = getattr(g, "observer", None)
    if observer is not None:
        fn = getattr(observer, hook, None)
        if fn is not None:
            fn(**fields)


# ----------------------------------------------------------------------------- Preempt

def preempt(g: Any, prof: Any, state: CycleState, pod: Pod,
            schedule_err: BaseException) -> tuple[Optional[str], list[Pod], list[Pod]]:
    """``Preempt``: (node name or None, victims on it, pods whose nomination must be cleared).

    Raises ``NoNodesAvailableError`` for an empty snapshot and an extender's error unless
    that extender is ignorable.
    """
    if not isinstance(schedule_err, FitError):
        return None, [], []
    if getattr(g, "observer", None) is None:
        return _preempt(g, prof, state, pod, schedule_err, None)
    fwk = prof.framework
    report = PreemptionReport(filter_plugins=tuple(pl.name() for pl in fwk.plugins_by_point["filter"]),
                              add_pod_plugins=fwk.pre_filter_extension_names(), run_all_filters=fwk.run_all_filters)
    try:
        return _preempt(g, prof, state, pod, schedule_err, report)
    except Exception as err:  # noqa: BLE001 - reported, then re-raised
        report.error = str(err)
        raise
    finally:
        _notify(g, "preemption", pod=pod, profile=getattr(fwk, "profile_name", ""), report=report)


def _preempt(g: Any, prof: Any, state: CycleState, pod: Pod, schedule_err: FitError,
             report: Optional[PreemptionReport]) -> tuple[Optional[str], list[Pod], list[Pod]]:
    node_infos = g.node_info_snapshot.node_infos()
    if not pod_eligible_to_preempt_others(pod, node_infos, g.enable_non_preempting, report):
        return None, [], []
    all_nodes = node_infos.list()
    if not all_nodes:
        raise NoNodesAvailableError()
    potential_nodes = nodes_where_preemption_might_help(all_nodes, schedule_err)
    if report is not None:
        kept = {n.node_name() for n in potential_nodes}
        report.potential_nodes = [n.node_name() for n in potential_nodes]
        report.unresolvable_nodes = [n.node_name() for n in all_nodes if n.node_name() not in kept]
    if not potential_nodes:
        # Preemption will not help on any node: clear the pod's own nominated node.
        return _done(report, None, [], [pod])
    now = prof.framework.loop.now()
    node_to_victims = select_nodes_for_preemption(g, prof, state, pod, potential_nodes, _list_pdbs(g), now, report)
    node_to_victims = process_preemption_with_extenders(g, pod, node_to_victims)
    decision = pick_one_node_for_preemption_decision(node_to_victims, now)
    if report is not None:
        report.decision = decision
    if decision.node is None:
        return _done(report, None, [], [])
    victims = list(node_to_victims[decision.node].pods)
    return _done(report, decision.node, victims, get_lower_priority_nominated_pods(g, pod, decision.node))


def _done(report: Optional[PreemptionReport], node: Optional[str], victims: list[Pod],
          nominated_pods: list[Pod]) -> tuple[Optional[str], list[Pod], list[Pod]]:
    if report is not None:
        report.done, report.node, report.victims, report.nominated_pods_to_clear = True, node or "", victims, \
            nominated_pods
    return node, victims, nominated_pods


def _list_pdbs(g: Any) -> list[PodDisruptionBudget]:
    """``g.pdbLister.List(labels.Everything())``; upstream's lister is nil with the PDB gate off."""
    if g.listers is None or not features.enabled("PodDisruptionBudget"):
        return []
    return list(g.listers.pod_disruption_budgets())


def pod_eligible_to_preempt_others(pod: Pod, node_infos: Any, enable_non_preempting: bool,
                                   report: Optional[PreemptionReport] = None) -> bool:
    """``podEligibleToPreemptOthers``.

    Not eligible: ``preemptionPolicy: Never`` while NonPreemptingPriority is enabled, or a
    lower-priority pod is still terminating on the node this pod is nominated to (its
    previous preemption is in progress). ``report`` (an observer's) gets the reason and the
    terminating pods.
    """
    if enable_non_preempting and pod.spec.preemption_policy == PREEMPT_NEVER:
        return _ineligible(report, "PreemptionPolicyNever", [])
    nominated = pod.status.nominated_node_name
    if nominated:
        try:
            node_info: Optional[NodeInfo] = node_infos.get(nominated)
        except NodeInfoNotFoundError:
            node_info = None
        if node_info is not None:
            priority = get_pod_priority(pod)
            terminating = [p for p in node_info.pods
                           if p.metadata.deletion_timestamp is not None and get_pod_priority(p) < priority]
            if terminating:
                return _ineligible(report, "TerminatingPodsOnNominatedNode", terminating)
    return True


def _ineligible(report: Optional[PreemptionReport], reason: str, terminating: list[Pod]) -> bool:
    if report is not None:
        report.eligible, report.reason, report.terminating_pods = False, reason, terminating
    return False


def nodes_where_preemption_might_help(nodes: Sequence[NodeInfo], fit_err: FitError) -> list[NodeInfo]:
    """``nodesWherePreemptionMightHelp``: every node whose status is not UnschedulableAndUnresolvable.

    A node without a status (Success) is kept.
    """
    statuses = fit_err.filtered_nodes_statuses
    return [node for node in nodes
            if code_of(statuses.get(node.node_name())) != Code.UNSCHEDULABLE_AND_UNRESOLVABLE]


# ----------------------------------------------------------------------------- victims per node

def select_nodes_for_preemption(g: Any, prof: Any, state: CycleState, pod: Pod,
                                potential_nodes: Sequence[NodeInfo], pdbs: Sequence[PodDisruptionBudget],
                                now: float, report: Optional[PreemptionReport] = None) -> NodeToVictims:
    """``selectNodesForPreemption``: victims on every potential node where the pod can fit.

    Each node works on clones of its NodeInfo and of the cycle state (see the Deviation on
    order). ``report`` (an observer's) gets a ``VictimsReport`` per node.
    """
    node_to_victims: NodeToVictims = {}
    for node_info in potential_nodes:
        node_report = None
        if report is not None:
            node_report = VictimsReport(node_info.node_name())
            report.nodes.append(node_report)
        pods, num_pdb_violations, fits = select_victims_on_node(
            g, prof, state.clone(), pod, node_info.clone(), pdbs, now, node_report)
        if fits:
            node_to_victims[node_info.node_name()] = Victims(tuple(pods), num_pdb_violations)
    return node_to_victims


def filter_pods_with_pdb_violation(pods: Sequence[Pod], pdbs: Sequence[PodDisruptionBudget]
                                   ) -> tuple[list[Pod], list[Pod]]:
    """``filterPodsWithPDBViolation`` (1.18): (violating, non-violating), each in input order.

    Each PDB's ``disruptionsAllowed`` is a budget shared by the pods in turn: a matching PDB
    (same namespace, non-empty selector matching the pod's labels) with nothing left makes the
    pod violating; otherwise the pod consumes one disruption. Pods without labels match none.
    """
    allowed = [pdb.status.disruptions_allowed for pdb in pdbs]
    violating: list[Pod] = []
    non_violating: list[Pod] = []
    for pod in pods:
        violated = False
        if pod.metadata.labels:
            for i, pdb in enumerate(pdbs):
                if pdb.metadata.namespace != pod.metadata.namespace:
                    continue
                try:
                    selector = label_selector_as_selector(pdb.spec.selector)
                except SelectorError:
                    continue
                if selector.empty() or not selector.matches(pod.metadata.labels):
                    continue
                if allowed[i] <= 0:
                    violated = True
                    break
                allowed[i] -= 1
        (violating if violated else non_violating).append(pod)
    return violating, non_violating


class _NotACandidate(Exception):
    """Removing or re-adding a pod failed: the node is not a preemption candidate."""


def select_victims_on_node(g: Any, prof: Any, state: CycleState, pod: Pod, node_info: NodeInfo,
                           pdbs: Sequence[PodDisruptionBudget], now: float,
                           report: Optional[VictimsReport] = None) -> tuple[list[Pod], int, bool]:
    """``selectVictimsOnNode``: (victims, number of PDB-violating victims, fits).

    Works on (and changes) the given ``state`` and ``node_info``, which the caller clones.
    Removes every lower-priority pod; if the pod then fits, re-adds ("reprieves") them one
    by one — PDB-violating pods first, then the others, each group most important first —
    keeping each one whose return still lets the pod fit. The rest are the victims.
    ``report`` (an observer's) gets every step and the outcome.
    """
    fwk = prof.framework
    priority = get_pod_priority(pod)
    steps = report.steps if report is not None else None

    def extension(point: str, other: Pod) -> None:
        if steps is not None:
            steps.append((point, other))
        failure = fwk.run_pre_filter_extension(point, state, pod, other, node_info)
        if failure is not None:
            if report is not None:
                report.extension_failure = (point, other, failure)
            raise _NotACandidate(failure.error.message())

    def remove_pod(rp: Pod) -> None:
        try:
            node_info.remove_pod(rp)
        except (LookupError, PodKeyError) as exc:
            raise _NotACandidate(str(exc)) from exc
        extension(PRE_FILTER_EXTENSION_REMOVE_POD, rp)

    def add_pod(ap: Pod) -> None:
        node_info.add_pod(ap)
        extension(PRE_FILTER_EXTENSION_ADD_POD, ap)

    def fits_now() -> bool:
        log: Optional[CheckLog] = [] if steps is not None else None
        try:
            fits, _status = g.pod_passes_filters_on_node(prof, state, pod, node_info, log)
        except FrameworkError:
            fits = False  # upstream: (false, status, err); the error only logs a warning
        if steps is not None:
            steps.append(log[0][1] if log else FilterCheck())
        return fits

    potential_victims = [p for p in list(node_info.pods) if get_pod_priority(p) < priority]
    try:
        for p in potential_victims:
            remove_pod(p)
    except _NotACandidate:
        return _report(report, [], 0, False, [])
    if not fits_now():
        return _report(report, [], 0, False, [])
    potential_victims.sort(key=_importance(now))  # util.MoreImportantPod, stable
    violating, non_violating = filter_pods_with_pdb_violation(potential_victims, pdbs)
    victims: list[Pod] = []
    num_violating_victims = 0

    def reprieve(p: Pod) -> bool:
        add_pod(p)
        fits = fits_now()
        if not fits:
            remove_pod(p)
            victims.append(p)
        return fits

    try:
        for p in violating:
            if not reprieve(p):
                num_violating_victims += 1
        for p in non_violating:
            reprieve(p)
    except _NotACandidate:
        return _report(report, [], 0, False, violating)
    return _report(report, victims, num_violating_victims, True, violating)


def _importance(now: float) -> Callable[[Pod], tuple[int, float]]:
    """Sort key equivalent to ``util.MoreImportantPod``: higher priority, then earlier start."""
    return lambda p: (-get_pod_priority(p), get_pod_start_time(p, now))


def _report(report: Optional[VictimsReport], victims: list[Pod], num_pdb_violations: int, fits: bool,
            pdb_violating: list[Pod]) -> tuple[list[Pod], int, bool]:
    if report is not None:
        report.fits, report.victims, report.num_pdb_violations = fits, list(victims), num_pdb_violations
        report.pdb_violating = list(pdb_violating)
    return victims, num_pdb_violations, fits


# ----------------------------------------------------------------------------- extenders

def process_preemption_with_extenders(g: Any, pod: Pod, node_to_victims: NodeToVictims) -> NodeToVictims:
    """``processPreemptionWithExtenders``: each preemption-capable, interested extender may
    replace the map in turn; an error stops everything unless the extender is ignorable;
    an empty map ends the chain."""
    if not node_to_victims:
        return node_to_victims
    for extender in g.extenders:
        if not (extender.supports_preemption() and extender.is_interested(pod)):
            continue
        nodes_in = list(node_to_victims)
        try:
            result = extender.process_preemption(pod, node_to_victims, g.node_info_snapshot.node_infos())
        except Exception as exc:  # noqa: BLE001 - any extender error, as upstream's err
            ignored = extender.is_ignorable()
            _notify(g, "preemption_extender", pod=pod, extender=extender.name(), nodes_in=nodes_in,
                    nodes_out=None, error=str(exc), ignored=ignored)
            if ignored:
                continue
            raise
        node_to_victims = dict(result)
        _notify(g, "preemption_extender", pod=pod, extender=extender.name(), nodes_in=nodes_in,
                nodes_out=list(node_to_victims), error=None, ignored=False)
        if not node_to_victims:
            break
    return node_to_victims


# ----------------------------------------------------------------------------- picking a node

def pick_one_node_for_preemption(node_to_victims: NodeToVictims, now: float) -> Optional[str]:
    """``pickOneNodeForPreemption``: the chosen node's name, or None for an empty map."""
    return pick_one_node_for_preemption_decision(node_to_victims, now).node


def pick_one_node_for_preemption_decision(node_to_victims: NodeToVictims, now: float) -> PickDecision:
    """pickOneNodeForPreemption with the rule that decided.

    Victims of each node are expected most important first. Rules, each applied to the
    survivors of the previous one, until one node is left:
    a node with no victims (the first met) wins at once; then the fewest PDB violations; the
    lowest highest-priority victim (``pods[0]``); the lowest sum of ``priority + MaxInt32 + 1``;
    the fewest victims; the latest earliest-start-time among each node's highest-priority
    victims; then the first node left.
    """
    if not node_to_victims:
        return PickDecision(None)
    for node, victims in node_to_victims.items():
        if not victims.pods:
            return PickDecision(node, NO_VICTIMS, ((NO_VICTIMS, (node,)),))
    nodes = list(node_to_victims)
    rounds: list[tuple[str, tuple[str, ...]]] = []
    rules: tuple[tuple[str, Callable[[Victims], int]], ...] = (
        (MIN_PDB_VIOLATIONS, lambda v: v.num_pdb_violations),
        (MIN_HIGHEST_PRIORITY_VICTIM, lambda v: get_pod_priority(v.pods[0])),
        (MIN_SUM_OF_PRIORITIES, lambda v: sum(get_pod_priority(p) + MAX_INT32 + 1 for p in v.pods)),
        (MIN_NUMBER_OF_VICTIMS, lambda v: len(v.pods)),
    )
    for rule, key in rules:
        values = {node: key(node_to_victims[node]) for node in nodes}
        best = min(values.values())
        nodes = [node for node in nodes if values[node] == best]
        rounds.append((rule, tuple(nodes)))
        if len(nodes) == 1:
            return PickDecision(nodes[0], rule, tuple(rounds))
    return _latest_start_time(node_to_victims, nodes, now, rounds)


def _latest_start_time(node_to_victims: NodeToVictims, nodes: list[str], now: float,
                       rounds: list[tuple[str, tuple[str, ...]]]) -> PickDecision:
    """Rule 5: the node whose highest-priority victims started latest; a tie keeps the first."""
    starts = {node: get_earliest_pod_start_time(node_to_victims[node], now) for node in nodes}
    chosen = nodes[0]
    latest = starts[chosen]
    if latest is None:  # "should not reach here" upstream: return the first node
        return PickDecision(chosen, FIRST_REMAINING, tuple(rounds))
    for node in nodes[1:]:
        start = starts[node]
        if start is not None and start > latest:
            chosen, latest = node, start
    tied = tuple(node for node in nodes if starts[node] == latest)
    rounds.append((LATEST_START_TIME, tied))
    if len(tied) == 1:
        return PickDecision(chosen, LATEST_START_TIME, tuple(rounds))
    rounds.append((FIRST_REMAINING, (chosen,)))
    return PickDecision(chosen, FIRST_REMAINING, tuple(rounds))


def get_lower_priority_nominated_pods(g: Any, pod: Pod, node_name: str) -> list[Pod]:
    """``getLowerPriorityNominatedPods``: pods nominated to the node with a lower priority than ``pod``."""
    queue = g.scheduling_queue
    pods = queue.nominated_pods_for_node(node_name) if queue is not None else None
    if not pods:
        return []
    priority = get_pod_priority(pod)
    return [p for p in pods if get_pod_priority(p) < priority]
