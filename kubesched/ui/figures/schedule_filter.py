"""Schedule one pod, the Filter section: the node × Filter plugin matrix of one cycle, the
numFeasibleNodesToFind numbers, and the nominated-pod passes.

Upstream: pkg/scheduler/core/generic_scheduler.go (numFeasibleNodesToFind,
findNodesThatPassFilters, podPassesFiltersOnNode), pkg/scheduler/framework/v1alpha1/framework.go
(RunFilterPlugins: a node stops at its first failing Filter plugin), core/extender.go (Filter).

Pure builders over one cycle's visible records; no Streamlit. The matrix, the numbers and the
nominated-pod passes are read from the cycle's FILTER_RUN record (one per walk), the extender
columns from its EXTENDER_CALL records. Re-exported by ``kubesched.ui.figures.schedule``.

Deviation: upstream runs Filter on 16 goroutines, so "the order nodes were visited" is the
engine's fixed order (the node tree's order from the start index), not a real interleaving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import plotly.graph_objects as go

from kubesched.explain.cycles import first_of
from kubesched.trace.decisions import FilterPass, NodeCheck
from kubesched.trace.records import ExtenderCall, FilterRun, Kind, Record
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


def _filter_run(records: Sequence[Record]) -> FilterRun | None:
    walk = first_of(records, Kind.FILTER_RUN)
    return walk.data if walk is not None and isinstance(walk.data, FilterRun) else None


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


def filter_matrix(records: Sequence[Record], plugins: Sequence[str] = ()) -> FilterMatrix:
    """The Filter matrix of one cycle's ``records`` (visible part); ``plugins`` = profile order."""
    run = _filter_run(records)
    visited = [(node, check) for node, check in run.outcomes() if check.passes] if run and run.plugins else []
    extenders = [r for r in records if r.kind is Kind.EXTENDER_CALL and isinstance(r.data, ExtenderCall)
                 and r.data.verb == "Filter"]
    columns = list(plugins)
    for name in [*(run.plugins if run else ()), *(f"extender {r.data.extender}" for r in extenders)]:
        if name not in columns:
            columns.append(name)
    rows: dict[str, tuple[list[int], list[str], str, str]] = {}
    for node, check in visited:
        rows.setdefault(node, _visited_row(check, extenders, node, run.plugins, columns))
    unvisited_row = ([theme.FILTER_NOT_VISITED] * len(columns), [""] * len(columns), "", "")
    for node in run.not_visited() if run else ():
        rows.setdefault(node, unvisited_row)
    nodes = list(rows)
    return FilterMatrix(tuple(nodes), tuple(columns), tuple(tuple(rows[n][0]) for n in nodes),
                        tuple(tuple(rows[n][1]) for n in nodes), tuple(rows[n][2] for n in nodes),
                        tuple(rows[n][3] for n in nodes), run.num_nodes_to_find if run else None)


def _visited_row(check: NodeCheck, extenders: Sequence[Record], node: str, plugins: Sequence[str],
                 columns: list[str]) -> tuple[list[int], list[str], str, str]:
    """(codes, reasons, stopping plugin, its Status code) of a node the walk filtered: the plugins
    of its deciding pass up to the first failure, then the extenders if every plugin passed."""
    row, why = [theme.FILTER_NOT_EVALUATED] * len(columns), [""] * len(columns)
    deciding: FilterPass = check.deciding_pass()
    failures = {status.plugin: status for status in deciding.statuses}
    for plugin in plugins:
        j = columns.index(plugin)
        status = failures.get(plugin)
        if status is None:
            row[j] = theme.FILTER_PASS
            continue
        row[j], why[j] = theme.FILTER_FAIL, "; ".join(status.reasons)
        return row, why, plugin, status.code
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
    fig.update_xaxes(type="category", side="top", tickangle=-60, tickfont={"size": 11}, automargin=True)
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
        elif all(c == theme.FILTER_PASS for c in codes):   # feasible only once every filter said so
            verdict = f"✓ {t('schedule.verdict.feasible', lang)}"
        else:
            verdict = "· " + t("schedule.verdict.pending", lang, ran=sum(c == theme.FILTER_PASS for c in codes),
                               total=len(codes))
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
    """numFeasibleNodesToFind, the start index and what the walk processed (None before the walk)."""
    run = _filter_run(records)
    if run is None:
        return None
    return FilterNumbers(run.num_all_nodes, run.percentage, run.num_nodes_to_find, run.start_index, run.processed,
                         len(run.feasible()), len(run.failed()), len(run.not_visited()), run.next_start_node_index)


@dataclass(frozen=True, slots=True)
class NominatedRow:
    node: str
    pass_index: int
    nominated_pods: tuple[str, ...]
    code: str
    reasons: tuple[str, ...]


def nominated_rows(records: Sequence[Record]) -> tuple[NominatedRow, ...]:
    """The nominated-pod passes of podPassesFiltersOnNode during the cycle's Filter walk."""
    run = _filter_run(records)
    return tuple(NominatedRow(node, index, check.nominated_pods if index == 0 else (), fpass.code, fpass.reasons)
                 for node, check in (run.outcomes() if run else ()) if check.nominated_pods is not None
                 for index, fpass in enumerate(check.passes))
