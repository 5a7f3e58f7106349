"""The event log: every trace record as a filterable row, Events as ``kubectl describe`` lists them, klog lines.

Upstream: no counterpart for the record table (kubesched.trace); the Events block follows
k8s.io/kubectl/pkg/describe/versioned/describe.go (DescribeEvents: Type, Reason, Age, From,
Message; ``<last> (x<count> over <first>)`` when an Event repeated; sorted by last
timestamp) with ages from k8s.io/apimachinery/pkg/util/duration (HumanDuration); klog
lines are kubesched.trace.klog's.

Pure builders (no Streamlit). Row keys are fixed identifiers (``seq``, ``time``, ``kind``,
``cycle``, ``pod``, ``node``, ``plugin``, ``summary``, ``func``); the page translates the
column headers. The plugin calls a decision record holds (``kubesched.trace.calls``) are listed
as PLUGIN_CALL rows just before it, with its ``seq`` (a click lands on the decision).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kubesched.sim.state import EventState
from kubesched.trace import calls_of, klog
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    CycleInfo,
    EventData,
    FilterRun,
    InformerEvent,
    LeaderElection,
    LogLine,
    Outcome,
    Phase,
    PluginCall,
    PointRun,
    Preemption,
    QueueMove,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRun,
    StartupStep,
)

COLUMNS = ("seq", "time", "kind", "cycle", "pod", "node", "plugin", "summary", "func")
SUMMARY_LIMIT = 240


# -- one line per record -------------------------------------------------------------------------------
def summarize(record: Record) -> str:
    """A one-line description of a record's payload (plain text; learner text is never HTML)."""
    d = record.data
    if d is None:
        return ""
    text = _summary(d)
    return text if len(text) <= SUMMARY_LIMIT else text[:SUMMARY_LIMIT - 1] + "…"


def _summary(d: object) -> str:
    if isinstance(d, QueueMove):
        return f"{d.source or '∅'} → {d.target or '∅'} ({d.event})"
    if isinstance(d, Phase):
        return f"{d.phase} {d.code}".strip() + (f": {d.message}" if d.message else "")
    if isinstance(d, PluginCall):
        parts = [d.extension_point, d.code]
        if d.reasons:
            parts.append("; ".join(d.reasons))
        if d.raw_score is not None:
            parts.append(f"score {d.raw_score}")
        if d.weighted_score is not None:
            parts.append(f"→ {d.normalized_score} × {d.weight} = {d.weighted_score}")
        return " ".join(parts)
    if isinstance(d, InformerEvent):
        return f"{d.event_type} {d.object_kind} {d.namespace + '/' if d.namespace else ''}{d.name}"
    if isinstance(d, CacheChange):
        return f"{d.event}: {d.message}"
    if isinstance(d, CycleInfo):
        bits = [f"attempts={d.attempts}" if d.attempts is not None else "", d.result, d.message]
        return " ".join(b for b in bits if b)
    if isinstance(d, PointRun):
        return f"{d.extension_point}: " + ", ".join(f"{r.plugin} {r.code}" for r in d.results)
    if isinstance(d, FilterRun):
        return (f"{d.processed} evaluated from index {d.start_index}: {len(d.feasible())} feasible, "
                f"{len(d.failed())} failed, {len(d.not_visited())} not visited "
                f"(numFeasibleNodesToFind {d.num_nodes_to_find})" + (f"; {d.error}" if d.error else ""))
    if isinstance(d, ScoreRun):
        if d.error:
            return d.error
        return f"selected {d.selected} (max {d.max_score}; ties {', '.join(d.ties())})"
    if isinstance(d, Preemption):
        return _preemption_summary(d)
    if isinstance(d, ScheduleResult):
        return f"→ {d.suggested_host} ({d.evaluated_nodes} evaluated, {d.feasible_nodes} feasible)"
    if isinstance(d, BindResult):
        return f"binder {d.binder}" + (f": {d.error}" if d.error else "")
    if isinstance(d, Outcome):
        return d.result + (f": {d.message}" if d.message else "")
    if isinstance(d, SchedulingFailure):
        return f"{d.reason}: {d.message}"
    if isinstance(d, EventData):
        count = f" (x{d.count})" if d.count and d.count > 1 else ""
        return f"{d.type} {d.reason} {d.object}: {d.message}{count}"
    if isinstance(d, LeaderElection):
        return f"{d.identity} {d.transition}" + (f": {d.message}" if d.message else "")
    if isinstance(d, LogLine):
        return f"{d.severity} V({d.verbosity}) {d.message}"
    if isinstance(d, StartupStep):
        return f"{d.step}: {d.message}"
    return _generic(d)


def _preemption_summary(d: Preemption) -> str:
    if d.error:
        return d.error
    if not d.eligible:
        return f"not eligible: {d.reason}"
    if d.criterion:
        return f"→ {d.node or '∅'} by {d.criterion}; victims {', '.join(d.victims) or '∅'}"
    return f"no node ({len(d.potential_nodes or ())} potential)"


