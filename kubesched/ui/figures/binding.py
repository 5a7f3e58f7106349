"""The binding cycle of one pod: Reserve → Permit → (binding task) WaitOnPermit → … → PostBind.

Upstream: pkg/scheduler/scheduler.go (Scheduler.scheduleOne: the scheduling-cycle tail
AssumePodVolumes, Reserve, assume, Permit; the binding goroutine WaitOnPermit, bindVolumes,
PreBind, bind, finishBinding, PostBind; Unreserve + ForgetPod on failure),
pkg/scheduler/framework/v1alpha1/framework.go (RunPermitPlugins, WaitOnPermit),
pkg/scheduler/internal/cache/cache.go (AssumePod, FinishBinding, AddPod confirming an
assumed pod, ForgetPod, cleanupAssumedPods expiring one ``durationToExpireAssumedPod``
= 30 s after FinishBinding).

Pure builders over trace records (no Streamlit): ``binding_attempts`` lists the (pod,
cycle) pairs that reached Reserve, ``binding_steps`` turns one attempt's PHASE_START /
PHASE_END / ASSUME / FORGET / PERMIT_WAIT / BIND / cache records into steps,
``assumed_history`` follows the pod through the cache's assumed-pod states, and
``timeline_figure`` / ``cache_figure`` draw them. The x axis of the timeline is the trace
record number: a binding cycle usually takes no simulated time, so a time axis would
show zero-width bars (times are in the hover and the table).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

import plotly.graph_objects as go

from kubesched.trace import upstream
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    Kind,
    Outcome,
    PermitWait,
    Phase,
    Record,
)
from kubesched.ui.i18n import t
from kubesched.ui.theme import OKABE_ITO

SCHEDULING_PHASES = ("AssumePodVolumes", "Reserve", "Assume", "Permit")
BINDING_PHASES = ("WaitOnPermit", "BindVolumes", "PreBind", "Bind", "PostBind")
FAILURE_PHASES = ("Unreserve",)
ALL_PHASES = SCHEDULING_PHASES + BINDING_PHASES + FAILURE_PHASES
# Markers drawn on their own lane (not phases of their own upstream).
LANES = ALL_PHASES[:8] + ("FinishBinding", "PostBind", "Unreserve", "Forget")

STAGE_OF = {**{p: "scheduling" for p in SCHEDULING_PHASES}, **{p: "binding" for p in BINDING_PHASES},
            "FinishBinding": "binding", "Unreserve": "failure", "Forget": "failure"}

# Outcome colour + glyph: never colour alone.
RUNNING, SUCCESS, WAIT, FAILED = "running", "success", "wait", "failed"
OUTCOME_STYLE = {
    SUCCESS: ("✓", OKABE_ITO["bluish_green"]),
    WAIT: ("‖", OKABE_ITO["orange"]),
    FAILED: ("✗", OKABE_ITO["vermillion"]),
    RUNNING: ("…", OKABE_ITO["grey"]),
}

# Cache states of an assumed pod, in the order a learner meets them.
NOT_ASSUMED, ASSUMED, BINDING_FINISHED, CONFIRMED, EXPIRED, FORGOTTEN, REMOVED = (
    "not-assumed", "assumed", "binding-finished", "confirmed", "expired", "forgotten", "removed")
CACHE_STATES = (NOT_ASSUMED, ASSUMED, BINDING_FINISHED, CONFIRMED, EXPIRED, FORGOTTEN, REMOVED)
CACHE_STATE_POS = {NOT_ASSUMED: (0.0, 1.0), ASSUMED: (1.5, 1.0), BINDING_FINISHED: (3.0, 1.0),
                   CONFIRMED: (4.5, 1.6), EXPIRED: (4.5, 0.4), FORGOTTEN: (2.25, 0.0), REMOVED: (6.4, 1.6)}
CACHE_TEXT_ABOVE = frozenset({ASSUMED, CONFIRMED})   # neighbours alternate, so no two labels meet at 1024 px
CACHE_EDGES = ((NOT_ASSUMED, ASSUMED), (ASSUMED, BINDING_FINISHED), (BINDING_FINISHED, CONFIRMED),
               (BINDING_FINISHED, EXPIRED), (ASSUMED, FORGOTTEN), (BINDING_FINISHED, FORGOTTEN),
               (CONFIRMED, REMOVED), (ASSUMED, CONFIRMED))
CACHE_FUNCS = {ASSUMED: "schedulerCache.AssumePod", BINDING_FINISHED: "schedulerCache.FinishBinding",
               CONFIRMED: "schedulerCache.AddPod", EXPIRED: "schedulerCache.cleanupAssumedPods",
               FORGOTTEN: "schedulerCache.ForgetPod", REMOVED: "schedulerCache.RemovePod"}

# Upstream functions the page links, in binding order: (label, file, func).
FINISH_BINDING_LOCATION = (upstream.SCHEDULER_GO, "Scheduler.finishBinding")
FORGET_LOCATION = (upstream.CACHE_GO, "schedulerCache.ForgetPod")


@dataclass(frozen=True, slots=True)
class BindingStep:
    """One phase (or marker) of a binding attempt, as far as the cursor shows it."""

    phase: str
    stage: str                    # scheduling | binding | failure
    start_seq: int
    end_seq: int | None           # None: still running at the cursor
    start_time: float
    end_time: float | None
    code: str                     # Success, Wait, Unschedulable, Error … ("" while running)
    message: str
    detail: str                   # pending Permit plugins, the binder, the cache message …
    file: str
    func: str

    @property
    def outcome(self) -> str:
        if self.end_seq is None:
            return RUNNING
        if self.code == "Wait":
            return WAIT
        return SUCCESS if self.code in ("Success", "") else FAILED


@dataclass(frozen=True, slots=True)
class Attempt:
    """A (pod, scheduling cycle) that reached Reserve, and how its binding ended (if it did)."""

    pod: str
    cycle: int
    node: str
    result: str                   # bound | failed | "" (in progress at the cursor)


@dataclass(frozen=True, slots=True)
class CacheTransition:
    state: str
    seq: int
    time: float
    message: str


@dataclass(frozen=True, slots=True)
class AssumedHistory:
    """The pod's path through the cache's assumed-pod states up to the cursor."""

    transitions: tuple[CacheTransition, ...]
    state: str
    expires_at: float | None      # FinishBinding + 30 s while not yet confirmed


# -- from records --------------------------------------------------------------------------------
def _phase_of(record: Record) -> str | None:
    if record.kind in (Kind.PHASE_START, Kind.PHASE_END) and isinstance(record.data, Phase):
        return record.data.phase if record.data.phase in ALL_PHASES else None
    return None


def binding_attempts(records: Iterable[Record]) -> list[Attempt]:
    """Every (pod, cycle) with a Reserve phase, in order, with its binding outcome so far."""
    order: list[tuple[str, int]] = []
    node: dict[tuple[str, int], str] = {}
    result: dict[tuple[str, int], str] = {}
    for r in records:
        if r.pod is None or r.cycle is None:
            continue
        key = (r.pod, r.cycle)
        if r.kind is Kind.PHASE_START and _phase_of(r) == "Reserve" and key not in node:
            order.append(key)
            node[key] = r.node or ""
        elif key in node and r.kind is Kind.BINDING_CYCLE_END and isinstance(r.data, Outcome):
            result[key] = r.data.result
        elif key in node and r.kind is Kind.CYCLE_END and r.data is not None and r.data.result == "failed":
            result[key] = "failed"
    return [Attempt(pod, cycle, node[(pod, cycle)], result.get((pod, cycle), "")) for pod, cycle in order]


def attempt_at_cursor(records: Sequence[Record]) -> Attempt | None:
    """The attempt the last binding-related record before the cursor belongs to (else the last one)."""
    attempts = binding_attempts(records)
    if not attempts:
        return None
    known = {(a.pod, a.cycle): a for a in attempts}
    for r in reversed(records):
        if (r.pod, r.cycle) in known and (_phase_of(r) or r.kind in _BINDING_KINDS):
            return known[(r.pod, r.cycle)]
    return attempts[-1]


_BINDING_KINDS = frozenset({Kind.ASSUME, Kind.FORGET, Kind.PERMIT_WAIT, Kind.BIND, Kind.BINDING_CYCLE_START,
                            Kind.BINDING_CYCLE_END})


def binding_steps(records: Iterable[Record], pod: str, cycle: int) -> tuple[BindingStep, ...]:
    """The phases and markers of ``pod``'s attempt in ``cycle``, in trace order."""
    steps: list[BindingStep] = []
    open_: dict[str, int] = {}
    for r in records:
        if r.pod != pod or r.cycle != cycle:
            continue
        phase = _phase_of(r)
        if phase is not None and r.kind is Kind.PHASE_START:
            open_[phase] = len(steps)
            steps.append(BindingStep(phase, STAGE_OF[phase], r.seq, None, r.time, None, "", "", "", r.file, r.func))
        elif phase is not None and phase in open_:
            i = open_.pop(phase)
            s = steps[i]
            steps[i] = BindingStep(s.phase, s.stage, s.start_seq, r.seq, s.start_time, r.time, r.data.code,
                                   r.data.message, s.detail, s.file, s.func)
        elif r.kind is Kind.PERMIT_WAIT and isinstance(r.data, PermitWait):
            _annotate(steps, "Permit", ", ".join(r.data.pending_plugins))
        elif r.kind is Kind.BIND and isinstance(r.data, BindResult):
            _annotate(steps, "Bind", r.data.binder + (f": {r.data.error}" if r.data.error else ""))
        elif r.kind is Kind.CACHE_EVENT and isinstance(r.data, CacheChange) and r.data.event == "FinishBinding":
            steps.append(_marker("FinishBinding", r, r.data.message, FINISH_BINDING_LOCATION))
        elif r.kind is Kind.FORGET:
            steps.append(_marker("Forget", r, "", FORGET_LOCATION))
    return tuple(steps)


