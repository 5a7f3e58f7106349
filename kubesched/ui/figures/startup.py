"""Startup views: the ``Run()`` sequence of every scheduler replica as a vertical timeline, and
leader election between replicas (who holds the lease when, the hand-over after the leader dies).

Upstream: cmd/kube-scheduler/scheduler.go (main), cmd/kube-scheduler/app/server.go
(NewSchedulerCommand, runCommand, Run), cmd/kube-scheduler/app/options/options.go (NewOptions,
Options.Config), pkg/scheduler/scheduler.go (New, Scheduler.Run),
staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go (LeaderElector.Run,
acquire, renew, tryAcquireOrRenew).

Pure builders: trace records in, rows / plotly figures out (no streamlit).

Deviation: the replicas record an acquire attempt only when its outcome changes
(kubesched/sim/replica.py), so the repeated failed attempts of a waiting replica are
*implied* here from its retry period (``implied_attempts``) and drawn hollow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import plotly.graph_objects as go

from kubesched.sim.edits import KillLeader
from kubesched.sim.scenario import dump, join_documents, scenario_document
from kubesched.trace.records import Kind, Record
from kubesched.trace.upstream import permalink
from kubesched.ui.i18n import t
from kubesched.ui.i18n.startup import STEP_NAMES, STEP_TEXT
from kubesched.ui.theme import OKABE_ITO

# The order of cmd/kube-scheduler's start-up (upstream-engine.md §1.1–1.9), as the trace names the steps.
RUN_SEQUENCE: Final = (
    "main", "NewSchedulerCommand", "NewOptions", "runCommand", "Options.Config", "Config.Complete", "Run",
    "scheduler.New", "EventBroadcaster.StartRecordingToSink", "Setup healthz checks", "InsecureServing.Serve",
    "SecureServing.Serve", "InformerFactory.Start", "WaitForCacheSync", "LeaderElector.Run", "sched.Run",
    "SchedulingQueue.Run", "scheduleOne",
)
REPLICA_COLOURS: Final = (OKABE_ITO["blue"], OKABE_ITO["orange"], OKABE_ITO["bluish_green"],
                          OKABE_ITO["reddish_purple"], OKABE_ITO["sky_blue"], OKABE_ITO["vermillion"])
FUTURE_COLOUR: Final = "#C8C8C8"
TRANSITION_SYMBOLS: Final = {"attempt succeeded": "circle", "attempt failed": "x", "new-leader": "star",
                             "acquired": "diamond", "lost": "triangle-down", "released": "square",
                             "stopped": "triangle-down", "implied attempt": "circle-open", "killed": "x-thin-open"}
_DURATION = re.compile(r"^\s*([0-9.]+)\s*s\s*$")


def replica_of_identity(identity: str) -> str:
    """``scheduler-a_<uuid>`` → ``scheduler-a`` (the hostname part of a leader-election identity)."""
    return identity.split("_", 1)[0]


def replica_colour(replica: str, replicas: Sequence[str]) -> str:
    index = replicas.index(replica) if replica in replicas else len(replicas)
    return REPLICA_COLOURS[index % len(REPLICA_COLOURS)]


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """One row of the timeline: a STARTUP_STEP or a LEADER_ELECTION record."""

    seq: int
    time: float
    replica: str
    kind: str                                  # "startup" | "election"
    step: str                                  # step name, or the election transition
    message: str
    details: tuple[tuple[str, str], ...]
    file: str
    func: str
    past: bool                                 # at or before the cursor

    @property
    def link(self) -> str:
        return permalink(self.file) if self.file else ""


def _step(record: Record, cursor: int) -> TimelineStep | None:
    data: Any = record.data
    if record.kind is Kind.STARTUP_STEP:
        details = tuple((k, v) for k, v in data.details if k != "replica")
        replica = dict(data.details).get("replica", "")
        return TimelineStep(record.seq, record.time, replica, "startup", data.step, data.message, details,
                            record.file, record.func, record.seq < cursor)
    if record.kind is Kind.LEADER_ELECTION:
        details = tuple((k, v) for k, v in (("holder", data.holder), ("lock", data.lock)) if v)
        return TimelineStep(record.seq, record.time, replica_of_identity(data.identity), "election", data.transition,
                            data.message, details, record.file, record.func, record.seq < cursor)
    return None


def timeline(records: Iterable[Record], cursor: int) -> tuple[TimelineStep, ...]:
    """Every startup step and leader-election record, in trace order, marked past/future by ``cursor``."""
    steps = (_step(r, cursor) for r in records if r.kind in (Kind.STARTUP_STEP, Kind.LEADER_ELECTION))
    return tuple(s for s in steps if s is not None)


def replicas(steps: Iterable[TimelineStep]) -> tuple[str, ...]:
    """Replica names in order of first appearance."""
    seen: dict[str, None] = {}
    for step in steps:
        if step.replica:
            seen.setdefault(step.replica, None)
    return tuple(seen)


def step_label(step: str, lang: str = "en") -> str:
    """A step's name as the timeline shows it: upstream's function names as they are; a name that
    is an upstream comment or an election transition in ``lang``."""
    return STEP_NAMES.get(lang, {}).get(step, step)


def step_did(step: TimelineStep, lang: str = "en") -> str:
    """What the engine did: its own message in English, the step's description in other languages;
    then the step's details (field names, and the values between quotes as the engine recorded them)."""
    if lang == "en" or step.step not in STEP_TEXT.get(lang, {}):
        return step.message + ("" if not step.details else " — " + ", ".join(f"{k}: {v}" for k, v in step.details))
    details = "；".join(f"{k}：“{v}”" for k, v in step.details)   # values as the engine recorded them
    return STEP_TEXT[lang][step.step] + (f" — {details}" if details else "")


