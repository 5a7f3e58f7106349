"""Schedule one pod, the Filter section: the node × Filter plugin matrix of one cycle, the
numFeasibleNodesToFind numbers, and the nominated-pod passes.

Upstream: pkg/scheduler/core/generic_scheduler.go (numFeasibleNodesToFind,
findNodesThatPassFilters, podPassesFiltersOnNode), pkg/scheduler/framework/v1alpha1/framework.go
(RunFilterPlugins: a node stops at its first failing Filter plugin), core/extender.go (Filter).

Pure builders over one cycle's visible records; no Streamlit. Re-exported by
``kubesched.ui.figures.schedule``.

Deviation: upstream runs Filter on 16 goroutines, so "the order nodes were visited" is the
engine's fixed order (the node tree's order from the start index), not a real interleaving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import plotly.graph_objects as go

from kubesched.explain.cycles import first_of
from kubesched.trace.records import (
    ExtenderCall,
    FeasibleNodes,
    FilterWalk,
    Kind,
    NominatedPass,
    Phase,
    PluginCall,
    Record,
)
from kubesched.ui import theme
from kubesched.ui.figures.style import outcome_colorscale, plain_layout
from kubesched.ui.i18n import t

__all__ = [
    "FilterMatrix",
    "FilterNumbers",
    "NominatedRow",
    "filter_matrix",
    "filter_matrix_figure",
    "filter_numbers",
    "filter_rows",
    "nominated_rows",
    "profile_filters",
]


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
    passes = _node_passes(_window(records, "Filter"))
    extenders = [r for r in records if r.kind is Kind.EXTENDER_CALL and isinstance(r.data, ExtenderCall)
                 and r.data.verb == "Filter"]
    columns = _columns(plugins, passes, extenders)
    walk = first_of(records, Kind.FILTER_WALK)
    feasible = first_of(records, Kind.FEASIBLE_NODES)
    not_visited = walk.data.not_visited if walk is not None and isinstance(walk.data, FilterWalk) else ()
    nodes = list(passes) + [n for n in not_visited if n not in passes]
    unvisited_row = ([theme.FILTER_NOT_VISITED] * len(columns), [""] * len(columns), "", "")
    rows = [_visited_row(passes[node], extenders, node, columns) if node in passes else unvisited_row
            for node in nodes]
    num_nodes_to_find = feasible.data.num_nodes_to_find if feasible is not None and isinstance(
        feasible.data, FeasibleNodes) else None
    return FilterMatrix(tuple(nodes), tuple(columns), tuple(tuple(r[0]) for r in rows),
                        tuple(tuple(r[1]) for r in rows), tuple(r[2] for r in rows), tuple(r[3] for r in rows),
                        num_nodes_to_find)


def _columns(plugins: Sequence[str], passes: dict[str, list[list]], extenders: Sequence[Record]) -> list[str]:
    """The profile's Filter plugins, then any other plugin called, then the Filter extenders."""
    columns = list(plugins)
    called = [plugin for node_passes in passes.values() for calls in node_passes for plugin, _call in calls]
    for name in called + [f"extender {r.data.extender}" for r in extenders]:
        if name not in columns:
            columns.append(name)
    return columns


def _visited_row(node_passes: list[list], extenders: Sequence[Record], node: str,
                 columns: list[str]) -> tuple[list[int], list[str], str, str]:
    """(codes, reasons, stopping plugin, its Status code) of a node the walk filtered: the plugins
    of its deciding pass up to the first failure, then the extenders if every plugin passed."""
    row, why = [theme.FILTER_NOT_EVALUATED] * len(columns), [""] * len(columns)
    for plugin, call in _deciding_pass(node_passes):
        j = columns.index(plugin)
        if call.code == "Success":
            row[j] = theme.FILTER_PASS
            continue
        row[j], why[j] = theme.FILTER_FAIL, "; ".join(call.reasons)
        return row, why, plugin, call.code
    stop, stop_code = _extender_cells(extenders, node, columns, row, why)
    return row, why, stop, stop_code


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


def filter_matrix_figure(m: FilterMatrix, lang: str = "en") -> go.Figure:
    """``go.Heatmap``: rows = nodes in visit order (first on top), columns = Filter plugins in order."""
    glyphs = {code: glyph for code, (glyph, _) in theme.FILTER_OUTCOMES.items()}
    text = [[glyphs[c] for c in row] for row in m.codes]
    hover = [[_cell_hover(m, i, j, lang) for j in range(len(m.plugins))] for i in range(len(m.nodes))]
    n = len(theme.FILTER_OUTCOMES)
    fig = go.Figure(go.Heatmap(
        z=[list(row) for row in m.codes], x=list(m.plugins), y=list(m.nodes), text=text,
        texttemplate="%{text}", textfont={"size": 16, "color": "#000000"}, hovertext=hover,
        hovertemplate="%{hovertext}<extra></extra>", zmin=-0.5, zmax=n - 0.5, colorscale=outcome_colorscale(),
        xgap=2, ygap=2, showscale=True, name="filter",
        colorbar={"tickmode": "array", "tickvals": list(range(n)), "ticktext": [
            f"{theme.FILTER_OUTCOMES[c][0]} {t('schedule.outcome.' + str(c), lang)}" for c in range(n)],
            "thickness": 14, "len": 1.0, "outlinewidth": 0}))
    fig.update_yaxes(autorange="reversed", type="category", tickfont={"size": 12}, automargin=True)
    fig.update_xaxes(type="category", side="top", tickangle=-40, tickfont={"size": 11}, automargin=True)
    height = max(300, 140 + 28 * len(m.nodes))
    return plain_layout(fig, height=height, title="")


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
    feasible = first_of(records, Kind.FEASIBLE_NODES)
    if feasible is None or not isinstance(feasible.data, FeasibleNodes):
        return None
    f = feasible.data
    walk = first_of(records, Kind.FILTER_WALK)
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
