"""Schedule one pod: one scheduling cycle read from the trace, as rows and Plotly figures.

Upstream: pkg/scheduler/scheduler.go (Scheduler.scheduleOne) and
pkg/scheduler/core/generic_scheduler.go (genericScheduler.Schedule, numFeasibleNodesToFind,
findNodesThatPassFilters, podPassesFiltersOnNode, prioritizeNodes, selectHost, FitError.Error),
pkg/scheduler/framework/v1alpha1/framework.go (RunFilterPlugins, RunScorePlugins).

Pure builders: ``records`` (the visible trace, ``trace[:cursor]``) in, frozen rows or a
``go.Figure`` out; no Streamlit. Every figure sets explicit colours from ``theme`` and
fixed ranges, so the picture does not shift between steps.

Deviation: upstream runs Filter on 16 goroutines, so "the order nodes were visited" is the
engine's fixed order (the node tree's order from the start index), not a real interleaving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import plotly.graph_objects as go

from kubesched.explain.cycles import cycle_records
from kubesched.trace import upstream
from kubesched.trace.records import (
    ExtenderCall,
    FeasibleNodes,
    FilterWalk,
    Kind,
    NominatedPass,
    Phase,
    PluginCall,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreSummary,
    SelectHost,
)
from kubesched.ui import theme
from kubesched.ui.i18n import t

__all__ = [
    "PIPELINE",
    "SECTION_LINKS",
    "CycleOption",
    "FilterMatrix",
    "FilterNumbers",
    "NominatedRow",
    "PhaseSpan",
    "Pick",
    "ScoreTable",
    "cycle_at_cursor",
    "cycle_options",
    "cycle_records",
    "failure_message",
    "filter_matrix",
    "filter_matrix_figure",
    "filter_numbers",
    "filter_rows",
    "nominated_node",
    "nominated_rows",
    "phase_spans",
    "phase_timeline_figure",
    "pick",
    "profile_filters",
    "score_breakdown_figure",
    "score_rows",
    "score_table",
    "uniform_caption",
]

# The extension points of scheduleOne a learner steps through, in upstream order.
PIPELINE = ("PreFilter", "Filter", "PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind", "PostBind")
# Also drawn when they happen: preemption after a failed Schedule, the Permit wait, Unreserve.
_EXTRA = ("Preempt", "WaitOnPermit", "Unreserve")
_SHOWN = frozenset(PIPELINE + _EXTRA)

# Phase states (the timeline's colour + glyph).
DONE, FAILED, WAITING, RUNNING, NOT_REACHED = "done", "failed", "waiting", "running", "not reached"
_STATE_STYLE = {
    DONE: ("✓", theme.OKABE_ITO["bluish_green"]),
    FAILED: ("✗", theme.OKABE_ITO["vermillion"]),
    WAITING: ("⏸", theme.OKABE_ITO["orange"]),
    RUNNING: ("⚙", theme.OKABE_ITO["sky_blue"]),
    NOT_REACHED: ("–", "#D9D9D9"),
}

# Each section of the page and the upstream function it re-implements.
SECTION_LINKS: dict[str, tuple[str, str]] = {
    "timeline": (upstream.SCHEDULER_GO, "Scheduler.scheduleOne"),
    "feasible": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.numFeasibleNodesToFind"),
    "filter": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassFilters"),
    "filter_plugins": (upstream.FRAMEWORK_GO, "framework.RunFilterPlugins"),
    "nominated": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.podPassesFiltersOnNode"),
    "score": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"),
    "score_plugins": (upstream.FRAMEWORK_GO, "framework.RunScorePlugins"),
    "pick": (upstream.GENERIC_SCHEDULER_GO, "genericScheduler.selectHost"),
    "failure": (upstream.GENERIC_SCHEDULER_GO, "FitError.Error"),
    "failure_event": (upstream.SCHEDULER_GO, "Scheduler.recordSchedulingFailure"),
}

_FONT = {"family": "sans-serif", "size": 13, "color": "#222222"}
_PAPER = "#FFFFFF"


def _layout(fig: go.Figure, *, height: int, title: str = "") -> go.Figure:
    fig.update_layout(title={"text": title, "x": 0, "font": {"size": 15}}, height=height, font=_FONT,
                      paper_bgcolor=_PAPER, plot_bgcolor=_PAPER, margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
                      uirevision="fixed")
    return fig


# -- which cycle --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CycleOption:
    """A scheduling cycle visible at the cursor, as the cycle picker lists it."""

    cycle: int
    pod: str
    profile: str
    time: float
    result: str           # "" while in progress, else CYCLE_END's result (assumed | failed | skipped …)
    node: str             # the suggested host, if any


def cycle_options(records: Sequence[Record]) -> tuple[CycleOption, ...]:
    """Every cycle that started within ``records`` (oldest first)."""
    starts: dict[int, Record] = {}
    ends: dict[int, Record] = {}
    for r in records:
        if r.cycle is None:
            continue
        if r.kind is Kind.CYCLE_START:
            starts.setdefault(r.cycle, r)
        elif r.kind is Kind.CYCLE_END:
            ends[r.cycle] = r
    out = []
    for cycle, start in starts.items():
        end = ends.get(cycle)
        out.append(CycleOption(cycle, start.pod or "", start.profile or "", start.time,
                               end.data.result if end is not None else "", (end.node or "") if end else ""))
    return tuple(out)


def cycle_at_cursor(records: Sequence[Record]) -> int | None:
    """The scheduling cycle of the last record at or before the cursor that has one."""
    for r in reversed(records):
        if r.cycle is not None:
            return r.cycle
    return None


# -- phase timeline -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PhaseSpan:
    phase: str
    start: int | None     # seq of PHASE_START (None: not reached)
    end: int | None       # seq of PHASE_END (None: still running or not reached)
    time: float | None
    code: str
    message: str
    state: str            # done | failed | waiting | running | not reached
    current: bool         # the cursor's last record lies inside this phase


def _state_of(code: str, end: int | None, start: int | None) -> str:
    if start is None:
        return NOT_REACHED
    if end is None:
        return RUNNING
    if code in ("Success", "Skip", ""):
        return DONE
    if code == "Wait":
        return WAITING
    return FAILED


def phase_spans(records: Sequence[Record], cursor: int) -> tuple[PhaseSpan, ...]:
    """The cycle's phases in the order they ran, then the PIPELINE phases it never reached.

    ``records`` are one cycle's records; ``cursor`` is the number of visible trace records.
    Phases nested in Preempt (its Filter runs) are not drawn as phases of their own.
    """
    open_: list[tuple[str, Record]] = []
    spans: dict[str, PhaseSpan] = {}
    order: list[str] = []
    last = cursor - 1
    for r in records:
        if r.kind not in (Kind.PHASE_START, Kind.PHASE_END) or not isinstance(r.data, Phase):
            continue
        phase = r.data.phase
        if r.kind is Kind.PHASE_START:
            open_.append((phase, r))
            continue
        while open_ and open_[-1][0] != phase:
            open_.pop()
        if not open_:
            continue
        _, start = open_.pop()
        if phase in _SHOWN and phase not in spans and not any(p == "Preempt" for p, _ in open_):
            spans[phase] = PhaseSpan(phase, start.seq, r.seq, start.time, r.data.code, r.data.message,
                                     _state_of(r.data.code, r.seq, start.seq), start.seq <= last <= r.seq)
            order.append(phase)
    for phase, start in open_:
        if phase in _SHOWN and phase not in spans and not any(p == "Preempt" for p, _ in open_[:-1]):
            spans[phase] = PhaseSpan(phase, start.seq, None, start.time, "", "", RUNNING, start.seq <= last)
            order.append(phase)
    for phase in PIPELINE:
        if phase not in spans:
            spans[phase] = PhaseSpan(phase, None, None, None, "", "", NOT_REACHED, False)
            order.append(phase)
    ran = [p for p in order if spans[p].start is not None]
    ran.sort(key=lambda p: spans[p].start or 0)
    return tuple(spans[p] for p in ran + [p for p in order if spans[p].start is None])


def phase_timeline_figure(spans: Sequence[PhaseSpan], lang: str = "en") -> go.Figure:
    """The cycle as a strip of equal boxes in the order the phases ran; the cursor's phase outlined."""
    names = [s.phase for s in spans]
    colours = [_STATE_STYLE[s.state][1] for s in spans]
    text = [f"{_STATE_STYLE[s.state][0]} {s.phase}" for s in spans]
    hover = []
    for s in spans:
        where = upstream.phase_location(s.phase)[1]
        if s.start is None:
            steps = t("schedule.phase.not_reached", lang)
        else:
            steps = t("schedule.phase.steps", lang, start=s.start, end="…" if s.end is None else s.end,
                      time=f"{s.time:g}")
        code = f"<br>{s.code}" + (f": {escape(s.message, quote=False)}" if s.message else "") if s.code else ""
        hover.append(f"<b>{s.phase}</b> ({where})<br>{t('schedule.state.' + s.state.replace(' ', '_'), lang)}"
                     f"<br>{steps}{code}")
    fig = go.Figure(go.Bar(
        x=names, y=[1] * len(spans), text=text, textposition="inside", insidetextanchor="middle",
        textfont={"color": "#000000", "size": 13}, hovertext=hover, hoverinfo="text",
        marker={"color": colours, "line": {"color": ["#000000" if s.current else _PAPER for s in spans],
                                             "width": [4 if s.current else 1 for s in spans]}},
        width=0.95, showlegend=False, name="phases"))
    fig.update_yaxes(visible=False, range=[0, 1])
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=names, showticklabels=False,
                     showgrid=False)
    return _layout(fig, height=80)


