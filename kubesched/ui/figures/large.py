"""Big clusters stay readable: the Filter matrix summarized by reason, score rows cut to the best
nodes, long node lists named by count and their first few, and pages of node cards.

Upstream: no counterpart (dashboard plumbing). Pure functions over the rows the figures take
(``FilterMatrix``, ``ScoreTable``, node names); no Streamlit. Nothing is recomputed: a summary
only groups and samples rows that were already read from the trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kubesched.ui import theme
from kubesched.ui.figures.schedule_filter import FilterMatrix
from kubesched.ui.figures.schedule_score import ScoreTable
from kubesched.ui.i18n import t

MATRIX_ROW_LIMIT = 40        # more rows than this: summarize the Filter matrix
PASSING_SAMPLE = 10          # passing nodes kept by a summary, in walk order
SCORE_NODE_LIMIT = 15        # nodes in the score breakdown unless "show all"
NAMED = 5                    # names spelled out in a long list
CARDS_PER_PAGE = 24


@dataclass(frozen=True, slots=True)
class RowGroup:
    """One row of a summarized matrix: a node shown as itself, or many nodes with one outcome."""

    label: str
    nodes: tuple[str, ...]


def summarize_matrix(m: FilterMatrix, lang: str = "en", *, limit: int = MATRIX_ROW_LIMIT,
                     sample: int = PASSING_SAMPLE) -> tuple[FilterMatrix, tuple[RowGroup, ...]]:
    """``m`` unchanged when it has at most ``limit`` rows; else the first ``sample`` feasible nodes as
    they are, then one row per (failing plugin, reason), then one row of the nodes never visited.

    A group row carries the cells of its first node (every node of a group stopped at the same
    plugin for the same reason, so their rows are equal); its label is ``"<count> nodes · …"``.
    Feasible nodes beyond the sample form one group of their own.
    """
    if len(m.nodes) <= limit:
        return m, tuple(RowGroup(n, (n,)) for n in m.nodes)
    kept: list[int] = []
    groups: dict[tuple[str, str], list[int]] = {}
    unvisited: list[int] = []
    passing = 0
    for i, codes in enumerate(m.codes):
        if all(c == theme.FILTER_NOT_VISITED for c in codes):
            unvisited.append(i)
        elif m.stopped_by[i]:
            j = m.plugins.index(m.stopped_by[i])
            groups.setdefault((m.stopped_by[i], m.reasons[i][j]), []).append(i)
        elif passing < sample:
            kept.append(i)
            passing += 1
        else:
            groups.setdefault(("", ""), []).append(i)
    rows: list[tuple[int, RowGroup]] = [(i, RowGroup(m.nodes[i], (m.nodes[i],))) for i in kept]
    for (plugin, reason), members in groups.items():
        what = f"✗ {plugin}: {reason}" if plugin else f"✓ {t('schedule.verdict.feasible', lang)}"
        rows.append((members[0], RowGroup(_group_label(len(members), what, lang), _names(m, members))))
    if unvisited:
        what = f"– {t('schedule.outcome.3', lang)}"
        rows.append((unvisited[0], RowGroup(_group_label(len(unvisited), what, lang), _names(m, unvisited))))
    picked = [i for i, _ in rows]
    summary = replace(m, nodes=tuple(g.label for _, g in rows), codes=tuple(m.codes[i] for i in picked),
                      reasons=tuple(m.reasons[i] for i in picked), stopped_by=tuple(m.stopped_by[i] for i in picked),
                      status_codes=tuple(m.status_codes[i] for i in picked))
    return summary, tuple(g for _, g in rows)


def _group_label(count: int, what: str, lang: str) -> str:
    return t("large.group", lang, count=count, what=_short(what))


def _names(m: FilterMatrix, members: Sequence[int]) -> tuple[str, ...]:
    return tuple(m.nodes[i] for i in members)


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def top_nodes(table: ScoreTable, limit: int = SCORE_NODE_LIMIT) -> ScoreTable:
    """``table`` with only its ``limit`` best nodes (it is sorted by total, highest first)."""
    if len(table.nodes) <= limit:
        return table
    nodes = table.nodes[:limit]
    keep = set(nodes)
    return replace(table, nodes=nodes, cells={k: v for k, v in table.cells.items() if k[0] in keep},
                   extender={n: v for n, v in table.extender.items() if n in keep},
                   totals={n: v for n, v in table.totals.items() if n in keep})


def name_list(names: Sequence[str], lang: str = "en", first: int = NAMED) -> str:
    """``"a, b, c"``, or ``"a, b, c, d, e … (312 nodes)"`` when there are more than ``first``."""
    if len(names) <= first:
        return ", ".join(names)
    return t("large.more", lang, names=", ".join(names[:first]), count=len(names))


def page_count(total: int, per_page: int = CARDS_PER_PAGE) -> int:
    return max(1, -(-total // per_page))


def page_slice(page: int, total: int, per_page: int = CARDS_PER_PAGE) -> slice:
    """The items of 1-based ``page`` (clamped to the last page)."""
    page = min(max(1, page), page_count(total, per_page))
    return slice((page - 1) * per_page, min(total, page * per_page))
