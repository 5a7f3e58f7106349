"""Schedule one pod, the Score section: raw → normalized → × weight → weighted per node and
plugin, as a table and as stacked bars.

Upstream: pkg/scheduler/core/generic_scheduler.go (prioritizeNodes: plugin scores, extender
scores × MaxNodeScore/MaxExtenderPriority, the per-node sum), pkg/scheduler/framework/v1alpha1/
framework.go (RunScorePlugins: Score, NormalizeScore, × weight).

Pure builders over one cycle's visible records (its SCORE_RUN); no Streamlit. Re-exported by
``kubesched.ui.figures.schedule``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from kubesched.explain.cycles import first_of
from kubesched.trace.records import Kind, Record, ScoreRun
from kubesched.ui import theme
from kubesched.ui.figures.style import PAPER, plain_layout
from kubesched.ui.i18n import t

__all__ = ["ScoreTable", "score_breakdown_figure", "score_rows", "score_table", "score_text", "total_text",
           "uniform_caption"]


@dataclass(frozen=True, slots=True)
class ScoreTable:
    """A SCORE_RUN reshaped: plugins in configured order, nodes by total (highest first)."""

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

    def common(self) -> int:
        """The part of every total all scored nodes share (the uniform plugins' sum): total − common
        is the part that differs between nodes, the part that decides the pick."""
        return sum(self.uniform().values())


_EXTENDER_FACTOR = 10  # MaxNodeScore / MaxExtenderPriority, applied in prioritizeNodes


def score_source(records: Sequence[Record]) -> int | None:
    """The seq of the SCORE_RUN a cycle's ``score_table`` is built from (None before scoring): what
    a figure of that table is keyed by."""
    rec = first_of(records, Kind.SCORE_RUN)
    return rec.seq if rec is not None else None


def score_table(records: Sequence[Record]) -> ScoreTable | None:
    """The cycle's prioritizeNodes, once it succeeded (None before, or when it failed)."""
    rec = first_of(records, Kind.SCORE_RUN)
    run = rec.data if rec is not None else None
    if not isinstance(run, ScoreRun) or run.error:
        return None
    cells = {(node, plugin): run.cell(i, p) for i, node in enumerate(run.nodes) for p, plugin in enumerate(run.plugins)}
    totals = dict(zip(run.nodes, run.totals))
    order = {node: i for i, node in enumerate(run.nodes)}
    nodes = tuple(sorted(totals, key=lambda n: (-totals[n], order[n])))
    extender = {node: score * _EXTENDER_FACTOR for node, score in run.extender_scores}
    return ScoreTable(run.plugins, nodes, cells, extender, totals)


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
    labels = {n: (f"{theme.PICKED} {n}" if n == selected else n) for n in table.nodes}
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
                                                                     "line": {"color": PAPER, "width": 1}},
            customdata=custom,
            hovertemplate=(f"<b>%{{y}}</b> · {plugin}<br>raw %{{customdata[0]}} → normalized %{{customdata[1]}}"
                           f" → × weight %{{customdata[2]}} = %{{customdata[3]}}<br>total %{{customdata[4]}}"
                           "<extra></extra>")))
    if any(table.extender.values()):
        fig.add_trace(go.Bar(
            name="extenders", y=y, x=[table.extender.get(n, 0) for n in table.nodes], orientation="h",
            marker={"color": theme.OKABE_ITO["grey"], "line": {"color": PAPER, "width": 1}},
            hovertemplate="<b>%{y}</b> · extenders × 10 = %{x}<extra></extra>"))
    offset = sum(uniform.values())
    ends = [table.totals[n] - offset for n in table.nodes]
    fig.add_trace(go.Scatter(
        x=ends, y=y, mode="text", text=[f"  {total_text(table, n)}" for n in table.nodes], textposition="middle right",
        textfont={"color": "#000000", "size": 13}, showlegend=False, hoverinfo="skip", name="total"))
    fig.update_layout(barmode="stack", legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0,
                                                   "font": {"size": 11}})
    top = max(ends, default=0)
    room = 1.6 if table.common() else 1.18          # "total = common + differing part" is longer
    fig.update_xaxes(title=t("schedule.score.axis", lang), range=[0, max(top, 1) * room], gridcolor="#E5E5E5",
                     zeroline=True, zerolinecolor="#999999", automargin=True)
    fig.update_yaxes(autorange="reversed", type="category", tickfont={"size": 12}, automargin=True)
    return plain_layout(fig, height=190 + 34 * max(len(table.nodes), 1), title="")


def total_text(table: ScoreTable, node: str) -> str:
    """``1000479 = 1000200 + 279``: the true total, the part common to all nodes, the part that differs."""
    total, common = table.totals[node], table.common()
    return f"{total} = {common} + {total - common}" if common else str(total)


def score_text(table: ScoreTable | None, total: int | None, lang: str = "en") -> str:
    """A total in a sentence, with the part that differs between nodes beside it."""
    common = table.common() if table is not None else 0
    if not common or total is None or total == common:   # nothing differs: the plain total
        return str(total)
    return t("schedule.score.split", lang, total=total, diff=total - common, common=common, count=len(table.nodes))


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
    common = table.common()
    for node in table.nodes:
        for plugin in table.plugins:
            raw, norm, weight, weighted = table.cells.get((node, plugin), (None, None, None, None))
            rows.append({t("schedule.col.node", lang): node, t("schedule.col.plugin", lang): plugin,
                         "raw": _n(raw), "normalized": _n(norm), "× weight": _n(weight), "=": _n(weighted),
                         **_totals(table, node, common, lang)})
        if node in table.extender:
            rows.append({t("schedule.col.node", lang): node, t("schedule.col.plugin", lang): "extenders",
                         "raw": "", "normalized": "", "× weight": "×10", "=": str(table.extender[node]),
                         **_totals(table, node, common, lang)})
    return rows


def _totals(table: ScoreTable, node: str, common: int, lang: str) -> dict[str, int]:
    out = {t("schedule.col.total", lang): table.totals[node]}
    if common:
        out[t("schedule.col.differs", lang)] = table.totals[node] - common
    return out
