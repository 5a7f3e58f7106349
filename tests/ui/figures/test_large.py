"""Big clusters: the Filter matrix summarized by reason, the best score rows, long name lists, pages."""

from __future__ import annotations

import pytest

from kubesched.ui import theme
from kubesched.ui.figures import large
from kubesched.ui.figures.schedule_filter import FilterMatrix
from kubesched.ui.figures.schedule_score import ScoreTable

P, F, N, V = theme.FILTER_PASS, theme.FILTER_FAIL, theme.FILTER_NOT_EVALUATED, theme.FILTER_NOT_VISITED
PLUGINS = ("NodeUnschedulable", "NodeResourcesFit", "TaintToleration")
TAINT = "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate"


def matrix(kinds: str) -> FilterMatrix:
    """One row per letter: p passed every plugin, c failed NodeResourcesFit (cpu), t failed
    TaintToleration, v not visited; nodes are named n0, n1, … in walk order."""
    rows = {"p": ((P, P, P), ("", "", ""), "", ""),
            "c": ((P, F, N), ("", "Insufficient cpu", ""), "NodeResourcesFit", "Unschedulable"),
            "t": ((P, P, F), ("", "", TAINT), "TaintToleration", "UnschedulableAndUnresolvable"),
            "v": ((V, V, V), ("", "", ""), "", "")}
    picked = [rows[k] for k in kinds]
    return FilterMatrix(tuple(f"n{i}" for i in range(len(kinds))), PLUGINS, tuple(r[0] for r in picked),
                        tuple(r[1] for r in picked), tuple(r[2] for r in picked), tuple(r[3] for r in picked), 3)


def test_a_small_matrix_is_left_as_it_is():
    m = matrix("pct" * 5)
    summary, groups = large.summarize_matrix(m, limit=40)
    assert summary is m and [g.nodes for g in groups] == [(n,) for n in m.nodes]


def test_a_big_matrix_keeps_a_sample_of_feasible_nodes_and_one_row_per_reason():
    m = matrix("cpt" * 20 + "v" * 30)          # 90 rows: 20 of each outcome, then 30 never visited
    assert len(f"✗ TaintToleration: {TAINT}") > 60      # long reasons are cut to 60 characters
    summary, groups = large.summarize_matrix(m, limit=40, sample=4)
    assert summary.nodes == ("n1", "n4", "n7", "n10",                  # the first 4 feasible, in walk order
                             "20 nodes · ✗ NodeResourcesFit: Insufficient cpu",
                             "20 nodes · ✗ TaintToleration: node(s) had taint {dedicated: gpu}, that…",
                             "16 nodes · ✓ feasible",
                             "30 nodes · – not visited")
    assert [len(g.nodes) for g in groups] == [1, 1, 1, 1, 20, 20, 16, 30]
    assert groups[4].nodes == tuple(f"n{i}" for i in range(0, 60, 3))
    assert summary.codes[4] == (P, F, N) and summary.codes[5] == (P, P, F) and summary.codes[7] == (V, V, V)
    assert summary.stopped_by[4:] == ("NodeResourcesFit", "TaintToleration", "", "")
    assert summary.status_codes[5] == "UnschedulableAndUnresolvable"
    assert summary.plugins == m.plugins and summary.num_nodes_to_find == 3


def test_summary_labels_in_chinese():
    summary, _ = large.summarize_matrix(matrix("c" * 41), "zh", limit=40)
    assert summary.nodes == ("41 个节点 · ✗ NodeResourcesFit: Insufficient cpu",)


def table(n: int) -> ScoreTable:
    nodes = tuple(f"n{i}" for i in range(n))
    return ScoreTable(("A",), nodes, {(node, "A"): (i, i, 1, i) for i, node in enumerate(nodes)},
                      {nodes[0]: 10}, {node: 1000 - i for i, node in enumerate(nodes)})


def test_top_nodes_cuts_the_score_table_to_the_best():
    cut = large.top_nodes(table(40), limit=15)
    assert cut.nodes == tuple(f"n{i}" for i in range(15))
    assert set(cut.totals) == set(cut.nodes) and {k[0] for k in cut.cells} == set(cut.nodes)
    assert cut.extender == {"n0": 10}
    assert large.top_nodes(table(5), limit=15) == table(5)


@pytest.mark.parametrize("names, lang, text", [
    (("a", "b"), "en", "a, b"),
    (tuple("abcde"), "en", "a, b, c, d, e"),
    (tuple(f"n{i}" for i in range(312)), "en", "n0, n1, n2, n3, n4 … (312 nodes)"),
    (tuple(f"n{i}" for i in range(7)), "zh", "n0, n1, n2, n3, n4 …（共 7 个节点）"),
])
def test_name_list_names_the_count_and_the_first_few(names, lang, text):
    assert large.name_list(names, lang) == text


@pytest.mark.parametrize("page, total, per_page, expected, pages", [
    (1, 1000, 24, slice(0, 24), 42), (42, 1000, 24, slice(984, 1000), 42), (99, 1000, 24, slice(984, 1000), 42),
    (0, 5, 24, slice(0, 5), 1), (2, 48, 24, slice(24, 48), 2),
])
def test_pages_of_nodes(page, total, per_page, expected, pages):
    assert large.page_slice(page, total, per_page) == expected
    assert large.page_count(total, per_page) == pages