def timeline_rows(steps: Iterable[TimelineStep], *, show_future: bool, lang: str = "en") -> list[dict[str, Any]]:
    """Table rows: what the engine did at each step, with its upstream function and link."""
    return [{"seq": step.seq, "time": step.time, "replica": step.replica, "step": step_label(step.step, lang),
             "did": step_did(step, lang), "function": step.func, "link": step.link, "past": step.past}
            for step in steps if step.past or show_future]


def _hover(text: str) -> str:
    """Plain text for a plotly hover label (plotly reads a few HTML tags; never let text open one)."""
    return text.replace("<", "‹").replace(">", "›")


def timeline_figure(steps: Sequence[TimelineStep], *, show_future: bool = True, lang: str = "en") -> go.Figure:
    """A vertical timeline: one lane per replica, one marker per step, top to bottom in trace order.

    Steps after the cursor are grey (or left out with ``show_future=False``); a dashed line marks
    the cursor between the last past step and the first future one.
    """
    shown = [s for s in steps if s.past or show_future]
    names = replicas(steps)
    lanes = {name: i for i, name in enumerate(names)}
    fig = go.Figure()
    for past in (True, False):
        for name in names:
            lane = [(i, s) for i, s in enumerate(shown) if s.replica == name and s.past is past]
            if not lane:
                continue
            colour = replica_colour(name, names) if past else FUTURE_COLOUR
            fig.add_trace(go.Scatter(
                x=[lanes[name]] * len(lane), y=[-i for i, _ in lane], mode="markers+text",
                text=[step_label(s.step, lang) for _, s in lane], textposition="middle right",
                textfont={"color": OKABE_ITO["black"] if past else "#9A9A9A", "size": 12},
                marker={"size": 12, "color": colour, "line": {"color": OKABE_ITO["black"], "width": 1},
                        "symbol": [TRANSITION_SYMBOLS.get(s.step, "circle") if s.kind == "election" else "circle"
                                   for _, s in lane]},
                hovertext=[f"t={s.time:g}s · {s.func}<br>{_hover(step_did(s, lang))}" for _, s in lane],
                hoverinfo="text",
                name=f"{name}" if past else f"{name} ({t('startup.later', lang)})", legendgroup=name))
    boundary = next((i for i, s in enumerate(shown) if not s.past), None)
    if boundary is not None and boundary > 0:
        fig.add_hline(y=-(boundary - 0.5), line={"color": OKABE_ITO["vermillion"], "width": 2, "dash": "dash"},
                      annotation_text=t("startup.cursor", lang), annotation_position="top left")
    height = max(260, 24 * len(shown) + 80)
    fig.update_layout(
        xaxis={"tickvals": list(range(len(names))), "ticktext": list(names), "side": "top",
               "range": [-0.3, max(len(names), 1) + 0.6], "showgrid": False, "zeroline": False},
        yaxis={"visible": False, "range": [-(len(shown)), 1]}, height=height, showlegend=len(names) > 1,
        legend={"orientation": "h", "y": 1.05, "yanchor": "bottom"}, margin={"l": 10, "r": 10, "t": 50, "b": 10},
        plot_bgcolor="rgba(0,0,0,0)")
    return fig


# -- leader election -------------------------------------------------------------------------------------------
def _seconds(value: str) -> float | None:
    match = _DURATION.match(value or "")
    return float(match.group(1)) if match else None


def election_settings(records: Iterable[Record]) -> dict[str, tuple[float, float, float]]:
    """replica → (leaseDuration, renewDeadline, retryPeriod) in seconds, from its LeaderElector.Run step."""
    out: dict[str, tuple[float, float, float]] = {}
    for record in records:
        data: Any = record.data
        if record.kind is Kind.STARTUP_STEP and data.step == "LeaderElector.Run":
            details = dict(data.details)
            values = tuple(_seconds(details.get(k, "")) for k in ("leaseDuration", "renewDeadline", "retryPeriod"))
            if all(v is not None for v in values):
                out[details.get("replica", "")] = values  # type: ignore[assignment]
    return out


