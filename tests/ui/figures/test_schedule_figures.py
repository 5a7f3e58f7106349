"""Schedule one pod figure builders on real traces: Filter matrix, Score breakdown, phases, pick, failure.

Every expectation is read back from the trace independently of the figure code (the plugin calls
derived from FILTER_RUN and SCORE_RUN by ``kubesched.trace.calls``, the FilterRun's walk, the
ScoreRun's totals and pick, SCHEDULING_FAILURE) or is the v1.18.5 wording itself.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.trace import plugin_calls
from kubesched.trace.records import Kind
from kubesched.ui import theme
from kubesched.ui.figures import schedule as fs

ROOT = Path(__file__).resolve().parents[3]
DEFAULT = ROOT / "sample_clusters" / "default.yaml"
TAINT_REASON = "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate"  # v1.18.5 wording


def _run(source) -> Simulation:
    sim = Simulation.from_yaml(source)
    sim.run_until_idle()
    return sim


@pytest.fixture(scope="module")
def trace():
    return _run(DEFAULT).trace


@pytest.fixture(scope="module")
def big_trace():
    """121 nodes, one pod: numFeasibleNodesToFind = 100, so 21 nodes are never visited."""
    docs = []
    for i in range(121):
        docs.append(f"""apiVersion: v1
kind: Node
metadata:
  name: node-{i:03d}
  labels: {{kubernetes.io/hostname: node-{i:03d}}}
status:
  capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}""")
    docs.append("""apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - {name: c, image: "nginx:1.19", resources: {requests: {cpu: 100m}}}""")
    return _run("\n---\n".join(docs)).trace


def _profile_filters(trace, cycle):
    start = next(r for r in trace.for_cycle(cycle) if r.kind is Kind.CYCLE_START)
    return fs.profile_filters(trace, start.profile)


def _matrix(trace, cycle):
    return fs.filter_matrix(trace.for_cycle(cycle), _profile_filters(trace, cycle))


def _first_cycle_of(trace, pod):
    return next(r.cycle for r in trace if r.kind is Kind.CYCLE_START and r.pod == pod)


def _schedule_filter_calls(trace, cycle):
    """(node, plugin, code, reasons) of the Schedule phase's Filter calls, in trace order."""
    return [(r.node, r.plugin, r.data.code, r.data.reasons) for r in plugin_calls(trace.for_cycle(cycle))
            if r.data.extension_point == "Filter" and r.data.phase == "Schedule"]


def _walk(records):
    return next(r.data for r in records if r.kind is Kind.FILTER_RUN)


# -- Filter matrix ----------------------------------------------------------------------------------
def test_tainted_node_fails_taint_toleration_with_the_v118_reason(trace):
    m = _matrix(trace, _first_cycle_of(trace, "default/api-1"))
    code, reason = m.cell("zone-c-gpu-1", "TaintToleration")
    assert (code, reason) == (theme.FILTER_FAIL, TAINT_REASON)
    row = m.codes[m.nodes.index("zone-c-gpu-1")]
    j = m.plugins.index("TaintToleration")
    assert set(row[:j]) == {theme.FILTER_PASS}
    assert set(row[j + 1:]) == {theme.FILTER_NOT_EVALUATED}
    assert m.stopped_by[m.nodes.index("zone-c-gpu-1")] == "TaintToleration"


def test_columns_are_the_profile_filter_order(trace):
    cycle = _first_cycle_of(trace, "default/api-1")
    m = _matrix(trace, cycle)
    first = next(n for n, *_ in _schedule_filter_calls(trace, cycle))
    called = [p for n, p, *_ in _schedule_filter_calls(trace, cycle) if n == first]
    assert m.plugins == _profile_filters(trace, cycle)
    assert list(m.plugins) == called  # a feasible node runs every Filter plugin, in order


def _cycles_with_filtering(trace):
    return [c for c in trace.cycles() if any(r.kind is Kind.FILTER_RUN for r in trace.for_cycle(c))]


def test_every_cell_agrees_with_the_plugin_calls(trace):
    """For every cycle: rows in visit order; ✓ / ✗ as the calls say; · after the first ✗; nothing else."""
    for cycle in _cycles_with_filtering(trace):
        m = _matrix(trace, cycle)
        calls = _schedule_filter_calls(trace, cycle)
        visit_order = list(dict.fromkeys(n for n, *_ in calls))
        assert list(m.nodes) == visit_order, cycle
        for node in visit_order:
            row = m.codes[m.nodes.index(node)]
            mine = [(p, code, reasons) for n, p, code, reasons in calls if n == node]
            failed = [i for i, (_, code, _) in enumerate(mine) if code != "Success"]
            stop = failed[0] if failed else len(mine) - 1
            for plugin, code, reasons in mine[:stop + 1]:
                want = theme.FILTER_PASS if code == "Success" else theme.FILTER_FAIL
                assert m.cell(node, plugin) == (want, "" if code == "Success" else "; ".join(reasons))
            ran = {p for p, *_ in mine[:stop + 1]}
            assert all(c == theme.FILTER_NOT_EVALUATED for p, c in zip(m.plugins, row) if p not in ran)


