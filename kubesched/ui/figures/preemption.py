"""Preemption: each attempt read from the trace (its PREEMPTION record), as rows and Plotly figures.

Upstream: pkg/scheduler/scheduler.go (Scheduler.preempt) and pkg/scheduler/core/generic_scheduler.go
(genericScheduler.Preempt, podEligibleToPreemptOthers, nodesWherePreemptionMightHelp,
selectNodesForPreemption, selectVictimsOnNode, pickOneNodeForPreemption). In v1.18 preemption
is not a PostFilter plugin: scheduleOne calls it after Schedule fails with a FitError.

Pure builders over the visible trace (``trace[:cursor]``); no Streamlit.

Deviation: what happened to a victim after the scheduler asked for its deletion is read from the
Pod informer events that follow (deletion requested → DELETED after the grace period). The trace
holds no owner references, so a replacement is recognised by name: the first new pod in the same
namespace named ``<controller>-…`` after the victim, for a controller named in ``controllers``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import plotly.graph_objects as go

from kubesched.trace import NO_VICTIMS, PICK_CRITERIA, upstream
from kubesched.trace.records import (
    InformerEvent,
    Kind,
    Preemption,
    Record,
    SchedulingFailure,
    Victim,
)
from kubesched.ui import theme
from kubesched.ui.figures.style import PAPER, outcome_colorscale, plain_layout
from kubesched.ui.i18n import t

__all__ = [
    "ROUND_DROPPED",
    "ROUND_KEPT",
    "ROUND_OUT",
    "ROUND_UNUSED",
    "SECTION_LINKS",
    "NodeVictims",
    "PreemptionAttempt",
    "VictimFate",
    "candidate_rows",
    "controller_keys",
    "fate_rows",
    "pick_rounds",
    "pick_rounds_figure",
    "preemption_attempts",
    "rounds_legend",
    "victim_fates",
    "victims_figure",
]

SECTION_LINKS: dict[str, tuple[str, str]] = {
    "preempt": (upstream.SCHEDULER_GO, "Scheduler.preempt"),
    "eligibility": (upstream.GENERIC_SCHEDULER_GO, "podEligibleToPreemptOthers"),
    "candidates": (upstream.GENERIC_SCHEDULER_GO, "nodesWherePreemptionMightHelp"),
    "victims": (upstream.GENERIC_SCHEDULER_GO, "selectVictimsOnNode"),
    "pdb": (upstream.GENERIC_SCHEDULER_GO, "filterPodsWithPDBViolation"),
    "pick": (upstream.GENERIC_SCHEDULER_GO, "pickOneNodeForPreemption"),
    "result": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.Preempt"),
}

# pickOneNodeForPreemption rounds: cell codes (reusing the Filter outcome colours and glyphs).
ROUND_KEPT, ROUND_DROPPED, ROUND_OUT, ROUND_UNUSED = (theme.FILTER_PASS, theme.FILTER_FAIL,
                                                      theme.FILTER_NOT_EVALUATED, theme.FILTER_NOT_VISITED)

CONTROLLER_KINDS = ("ReplicaSet", "ReplicationController", "StatefulSet")  # owners a victim may be replaced by
_PDB_COLOUR = theme.OKABE_ITO["vermillion"]
_PLAIN_COLOUR = theme.OKABE_ITO["sky_blue"]


@dataclass(frozen=True, slots=True)
class NodeVictims:
    """selectVictimsOnNode for one potential node."""

    node: str
    fits: bool
    victims: tuple[str, ...]
    num_pdb_violations: int
    pdb_violating: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VictimFate:
    """What happened to one victim after the scheduler asked the API server to delete it."""

    pod: str
    node: str
    preemptor: str
    preempted_at: float
    deletion_seen_at: float | None     # the informer saw deletionTimestamp set (graceful deletion)
    deleted_at: float | None           # the informer saw DELETED
    replacement: str = ""               # a new pod of the same controller
    replaced_at: float | None = None

    @property
    def grace_period(self) -> float | None:
        return None if self.deleted_at is None else self.deleted_at - self.preempted_at


@dataclass(frozen=True, slots=True)
class PreemptionAttempt:
    cycle: int
    pod: str
    time: float
    start_seq: int
    failure: str                        # the FitError that triggered it
    eligible: bool | None               # None: the record is not visible yet
    ineligible_reason: str
    terminating_pods: tuple[str, ...]
    potential_nodes: tuple[str, ...]
    unresolvable_nodes: tuple[str, ...]
    candidates: tuple[NodeVictims, ...]
    criterion: str
    rounds: tuple[tuple[str, tuple[str, ...]], ...]
    nominated_node: str
    victims: tuple[str, ...]
    nominated_pods_to_clear: tuple[str, ...]
    done: bool                          # the Preempt phase ended within the visible records


def _attempt(cycle: int, records: Sequence[Record]) -> PreemptionAttempt | None:
    rec = next((r for r in records if r.kind is Kind.PREEMPTION and isinstance(r.data, Preemption)), None)
    start = next((r for r in records if r.kind is Kind.PHASE_START and getattr(r.data, "phase", "") == "Preempt"),
                 None)
    if rec is None and start is None:
        return None
    first = start or rec
    run = rec.data if rec is not None else None
    done = run is not None and run.done
    victims = tuple(NodeVictims(v.node, v.fits, v.victims, v.num_pdb_violations, v.pdb_violating)
                    for v in (run.nodes if run else ()))
    nominate = next((r for r in records if r.kind is Kind.NOMINATE), None)
    failure = next((r.data.message for r in records if r.kind is Kind.SCHEDULING_FAILURE
                    and isinstance(r.data, SchedulingFailure)), "")
    if not failure:
        failure = next((r.data.message for r in records if r.kind is Kind.PHASE_END
                        and getattr(r.data, "phase", "") == "Schedule"), "")
    ended = any(r.kind is Kind.PHASE_END and getattr(r.data, "phase", "") == "Preempt" for r in records)
    return PreemptionAttempt(
        cycle=cycle, pod=first.pod or "", time=first.time, start_seq=first.seq, failure=failure,
        eligible=run.eligible if run else None, ineligible_reason=run.reason if run else "",
        terminating_pods=run.terminating_pods if run else (),
        potential_nodes=(run.potential_nodes or ()) if run else (),
        unresolvable_nodes=run.unresolvable_nodes if run else (),
        candidates=victims, criterion=run.criterion if run else "", rounds=run.rounds if run else (),
        nominated_node=(nominate.node or "") if nominate else (run.node if done else ""),
        victims=run.victims if done else (), nominated_pods_to_clear=run.nominated_pods_to_clear if done else (),
        done=ended)


def preemption_attempts(records: Sequence[Record]) -> tuple[PreemptionAttempt, ...]:
    """Every cycle in ``records`` that reached Preempt, oldest first."""
    by_cycle: dict[int, list[Record]] = {}
    for r in records:
        if r.cycle is not None:
            by_cycle.setdefault(r.cycle, []).append(r)
    out = []
    for cycle, recs in by_cycle.items():
        attempt = _attempt(cycle, recs)
        if attempt is not None:
            out.append(attempt)
    return tuple(out)


def _key(event: InformerEvent) -> str:
    return f"{event.namespace}/{event.name}"


def victim_fates(records: Sequence[Record], attempt: PreemptionAttempt,
                 controllers: Sequence[str] = ()) -> tuple[VictimFate, ...]:
    """For each victim of ``attempt``: deletion requested, deleted (grace period), replaced.

    ``controllers`` are "namespace/name" of the ReplicaSets, ReplicationControllers and
    StatefulSets of the cluster (a victim ``ns/<controller>-…`` belongs to one).
    """
    fates = []
    first_victim = {}
    for r in records:
        if r.kind is Kind.VICTIM:
            first_victim.setdefault(r.pod, r.seq)
    for v in (r for r in records if r.kind is Kind.VICTIM and r.cycle == attempt.cycle
              and isinstance(r.data, Victim)):
        pod = v.pod or ""
        seen_before = {_key(r.data) for r in records[:v.seq + 1] if r.kind is Kind.INFORMER_EVENT
                       and isinstance(r.data, InformerEvent) and r.data.object_kind == "Pod"}
        owner = _owner(pod, controllers)
        modified = deleted = replaced_at = None
        replacement = ""
        for r in records[first_victim.get(v.pod, v.seq) + 1:]:
            if r.kind is not Kind.INFORMER_EVENT or not isinstance(r.data, InformerEvent) or r.data.object_kind != "Pod":
                continue
            key = _key(r.data)
            if key == pod and r.data.event_type == "MODIFIED" and modified is None and deleted is None:
                modified = r.time
            elif key == pod and r.data.event_type == "DELETED" and deleted is None:
                deleted = r.time
            elif (owner and not replacement and r.seq > v.seq and r.data.event_type == "ADDED" and key not in seen_before
                  and key.startswith(owner + "-")):
                replacement, replaced_at = key, r.time
        fates.append(VictimFate(pod, v.node or "", v.data.preemptor, v.time, modified, deleted, replacement,
                                replaced_at))
    return tuple(fates)


def controller_keys(objects: Iterable[Any]) -> tuple[str, ...]:
    """``namespace/name`` of the cluster's ReplicaSets, ReplicationControllers and StatefulSets
    (``victim_fates``' ``controllers``; an empty namespace is ``default``)."""
    return tuple(f"{o.metadata.namespace or 'default'}/{o.metadata.name}" for o in objects
                 if type(o).__name__ in CONTROLLER_KINDS)


def _owner(pod: str, controllers: Sequence[str]) -> str:
    matches = [c for c in controllers if pod.startswith(c + "-")]
    return max(matches, key=len) if matches else ""


# -- figures -------------------------------------------------------------------------------------------
def victims_figure(attempt: PreemptionAttempt, lang: str = "en") -> go.Figure:
    """Victims per potential node, stacked: those whose eviction violates a PDB, and the others."""
    nodes = [c for c in attempt.candidates if c.fits]
    labels = [f"{theme.PICKED} {c.node}" if c.node == attempt.nominated_node else c.node for c in nodes]
    violating = [[v for v in c.victims if v in c.pdb_violating] for c in nodes]
    plain = [[v for v in c.victims if v not in c.pdb_violating] for c in nodes]
    fig = go.Figure()
    fig.add_trace(go.Bar(
        name=f"▲ {t('preemption.victims.pdb', lang)}", y=labels, x=[len(v) for v in violating], orientation="h",
        text=[", ".join(v) for v in violating], textposition="inside", insidetextanchor="middle",
        textfont={"color": "#000000"},
        marker={"color": _PDB_COLOUR, "line": {"color": PAPER, "width": 1},
                "pattern": {"shape": "/", "fgcolor": "#FFFFFF", "fgopacity": 0.45, "bgcolor": _PDB_COLOUR,
                            "fillmode": "replace"}},
        hovertemplate="<b>%{y}</b><br>%{text}<extra>PDB</extra>"))
    fig.add_trace(go.Bar(
        name=t("preemption.victims.plain", lang), y=labels, x=[len(v) for v in plain], orientation="h",
        text=[", ".join(v) for v in plain], textposition="inside", insidetextanchor="middle",
        textfont={"color": "#000000"},
        marker={"color": _PLAIN_COLOUR, "line": {"color": PAPER, "width": 1}},
        hovertemplate="<b>%{y}</b><br>%{text}<extra></extra>"))
    most = max((len(c.victims) for c in nodes), default=0)
    fig.update_layout(barmode="stack", legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0})
    fig.update_xaxes(title=t("preemption.victims.axis", lang), range=[0, max(most, 1) + 0.5], dtick=1,
                     gridcolor="#E5E5E5", automargin=True)
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    return plain_layout(fig, height=130 + 40 * max(len(nodes), 1))