@dataclass(frozen=True, slots=True)
class Handover:
    """A leader killed at ``killed_at`` and who took over (``new_leader`` empty while nobody has)."""

    killed_at: float
    old_leader: str
    new_leader: str
    acquired_at: float | None
    implied_attempts: tuple[float, ...]       # the new leader's unrecorded failed tries in between


def _leaders(records: Iterable[Record]) -> list[tuple[float, int, str]]:
    """(time, seq, replica) of every ``acquired``."""
    return [(r.time, r.seq, replica_of_identity(r.data.identity)) for r in records  # type: ignore[union-attr]
            if r.kind is Kind.LEADER_ELECTION and r.data.transition == "acquired"]  # type: ignore[union-attr]


def implied_attempts(records: Sequence[Record], replica: str, start: float, end: float) -> tuple[float, ...]:
    """The times in (start, end) at which ``replica`` retried on its retry-period grid (not recorded)."""
    settings = election_settings(records).get(replica)
    first = next((r.time for r in records if r.kind is Kind.LEADER_ELECTION
                  and replica_of_identity(r.data.identity) == replica), None)  # type: ignore[union-attr]
    if settings is None or first is None or settings[2] <= 0:
        return ()
    retry = settings[2]
    out = []
    k = 1
    while first + k * retry < end:
        when = first + k * retry
        if when > start:
            out.append(round(when, 9))
        k += 1
    return tuple(out)


def kill_times(edits: Iterable[Any]) -> list[float]:
    """The simulated times of the ``KillLeader`` edits among ``edits`` (``Simulation.edits``)."""
    return [applied.time for applied in edits if isinstance(applied.edit, KillLeader)]


def leader_acquired_by_other(records: Iterable[Record], old: str) -> bool:
    """Whether a replica other than ``old`` acquired the lease within ``records``."""
    return any(r.kind is Kind.LEADER_ELECTION and r.data.transition == "acquired"  # type: ignore[union-attr]
               and replica_of_identity(r.data.identity) != old for r in records)  # type: ignore[union-attr]


def first_schedule_one(records: Sequence[Record]) -> int | None:
    """The index of the first ``scheduleOne`` startup step in ``records`` (None if there is none)."""
    return next((i for i, r in enumerate(records)
                 if r.kind is Kind.STARTUP_STEP and r.data.step == "scheduleOne"), None)  # type: ignore[union-attr]


def handovers(records: Sequence[Record], kill_times: Iterable[float]) -> tuple[Handover, ...]:
    """For each kill time: the leader before it and the first ``acquired`` by another replica after it."""
    acquired = _leaders(records)
    out = []
    for killed in sorted(kill_times):
        before = [a for a in acquired if a[0] <= killed]
        old = before[-1][2] if before else ""
        after = next((a for a in acquired if a[0] >= killed and a[2] != old), None)
        if after is None:
            out.append(Handover(killed, old, "", None, ()))
            continue
        out.append(Handover(killed, old, after[2], after[0], implied_attempts(records, after[2], killed, after[0])))
    return tuple(out)


