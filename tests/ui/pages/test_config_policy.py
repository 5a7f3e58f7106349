"""The Configuration page on a Policy cluster: the predicate/priority → plugin table (EN and 中文),
and an A/B comparison of two Policies."""

from __future__ import annotations

from tests.ui.pages.test_binding_config_events import CONFIGURATION, _app, _ok


def _translation(at, column: str = "becomes"):
    return next(d.value for d in at.dataframe if column in d.value.columns)

ROWS_EN = [
    ("predicate", "CheckNodeUnschedulable", "Filter NodeUnschedulable", "always added"),
    ("predicate", "GeneralPredicates",
     "Filter NodeResourcesFit, NodeName, NodePorts, NodeAffinity · PreFilter NodeResourcesFit, NodePorts", "the Policy"),
    ("predicate", "NoDiskConflict", "Filter VolumeRestrictions", "the Policy"),
    ("predicate", "PodToleratesNodeTaints", "Filter TaintToleration", "always added"),
    ("predicate", "MatchInterPodAffinity", "Filter InterPodAffinity · PreFilter InterPodAffinity", "the Policy"),
    ("priority", "BalancedResourceAllocation", "Score NodeResourcesBalancedAllocation × 1", "the Policy"),
    ("priority", "MostRequestedPriority", "Score NodeResourcesMostAllocated × 2", "the Policy"),
    ("priority", "AvoidReserved", "Score NodeLabel × 1", "the Policy"),
]


def test_translation_table_in_english_and_chinese():
    at = _app("policy.yaml")
    at.switch_page(CONFIGURATION).run()
    _ok(at)
    table = _translation(at)
    assert [tuple(r) for r in table.itertuples(index=False)] == ROWS_EN
    assert any(c.value.startswith("This run's Policy, as v1.18 translates it") for c in at.caption)
    assert at.text_area(key="config_text_a").value.startswith("apiVersion: v1\nkind: Policy\n")
    at.radio(key="lang").set_value("zh").run()
    _ok(at)
    table = _translation(at, "变成")
    assert list(table.columns) == ["类型", "Policy 中的写法", "变成", "来源"]
    assert [r[0] for r in table.itertuples(index=False)] == ["预选"] * 5 + ["优选"] * 3
    assert list(table["来源"])[:2] == ["总会加入", "Policy"]


def test_reference_table_without_a_policy():
    at = _app("taints.yaml")
    at.switch_page(CONFIGURATION).run()
    _ok(at)
    table = _translation(at)
    assert len(table) == 33  # 19 predicate keys, 13 priority keys and EqualPriority
    assert any(c.value.startswith("This run uses a provider, not a Policy.") for c in at.caption)


def test_compare_two_policies():
    at = _app("policy.yaml")
    at.switch_page(CONFIGURATION).run()
    assert at.text_area(key="config_text_b").value.startswith("apiVersion: v1\nkind: Policy\npriorities:")
    at.button(key="config_compare_button").click().run()
    _ok(at)
    result = at.session_state["config_compare"]
    a = {p.key: p.node for p in result["A"].state.pods}
    b = {p.key: p.node for p in result["B"].state.pods}
    assert (a["default/batch-1"], a["default/batch-2"]) == ("node-a", "node-a")  # MostRequested packs
    assert b["default/batch-1"] == "node-c"  # LeastRequested spreads to the empty node-c