def _annotate(steps: list[BindingStep], phase: str, detail: str) -> None:
    for i in range(len(steps) - 1, -1, -1):
        if steps[i].phase == phase:
            s = steps[i]
            steps[i] = BindingStep(s.phase, s.stage, s.start_seq, s.end_seq, s.start_time, s.end_time, s.code,
                                   s.message, detail, s.file, s.func)
            return


def _marker(name: str, r: Record, detail: str, location: tuple[str, str]) -> BindingStep:
    return BindingStep(name, STAGE_OF[name], r.seq, r.seq, r.time, r.time, "Success", "", detail, *location)


def assumed_history(records: Iterable[Record], pod: str, ttl: float) -> AssumedHistory:
    """ASSUME → FinishBinding → Confirm (informer add) / EXPIRE, or FORGET, for ``pod``; a pod whose
    binding finished expires ``ttl`` seconds later unless confirmed (``Simulation.assumed_pod_ttl``)."""
    transitions: list[CacheTransition] = []
    deadline: float | None = None
    for r in records:
        if r.pod != pod:
            continue
        state = _cache_state(r)
        if state is None:
            continue
        if state == REMOVED and (not transitions or transitions[-1].state != CONFIRMED):
            continue
        message = r.data.message if isinstance(r.data, CacheChange) else ""
        transitions.append(CacheTransition(state, r.seq, r.time, message))
        deadline = r.time + ttl if state == BINDING_FINISHED else None
    current = transitions[-1].state if transitions else NOT_ASSUMED
    return AssumedHistory(tuple(transitions), current, deadline if current == BINDING_FINISHED else None)


