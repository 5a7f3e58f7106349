"""The per-call trace of before issue 12, rendered from today's decision records (test reference).

Until issue 12 the recorder stored every plugin call as a PLUGIN_CALL record and each
decision as several records: FEASIBLE_NODES, NOMINATED_PASS and FILTER_WALK for a Filter
walk; SCORE_SUMMARY and SELECT_HOST for prioritizeNodes/selectHost; PREEMPTION_ELIGIBILITY,
_CANDIDATES, _VICTIMS, _PICK and _RESULT for a Preempt. ``per_call_records`` renders those
records (as ``record_to_dict`` wrote them, without ``seq``) from FILTER_RUN, SCORE_RUN,
PREEMPTION and POINT_RUN, with the plugin calls from ``kubesched.trace.calls``; every other
record is passed through. Within one kind the order is the old trace's; across kinds it is not
(the old trace interleaved calls with other records), so compare kind by kind
(``by_kind``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kubesched.trace import upstream
from kubesched.trace.calls import calls_of
from kubesched.trace.decisions import FilterRun, NodeCheck, Preemption, ScoreRun
from kubesched.trace.digest import record_to_dict, to_jsonable
from kubesched.trace.records import Kind, Record

GS = upstream.GENERIC_SCHEDULER_GO
OLD_LOCATION = {
    "FEASIBLE_NODES": (GS, "genericScheduler.numFeasibleNodesToFind"),
    "FILTER_WALK": (GS, "genericScheduler.findNodesThatPassFilters"),
    "NOMINATED_PASS": (GS, "genericScheduler.podPassesFiltersOnNode"),
    "SCORE_SUMMARY": (GS, "genericScheduler.prioritizeNodes"),
    "SELECT_HOST": (GS, "genericScheduler.selectHost"),
    "PREEMPTION_ELIGIBILITY": (GS, "podEligibleToPreemptOthers"),
    "PREEMPTION_CANDIDATES": (GS, "nodesWherePreemptionMightHelp"),
    "PREEMPTION_VICTIMS": (GS, "selectVictimsOnNode"),
    "PREEMPTION_PICK": (GS, "pickOneNodeForPreemption"),
    "PREEMPTION_RESULT": (GS, "genericScheduler.Preempt"),
}
OLD_DECISION_KINDS = frozenset(OLD_LOCATION) | {"PLUGIN_CALL"}
NEW_DECISION_KINDS = frozenset({"FILTER_RUN", "SCORE_RUN", "PREEMPTION", "POINT_RUN"})


def _row(record: Record, kind: str, payload: str, node: str | None = None, **data: Any) -> dict[str, Any]:
    """An old record with ``record``'s envelope (no seq)."""
    file, func = OLD_LOCATION[kind]
    return {"time": to_jsonable(record.time), "kind": kind, "cycle": record.cycle, "pod": record.pod,
            "profile": record.profile, "node": node or None, "plugin": None, "file": file, "func": func,
            "data": {"@type": payload, **{k: to_jsonable(v) for k, v in data.items()}}}


def _nominated_passes(record: Record, node: str, check: NodeCheck) -> Iterator[dict[str, Any]]:
    if check.nominated_pods is None:
        return
    for index, fpass in enumerate(check.passes):
        yield _row(record, "NOMINATED_PASS", "NominatedPass", node, pass_index=index,
                   nominated_pods=check.nominated_pods if index == 0 else (), code=fpass.code, reasons=fpass.reasons)


def _filter_run(record: Record, run: FilterRun) -> Iterator[dict[str, Any]]:
    yield _row(record, "FEASIBLE_NODES", "FeasibleNodes", num_all_nodes=run.num_all_nodes, percentage=run.percentage,
               num_nodes_to_find=run.num_nodes_to_find, start_index=run.start_index)
    for node, check in run.outcomes():
        yield from _nominated_passes(record, node, check)
    yield _row(record, "FILTER_WALK", "FilterWalk", start_index=run.start_index, processed=run.processed,
               feasible=run.feasible(), failed=run.failed(), not_visited=run.not_visited(),
               next_start_node_index=run.next_start_node_index, has_filter_plugins=run.has_filter_plugins)


def _score_run(record: Record, run: ScoreRun) -> Iterator[dict[str, Any]]:
    if run.error:
        return
    rows = [{"@type": "ScoreRow", "node": c.node, "plugin": c.plugin, "raw_score": c.data.raw_score,
             "normalized_score": c.data.normalized_score, "weight": c.data.weight,
             "weighted_score": c.data.weighted_score}
            for c in calls_of(record) if c.data.extension_point == "Score"]
    summary = _row(record, "SCORE_SUMMARY", "ScoreSummary", extender_scores=run.extender_scores,
                   totals=tuple(zip(run.nodes, run.totals)))
    summary["data"]["rows"] = rows
    yield summary
    yield _row(record, "SELECT_HOST", "SelectHost", run.selected, max_score=run.max_score, ties=run.ties(),
               selected=run.selected)


def _preemption(record: Record, run: Preemption) -> Iterator[dict[str, Any]]:
    yield _row(record, "PREEMPTION_ELIGIBILITY", "PreemptionEligibility", eligible=run.eligible, reason=run.reason,
               terminating_pods=run.terminating_pods)
    if run.potential_nodes is not None:
        yield _row(record, "PREEMPTION_CANDIDATES", "PreemptionCandidates", potential_nodes=run.potential_nodes,
                   unresolvable_nodes=run.unresolvable_nodes)
    for victims in run.nodes:
        for step in victims.steps:
            if isinstance(step, NodeCheck):
                yield from _nominated_passes(record, victims.node, step)
        yield _row(record, "PREEMPTION_VICTIMS", "PreemptionVictims", victims.node, fits=victims.fits,
                   victims=victims.victims, num_pdb_violations=victims.num_pdb_violations,
                   pdb_violating=victims.pdb_violating)
    if run.criterion:
        yield _row(record, "PREEMPTION_PICK", "PreemptionPick", run.node, criterion=run.criterion, rounds=run.rounds)
    if run.done:
        yield _row(record, "PREEMPTION_RESULT", "PreemptionResult", run.node, victims=run.victims,
                   nominated_pods_to_clear=run.nominated_pods_to_clear)


_RENDER = {Kind.FILTER_RUN: _filter_run, Kind.SCORE_RUN: _score_run, Kind.PREEMPTION: _preemption}


def _plain(record: Record) -> dict[str, Any]:
    row = record_to_dict(record)
    del row["seq"]
    return row


def per_call_records(records: Iterable[Record]) -> list[dict[str, Any]]:
    """The old trace's records (see the module docstring), as dicts without ``seq``."""
    out: list[dict[str, Any]] = []
    for record in records:
        if record.kind.value not in NEW_DECISION_KINDS:
            out.append(_plain(record))
            continue
        out.extend(_plain(call) for call in calls_of(record))
        render = _RENDER.get(record.kind)
        if render is not None:
            out.extend(render(record, record.data))
    return out


def by_kind(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Rows grouped by kind, each group in order (the part of the old trace's order that carries over)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["kind"], []).append(row)
    return out
