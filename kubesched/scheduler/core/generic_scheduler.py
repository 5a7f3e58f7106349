"""The generic scheduler: Schedule (filter, score, pick a host) for one pod.

Upstream: pkg/scheduler/core/generic_scheduler.go @ v1.18.5 (ScheduleResult,
ErrNoNodesAvailable, genericScheduler.snapshot, Schedule, Extenders, selectHost,
numFeasibleNodesToFind, findNodesThatFitPod, findNodesThatPassFilters,
findNodesThatPassExtenders, addNominatedPods, podPassesFiltersOnNode, prioritizeNodes,
podPassesBasicChecks, NewGenericScheduler); FitError lives in ``fit_error.py``, Preempt
and its helpers in ``preemption.py`` (one Go file upstream, split here for size).

Deviations:
- findNodesThatPassFilters checks nodes with 16 goroutines upstream and cancels once
  ``numNodesToFind`` feasible nodes are found, so which nodes beyond the limit get
  examined (and recorded as failures) is racy. Here the walk is sequential from
  ``next_start_node_index`` in snapshot order, wraps, and stops right after the
  ``numNodesToFind``-th feasible node; ``next_start_node_index`` advances by the nodes
  examined (feasible + failed), as upstream computes it.
- prioritizeNodes calls interested extenders' Prioritize concurrently upstream; here in
  configured order (the sum does not depend on the order).
- findNodesThatPassExtenders ranges over the extender's failed-node map (a Go map); here
  in the map's insertion order.
- selectHost draws with ``rng.randrange(cnt) == 0`` from the seeded ``random.Random``
  given to the constructor instead of the global ``math/rand``.
- The constructor also takes ``scheduling_queue`` (for nominated pods) and
  ``enable_non_preempting`` as keywords; ``listers`` supplies the PVC and PDB listers.
- Extenders (``extender.SchedulerExtender``) raise their errors instead of returning them.

Observer hooks (not upstream): when ``observer`` is set, these methods are called with
keyword arguments only; a hook the observer does not define is skipped.
- ``extension_point_start(extension_point="Filter", pod, profile, node="")`` and
  ``extension_point_end(extension_point="Filter", pod, profile, node="", code, message,
  results=())`` around findNodesThatPassFilters (the framework reports the other extension
  points); code ``Success`` when a node passed, ``Unschedulable`` when none did, ``Error``
  (with the error's text) when a filter failed with an error.
- ``filter_run(pod, profile, plugins, add_pod_plugins, run_all_filters, nodes, percentage,
  num_nodes_to_find, start_index, visited, next_start_node_index, checks, error)``: one per
  findNodesThatPassFilters, at its end. ``nodes`` is the snapshot's node-name tuple (the
  same object while the node list is unchanged); ``visited`` how many nodes were handed to
  the filters from ``start_index`` on; ``checks`` the ``(walk position, FilterCheck)`` of
  every visited node that did not simply pass; ``error`` the text of the error that ended
  the walk ("").
- ``extender_filter(pod, extender, nodes_in, nodes_out, failed, error, ignored)``
- ``extender_prioritize(pod, extender, scores, weight, error)``: ``scores`` as
  ``[(host, score)]`` before weighting; ``error`` is the ignored error or None.
- ``score_run(pod, profile, detail, selected)``: one per prioritizeNodes, after selectHost (``selected``
  "" when scoring failed): ``detail`` is the framework's ``ScoreDetail`` completed with the
  extender scores, totals and error.
- ``schedule_result(pod, suggested_host, evaluated_nodes, feasible_nodes, shortcut)``
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from kubesched.api.core import Node, Pod
from kubesched.scheduler.core.extender import SchedulerExtender
from kubesched.scheduler.core.filter_check import CheckLog, FilterCheck
from kubesched.scheduler.core.fit_error import NO_NODES_AVAILABLE, FitError, NoNodesAvailableError
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import (
    FILTER, PRE_FILTER_EXTENSION_ADD_POD, ScoreDetail, go_quote)
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, FrameworkError, NodeScore, Status, is_success, merge_statuses)
from kubesched.api.pod_util import get_pod_priority
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

__all__ = [
    "MIN_FEASIBLE_NODES_TO_FIND", "MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND", "MAX_EXTENDER_PRIORITY",
    "NO_NODES_AVAILABLE", "FitError", "FrameworkError", "NoNodesAvailableError", "BasicCheckError",
    "EmptyPriorityListError", "FilterCheck", "ScheduleResult",
    "SchedulerExtender", "GenericScheduler", "new_generic_scheduler", "pod_passes_basic_checks",
    "select_host", "num_feasible_nodes_to_find",
]

MIN_FEASIBLE_NODES_TO_FIND = 100  # minFeasibleNodesToFind
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5  # minFeasibleNodesPercentageToFind
BASE_PERCENTAGE_OF_NODES_TO_SCORE = 50
MAX_EXTENDER_PRIORITY = 10  # extenderv1.MaxExtenderPriority


class BasicCheckError(Exception):
    """podPassesBasicChecks failed (a missing or deleting PVC); the text is upstream's."""