def _cache_state(r: Record) -> str | None:
    if r.kind is Kind.ASSUME:
        return ASSUMED
    if r.kind is Kind.FORGET:
        return FORGOTTEN
    if r.kind is Kind.EXPIRE:
        return EXPIRED
    if r.kind is Kind.CACHE_EVENT and isinstance(r.data, CacheChange):
        return {"FinishBinding": BINDING_FINISHED, "Confirm": CONFIRMED, "Remove": REMOVED}.get(r.data.event)
    return None


# -- tables ----------------------------------------------------------------------------------------
def step_rows(steps: Sequence[BindingStep], lang: str = "en") -> list[dict]:
    """One table row per step: phase, stage, outcome glyph, code, times, detail, upstream function."""
    rows = []
    for s in steps:
        glyph = OUTCOME_STYLE[s.outcome][0]
        rows.append({
            t("binding.col.phase", lang): s.phase,
            t("binding.col.stage", lang): t(f"binding.stage.{s.stage}", lang),
            t("binding.col.outcome", lang): f"{glyph} {s.code or t('binding.running', lang)}",
            t("binding.col.records", lang): f"#{s.start_seq}" + (f"–#{s.end_seq}" if s.end_seq not in
                                                                 (None, s.start_seq) else ""),
            t("binding.col.time", lang): _span(s.start_time, s.end_time),
            t("binding.col.detail", lang): " ".join(x for x in (s.message, s.detail) if x),
            t("binding.col.func", lang): s.func,
            t("binding.col.link", lang): upstream.permalink(s.file) if s.file else "",
        })
    return rows


def _span(start: float, end: float | None) -> str:
    if end is None:
        return f"{start:g}s → …"
    return f"{start:g}s" if end == start else f"{start:g}s → {end:g}s ({end - start:g}s)"


def cache_rows(history: AssumedHistory, lang: str = "en") -> list[dict]:
    return [{t("binding.col.state", lang): t(f"binding.cache.{tr.state}", lang),
             t("binding.col.records", lang): f"#{tr.seq}", t("binding.col.time", lang): f"{tr.time:g}s",
             t("binding.col.func", lang): CACHE_FUNCS[tr.state], t("binding.col.detail", lang): tr.message}
            for tr in history.transitions]


def upstream_links() -> list[tuple[str, str, str]]:
    """(step, function, permalink) for every step of the binding cycle, in binding order."""
    out = []
    for phase in LANES:
        file, func = (FINISH_BINDING_LOCATION if phase == "FinishBinding" else FORGET_LOCATION
                      if phase == "Forget" else upstream.phase_location(phase))
        out.append((phase, func, upstream.permalink(file)))
    return out


