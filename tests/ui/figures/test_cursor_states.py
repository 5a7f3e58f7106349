"""Each state the Schedule page and the stepper show is what is true at the cursor.

The Filter table calls a node feasible only once every filter column is ✓; a Preempt phase that
nominated no node is not a green ✓ box; the sidebar's "Run stopped" is said only at the end of the
computed run (elsewhere the stop is a fact about the run); a score total is shown with the part
that differs between the scored nodes beside it.
"""

from __future__ import annotations

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.trace import Kind
from kubesched.ui import stepper, theme
from kubesched.ui.figures import schedule as fig
from kubesched.ui.i18n import t
from kubesched.ui.session import SAMPLE_DIR

P, F, N, V = theme.FILTER_PASS, theme.FILTER_FAIL, theme.FILTER_NOT_EVALUATED, theme.FILTER_NOT_VISITED


def _matrix(codes: tuple[int, ...], stopped: str = "") -> fig.FilterMatrix:
    plugins = ("NodeUnschedulable", "NodeResourcesFit", "TaintToleration")
    reasons = tuple("Insufficient cpu" if c == F else "" for c in codes)
    return fig.FilterMatrix(("n1",), plugins, (codes,), (reasons,), (stopped,), ("Unschedulable" if stopped else "",))


VERDICTS = [
    ((P, P, P), "", "en", "✓ feasible"),
    ((P, N, N), "", "en", "· not evaluated yet (1 of 3 filters passed so far)"),
    ((P, N, N), "", "zh", "· 尚未评估完（目前 3 个过滤插件中通过 1 个）"),
    ((N, N, N), "", "en", "· not evaluated yet (0 of 3 filters passed so far)"),
    ((P, F, N), "NodeResourcesFit", "en", "✗ rejected"),
    ((V, V, V), "", "en", "– not visited"),
]


@pytest.mark.parametrize("codes, stopped, lang, verdict", VERDICTS)
def test_filter_table_verdict(codes, stopped, lang, verdict):
    row = fig.filter_rows(_matrix(codes, stopped), lang)[0]
    assert row[t("schedule.col.verdict", lang)] == verdict


def _run(cluster: str) -> Simulation:
    sim = Simulation.from_yaml(SAMPLE_DIR / cluster, seed=0)
    sim.run_until_idle()
    return sim


def _first_preempt(sim: Simulation) -> list:
    cycle = next(r.cycle for r in sim.trace if r.kind is Kind.PHASE_START and r.data.phase == "Preempt")
    return fig.cycle_records(sim.trace, cycle)


@pytest.mark.parametrize("cluster, nominated, state", [
    ("default.yaml", False, fig.NOTHING),      # too-big: no node where removing pods helps
    ("preemption.yaml", True, fig.DONE),       # critical-api nominates node-2
])
def test_preempt_phase_state(cluster, nominated, state):
    records = _first_preempt(_run(cluster))
    assert bool(fig.nominated_node(records)) is nominated
    span = next(s for s in fig.phase_spans(records, records[-1].seq + 1) if s.phase == "Preempt")
    assert span.state == state
    figure = fig.phase_timeline_figure([span], "en")
    label = "∅" if state == fig.NOTHING else "✓"
    assert figure.data[0].text[0].startswith(label)


def test_sidebar_says_stopped_only_at_the_end_of_the_run():
    sim = _run("default.yaml")
    total, reason = len(sim.trace), t(f"stepper.reason_{sim.stopped_reason}", "en")
    assert sim.stopped_reason == "horizon"
    cases = {0: t("stepper.run_ends", "en", total=total, reason=reason),
             total // 2: t("stepper.run_ends", "en", total=total, reason=reason),
             total: t("stepper.stopped", "en", reason=reason)}
    for cursor, line in cases.items():
        sim.seek(cursor)
        lines = stepper.status_lines(sim, "en")
        assert lines[-1] == line
        assert (line == f"Run stopped: {reason}") is (cursor == total)


def test_no_stop_line_before_the_run_stopped():
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    sim.step("pod")
    assert sim.stopped_reason is None
    assert len(stepper.status_lines(sim, "en")) == 2


BINDING_LINES = [   # (cluster, cursor, the status line after the pod line, or None)
    ("default.yaml", 98, None),                          # api-1's cycle just ended: assumed, Permit not yet
    ("default.yaml", 100, "Binding cycle under way: default/api-1 → zone-b-large-1"),
    ("workloads.yaml", 125, "Binding cycle under way: default/db-0 → node-1, default/report-gjmr2 → node-2"),
    ("workloads.yaml", 140, "Binding cycle under way: default/db-0 → node-1"),   # report-gjmr2 bound
    ("workloads.yaml", 89, None),
]


@pytest.mark.parametrize("cluster, cursor, line", BINDING_LINES)
def test_sidebar_names_the_binding_cycles_under_way(cluster, cursor, line):
    """While the next pod is scheduled, earlier pods may still wait on Permit or on PreBind (their
    binding goroutines): the sidebar names them, in the order their binding cycles started."""
    sim = _run(cluster)
    sim.seek(cursor)
    shown = [x for x in stepper.status_lines(sim, "en") if x.startswith("Binding cycle")]
    assert shown == ([line] if line else [])


def test_binding_line_in_chinese():
    sim = _run("default.yaml")
    sim.seek(100)
    assert stepper.status_lines(sim, "zh")[1:3] == ["正在调度的 Pod：—", "绑定周期进行中：default/api-1 → zone-b-large-1"]


def test_totals_show_the_part_that_differs():
    sim = _run("default.yaml")
    cycle = next(r.cycle for r in sim.trace if r.kind is Kind.SCORE_RUN)
    table = fig.score_table(fig.cycle_records(sim.trace, cycle))
    common = sum(table.uniform().values())
    assert common >= 1_000_000 and table.common() == common      # NodePreferAvoidPods × 10000 on every node
    best = table.nodes[0]
    total = table.totals[best]
    assert fig.total_text(table, best) == f"{total} = {common} + {total - common}"
    assert fig.score_text(table, total, "en") == (f"{total}; {total - common} without the {common} common to all "
                                                   f"{len(table.nodes)} scored nodes")
    assert fig.score_text(table, total, "zh") == f"{total}；除去 {len(table.nodes)} 个打分节点共有的 {common}，为 {total - common}"
    assert fig.score_text(None, total) == str(total)
    rows = fig.score_rows(table, "en")
    differs = {r["node"]: r[t("schedule.col.differs", "en")] for r in rows}
    assert differs == {n: table.totals[n] - common for n in table.nodes}
    ends = fig.score_breakdown_figure(table, best).data[-1]
    assert list(ends.text) == [f"  {fig.total_text(table, n)}" for n in table.nodes]
    assert "None" not in repr([r.values() for r in rows])
