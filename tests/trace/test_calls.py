"""Plugin calls derived from decision records: exact rows, in call order, for every path of each runner.

The sample and lesson clusters check the common paths against the per-call trace
(``test_fixtures.py``); these tables cover the rest: runAllFilters, errors, AddPod failures,
a Score or NormalizeScore failure, scores out of range, RemovePod/AddPod in preemption.
"""

from __future__ import annotations

import pytest

from kubesched.trace import calls_of, plugin_calls
from kubesched.trace import upstream as up
from kubesched.trace.calls import ADD_POD, REMOVE_POD
from kubesched.trace.decisions import (
    PASSED,
    ExtensionFailure,
    FilterPass,
    FilterRun,
    NodeCheck,
    PluginStatus,
    PointRun,
    Preemption,
    PreemptionNode,
    ScoreFailure,
    ScoreRun,
    pack,
)
from kubesched.trace.records import Kind, Record

U, E = "Unschedulable", "Error"
CPU = PluginStatus("Fit", U, ("Insufficient cpu",))
PORTS = PluginStatus("Ports", U, ("no free ports",))
BOOM = PluginStatus("Ports", E, ("boom",))


def failing(*statuses: PluginStatus) -> FilterPass:
    return FilterPass(statuses, statuses[-1].code, tuple(r for s in statuses for r in s.reasons))


def rows(data, node: str | None = None) -> list[tuple]:
    kind = {FilterRun: Kind.FILTER_RUN, ScoreRun: Kind.SCORE_RUN, Preemption: Kind.PREEMPTION,
            PointRun: Kind.POINT_RUN}[type(data)]
    record = Record(7, 1.5, kind, 3, "default/p", "prof", node, None, "f", "g", data)
    out = []
    for c in calls_of(record):
        assert (c.seq, c.time, c.cycle, c.pod, c.profile) == (7, 1.5, 3, "default/p", "prof")
        assert (c.file, c.func) == up.plugin_location(c.plugin, c.data.extension_point)
        d = c.data
        row = (d.extension_point, c.plugin, c.node, d.code)
        if d.extension_point == "Score":
            row += (d.raw_score, d.normalized_score, d.weight, d.weighted_score)
        elif d.extension_point == "ScoreExtensionNormalize":
            row += (d.weight, d.scores)
        elif d.timeout is not None:
            row += (d.timeout,)
        out.append(row)
    return out


def walk(checks=(), plugins=("Fit", "Ports", "Taint"), nodes=("a", "b", "c"), visited=3, start=0, run_all=False):
    return FilterRun(plugins, nodes, 0, 3, start, visited, 0, checks, ("IPA",), run_all)


FILTER_CASES = {
    "every node passes, from the start index": (
        walk(start=1, visited=2, plugins=("Fit", "Ports")),
        [("Filter", "Fit", "b", "Success"), ("Filter", "Ports", "b", "Success"),
         ("Filter", "Fit", "c", "Success"), ("Filter", "Ports", "c", "Success")]),
    "a failure ends the node": (
        walk(((0, NodeCheck((failing(PORTS),))),), visited=1),
        [("Filter", "Fit", "a", "Success"), ("Filter", "Ports", "a", U)]),
    "runAllFilters goes on after Unschedulable": (
        walk(((0, NodeCheck((failing(CPU, PluginStatus("Taint", U, ("tainted",))),))),), visited=1, run_all=True),
        [("Filter", "Fit", "a", U), ("Filter", "Ports", "a", "Success"), ("Filter", "Taint", "a", U)]),
    "an error ends the node even with runAllFilters": (
        walk(((0, NodeCheck((failing(BOOM),))),), visited=1, run_all=True),
        [("Filter", "Fit", "a", "Success"), ("Filter", "Ports", "a", E)]),
    "nominated pods: AddPod per pod, then both passes": (
        walk(((0, NodeCheck((FilterPass(), failing(CPU)), ("default/n1", "default/n2"))),), visited=1,
             plugins=("Fit",)),
        [(ADD_POD, "IPA", "a", "Success"), (ADD_POD, "IPA", "a", "Success"), ("Filter", "Fit", "a", "Success"),
         ("Filter", "Fit", "a", U)]),
    "an AddPod failure: no filter pass": (
        walk(((0, NodeCheck((), ("default/n1",), ExtensionFailure(ADD_POD, "default/n2", "IPA", E, ("x",)))),),
             visited=1, plugins=("Fit",)),
        [(ADD_POD, "IPA", "a", "Success"), (ADD_POD, "IPA", "a", E)]),
    "no Filter plugin: no call": (walk(plugins=()), []),
}


@pytest.mark.parametrize("run, want", FILTER_CASES.values(), ids=FILTER_CASES.keys())
def test_filter_run_calls(run, want):
    assert rows(run) == want


SCORED = ScoreRun(("A", "B"), (2, 1), ("n1", "n2"), (pack([3, 5]), 7),
                  (pack([30, 50]), pack([7, 7])), (0,), selected="n2")