class EmptyPriorityListError(Exception):
    """selectHost on an empty list (``empty priorityList``)."""

    def __init__(self) -> None:
        super().__init__("empty priorityList")


@dataclass(frozen=True, slots=True)
class ScheduleResult:
    """``ScheduleResult``: the chosen node, nodes evaluated (feasible + failed), feasible nodes."""

    suggested_host: str
    evaluated_nodes: int
    feasible_nodes: int


def num_feasible_nodes_to_find(num_all_nodes: int, percentage_of_nodes_to_score: int) -> int:
    """``numFeasibleNodesToFind``: how many feasible nodes end the search (Go int32 arithmetic)."""
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND or percentage_of_nodes_to_score >= 100:
        return num_all_nodes
    adaptive = percentage_of_nodes_to_score
    if adaptive <= 0:
        adaptive = BASE_PERCENTAGE_OF_NODES_TO_SCORE - num_all_nodes // 125
        if adaptive < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND:
            adaptive = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND
    num_nodes = num_all_nodes * adaptive // 100
    return max(num_nodes, MIN_FEASIBLE_NODES_TO_FIND)


def select_host(node_score_list: Sequence[NodeScore], rng: random.Random) -> tuple[str, list[str]]:
    """``selectHost``: the top score; ties by reservoir sampling. Returns (host, tied nodes)."""
    if not node_score_list:
        raise EmptyPriorityListError()
    max_score = node_score_list[0].score
    selected = node_score_list[0].name
    ties = [selected]
    for ns in node_score_list[1:]:
        if ns.score > max_score:
            max_score, selected, ties = ns.score, ns.name, [ns.name]
        elif ns.score == max_score:
            ties.append(ns.name)
            if rng.randrange(len(ties)) == 0:  # replace with probability 1/cntOfMaxScore
                selected = ns.name
    return selected, ties


def pod_passes_basic_checks(pod: Pod, pvc_lister: Any) -> None:
    """``podPassesBasicChecks``: every PVC the pod uses exists and is not being deleted."""
    namespace = pod.metadata.namespace
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is None:
            continue
        claim_name = volume.persistent_volume_claim.claim_name
        pvc = pvc_lister.persistent_volume_claim(namespace, claim_name) if pvc_lister is not None else None
        if pvc is None:
            raise BasicCheckError(f"persistentvolumeclaim {go_quote(claim_name)} not found")
        if pvc.metadata.deletion_timestamp is not None:
            raise BasicCheckError(f"persistentvolumeclaim {go_quote(pvc.metadata.name)} is being deleted")