# -- figures ------------------------------------------------------------------------------------------
def timeline_figure(steps: Sequence[BindingStep], cursor: int, lang: str = "en") -> go.Figure:
    """Horizontal bars per phase on the record axis; one trace per outcome; cursor marked."""
    fig = go.Figure()
    last = cursor
    for outcome in (SUCCESS, WAIT, FAILED, RUNNING):
        chosen = [s for s in steps if s.outcome == outcome]
        if not chosen:
            continue
        glyph, colour = OUTCOME_STYLE[outcome]
        ends = [(s.end_seq if s.end_seq is not None else last) for s in chosen]
        fig.add_trace(go.Bar(
            orientation="h", y=[s.phase for s in chosen], base=[s.start_seq for s in chosen],
            x=[max(e - s.start_seq, 0) + 1 for s, e in zip(chosen, ends)],
            marker={"color": colour, "line": {"color": "#333333", "width": 1}},
            text=[f"{glyph} {s.code or '…'}" for s in chosen], textposition="outside", textangle=0,
            cliponaxis=False, textfont={"color": "#222222"},
            name=f"{glyph} {t(f'binding.outcome.{outcome}', lang)}",
            customdata=[[s.func, _span(s.start_time, s.end_time),
                         escape(" ".join(x for x in (s.message, s.detail) if x), quote=False)] for s in chosen],
            hovertemplate="<b>%{y}</b> %{customdata[0]}<br>%{customdata[1]}<br>%{customdata[2]}<extra></extra>"))
    fig.add_vline(x=cursor, line={"color": OKABE_ITO["black"], "dash": "dot", "width": 2})
    present = [p for p in LANES if any(s.phase == p for s in steps)]
    fig.update_layout(
        barmode="overlay", height=120 + 34 * max(len(present), 1), margin={"l": 10, "r": 90, "t": 30, "b": 40},
        xaxis={"title": t("binding.axis.record", lang), "type": "linear", "range": _x_range(steps, cursor)},
        yaxis={"categoryorder": "array", "categoryarray": list(reversed(present)), "type": "category",
               "automargin": True},
        legend={"orientation": "h", "y": 1.12}, plot_bgcolor="#FFFFFF", paper_bgcolor="#FFFFFF",
        font={"color": "#222222"})
    return fig


def _x_range(steps: Sequence[BindingStep], cursor: int) -> list[float]:
    """From the first step to the cursor (or the last step), with room for the outcome labels."""
    if not steps:
        return [max(cursor - 10, 0) - 0.5, cursor + 0.5]
    first = min(s.start_seq for s in steps)
    last = max(max(s.end_seq if s.end_seq is not None else cursor for s in steps), cursor)
    return [first - 1.5, last + 2.5 + (last - first) * 0.12]


def cache_figure(history: AssumedHistory, lang: str = "en") -> go.Figure:
    """The assumed-pod state machine with the pod's path and current state highlighted."""
    visited = {tr.state for tr in history.transitions} | {NOT_ASSUMED}
    path = list(zip([NOT_ASSUMED] + [tr.state for tr in history.transitions], [tr.state for tr in history.transitions]))
    fig = go.Figure()
    for a, b in CACHE_EDGES:
        taken = (a, b) in path
        (x0, y0), (x1, y1) = CACHE_STATE_POS[a], CACHE_STATE_POS[b]
        fig.add_annotation(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                           arrowhead=3, arrowsize=1.2, standoff=22, startstandoff=22,
                           arrowwidth=3 if taken else 1,
                           arrowcolor=OKABE_ITO["blue"] if taken else "#BBBBBB", text="")
    colours = [OKABE_ITO["orange"] if s == history.state else (OKABE_ITO["sky_blue"] if s in visited else "#EEEEEE")
               for s in CACHE_STATES]
    glyphs = ["▶ " if s == history.state else ("✓ " if s in visited else "") for s in CACHE_STATES]
    fig.add_trace(go.Scatter(
        x=[CACHE_STATE_POS[s][0] for s in CACHE_STATES], y=[CACHE_STATE_POS[s][1] for s in CACHE_STATES],
        mode="markers+text", marker={"size": 34, "color": colours, "line": {"color": "#333333", "width": 1}},
        text=[g + t(f"binding.cache.{s}", lang) for g, s in zip(glyphs, CACHE_STATES)],
        textposition=["top center" if s in CACHE_TEXT_ABOVE else "bottom center" for s in CACHE_STATES],
        customdata=[CACHE_FUNCS.get(s, "") for s in CACHE_STATES], hovertemplate="%{text}<br>%{customdata}<extra></extra>",
        showlegend=False))
    fig.update_layout(height=300, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      xaxis={"visible": False, "range": [-0.8, 7.2]}, yaxis={"visible": False, "range": [-0.5, 2.1]},
                      plot_bgcolor="#FFFFFF", paper_bgcolor="#FFFFFF", font={"color": "#222222"})
    return fig