def test_feasible_and_failed_rows_match_the_filter_walk(trace):
    for cycle in _cycles_with_filtering(trace):
        walk = _walk(trace.for_cycle(cycle))
        m = _matrix(trace, cycle)
        feasible = {n for n, stop in zip(m.nodes, m.stopped_by) if not stop}
        assert feasible == set(walk.feasible())
        assert {n for n, stop in zip(m.nodes, m.stopped_by) if stop} == set(walk.failed())


def test_nodes_never_reached_are_not_visited(big_trace):
    cycle = big_trace.cycles()[0]
    records = big_trace.for_cycle(cycle)
    walk = _walk(records)
    numbers = fs.filter_numbers(records)
    m = fs.filter_matrix(records, _profile_filters(big_trace, cycle))
    assert (numbers.num_all_nodes, numbers.num_nodes_to_find) == (121, 100)
    assert numbers.not_visited == 121 - numbers.processed > 0
    rows = {n: set(row) for n, row in zip(m.nodes, m.codes)}
    not_visited = [n for n, codes in rows.items() if codes == {theme.FILTER_NOT_VISITED}]
    assert not_visited == list(walk.not_visited())
    assert list(m.nodes[-len(not_visited):]) == not_visited
    assert len(m.nodes) == 121


def test_matrix_figure_is_a_fixed_stepwise_heatmap(trace):
    m = _matrix(trace, _first_cycle_of(trace, "default/api-1"))
    fig = fs.filter_matrix_figure(m)
    (heat,) = fig.data
    assert heat.type == "heatmap"
    assert (heat.zmin, heat.zmax) == (-0.5, len(theme.FILTER_OUTCOMES) - 0.5)
    glyph = {code: g for code, (g, _) in theme.FILTER_OUTCOMES.items()}
    assert [list(r) for r in heat.text] == [[glyph[c] for c in row] for row in m.codes]
    assert list(heat.x) == list(m.plugins) and list(heat.y) == list(m.nodes)
    scale = [(pos, c) for pos, c in heat.colorscale]
    for code, (_, colour) in theme.FILTER_OUTCOMES.items():  # flat band around each code's z value
        for z in (code - 0.45, code, code + 0.45):
            at = (z - heat.zmin) / (heat.zmax - heat.zmin)
            below = [c for pos, c in scale if pos <= at][-1]
            above = next(c for pos, c in scale if pos >= at)
            assert below == above == colour, (code, z)
    i, j = m.nodes.index("zone-c-gpu-1"), m.plugins.index("TaintToleration")
    assert TAINT_REASON in heat.hovertext[i][j]
    assert "not evaluated" in heat.hovertext[i][j + 1]


def test_filter_table_rows(trace):
    m = _matrix(trace, _first_cycle_of(trace, "default/api-1"))
    rows = {r["node"]: r for r in fs.filter_rows(m)}
    assert rows["zone-c-gpu-1"]["verdict"].startswith("✗")
    assert (rows["zone-c-gpu-1"]["plugin"], rows["zone-c-gpu-1"]["reason"]) == ("TaintToleration", TAINT_REASON)
    assert rows["zone-c-gpu-1"]["filters passed"] == m.plugins.index("TaintToleration")
    assert all(r["verdict"].startswith("✓") for n, r in rows.items() if n != "zone-c-gpu-1")


def test_matrix_shows_only_what_happened_before_the_cursor(trace):
    cycle = _first_cycle_of(trace, "default/api-1")
    walk = next(r for r in trace.for_cycle(cycle) if r.kind is Kind.FILTER_RUN)
    before = fs.cycle_records(trace[:walk.seq], cycle)   # the walk is one record: before it, nothing
    assert fs.filter_matrix(before, _profile_filters(trace, cycle)).nodes == () and fs.filter_numbers(before) is None
    after = fs.cycle_records(trace[:walk.seq + 1], cycle)
    m = fs.filter_matrix(after, _profile_filters(trace, cycle))
    calls = _schedule_filter_calls(trace, cycle)
    assert sum(c != theme.FILTER_NOT_EVALUATED for row in m.codes for c in row) == len(calls)
    assert fs.score_table(after) is None