# -- Filter ----------------------------------------------------------------------------------------------
def profile_filters(trace: Sequence[Record], profile: str) -> tuple[str, ...]:
    """The profile's Filter plugins in configured order, as scheduler.New reported them at startup."""
    key = f"profile {profile} filter"
    for r in trace:
        if r.kind is Kind.STARTUP_STEP and r.data is not None:
            for name, value in getattr(r.data, "details", ()):
                if name == key:
                    return tuple(v for v in value.split(",") if v)
    return ()


def _window(records: Sequence[Record], phase: str) -> list[Record]:
    """Records between the cycle's first ``phase`` PHASE_START and its PHASE_END (or the end)."""
    out: list[Record] = []
    inside = False
    for r in records:
        if isinstance(r.data, Phase) and r.data.phase == phase:
            if r.kind is Kind.PHASE_START and not inside and not out:
                inside = True
                continue
            if r.kind is Kind.PHASE_END and inside:
                break
        if inside:
            out.append(r)
    return out


def _first(records: Sequence[Record], kind: Kind) -> Record | None:
    return next((r for r in records if r.kind is kind), None)


@dataclass(frozen=True, slots=True)
class FilterMatrix:
    """Node × Filter plugin outcome codes (``theme.FILTER_*``) and the reason per cell."""

    nodes: tuple[str, ...]                      # rows, in the order nodes were visited
    plugins: tuple[str, ...]                    # columns, in the profile's Filter order (+ extenders)
    codes: tuple[tuple[int, ...], ...]
    reasons: tuple[tuple[str, ...], ...]        # the plugin's reasons for ✗ cells, "" otherwise
    stopped_by: tuple[str, ...]                 # per row: the first failing plugin, "" if none
    status_codes: tuple[str, ...]               # per row: the failing Status code, "" if none
    num_nodes_to_find: int | None = None

    def cell(self, node: str, plugin: str) -> tuple[int, str]:
        i, j = self.nodes.index(node), self.plugins.index(plugin)
        return self.codes[i][j], self.reasons[i][j]