def election_figure(records: Sequence[Record], cursor: int, kill_times: Sequence[float] = (), *,
                    lang: str = "en") -> go.Figure:
    """Leader election over simulated time: one lane per replica, the lease held as a bar, every
    recorded transition as a marker, implied retries hollow, kills as ✗; records after the cursor left out."""
    seen = [r for r in records if r.seq < cursor]
    steps = [s for s in timeline(seen, cursor)]
    names = replicas(steps)
    end = max([r.time for r in seen] + [0.0]) + 2.0
    fig = go.Figure()
    # lease held: from each acquired to the next acquired by someone else (or the end).
    acquired = _leaders(seen)
    for i, (start, _seq, who) in enumerate(acquired):
        stop = next((a[0] for a in acquired[i + 1:] if a[2] != who), end)
        fig.add_trace(go.Bar(x=[max(stop - start, 0.05)], base=[start], y=[who], orientation="h", width=0.35,
                             marker={"color": replica_colour(who, names)}, opacity=0.35, showlegend=False,
                             hovertext=[f"{who}: {t('startup.lease_held', lang)} {start:g}s → {stop:g}s"],
                             hoverinfo="text", name=who))
    for name in names:
        events = [s for s in steps if s.kind == "election" and s.replica == name]
        if events:
            fig.add_trace(go.Scatter(
                x=[s.time for s in events], y=[name] * len(events), mode="markers", name=name, showlegend=False,
                marker={"size": 12, "color": replica_colour(name, names),
                        "symbol": [TRANSITION_SYMBOLS.get(s.step, "circle") for s in events],
                        "line": {"color": OKABE_ITO["black"], "width": 1}},
                hovertext=[_hover(f"t={s.time:g}s {step_label(s.step, lang)}: {step_did(s, lang)}") for s in events],
                hoverinfo="text"))
    for hand in handovers(seen, [k for k in kill_times if k <= end]):
        _kill_mark(fig, hand, lang)
        if hand.implied_attempts:
            fig.add_trace(go.Scatter(
                x=list(hand.implied_attempts), y=[hand.new_leader] * len(hand.implied_attempts), mode="markers",
                showlegend=False, name=f"{hand.new_leader} implied",
                marker={"size": 10, "symbol": "circle-open", "color": replica_colour(hand.new_leader, names),
                        "line": {"width": 2}},
                hovertext=[t("startup.implied", lang, time=x) for x in hand.implied_attempts], hoverinfo="text"))
    _legend(fig, names, steps, bool(acquired), bool(kill_times), lang)
    fig.update_layout(xaxis={"title": t("startup.axis_time", lang), "type": "linear", "range": [-0.04 * end, end],
                             "automargin": True},
                      yaxis={"type": "category", "categoryorder": "array", "categoryarray": list(reversed(names)),
                             "automargin": True, "range": [-0.7, max(len(names), 1) - 0.3]},
                      barmode="overlay", height=150 + 50 * max(len(names), 1), showlegend=True,
                      legend={"orientation": "v", "x": 1.02, "xanchor": "left", "y": 1, "yanchor": "top",
                              "itemclick": False, "itemdoubleclick": False, "font": {"size": 12}},
                      margin={"l": 10, "r": 10, "t": 36, "b": 10})
    return fig


def _kill_mark(fig: go.Figure, hand: Handover, lang: str) -> None:
    """A kill: a dashed line across every lane at its time, labelled above the plot, and ✗ on the old leader."""
    colour = OKABE_ITO["vermillion"]
    fig.add_vline(x=hand.killed_at, line={"color": colour, "dash": "dash", "width": 2})
    fig.add_annotation(x=hand.killed_at, y=1.0, xref="x", yref="paper", yanchor="bottom", showarrow=False,
                       text=f"✗ {t('startup.killed', lang, time=hand.killed_at)}", font={"color": colour, "size": 13})
    if hand.old_leader:
        fig.add_trace(go.Scatter(x=[hand.killed_at], y=[hand.old_leader], mode="markers", showlegend=False,
                                 marker={"size": 16, "symbol": "x-thin-open", "color": colour,
                                         "line": {"width": 3, "color": colour}},
                                 hovertext=[t("startup.killed", lang, time=hand.killed_at)], hoverinfo="text",
                                 name="KillLeader"))


def _legend(fig: go.Figure, names: Sequence[str], steps: Sequence[TimelineStep], leases: bool, kills: bool,
            lang: str) -> None:
    """Legend-only entries (nothing drawn): each replica's colour, each transition's symbol, the lease bar
    and the kill mark, so the picture can be read without hovering."""
    def entry(name: str, marker: dict) -> None:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, marker=marker, hoverinfo="skip"))

    for name in names:
        entry(name, {"size": 12, "symbol": "square", "color": replica_colour(name, names)})
    seen = {s.step for s in steps if s.kind == "election"}
    for step, symbol in TRANSITION_SYMBOLS.items():
        if step in seen:
            entry(step_label(step, lang), {"size": 11, "symbol": symbol, "color": "#888888", "line": {"color": "#333333", "width": 1}})
    if leases:
        entry(t("startup.lease_held", lang), {"size": 14, "symbol": "line-ew", "color": "#888888",
                                               "line": {"width": 8, "color": "#BBBBBB"}})
    if kills:
        entry("KillLeader", {"size": 13, "symbol": "x-thin-open", "color": OKABE_ITO["vermillion"],
                             "line": {"width": 3, "color": OKABE_ITO["vermillion"]}})


def with_replicas(inputs: Any, replicas: int) -> str:
    """The run's cluster text (with its configuration) plus a Scenario asking for ``replicas`` schedulers.

    ``inputs`` is a ``Simulation.inputs``; the seed and timed actions are kept, edits made with
    ``apply`` are dropped (they were positioned in a run with another replica count).
    """
    scenario = replace(inputs.scenario, replicas=replicas, seed=inputs.seed,
                       actions=tuple(a for a in inputs.scenario.actions if a.after_event is None))
    parts = [inputs.cluster_text]
    if inputs.config_document is not None:
        parts.append(dump(inputs.config_document))
    parts.append(dump(scenario_document(scenario)))
    return join_documents(parts)