# -- failure ------------------------------------------------------------------------------------------
def test_failed_cycle_message_is_the_fit_error_of_the_matrix(trace):
    failed = [c for c in trace.cycles() if any(r.kind is Kind.SCHEDULING_FAILURE for r in trace.for_cycle(c))]
    assert failed
    for cycle in failed:
        records = trace.for_cycle(cycle)
        m = _matrix(trace, cycle)
        counts = collections.Counter(reason for i, row in enumerate(m.reasons) for cell in row if cell
                                     for reason in cell.split("; "))
        want = f"0/{len(m.nodes)} nodes are available: " + ", ".join(
            sorted(f"{n} {reason}" for reason, n in counts.items())) + "."
        assert fs.failure_message(records) == want
        assert fs.pick(records) is None and fs.score_table(records) is None


# -- Score ---------------------------------------------------------------------------------------------
def _scored_cycles(trace):
    return [c for c in trace.cycles() if any(r.kind is Kind.SCORE_RUN for r in trace.for_cycle(c))]


def _score_run(records):
    return next(r.data for r in records if r.kind is Kind.SCORE_RUN)


def _totals(records) -> dict:
    run = _score_run(records)
    return dict(zip(run.nodes, run.totals))


def _bar_sums(fig):
    sums = collections.Counter()
    for tr in fig.data:
        if tr.type == "bar":
            for y, x in zip(tr.y, tr.x):
                sums[y.removeprefix("◆ ")] += x
    return sums


@pytest.mark.parametrize("hide_uniform", [False, True])
def test_stacked_bars_add_up_to_the_score_summary_totals(trace, hide_uniform):
    cycles = _scored_cycles(trace)
    assert cycles
    for cycle in cycles:
        records = trace.for_cycle(cycle)
        table = fs.score_table(records)
        fig = fs.score_breakdown_figure(table, fs.pick(records).selected, hide_uniform=hide_uniform)
        offset = sum(table.uniform().values()) if hide_uniform else 0
        weighted = collections.Counter()
        for call in plugin_calls(records):
            if call.data.extension_point == "Score":
                weighted[call.node] += call.data.weighted_score
        assert {n: s + offset for n, s in _bar_sums(fig).items()} == _totals(records) == dict(weighted)


def test_bars_are_sorted_by_total_and_the_pick_is_the_max(trace):
    for cycle in _scored_cycles(trace):
        records = trace.for_cycle(cycle)
        select = _score_run(records)
        totals = _totals(records)
        table = fs.score_table(records)
        pick = fs.pick(records)
        assert [table.totals[n] for n in table.nodes] == sorted(totals.values(), reverse=True)
        assert pick.selected == select.selected and totals[pick.selected] == max(totals.values())
        assert set(pick.ties) == {n for n, v in totals.items() if v == max(totals.values())}
        fig = fs.score_breakdown_figure(table, pick.selected)
        labels = list(fig.data[0].y)
        assert labels.count(f"◆ {pick.selected}") == 1 and sum(y.startswith("◆") for y in labels) == 1