def _node_passes(window: Sequence[Record]) -> dict[str, list[list[PluginCall | tuple[str, PluginCall]]]]:
    """node → its filter passes (each a list of (plugin, call)), split at NOMINATED_PASS records."""
    passes: dict[str, list[list]] = {}
    for r in window:
        if r.node is None:
            continue
        if r.kind is Kind.PLUGIN_CALL and isinstance(r.data, PluginCall) and r.data.extension_point == "Filter":
            node_passes = passes.setdefault(r.node, [[]])
            node_passes[-1].append((r.plugin or "", r.data))
        elif r.kind is Kind.NOMINATED_PASS:
            passes.setdefault(r.node, [[]]).append([])
    return {node: [p for p in ps if p] or [[]] for node, ps in passes.items()}


def _deciding_pass(passes: list[list]) -> list:
    """The pass whose outcome counts: the first that failed, else the last one run."""
    for p in passes:
        if any(call.code != "Success" for _, call in p):
            return p
    return passes[-1]


def filter_matrix(records: Sequence[Record], plugins: Sequence[str] = ()) -> FilterMatrix:
    """The Filter matrix of one cycle's ``records`` (visible part); ``plugins`` = profile order."""
    window = _window(records, "Filter")
    passes = _node_passes(window)
    columns = list(plugins)
    for p in passes.values():
        for _, calls in enumerate(p):
            for plugin, _call in calls:
                if plugin not in columns:
                    columns.append(plugin)
    extenders = [r for r in records if r.kind is Kind.EXTENDER_CALL and isinstance(r.data, ExtenderCall)
                 and r.data.verb == "Filter"]
    for r in extenders:
        name = f"extender {r.data.extender}"
        if name not in columns:
            columns.append(name)
    walk = _first(records, Kind.FILTER_WALK)
    feasible = _first(records, Kind.FEASIBLE_NODES)
    nodes = list(passes)
    not_visited = walk.data.not_visited if walk is not None and isinstance(walk.data, FilterWalk) else ()
    nodes += [n for n in not_visited if n not in passes]
    codes, reasons, stopped, status = [], [], [], []
    for node in nodes:
        row, why = [theme.FILTER_NOT_EVALUATED] * len(columns), [""] * len(columns)
        stop, stop_code = "", ""
        if node in passes:
            for plugin, call in _deciding_pass(passes[node]):
                j = columns.index(plugin)
                if call.code == "Success":
                    row[j] = theme.FILTER_PASS
                else:
                    row[j], why[j] = theme.FILTER_FAIL, "; ".join(call.reasons)
                    stop, stop_code = plugin, call.code
                    break
            if not stop:
                stop, stop_code = _extender_cells(extenders, node, columns, row, why)
        else:
            row = [theme.FILTER_NOT_VISITED] * len(columns)
        codes.append(tuple(row))
        reasons.append(tuple(why))
        stopped.append(stop)
        status.append(stop_code)
    return FilterMatrix(tuple(nodes), tuple(columns), tuple(codes), tuple(reasons), tuple(stopped),
                        tuple(status),
                        feasible.data.num_nodes_to_find if feasible is not None and isinstance(
                            feasible.data, FeasibleNodes) else None)