class GenericScheduler:
    """``genericScheduler``: state shared by every profile, incl. ``next_start_node_index``."""

    def __init__(self, cache: Any, snapshot: Any, extenders: Sequence[SchedulerExtender] = (),
                 percentage_of_nodes_to_score: int = 0, disable_preemption: bool = False,
                 listers: Any = None, rng: Optional[random.Random] = None, observer: Any = None, *,
                 scheduling_queue: Any = None, enable_non_preempting: bool = False) -> None:
        self.cache = cache
        self.node_info_snapshot = snapshot
        self.extenders: list[SchedulerExtender] = list(extenders)
        self.percentage_of_nodes_to_score = percentage_of_nodes_to_score
        self.disable_preemption = disable_preemption
        self.listers = listers
        self.rng = rng if rng is not None else random.Random(0)
        self.observer = observer
        self.scheduling_queue = scheduling_queue
        self.enable_non_preempting = enable_non_preempting
        self.next_start_node_index = 0
        self._node_names: tuple[Any, tuple[str, ...]] = (None, ())  # (snapshot list, its names), when observed
        self._plugin_names: dict[Any, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # framework → (Filter, AddPod)

    # ------------------------------------------------------------------ helpers
    def _notify(self, hook: str, **fields: Any) -> None:
        if self.observer is not None:
            fn = getattr(self.observer, hook, None)
            if fn is not None:
                fn(**fields)

    def get_extenders(self) -> list[SchedulerExtender]:
        """``Extenders()``."""
        return self.extenders

    def snapshot(self) -> None:
        """``snapshot``: bring the shared node-info snapshot up to date from the cache."""
        self.cache.update_snapshot(self.node_info_snapshot)

    def num_feasible_nodes_to_find(self, num_all_nodes: int) -> int:
        return num_feasible_nodes_to_find(num_all_nodes, self.percentage_of_nodes_to_score)

    # ------------------------------------------------------------------ Schedule
    def schedule(self, prof: Any, state: CycleState, pod: Pod) -> ScheduleResult:
        """``Schedule``: raises FitError (no feasible node) or another error; else the result."""
        fwk = prof.framework
        pod_passes_basic_checks(pod, self.listers)
        self.snapshot()
        num_nodes = self.node_info_snapshot.num_nodes()
        if num_nodes == 0:
            raise NoNodesAvailableError()
        status = fwk.run_pre_filter_plugins(state, pod)
        if not is_success(status):
            raise status.as_error()
        filtered, statuses = self.find_nodes_that_fit_pod(prof, state, pod)
        if not filtered:
            raise FitError(pod, num_nodes, statuses)
        status = fwk.run_pre_score_plugins(state, pod, filtered)
        if not is_success(status):
            raise status.as_error()
        if len(filtered) == 1:
            result = ScheduleResult(filtered[0].metadata.name, 1 + len(statuses), 1)
            self._notify("schedule_result", pod=pod, suggested_host=result.suggested_host,
                         evaluated_nodes=result.evaluated_nodes, feasible_nodes=1, shortcut=True)
            return result
        if self.observer is None:
            host = self.select_host(self.prioritize_nodes(prof, state, pod, filtered))
        else:
            host = self._observed_scoring(prof, state, pod, filtered)
        result = ScheduleResult(host, len(filtered) + len(statuses), len(filtered))
        self._notify("schedule_result", pod=pod, suggested_host=host, evaluated_nodes=result.evaluated_nodes,
                     feasible_nodes=result.feasible_nodes, shortcut=False)
        return result

    def _observed_scoring(self, prof: Any, state: CycleState, pod: Pod, filtered: list[Node]) -> str:
        """prioritizeNodes and selectHost with a ``ScoreDetail`` for the observer's ``score_run``."""
        detail = ScoreDetail()
        profile = getattr(prof.framework, "profile_name", "")
        try:
            host = self.select_host(self.prioritize_nodes(prof, state, pod, filtered, detail))
        except Exception as err:  # noqa: BLE001 - reported, then re-raised
            detail.error = str(err)
            self._notify("score_run", pod=pod, profile=profile, detail=detail, selected="")
            raise
        self._notify("score_run", pod=pod, profile=profile, detail=detail, selected=host)
        return host

    def select_host(self, node_score_list: Sequence[NodeScore], pod: Optional[Pod] = None) -> str:
        """``selectHost`` with this scheduler's rng (``pod`` is accepted for callers and unused)."""
        return select_host(node_score_list, self.rng)[0]

    # ------------------------------------------------------------------ filtering
    def find_nodes_that_fit_pod(self, prof: Any, state: CycleState,
                                pod: Pod) -> tuple[list[Node], dict[str, Status]]:
        """``findNodesThatFitPod``: filter plugins, then extenders; (feasible, node → status)."""
        statuses: dict[str, Status] = {}
        if self.observer is None:
            filtered = self.find_nodes_that_pass_filters(prof, state, pod, statuses)
        else:
            filtered = self._observed_filter_walk(prof, state, pod, statuses)
        filtered = self.find_nodes_that_pass_extenders(pod, filtered, statuses)
        return filtered, statuses

    def _observed_filter_walk(self, prof: Any, state: CycleState, pod: Pod,
                              statuses: dict[str, Status]) -> list[Node]:
        """The filter walk between ``extension_point_start``/``extension_point_end`` for ``Filter``."""
        profile = getattr(prof.framework, "profile_name", "")
        self._notify("extension_point_start", extension_point=FILTER, pod=pod, profile=profile, node="")
        try:
            filtered = self.find_nodes_that_pass_filters(prof, state, pod, statuses)
        except Exception as err:  # noqa: BLE001 - reported, then re-raised
            self._notify("extension_point_end", extension_point=FILTER, pod=pod, profile=profile, node="",
                         code=str(Code.ERROR), message=str(err), results=())
            raise
        code = Code.SUCCESS if filtered else Code.UNSCHEDULABLE
        self._notify("extension_point_end", extension_point=FILTER, pod=pod, profile=profile, node="",
                     code=str(code), message="", results=())
        return filtered

    def find_nodes_that_pass_filters(self, prof: Any, state: CycleState, pod: Pod,
                                     statuses: dict[str, Status]) -> list[Node]:
        """``findNodesThatPassFilters`` as a sequential walk (see the module's Deviation)."""
        all_nodes: list[NodeInfo] = self.node_info_snapshot.node_infos().list()
        n = len(all_nodes)
        num_to_find = self.num_feasible_nodes_to_find(n)
        start = self.next_start_node_index
        log: Optional[CheckLog] = [] if self.observer is not None else None
        if not prof.framework.has_filter_plugins():
            filtered = [info.node for info in all_nodes[:num_to_find]]
            self.next_start_node_index = (start + len(filtered)) % n
            if log is not None:
                self._filter_run(prof, pod, all_nodes, num_to_find, start, len(filtered), log, "")
            return filtered
        filtered: list[Node] = []
        checked = 0  # nodes handed to the filters: positions start .. start+checked-1 (mod n)
        queue = self.scheduling_queue
        if queue is not None and queue.has_nominated_pods():
            passes = self.pod_passes_filters_on_node
        else:  # what podPassesFiltersOnNode comes to when no node has a nominated pod
            passes = self._pod_passes_filters
        error = ""
        try:
            for i in range(n):
                info = all_nodes[(start + i) % n]
                checked = i + 1
                fits, status = passes(prof, state, pod, info, log, i)
                if fits:
                    filtered.append(info.node)
                    if len(filtered) >= num_to_find:
                        break
                elif status is not None and status.code != Code.SUCCESS:
                    statuses[info.node.metadata.name] = status
        except Exception as err:  # noqa: BLE001 - recorded below, then re-raised
            error = str(err)
            raise
        finally:
            processed = len(filtered) + len(statuses)
            self.next_start_node_index = (start + processed) % n
            if log is not None:
                self._filter_run(prof, pod, all_nodes, num_to_find, start, checked, log, error)
        return filtered

    def _filter_run(self, prof: Any, pod: Pod, all_nodes: list[NodeInfo], num_to_find: int, start: int,
                    visited: int, log: CheckLog, error: str) -> None:
        fwk = prof.framework
        names = self._plugin_names.get(fwk)
        if names is None:  # a profile's plugins are fixed once its framework is built
            names = self._plugin_names[fwk] = (tuple(pl.name() for pl in fwk.plugins_by_point["filter"]),
                                               fwk.pre_filter_extension_names())
        self._notify("filter_run", pod=pod, profile=getattr(fwk, "profile_name", ""), plugins=names[0],
                     add_pod_plugins=names[1], run_all_filters=fwk.run_all_filters, nodes=self._names(all_nodes),
                     percentage=self.percentage_of_nodes_to_score, num_nodes_to_find=num_to_find, start_index=start,
                     visited=visited, next_start_node_index=self.next_start_node_index, checks=log, error=error)

    def _names(self, all_nodes: list[NodeInfo]) -> tuple[str, ...]:
        """The node names of the snapshot's list, one tuple per list object (the list is rebuilt on change)."""
        listed, names = self._node_names
        if listed is not all_nodes or len(names) != len(all_nodes):
            names = tuple(info.node_name() for info in all_nodes)
            self._node_names = (all_nodes, names)
        return names

    def find_nodes_that_pass_extenders(self, pod: Pod, filtered: list[Node],
                                       statuses: dict[str, Status]) -> list[Node]:
        """``findNodesThatPassExtenders``: each interested extender narrows the list in turn."""
        for extender in self.extenders:
            if not filtered:
                break
            if not extender.is_interested(pod):
                continue
            nodes_in = [node.metadata.name for node in filtered]
            try:
                filtered_list, failed_map = extender.filter(pod, filtered)
            except Exception as exc:  # noqa: BLE001 - any extender error, as upstream's err
                ignored = extender.is_ignorable()
                self._notify("extender_filter", pod=pod, extender=extender.name(), nodes_in=nodes_in,
                             nodes_out=None, failed={}, error=str(exc), ignored=ignored)
                if ignored:
                    continue
                raise
            for node_name, message in failed_map.items():
                existing = statuses.get(node_name)
                statuses[node_name] = (Status(Code.UNSCHEDULABLE, (message,)) if existing is None
                                       else existing.with_reason(message))
            filtered = list(filtered_list)
            self._notify("extender_filter", pod=pod, extender=extender.name(), nodes_in=nodes_in,
                         nodes_out=[node.metadata.name for node in filtered], failed=dict(failed_map),
                         error=None, ignored=False)
        return filtered

    def add_nominated_pods(self, prof: Any, pod: Pod, state: CycleState, node_info: NodeInfo,
                           check: Optional[FilterCheck] = None) -> tuple[list[Pod], CycleState, NodeInfo]:
        """``addNominatedPods``: (pods added, state, nodeInfo) with equal/higher-priority nominated pods.

        The state and nodeInfo are clones when the node has nominated pods; raises
        ``FrameworkError`` when an AddPod extension fails. ``check`` (an observer's) gets the
        pods added and the failure.
        """
        if self.scheduling_queue is None or node_info is None or node_info.node is None:
            return [], state, node_info
        nominated = self.scheduling_queue.nominated_pods_for_node(node_info.node.metadata.name)
        if not nominated:
            return [], state, node_info
        info_out = node_info.clone()
        state_out = state.clone()
        added: list[Pod] = []
        if check is not None:
            check.nominated = added
        priority = get_pod_priority(pod)
        for p in nominated:
            if get_pod_priority(p) >= priority and p.metadata.uid != pod.metadata.uid:
                info_out.add_pod(p)
                failure = prof.framework.run_pre_filter_extension(PRE_FILTER_EXTENSION_ADD_POD, state_out, pod, p,
                                                                  info_out)
                if failure is not None:
                    if check is not None:
                        check.add_pod_failure = (p, failure)
                    raise failure.error.as_error()
                added.append(p)
        return added, state_out, info_out

    @staticmethod
    def _pod_passes_filters(prof: Any, state: CycleState, pod: Pod, node_info: NodeInfo,
                            log: Optional[CheckLog] = None, at: int = 0) -> tuple[bool, Optional[Status]]:
        """One filter pass on the originals: ``podPassesFiltersOnNode`` for a node without nominated pods.

        A failure goes to ``log`` (an observer's) as ``(at, check)``.
        """
        statuses = prof.framework.run_filter_plugins(state, pod, node_info)
        if not statuses:
            return True, None
        status = merge_statuses(statuses)
        if log is not None:
            log.append((at, FilterCheck([(statuses, status)])))
        if status.code != Code.SUCCESS and not status.is_unschedulable():
            raise status.as_error()
        return status.code == Code.SUCCESS, status

    def pod_passes_filters_on_node(self, prof: Any, state: CycleState, pod: Pod, node_info: NodeInfo,
                                   log: Optional[CheckLog] = None, at: int = 0) -> tuple[bool, Optional[Status]]:
        """``podPassesFiltersOnNode``: (fits, merged status of the last pass).

        Pass 0 runs the filters with equal/higher-priority nominated pods added to clones of
        the state and nodeInfo; pass 1 runs them on the originals, only if pods were added
        and pass 0 succeeded. A status that is neither success nor unschedulable raises
        ``FrameworkError`` (upstream returns it as the error). ``log`` (an observer's) gets
        ``(at, check)`` unless the node has no nominated pod and passed.
        """
        fwk = prof.framework
        check = FilterCheck() if log is not None else None
        try:
            added, state_with, info_with = self.add_nominated_pods(prof, pod, state, node_info, check)
        finally:
            if check is not None and check.nominated is not None:
                log.append((at, check))
        if info_with is node_info:  # no nominated pods on the node: pass 0 only, on the originals
            return self._pod_passes_filters(prof, state, pod, node_info, log, at)
        status: Optional[Status] = None
        for pass_index in (0, 1):
            state_to_use, info_to_use = state_with, info_with
            if pass_index == 1:
                if not added or not is_success(status):
                    break
                state_to_use, info_to_use = state, node_info
            statuses = fwk.run_filter_plugins(state_to_use, pod, info_to_use)
            status = merge_statuses(statuses)
            if check is not None:
                check.passes.append((statuses, status))
            if not is_success(status) and not status.is_unschedulable():
                raise status.as_error()
        return is_success(status), status

    # ------------------------------------------------------------------ scoring
    def prioritize_nodes(self, prof: Any, state: CycleState, pod: Pod, nodes: list[Node],
                         detail: Optional[ScoreDetail] = None) -> list[NodeScore]:
        """``prioritizeNodes``: summed weighted plugin scores plus extender scores × (100/10) × weight.

        ``detail`` (an observer's) gets the plugins' numbers, the extender scores and the totals.
        """
        fwk = prof.framework
        if not self.extenders and not fwk.has_score_plugins():
            result = [NodeScore(node.metadata.name, 1) for node in nodes]
            if detail is not None:
                detail.nodes, detail.totals = [ns.name for ns in result], [1] * len(result)
            return result
        columns, status = fwk.score_columns(state, pod, nodes, detail)  # RunScorePlugins, as plain ints
        if not is_success(status):
            raise status.as_error()
        totals = list(map(sum, zip(*columns.values()))) if columns else [0] * len(nodes)
        result = list(map(NodeScore, [node.metadata.name for node in nodes], totals))
        combined: dict[str, int] = {}
        if self.extenders and nodes is not None:
            for extender in self.extenders:
                if extender.is_interested(pod):
                    self._extender_prioritize(extender, pod, nodes, combined)
            for ns in result:
                ns.score += combined.get(ns.name, 0) * (MAX_NODE_SCORE // MAX_EXTENDER_PRIORITY)
        if detail is not None:
            detail.extender_scores = combined
            detail.totals = [ns.score for ns in result] if combined else totals
        return result

    def _extender_prioritize(self, extender: SchedulerExtender, pod: Pod, nodes: list[Node],
                             combined: dict[str, int]) -> None:
        try:
            priorities, weight = extender.prioritize(pod, nodes)
        except Exception as exc:  # noqa: BLE001 - prioritization errors are ignored upstream
            self._notify("extender_prioritize", pod=pod, extender=extender.name(), scores=[], weight=0,
                         error=str(exc))
            return
        for hp in priorities:
            combined[hp.host] = combined.get(hp.host, 0) + hp.score * weight
        self._notify("extender_prioritize", pod=pod, extender=extender.name(),
                     scores=[(hp.host, hp.score) for hp in priorities], weight=weight, error=None)

    # ------------------------------------------------------------------ preemption
    def preempt(self, prof: Any, state: CycleState, pod: Pod,
                schedule_err: BaseException) -> tuple[Optional[str], list[Pod], list[Pod]]:
        """``Preempt``: delegated to ``core/preemption.py``."""
        from kubesched.scheduler.core import preemption
        return preemption.preempt(self, prof, state, pod, schedule_err)


def new_generic_scheduler(cache: Any, scheduling_queue: Any, snapshot: Any, extenders: Sequence[SchedulerExtender],
                          listers: Any, disable_preemption: bool, percentage_of_nodes_to_score: int,
                          enable_non_preempting: bool, rng: random.Random, observer: Any = None) -> GenericScheduler:
    """``NewGenericScheduler`` in upstream's argument order (plus rng and observer)."""
    return GenericScheduler(cache, snapshot, extenders, percentage_of_nodes_to_score, disable_preemption,
                            listers, rng, observer, scheduling_queue=scheduling_queue,
                            enable_non_preempting=enable_non_preempting)