def pick_rounds(attempt: PreemptionAttempt) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """(nodes, rules, codes): for each node and pickOneNodeForPreemption rule, kept / dropped / out / unused."""
    nodes = tuple(c.node for c in attempt.candidates if c.fits)
    rules = tuple(r for r in PICK_CRITERIA if r != NO_VICTIMS or attempt.criterion == NO_VICTIMS)
    ran = dict(attempt.rounds)
    codes = []
    for node in nodes:
        row, alive = [], True
        for rule in rules:
            if rule not in ran:
                row.append(ROUND_UNUSED if alive else ROUND_OUT)
            elif not alive:
                row.append(ROUND_OUT)
            elif node in ran[rule]:
                row.append(ROUND_KEPT)
            else:
                row.append(ROUND_DROPPED)
                alive = False
        codes.append(tuple(row))
    return nodes, rules, tuple(codes)


def pick_rounds_figure(attempt: PreemptionAttempt, lang: str = "en") -> go.Figure:
    """Nodes × pickOneNodeForPreemption rules, in the order the rules apply."""
    nodes, rules, codes = pick_rounds(attempt)
    glyph = {ROUND_KEPT: "✓", ROUND_DROPPED: "✗", ROUND_OUT: "·", ROUND_UNUSED: "–"}
    meaning = {c: t(f"preemption.round.{c}", lang) for c in glyph}
    hover = [[f"<b>{escape(n, quote=False)}</b> · {rule}<br>{glyph[c]} {meaning[c]}" for rule, c in zip(rules, row)]
             for n, row in zip(nodes, codes)]
    n = len(theme.FILTER_OUTCOMES)
    labels = [f"{theme.PICKED} {x}" if x == attempt.nominated_node else x for x in nodes]
    fig = go.Figure(go.Heatmap(
        z=[list(r) for r in codes], x=list(rules), y=labels, text=[[glyph[c] for c in r] for r in codes],
        texttemplate="%{text}", textfont={"size": 16, "color": "#000000"}, hovertext=hover,
        hovertemplate="%{hovertext}<extra></extra>", zmin=-0.5, zmax=n - 0.5, colorscale=outcome_colorscale(),
        xgap=2, ygap=2, showscale=False))
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    fig.update_xaxes(type="category", side="top", tickangle=-25, automargin=True)
    return plain_layout(fig, height=max(230, 170 + 36 * len(nodes)))