def _extender_cells(extenders: Sequence[Record], node: str, columns: list[str], row: list[int],
                    why: list[str]) -> tuple[str, str]:
    for r in extenders:
        data = r.data
        j = columns.index(f"extender {data.extender}")
        failed = dict(data.failed)
        if node in failed:
            row[j], why[j] = theme.FILTER_FAIL, failed[node]
            return columns[j], "Unschedulable"
        if data.nodes_out is not None and node in data.nodes_out:
            row[j] = theme.FILTER_PASS
        elif node in data.nodes_in:
            row[j], why[j] = theme.FILTER_FAIL, data.error or ""
            return columns[j], "Error"
    return "", ""


def _cell_hover(m: FilterMatrix, i: int, j: int, lang: str) -> str:
    node, plugin, code = m.nodes[i], m.plugins[j], m.codes[i][j]
    head = f"<b>{escape(node, quote=False)}</b> × <b>{escape(plugin, quote=False)}</b><br>"
    if code == theme.FILTER_PASS:
        return head + t("schedule.cell.pass", lang)
    if code == theme.FILTER_FAIL:
        return head + t("schedule.cell.fail", lang, reason=escape(m.reasons[i][j], quote=False), code=m.status_codes[i])
    if code == theme.FILTER_NOT_VISITED:
        return head + t("schedule.cell.not_visited", lang, n=m.num_nodes_to_find)
    if m.stopped_by[i]:
        return head + t("schedule.cell.not_evaluated", lang, plugin=m.stopped_by[i])
    return head + t("schedule.cell.not_run", lang)


def _stepwise_colorscale() -> list[list]:
    """A discrete colorscale for codes 0..3 with zmin=-0.5, zmax=3.5: one flat band per code."""
    n = len(theme.FILTER_OUTCOMES)
    scale: list[list] = []
    for code in range(n):
        colour = theme.FILTER_OUTCOMES[code][1]
        scale.append([code / n, colour])
        scale.append([(code + 1) / n, colour])
    return scale