SCORE_CASES = {
    "scored: node-major, then NormalizeScore": (SCORED, [
        ("Score", "A", "n1", "Success", 3, 30, 2, 60), ("Score", "B", "n1", "Success", 7, 7, 1, 7),
        ("Score", "A", "n2", "Success", 5, 50, 2, 100), ("Score", "B", "n2", "Success", 7, 7, 1, 7),
        ("ScoreExtensionNormalize", "A", None, "Success", 2, (("n1", 30), ("n2", 50)))]),
    "a Score call fails: the calls up to it, no NormalizeScore": (
        ScoreRun(("A", "B"), (2, 1), ("n1", "n2"), (pack([3]), 7),
                 score_failure=ScoreFailure(1, 0, 0, E, ("bad",)), error="x"), [
            ("Score", "A", "n1", "Success", 3, None, 2, None), ("Score", "B", "n1", "Success", 7, None, 1, None),
            ("Score", "A", "n2", E, 0, None, 2, None)]),
    "NormalizeScore fails: no normalized score on the Score calls": (
        ScoreRun(("A",), (2,), ("n1",), (pack([3]),), (pack([300]),), (0,),
                 normalize_failure=PluginStatus("A", E, ("no",)), error="x"), [
            ("Score", "A", "n1", "Success", 3, None, 2, None),
            ("ScoreExtensionNormalize", "A", None, E, 2, (("n1", 300),))]),
    "a score out of [0, 100] is not weighted": (
        ScoreRun(("A",), (2,), ("n1",), (pack([3]),), (pack([101]),), (0,), error="range"), [
            ("Score", "A", "n1", "Success", 3, 101, 2, None),
            ("ScoreExtensionNormalize", "A", None, "Success", 2, (("n1", 101),))]),
}


@pytest.mark.parametrize("run, want", SCORE_CASES.values(), ids=SCORE_CASES.keys())
def test_score_run_calls(run, want):
    assert rows(run) == want


def test_score_run_ties_and_max():
    assert (SCORED.ties(), SCORED.max_score, SCORED.calls()) == (("n2",), 107, 4)
    assert ScoreRun(("A",), (1,), ("x", "y"), (pack([1, 1]),), (pack([5, 5]),), (0,)).ties() == ("x", "y")
    extenders_only = ScoreRun((), (), ("x", "y"), (), extender_scores=(("y", 3),), fixed_totals=pack([0, 30]))
    assert (extenders_only.totals, extenders_only.ties()) == ((0, 30), ("y",))
    with_extender = ScoreRun(("A",), (2,), ("x", "y"), (pack([1, 2]),), (pack([10, 20]),), (0,),
                             extender_scores=(("x", 4),))
    assert with_extender.totals == (60, 40)
    assert ScoreRun(("A",), (2,), ("x",), (pack([1]),), (pack([10]),), (0,), error="range").totals == ()


def victims(node, steps, failure=None, fits=True):
    return PreemptionNode(node, fits, (), 0, (), steps, failure)


PREEMPTION_CASES = {
    "remove, check, reprieve kept, reprieve failed and removed again": (
        (victims("n1", ((REMOVE_POD, "v1"), (REMOVE_POD, "v2"), PASSED, (ADD_POD, "v1"), PASSED, (ADD_POD, "v2"),
                        NodeCheck((failing(CPU),)), (REMOVE_POD, "v2"))),), [
            (REMOVE_POD, "IPA", "n1", "Success"), (REMOVE_POD, "IPA", "n1", "Success"),
            ("Filter", "Fit", "n1", "Success"), (ADD_POD, "IPA", "n1", "Success"), ("Filter", "Fit", "n1", "Success"),
            (ADD_POD, "IPA", "n1", "Success"), ("Filter", "Fit", "n1", U), (REMOVE_POD, "IPA", "n1", "Success")]),
    "a RemovePod failure ends the node": (
        (victims("n1", ((REMOVE_POD, "v1"),), ExtensionFailure(REMOVE_POD, "v1", "IPA", E, ("x",)), fits=False),
         victims("n2", (PASSED,))), [
            (REMOVE_POD, "IPA", "n1", E), ("Filter", "Fit", "n2", "Success")]),
    "the same pod removed twice: the failure is the last step": (
        (victims("n1", ((REMOVE_POD, "v1"), PASSED, (ADD_POD, "v1"), NodeCheck((failing(CPU),)), (REMOVE_POD, "v1")),
                 ExtensionFailure(REMOVE_POD, "v1", "IPA", E, ("x",)), fits=False),), [
            (REMOVE_POD, "IPA", "n1", "Success"), ("Filter", "Fit", "n1", "Success"),
            (ADD_POD, "IPA", "n1", "Success"), ("Filter", "Fit", "n1", U), (REMOVE_POD, "IPA", "n1", E)]),
}


@pytest.mark.parametrize("nodes, want", PREEMPTION_CASES.values(), ids=PREEMPTION_CASES.keys())
def test_preemption_calls(nodes, want):
    assert rows(Preemption(True, nodes=nodes, plugins=("Fit",), add_pod_plugins=("IPA",))) == want


def test_point_run_calls_carry_permit_timeouts():
    run = PointRun("Permit", (PluginStatus("Gate", "Wait"), PluginStatus("Other")), (900.0, 0), "Permit")
    assert rows(run, "n1") == [("Permit", "Gate", "n1", "Wait", 900.0), ("Permit", "Other", "n1", "Success", 0)]
    assert rows(PointRun("Reserve", (PluginStatus("VB"),)), "n1") == [("Reserve", "VB", "n1", "Success")]


def test_plugin_calls_of_a_sequence_keep_record_order_and_skip_other_records():
    records = [Record(0, 0.0, Kind.LOG), Record(1, 0.0, Kind.POINT_RUN, data=PointRun("PreFilter", (PluginStatus("X"),))),
               Record(2, 0.0, Kind.FILTER_RUN, data=walk(plugins=("Fit",), visited=1))]
    assert [(c.seq, c.plugin, c.data.extension_point) for c in plugin_calls(records)] == [
        (1, "X", "PreFilter"), (2, "Fit", "Filter")]
    assert calls_of(records[0]) == []
