"""Plugin calls, derived from the decision records: ``Record(kind=PLUGIN_CALL, data=PluginCall(...))`` rows.

Upstream: pkg/scheduler/framework/v1alpha1/framework.go (which plugin each runner calls, in
which order, and where it stops: RunFilterPlugins at a node's first failure unless
runAllFilters, RunScorePlugins node by node then NormalizeScore per plugin, RunPreFilterPlugins …
RunPermitPlugins at the first non-success, Unreserve/PostBind all) and
pkg/scheduler/core/generic_scheduler.go (addNominatedPods: AddPod per nominated pod added,
podPassesFiltersOnNode's two passes, selectVictimsOnNode's RemovePod / AddPod / filter checks).

The trace stores none of these rows: ``plugin_calls(records)`` computes them when a view asks
(the event log, ``explain``), in call order. Each row has the envelope of the decision record
it comes from (its ``seq``, time, cycle, pod, profile), the call's node and plugin, and the
plugin method's upstream file/function; ``data.phase`` is the scheduler phase it ran in.
Plugins that promised their result (``PreFilterSkip``/``PreScoreSkip``) appear with it, as
if called.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kubesched.trace import upstream
from kubesched.trace.decisions import (
    SUCCESS,
    UNSCHEDULABLE_CODES,
    ExtensionFailure,
    FilterPass,
    FilterRun,
    NodeCheck,
    PointRun,
    Preemption,
    ScoreRun,
)
from kubesched.trace.records import Kind, PluginCall, Record

__all__ = ["ADD_POD", "REMOVE_POD", "calls_of", "plugin_calls"]

FILTER, SCORE, NORMALIZE = "Filter", "Score", "ScoreExtensionNormalize"
ADD_POD, REMOVE_POD = "PreFilterExtensionAddPod", "PreFilterExtensionRemovePod"

# (extension point, plugin, node, PluginCall) of one call, before the envelope is added.
_Call = tuple[str, str, str, PluginCall]


def plugin_calls(records: Iterable[Record]) -> list[Record]:
    """Every plugin call the records hold, in call order (one list for the whole sequence)."""
    return [call for record in records if record.kind in _DERIVES for call in calls_of(record)]


def calls_of(record: Record) -> list[Record]:
    """The plugin calls one decision record holds ([] for any other record)."""
    derive = _DERIVES.get(record.kind)
    if derive is None or record.data is None:
        return []
    out = []
    for point, plugin, node, data in derive(record.data, record.node or ""):
        file, func = upstream.plugin_location(plugin, point)
        out.append(Record(record.seq, record.time, Kind.PLUGIN_CALL, record.cycle, record.pod, record.profile,
                          node or None, plugin, file, func, data))
    return out


def _call(point: str, phase: str, plugin: str, node: str, code: str = SUCCESS, reasons: tuple[str, ...] = (),
          **extra: object) -> _Call:
    return point, plugin, node, PluginCall(point, phase, code, reasons, **extra)


# -- once-per-cycle points --------------------------------------------------------------------------------
def _point_calls(run: PointRun, node: str) -> Iterator[_Call]:
    timeouts = run.timeouts or (None,) * len(run.results)
    for result, timeout in zip(run.results, timeouts):
        yield _call(run.extension_point, run.phase, result.plugin, node, result.code, result.reasons,
                    timeout=timeout)


# -- Filter ------------------------------------------------------------------------------------------------
def _pass_calls(fpass: FilterPass, plugins: tuple[str, ...], run_all: bool, phase: str, node: str) -> Iterator[_Call]:
    """RunFilterPlugins at one node: Success up to the first failure (every plugin with runAllFilters)."""
    failures = {s.plugin: s for s in fpass.statuses}
    for plugin in plugins:
        status = failures.get(plugin)
        if status is None:
            yield _call(FILTER, phase, plugin, node)
            continue
        yield _call(FILTER, phase, plugin, node, status.code, status.reasons)
        if not run_all or status.code not in UNSCHEDULABLE_CODES:
            return


def _extension_calls(point: str, plugins: tuple[str, ...], pod: str, failure: ExtensionFailure | None,
                     phase: str, node: str) -> Iterator[_Call]:
    """One AddPod/RemovePod of ``pod``: every extension in order, up to ``failure`` if it is this one."""
    failing = failure if failure is not None and (failure.extension_point, failure.pod) == (point, pod) else None
    for plugin in plugins:
        if failing is not None and plugin == failing.plugin:
            yield _call(point, phase, plugin, node, failing.code, failing.reasons)
            return
        yield _call(point, phase, plugin, node)


def _check_calls(check: NodeCheck, plugins: tuple[str, ...], add_pod_plugins: tuple[str, ...], run_all: bool,
                 phase: str, node: str) -> Iterator[_Call]:
    """podPassesFiltersOnNode: AddPod for each nominated pod added, then its filter passes."""
    for pod in check.nominated_pods or ():
        yield from _extension_calls(ADD_POD, add_pod_plugins, pod, None, phase, node)
    failure = check.add_pod_failure
    if failure is not None:
        yield from _extension_calls(ADD_POD, add_pod_plugins, failure.pod, failure, phase, node)
        return
    for fpass in check.passes:
        yield from _pass_calls(fpass, plugins, run_all, phase, node)


def _filter_calls(run: FilterRun, _node: str) -> Iterator[_Call]:
    for node, check in run.outcomes():
        yield from _check_calls(check, run.plugins, run.add_pod_plugins, run.run_all_filters, run.phase, node)


# -- Score --------------------------------------------------------------------------------------------------
def _score_calls(run: ScoreRun, _node: str) -> Iterator[_Call]:
    """RunScorePlugins: Score node-major up to a failure, then each NormalizeScore that ran."""
    width = len(run.plugins)
    count = run.calls()
    failure = run.score_failure
    for n in range(count):
        i, p = divmod(n, width)
        raw, norm, weight, weighted = run.cell(i, p)
        code, reasons = ((failure.code, failure.reasons) if failure is not None and n == count - 1
                         else (SUCCESS, ()))
        yield _call(SCORE, run.phase, run.plugins[p], run.nodes[i], code, reasons, raw_score=raw,
                    normalized_score=norm, weight=weight, weighted_score=weighted)
    last = len(run.normalize_plugins) - 1
    for k, p in enumerate(run.normalize_plugins):
        status = run.normalize_failure if k == last else None
        scores = tuple(zip(run.nodes, run.normalized_scores(p))) if run.normalized else ()
        yield _call(NORMALIZE, run.phase, run.plugins[p], "", status.code if status else SUCCESS,
                    status.reasons if status else (), weight=run.weights[p], scores=scores)


# -- Preempt -------------------------------------------------------------------------------------------------
def _preemption_calls(run: Preemption, _node: str) -> Iterator[_Call]:
    for victims in run.nodes:
        last = len(victims.steps) - 1
        for index, step in enumerate(victims.steps):
            if isinstance(step, NodeCheck):
                yield from _check_calls(step, run.plugins, run.add_pod_plugins, run.run_all_filters, run.phase,
                                        victims.node)
            else:
                failure = victims.extension_failure if index == last else None
                yield from _extension_calls(step[0], run.add_pod_plugins, step[1], failure, run.phase, victims.node)


_DERIVES = {Kind.POINT_RUN: _point_calls, Kind.FILTER_RUN: _filter_calls, Kind.SCORE_RUN: _score_calls,
            Kind.PREEMPTION: _preemption_calls}