def filter_matrix_figure(m: FilterMatrix, lang: str = "en") -> go.Figure:
    """``go.Heatmap``: rows = nodes in visit order (first on top), columns = Filter plugins in order."""
    glyphs = {code: glyph for code, (glyph, _) in theme.FILTER_OUTCOMES.items()}
    text = [[glyphs[c] for c in row] for row in m.codes]
    hover = [[_cell_hover(m, i, j, lang) for j in range(len(m.plugins))] for i in range(len(m.nodes))]
    n = len(theme.FILTER_OUTCOMES)
    fig = go.Figure(go.Heatmap(
        z=[list(row) for row in m.codes], x=list(m.plugins), y=list(m.nodes), text=text,
        texttemplate="%{text}", textfont={"size": 16, "color": "#000000"}, hovertext=hover,
        hovertemplate="%{hovertext}<extra></extra>", zmin=-0.5, zmax=n - 0.5, colorscale=_stepwise_colorscale(),
        xgap=2, ygap=2, showscale=True, name="filter",
        colorbar={"tickmode": "array", "tickvals": list(range(n)), "ticktext": [
            f"{theme.FILTER_OUTCOMES[c][0]} {t('schedule.outcome.' + str(c), lang)}" for c in range(n)],
            "thickness": 14, "len": 1.0, "outlinewidth": 0}))
    fig.update_yaxes(autorange="reversed", type="category", tickfont={"size": 12}, automargin=True)
    fig.update_xaxes(type="category", side="top", tickangle=-40, tickfont={"size": 11}, automargin=True)
    height = max(300, 140 + 28 * len(m.nodes))
    return _layout(fig, height=height)


def filter_rows(m: FilterMatrix, lang: str = "en") -> list[dict[str, str]]:
    """The matrix as a table: one row per node with its verdict, stopping plugin and reason."""
    rows = []
    for i, node in enumerate(m.nodes):
        codes = m.codes[i]
        if all(c == theme.FILTER_NOT_VISITED for c in codes):
            verdict = f"– {t('schedule.outcome.3', lang)}"
        elif m.stopped_by[i]:
            verdict = f"✗ {t('schedule.verdict.rejected', lang)}"
        elif any(c == theme.FILTER_PASS for c in codes):
            verdict = f"✓ {t('schedule.verdict.feasible', lang)}"
        else:
            verdict = f"· {t('schedule.outcome.2', lang)}"
        j = m.plugins.index(m.stopped_by[i]) if m.stopped_by[i] else -1
        rows.append({
            t("schedule.col.node", lang): node,
            t("schedule.col.verdict", lang): verdict,
            t("schedule.col.plugin", lang): m.stopped_by[i],
            t("schedule.col.code", lang): m.status_codes[i],
            t("schedule.col.reason", lang): m.reasons[i][j] if j >= 0 else "",
            t("schedule.col.passed", lang): sum(1 for c in codes if c == theme.FILTER_PASS),
        })
    return rows


@dataclass(frozen=True, slots=True)
class FilterNumbers:
    num_all_nodes: int
    percentage: int
    num_nodes_to_find: int
    start_index: int
    processed: int | None
    feasible: int | None
    failed: int | None
    not_visited: int | None
    next_start_node_index: int | None


def filter_numbers(records: Sequence[Record]) -> FilterNumbers | None:
    """numFeasibleNodesToFind, the start index and what the walk processed (None before Filter)."""
    feasible = _first(records, Kind.FEASIBLE_NODES)
    if feasible is None or not isinstance(feasible.data, FeasibleNodes):
        return None
    f = feasible.data
    walk = _first(records, Kind.FILTER_WALK)
    w = walk.data if walk is not None and isinstance(walk.data, FilterWalk) else None
    return FilterNumbers(f.num_all_nodes, f.percentage, f.num_nodes_to_find, f.start_index,
                         w.processed if w else None, len(w.feasible) if w else None,
                         len(w.failed) if w else None, len(w.not_visited) if w else None,
                         w.next_start_node_index if w else None)