def rounds_legend(lang: str = "en") -> str:
    """The glyphs of ``pick_rounds_figure`` in words (the figure has no colour bar)."""
    glyph = {ROUND_KEPT: "✓", ROUND_DROPPED: "✗", ROUND_OUT: "·", ROUND_UNUSED: "–"}
    return " · ".join(f"{glyph[c]} {t(f'preemption.round.{c}', lang)}" for c in glyph)


def candidate_rows(attempt: PreemptionAttempt, priorities: Mapping[str, int] | None = None,
                   lang: str = "en") -> list[dict[str, object]]:
    """One row per potential node: fits after removing lower-priority pods, victims, PDB violations."""
    prio = priorities or {}
    rows: list[dict[str, object]] = []
    for c in attempt.candidates:
        rows.append({
            t("preemption.col.node", lang): (f"{theme.PICKED} " if c.node == attempt.nominated_node else "") + c.node,
            t("preemption.col.fits", lang): "✓" if c.fits else "✗",
            t("preemption.col.victims", lang): ", ".join(
                f"{v} ({prio[v]})" if v in prio else v for v in c.victims),
            t("preemption.col.pdb", lang): c.num_pdb_violations,
            t("preemption.col.pdb_pods", lang): ", ".join(c.pdb_violating),
        })
    return rows


def fate_rows(fates: Sequence[VictimFate], lang: str = "en") -> list[dict[str, object]]:
    def s(v: float | None) -> str:
        return "" if v is None else f"{v:g}s"
    return [{
        t("preemption.col.victim", lang): f.pod, t("preemption.col.node", lang): f.node,
        t("preemption.col.preempted", lang): s(f.preempted_at),
        t("preemption.col.terminating", lang): s(f.deletion_seen_at),
        t("preemption.col.deleted", lang): s(f.deleted_at),
        t("preemption.col.grace", lang): s(f.grace_period),
        t("preemption.col.replacement", lang): f"{f.replacement} ({s(f.replaced_at)})" if f.replacement else "",
    } for f in fates]