def _generic(d: object) -> str:
    if not dataclasses.is_dataclass(d):
        return str(d)
    parts = []
    for f in dataclasses.fields(d):
        value = getattr(d, f.name)
        if value in (None, (), "", False):
            continue
        if isinstance(value, tuple):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{f.name}={value}")
    return " ".join(parts)


def _row(r: Record) -> dict:
    return {"seq": r.seq, "time": r.time, "kind": r.kind.value, "cycle": r.cycle, "pod": r.pod or "",
            "node": r.node or "", "plugin": r.plugin or "", "summary": summarize(r), "func": r.func}


def event_rows(records: Iterable[Record]) -> list[dict]:
    """One row per record in trace order, each decision record preceded by its plugin calls."""
    rows = []
    for r in records:
        rows.extend(_row(call) for call in calls_of(r))
        rows.append(_row(r))
    return rows


@dataclass(frozen=True, slots=True)
class RowFilter:
    kinds: tuple[str, ...] = ()          # empty: every kind
    pod: str = ""
    node: str = ""
    plugin: str = ""
    cycle: int | None = None
    text: str = ""                       # case-insensitive, over every column

    def matches(self, row: dict) -> bool:
        if self.kinds and row["kind"] not in self.kinds:
            return False
        for column in ("pod", "node", "plugin"):
            wanted = getattr(self, column)
            if wanted and row[column] != wanted:
                return False
        if self.cycle is not None and row["cycle"] != self.cycle:
            return False
        if self.text:
            needle = self.text.lower()
            return any(needle in str(row[c]).lower() for c in COLUMNS if row[c] is not None)
        return True


def filter_rows(rows: Sequence[dict], row_filter: RowFilter) -> list[dict]:
    return [r for r in rows if row_filter.matches(r)]


def filter_options(rows: Sequence[dict]) -> dict[str, list]:
    """The distinct kinds, pods, nodes, plugins and cycles present (sorted; kinds in first-seen order)."""
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    return {"kind": kinds,
            "pod": sorted({r["pod"] for r in rows if r["pod"]}),
            "node": sorted({r["node"] for r in rows if r["node"]}),
            "plugin": sorted({r["plugin"] for r in rows if r["plugin"]}),
            "cycle": sorted({r["cycle"] for r in rows if r["cycle"] is not None})}


def cursor_for_row(row: dict) -> int:
    """The cursor that makes this row the last visible record (cursor = number of visible records)."""
    return int(row["seq"]) + 1


# -- kubectl describe: Events -------------------------------------------------------------------------
def human_duration(seconds: float) -> str:
    """``duration.HumanDuration`` (apimachinery): 45s, 2m5s, 12m, 3h20m, 2d4h …"""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        rest = s % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        rest = minutes % 60
        return f"{hours}h" if rest == 0 else f"{hours}h{rest}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        rest = hours % 24
        return f"{hours // 24}d" if rest == 0 else f"{hours // 24}d{rest}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        return f"{hours // 24 // 365}y{(hours // 24) % 365}d"
    return f"{hours // 24 // 365}y"


def _since(timestamp: float | None, now: float) -> str:
    """``translateTimestampSince``: ``<unknown>`` for a zero time."""
    return "<unknown>" if timestamp is None else human_duration(now - timestamp)


def pod_events(events: Sequence[EventState], pod: str) -> list[EventState]:
    """The Events about ``pod`` ("namespace/name"), sorted by last timestamp as kubectl does (stable)."""
    mine = [e for e in events if e.object == f"Pod {pod}"]
    return sorted(mine, key=lambda e: e.last_timestamp if e.last_timestamp is not None else float("-inf"))


def age(event: EventState, now: float) -> str:
    if event.count > 1:
        return f"{_since(event.last_timestamp, now)} (x{event.count} over {_since(event.first_timestamp, now)})"
    return _since(event.first_timestamp, now)


def describe_rows(events: Sequence[EventState], now: float) -> list[dict]:
    return [{"type": e.type, "reason": e.reason, "age": age(e, now), "from": e.source, "message": e.message.strip(),
             "count": e.count, "first_seen": e.first_timestamp, "last_seen": e.last_timestamp} for e in events]


def describe_text(events: Sequence[EventState], now: float) -> str:
    """The ``Events:`` block of ``kubectl describe pod`` (tabwriter columns, 2-space padding)."""
    if not events:
        return "Events:  <none>"
    header = ("Type", "Reason", "Age", "From", "Message")
    rule = ("----", "------", "----", "----", "-------")
    body = [(e.type, e.reason, age(e, now), e.source, e.message.strip()) for e in events]
    widths = [max(len(row[i]) for row in (header, rule, *body)) for i in range(4)]
    lines = ["Events:"]
    for row in (header, rule, *body):
        cells = [row[i].ljust(widths[i]) for i in range(4)] + [row[4]]
        lines.append("  " + "  ".join(cells).rstrip())
    return "\n".join(lines)


# -- klog -------------------------------------------------------------------------------------------------
VERBOSITIES = tuple(range(11))


def klog_text(records: Iterable[Record], verbosity: int) -> str:
    """klog lines ``-v=verbosity`` prints for the records (warnings and errors always)."""
    return "\n".join(klog.format_lines(records, verbosity))