@dataclass(frozen=True, slots=True)
class NominatedRow:
    node: str
    pass_index: int
    nominated_pods: tuple[str, ...]
    code: str
    reasons: tuple[str, ...]


def nominated_rows(records: Sequence[Record]) -> tuple[NominatedRow, ...]:
    """The nominated-pod passes of podPassesFiltersOnNode during the cycle's Filter phase."""
    return tuple(NominatedRow(r.node or "", r.data.pass_index, r.data.nominated_pods, r.data.code, r.data.reasons)
                 for r in _window(records, "Filter")
                 if r.kind is Kind.NOMINATED_PASS and isinstance(r.data, NominatedPass))


# -- Score ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ScoreTable:
    """SCORE_SUMMARY reshaped: plugins in configured order, nodes by total (highest first)."""

    plugins: tuple[str, ...]
    nodes: tuple[str, ...]
    # (node, plugin) → (raw, normalized, weight, weighted)
    cells: dict[tuple[str, str], tuple[int | None, int | None, int | None, int | None]]
    extender: dict[str, int]          # node → extender contribution to the total (× 10 applied)
    totals: dict[str, int]

    def uniform(self) -> dict[str, int]:
        """Plugins that gave every node the same weighted score (they cannot change the pick)."""
        out = {}
        for plugin in self.plugins:
            values = {self.cells.get((n, plugin), (None,) * 4)[3] for n in self.nodes}
            if len(values) == 1 and None not in values and len(self.nodes) > 1:
                out[plugin] = values.pop()
        return out


_EXTENDER_FACTOR = 10  # MaxNodeScore / MaxExtenderPriority, applied in prioritizeNodes


def score_table(records: Sequence[Record]) -> ScoreTable | None:
    summary = _first(records, Kind.SCORE_SUMMARY)
    if summary is None or not isinstance(summary.data, ScoreSummary):
        return None
    s = summary.data
    plugins: list[str] = []
    cells = {}
    for row in s.rows:
        if row.plugin not in plugins:
            plugins.append(row.plugin)
        cells[(row.node, row.plugin)] = (row.raw_score, row.normalized_score, row.weight, row.weighted_score)
    totals = dict(s.totals)
    order = {node: i for i, (node, _) in enumerate(s.totals)}
    nodes = tuple(sorted(totals, key=lambda n: (-totals[n], order[n])))
    extender = {node: score * _EXTENDER_FACTOR for node, score in s.extender_scores}
    return ScoreTable(tuple(plugins), nodes, cells, extender, totals)


def score_breakdown_figure(table: ScoreTable, selected: str = "", lang: str = "en", *,
                           hide_uniform: bool = True) -> go.Figure:
    """Horizontal stacked bars: one trace per plugin (x = weighted score), nodes by total, top = best.

    With ``hide_uniform`` the plugins that add the same amount to every node are left out of the
    bars (listed in the title instead): NodePreferAvoidPods' weight 10000 would otherwise hide
    everything else. The text at each bar's end is always the full total.
    """
    uniform = table.uniform() if hide_uniform else {}
    silent = set() if not hide_uniform else {p for p in table.plugins if all((table.cells.get((n, p), (None,) * 4)[3] or 0) == 0
                                              for n in table.nodes)}
    labels = {n: (f"★ {n}" if n == selected else n) for n in table.nodes}
    y = [labels[n] for n in table.nodes]
    fig = go.Figure()
    for plugin in table.plugins:
        if plugin in uniform or plugin in silent:
            continue
        values, custom = [], []
        for node in table.nodes:
            raw, norm, weight, weighted = table.cells.get((node, plugin), (None, None, None, None))
            values.append(weighted or 0)
            custom.append([_n(raw), _n(norm), _n(weight), _n(weighted), table.totals[node]])
        fig.add_trace(go.Bar(
            name=plugin, y=y, x=values, orientation="h", marker={"color": theme.plugin_colour(plugin),
                                                                     "line": {"color": _PAPER, "width": 1}},
            customdata=custom,
            hovertemplate=(f"<b>%{{y}}</b> · {plugin}<br>raw %{{customdata[0]}} → normalized %{{customdata[1]}}"
                           f" → × weight %{{customdata[2]}} = %{{customdata[3]}}<br>total %{{customdata[4]}}"
                           "<extra></extra>")))
    if any(table.extender.values()):
        fig.add_trace(go.Bar(
            name="extenders", y=y, x=[table.extender.get(n, 0) for n in table.nodes], orientation="h",
            marker={"color": theme.OKABE_ITO["grey"], "line": {"color": _PAPER, "width": 1}},
            hovertemplate="<b>%{y}</b> · extenders × 10 = %{x}<extra></extra>"))
    offset = sum(uniform.values())
    ends = [table.totals[n] - offset for n in table.nodes]
    fig.add_trace(go.Scatter(
        x=ends, y=y, mode="text", text=[f"  {table.totals[n]}" for n in table.nodes], textposition="middle right",
        textfont={"color": "#000000", "size": 13}, showlegend=False, hoverinfo="skip", name="total"))
    fig.update_layout(barmode="stack", legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0,
                                                   "font": {"size": 11}})
    top = max(ends, default=0)
    fig.update_xaxes(title=t("schedule.score.axis", lang), range=[0, max(top, 1) * 1.18], gridcolor="#E5E5E5",
                     zeroline=True, zerolinecolor="#999999", automargin=True)
    fig.update_yaxes(autorange="reversed", type="category", tickfont={"size": 12}, automargin=True)
    return _layout(fig, height=190 + 34 * max(len(table.nodes), 1))