def test_tie_in_the_first_cycle(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    pick = fs.pick(records)
    assert len(pick.ties) == 2 and pick.selected in pick.ties and not pick.shortcut


def test_score_traces_use_plugin_colours_and_carry_raw_normalized_weight(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    calls = [c for c in plugin_calls(records) if c.data.extension_point == "Score"]
    rows = {(c.node, c.plugin): c.data for c in calls}
    fig = fs.score_breakdown_figure(fs.score_table(records), hide_uniform=False)
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert [b.name for b in bars] == list(dict.fromkeys(c.plugin for c in calls))
    for bar in bars:
        assert bar.marker.color == theme.plugin_colour(bar.name) and bar.orientation == "h"
        for y, custom in zip(bar.y, bar.customdata):
            row = rows[(y.removeprefix("◆ "), bar.name)]
            assert custom[:4] == [str(row.raw_score), str(row.normalized_score), str(row.weight),
                                  str(row.weighted_score)]
    assert fig.layout.barmode == "stack"


def test_score_rows_are_raw_normalized_weight_total(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    table = fs.score_table(records)
    rows = fs.score_rows(table)
    assert len(rows) == sum(1 for c in plugin_calls(records) if c.data.extension_point == "Score")
    for row in rows:
        assert int(row["="]) == int(row["normalized"]) * int(row["× weight"])
        assert row["total"] == _totals(records)[row["node"]]


def test_uniform_plugins_are_the_same_on_every_node(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    table = fs.score_table(records)
    uniform = table.uniform()
    assert uniform["NodePreferAvoidPods"] == 100 * 10000   # MaxNodeScore × the v1.18 default weight
    for plugin, value in uniform.items():
        assert {table.cells[(n, plugin)][3] for n in table.nodes} == {value}
    assert "NodePreferAvoidPods +1000000" in fs.uniform_caption(table)


def test_one_feasible_node_skips_scoring():
    sim = _run(ROOT / "sample_clusters" / "preemption.yaml")
    shortcuts = [c for c in sim.trace.cycles() if any(r.kind is Kind.SCHEDULE_RESULT and r.data.shortcut
                                                       for r in sim.trace.for_cycle(c))]
    assert shortcuts
    for cycle in shortcuts:
        records = sim.trace.for_cycle(cycle)
        pick = fs.pick(records)
        assert pick.shortcut and pick.feasible == 1 and fs.score_table(records) is None
        assert pick.selected == next(r.data.suggested_host for r in records if r.kind is Kind.SCHEDULE_RESULT)


# -- phases and cycles -----------------------------------------------------------------------------------
def test_phase_spans_follow_the_pipeline_and_mark_the_cursor(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    filter_start = next(r.seq for r in records if r.kind is Kind.PHASE_START and r.data.phase == "Filter")
    spans = fs.phase_spans(records, filter_start + 2)   # the walk's FILTER_RUN is the last visible record
    names = [s.phase for s in spans]
    assert [n for n in names if n in fs.PIPELINE] == list(fs.PIPELINE)
    assert [s.phase for s in spans if s.current] == ["Filter"]
    assert all(s.state == fs.DONE for s in spans)
    starts = [s.start for s in spans]
    assert starts == sorted(starts)


def test_phase_spans_of_a_cycle_in_progress(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    filter_start = next(r.seq for r in records if r.kind is Kind.PHASE_START and r.data.phase == "Filter")
    spans = {s.phase: s for s in fs.phase_spans([r for r in records if r.seq <= filter_start], filter_start + 1)}
    assert spans["PreFilter"].state == fs.DONE
    assert spans["Filter"].state == fs.RUNNING and spans["Filter"].current
    assert all(spans[p].state == fs.NOT_REACHED for p in fs.PIPELINE[2:])


def test_failed_cycle_phases(trace):
    cycle = next(c for c in trace.cycles() if any(r.kind is Kind.SCHEDULING_FAILURE for r in trace.for_cycle(c)))
    spans = {s.phase: s for s in fs.phase_spans(trace.for_cycle(cycle), len(trace))}
    assert spans["Filter"].state == fs.FAILED and spans["Filter"].code == "Unschedulable"
    assert all(spans[p].state == fs.NOT_REACHED for p in fs.PIPELINE[2:])


def test_timeline_figure_colours_and_outline(trace):
    records = trace.for_cycle(_first_cycle_of(trace, "default/api-1"))
    filter_start = next(r.seq for r in records if r.kind is Kind.PHASE_START and r.data.phase == "Filter")
    spans = fs.phase_spans(records, filter_start + 2)
    (bar,) = fs.phase_timeline_figure(spans).data
    assert list(bar.x) == [s.phase for s in spans]
    assert set(bar.marker.color) == {theme.OKABE_ITO["bluish_green"]}
    widths = list(bar.marker.line.width)
    assert widths[[s.phase for s in spans].index("Filter")] == max(widths) and widths.count(max(widths)) == 1


def test_cycle_options_and_cycle_at_cursor(trace):
    ends = [r for r in trace if r.kind is Kind.CYCLE_END]
    cursor = ends[1].seq + 1
    options = fs.cycle_options(trace[:cursor])
    assert [o.cycle for o in options] == [ends[0].cycle, ends[1].cycle]
    assert [o.result for o in options] == [ends[0].data.result, ends[1].data.result]
    assert fs.cycle_at_cursor(trace[:cursor]) == ends[1].cycle
    assert fs.cycle_options(trace[:1]) == () and fs.cycle_at_cursor(trace[:1]) is None


def test_nominated_pod_pass_decides_the_cell():
    """preemption.yaml, cycle of "polite": node-2 is checked with the nominated critical-api added and fails."""
    trace = _run(ROOT / "sample_clusters" / "preemption.yaml").trace
    for cycle in trace.cycles():
        records = trace.for_cycle(cycle)
        rows = fs.nominated_rows(records)
        m = _matrix(trace, cycle)
        for row in rows:
            if row.code != "Success":
                failing = m.stopped_by[m.nodes.index(row.node)]
                assert m.cell(row.node, failing) == (theme.FILTER_FAIL, "; ".join(row.reasons))
    polite = fs.nominated_rows(trace.for_cycle(_first_cycle_of(trace, "default/polite")))
    assert [(p.node, p.pass_index, p.nominated_pods, p.code) for p in polite] == [
        ("node-2", 0, ("default/critical-api",), "Unschedulable")]


@pytest.mark.parametrize(("phase", "label"), [
    ("PreFilter", "Pre<br>Filter"), ("WaitOnPermit", "WaitOn<br>Permit"), ("PostBind", "Post<br>Bind"),
    ("Reserve", "Reserve"), ("Unreserve", "Unreserve"),
])
def test_a_phase_box_label_splits_at_the_word_boundary_nearest_its_middle(phase, label):
    assert fs._two_lines(phase) == label