def uniform_caption(table: ScoreTable, lang: str = "en") -> str:
    """The plugins left out of the bars because every node got the same non-zero weighted score."""
    shown = {p: v for p, v in table.uniform().items() if v}
    if not shown:
        return ""
    return t("schedule.score.uniform", lang, plugins=", ".join(f"{p} +{v}" for p, v in shown.items()))


def _n(v: int | None) -> str:
    return "–" if v is None else str(v)


def score_rows(table: ScoreTable, lang: str = "en") -> list[dict[str, object]]:
    """raw → normalized → × weight → weighted per (node, plugin), then the node's total."""
    rows: list[dict[str, object]] = []
    for node in table.nodes:
        for plugin in table.plugins:
            raw, norm, weight, weighted = table.cells.get((node, plugin), (None, None, None, None))
            rows.append({t("schedule.col.node", lang): node, t("schedule.col.plugin", lang): plugin,
                         "raw": _n(raw), "normalized": _n(norm), "× weight": _n(weight), "=": _n(weighted),
                         t("schedule.col.total", lang): table.totals[node]})
        if node in table.extender:
            rows.append({t("schedule.col.node", lang): node, t("schedule.col.plugin", lang): "extenders",
                         "raw": "", "normalized": "", "× weight": "×10", "=": str(table.extender[node]),
                         t("schedule.col.total", lang): table.totals[node]})
    return rows


# -- the pick and the failure -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    selected: str
    max_score: int | None
    ties: tuple[str, ...]
    shortcut: bool                 # one feasible node: upstream returns it without scoring
    evaluated: int | None
    feasible: int | None


def pick(records: Sequence[Record]) -> Pick | None:
    """selectHost's decision (or the one-feasible-node shortcut) of the cycle, if it got there."""
    select = _first(records, Kind.SELECT_HOST)
    result = _first(records, Kind.SCHEDULE_RESULT)
    res = result.data if result is not None and isinstance(result.data, ScheduleResult) else None
    if select is not None and isinstance(select.data, SelectHost):
        s = select.data
        return Pick(s.selected, s.max_score, s.ties, False, res.evaluated_nodes if res else None,
                    res.feasible_nodes if res else None)
    if res is not None:
        return Pick(res.suggested_host, None, (), res.shortcut, res.evaluated_nodes, res.feasible_nodes)
    return None


def nominated_node(records: Sequence[Record]) -> str:
    """The node preemption nominated in the cycle ("" when it nominated none)."""
    return next((r.node for r in records if r.kind is Kind.NOMINATE and r.node), "")


def failure_message(records: Sequence[Record]) -> str:
    """The exact FailedScheduling message of the cycle ("" when it did not fail)."""
    failure = _first(records, Kind.SCHEDULING_FAILURE)
    if failure is not None and isinstance(failure.data, SchedulingFailure):
        return failure.data.message
    return ""
