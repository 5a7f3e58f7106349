"""Figure builders of the Binding cycle, Configuration and Event log pages (pure, exact)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.scheduler.apis.config import default_config, load_config
from kubesched.sim import compare
from kubesched.sim.simulation import Simulation
from kubesched.sim.state import EventState, NodeState, PodState, QueueState, SimState
from kubesched.sim.vocabulary import ASSUMED_POD_TTL as TTL
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    CycleInfo,
    EventData,
    InformerEvent,
    Kind,
    LogLine,
    Outcome,
    PermitWait,
    Phase,
    FilterRun,
    PluginCall,
    PointRun,
    Preemption,
    QueueMove,
    Record,
    ScoreRun,
)
from kubesched.trace.decisions import FilterPass, NodeCheck, PluginStatus
from kubesched.trace.upstream import CACHE_GO, SCHEDULER_GO, permalink, phase_location
from kubesched.ui.figures import binding as b
from kubesched.ui.figures import configuration as c
from kubesched.ui.figures import events as e
from kubesched.ui.theme import OKABE_ITO

SAMPLES = Path(__file__).resolve().parents[3] / "sample_clusters"
POD = "default/web"


# -- a tiny trace builder -------------------------------------------------------------------------------
class Recs:
    def __init__(self) -> None:
        self.records: list[Record] = []

    def add(self, kind: Kind, data=None, *, time: float = 0.0, pod: str | None = POD, cycle: int | None = 1,
            node: str | None = "n1", plugin: str | None = None) -> Recs:
        file, func = ("", "")
        if isinstance(data, Phase):
            file, func = phase_location(data.phase)
        self.records.append(Record(len(self.records), time, kind, cycle, pod, "default-scheduler", node, plugin,
                                   file, func, data))
        return self

    def phase(self, name: str, code: str = "Success", message: str = "", *, time: float = 0.0,
              end_time: float | None = None, **kw) -> Recs:
        self.add(Kind.PHASE_START, Phase(name), time=time, **kw)
        return self.add(Kind.PHASE_END, Phase(name, code, message), time=time if end_time is None else end_time, **kw)


def scheduling_cycle(r: Recs, permit: str = "Success", *, cycle: int = 1) -> Recs:
    r.add(Kind.POD_POPPED, CycleInfo(attempts=1), cycle=cycle, node=None)
    r.phase("Schedule", cycle=cycle)
    r.phase("AssumePodVolumes", cycle=cycle).phase("Reserve", cycle=cycle)
    r.add(Kind.PHASE_START, Phase("Assume"), cycle=cycle).add(Kind.ASSUME, cycle=cycle)
    r.add(Kind.PHASE_END, Phase("Assume", "Success"), cycle=cycle)
    r.phase("Permit", permit, cycle=cycle)
    if permit == "Wait":
        r.add(Kind.PERMIT_WAIT, PermitWait(("Gate", "Quota")), cycle=cycle)
    return r.add(Kind.CYCLE_END, CycleInfo(result="assumed"), cycle=cycle)


def bound_trace() -> list[Record]:
    r = scheduling_cycle(Recs())
    r.add(Kind.BINDING_CYCLE_START)
    r.phase("WaitOnPermit").phase("PreBind")
    r.add(Kind.PHASE_START, Phase("Bind")).add(Kind.PHASE_END, Phase("Bind", "Success"))
    r.add(Kind.BIND, BindResult("framework", None))
    r.add(Kind.CACHE_EVENT, CacheChange("FinishBinding", "Finished binding for pod u1. Can be expired."))
    r.phase("PostBind").add(Kind.BINDING_CYCLE_END, Outcome("bound"))
    r.add(Kind.CACHE_EVENT, CacheChange("Confirm", "confirmed pod default/web on n1"), time=0.5, cycle=None)
    return r.records


def rejected_trace() -> list[Record]:
    """Permit says Wait; the pod waits 10 s, the plugin rejects: Forget, Unreserve, failure."""
    r = scheduling_cycle(Recs(), permit="Wait")
    r.add(Kind.BINDING_CYCLE_START)
    r.phase("WaitOnPermit", "Unschedulable", 'rejected by "Gate"', end_time=10.0)
    r.add(Kind.FORGET, time=10.0)
    r.phase("Unreserve", time=10.0)
    return r.add(Kind.BINDING_CYCLE_END, Outcome("failed", 'rejected by "Gate"'), time=10.0).records


def shape(steps):
    return [(s.phase, s.stage, s.outcome, s.code) for s in steps]


# -- binding ------------------------------------------------------------------------------------------------
def test_binding_steps_of_a_bound_pod():
    steps = b.binding_steps(bound_trace(), POD, 1)
    assert shape(steps) == [
        ("AssumePodVolumes", "scheduling", b.SUCCESS, "Success"), ("Reserve", "scheduling", b.SUCCESS, "Success"),
        ("Assume", "scheduling", b.SUCCESS, "Success"), ("Permit", "scheduling", b.SUCCESS, "Success"),
        ("WaitOnPermit", "binding", b.SUCCESS, "Success"), ("PreBind", "binding", b.SUCCESS, "Success"),
        ("Bind", "binding", b.SUCCESS, "Success"), ("FinishBinding", "binding", b.SUCCESS, "Success"),
        ("PostBind", "binding", b.SUCCESS, "Success")]
    bind = next(s for s in steps if s.phase == "Bind")
    assert (bind.detail, bind.func, bind.file) == ("framework", "Scheduler.bind", SCHEDULER_GO)
    finish = next(s for s in steps if s.phase == "FinishBinding")
    assert (finish.func, finish.start_seq, finish.end_seq) == ("Scheduler.finishBinding", 21, 21)


def test_binding_steps_of_a_permit_rejection():
    records = rejected_trace()
    steps = b.binding_steps(records, POD, 1)
    assert shape(steps)[3:] == [
        ("Permit", "scheduling", b.WAIT, "Wait"), ("WaitOnPermit", "binding", b.FAILED, "Unschedulable"),
        ("Forget", "failure", b.SUCCESS, "Success"), ("Unreserve", "failure", b.SUCCESS, "Success")]
    permit, wait = steps[3], steps[4]
    assert permit.detail == "Gate, Quota"
    assert (wait.start_time, wait.end_time, wait.message) == (0.0, 10.0, 'rejected by "Gate"')
    assert b.binding_attempts(records) == [b.Attempt(POD, 1, "n1", "failed")]


@pytest.mark.parametrize("cut, running", [(16, "WaitOnPermit"), (11, "Permit"), (6, "Reserve")])
def test_a_phase_open_at_the_cursor_is_running(cut, running):
    records = rejected_trace()[:cut]
    steps = b.binding_steps(records, POD, 1)
    assert [s.phase for s in steps if s.outcome == b.RUNNING] == [running]
    assert b.binding_attempts(records) == [b.Attempt(POD, 1, "n1", "")]


def test_attempts_and_the_attempt_at_the_cursor():
    r = Recs()
    scheduling_cycle(r, cycle=1)
    r.add(Kind.BINDING_CYCLE_END, Outcome("bound"), cycle=1)
    r.records += [Record(len(r.records), 0.0, Kind.LOG, data=LogLine(2, "I", "x"))]
    for rec in scheduling_cycle(Recs(), cycle=2).records:
        r.add(rec.kind, rec.data, pod="default/db", cycle=2, node="n2")
    assert b.binding_attempts(r.records) == [b.Attempt(POD, 1, "n1", "bound"), b.Attempt("default/db", 2, "n2", "")]
    assert b.attempt_at_cursor(r.records) == b.Attempt("default/db", 2, "n2", "")
    assert b.attempt_at_cursor(r.records[:20]) == b.Attempt(POD, 1, "n1", "bound")
    assert b.attempt_at_cursor(r.records[:3]) is None


@pytest.mark.parametrize("records, states, current, expires", [
    (bound_trace(), [b.ASSUMED, b.BINDING_FINISHED, b.CONFIRMED], b.CONFIRMED, None),
    (bound_trace()[:-1], [b.ASSUMED, b.BINDING_FINISHED], b.BINDING_FINISHED, 30.0),
    (rejected_trace(), [b.ASSUMED, b.FORGOTTEN], b.FORGOTTEN, None),
    (bound_trace()[:-1] + [Record(25, 30.5, Kind.EXPIRE, pod=POD, data=CacheChange("Expire", "Pod web expired"))],
     [b.ASSUMED, b.BINDING_FINISHED, b.EXPIRED], b.EXPIRED, None),
    (bound_trace()[:5], [], b.NOT_ASSUMED, None),
])
def test_assumed_history(records, states, current, expires):
    history = b.assumed_history(records, POD, TTL)
    assert [tr.state for tr in history.transitions] == states
    assert (history.state, history.expires_at) == (current, expires)


def test_cache_rows_name_the_cache_functions():
    rows = b.cache_rows(b.assumed_history(bound_trace(), POD, TTL))
    assert [r["upstream function"] for r in rows] == ["schedulerCache.AssumePod", "schedulerCache.FinishBinding",
                                                      "schedulerCache.AddPod"]
    assert [r["records"] for r in rows] == ["#8", "#21", "#25"]


def test_step_rows():
    rows = b.step_rows(b.binding_steps(rejected_trace(), POD, 1))
    wait = rows[4]
    assert wait == {"step": "WaitOnPermit", "stage": "binding cycle", "outcome": "✗ Unschedulable",
                    "records": "#15–#16", "simulated time": "0s → 10s (10s)", "detail": 'rejected by "Gate"',
                    "upstream function": "framework.WaitOnPermit",
                    "source": permalink("pkg/scheduler/framework/v1alpha1/framework.go")}
    assert rows[3]["outcome"] == "‖ Wait" and rows[3]["detail"] == "Gate, Quota"


def test_timeline_figure_bars_colours_and_cursor():
    steps = b.binding_steps(rejected_trace(), POD, 1)
    fig = b.timeline_figure(steps, cursor=25)
    by_name = {tr.name: tr for tr in fig.data}
    assert list(by_name) == ["✓ Success", "‖ Wait", "✗ failed"]
    assert by_name["✗ failed"].marker.color == OKABE_ITO["vermillion"]
    assert by_name["‖ Wait"].marker.color == OKABE_ITO["orange"]
    assert list(by_name["✗ failed"].y) == ["WaitOnPermit"]
    assert (list(by_name["✗ failed"].base), list(by_name["✗ failed"].x)) == ([15], [2])
    assert fig.layout.shapes[0].x0 == 25
    assert list(fig.layout.yaxis.categoryarray) == ["Forget", "Unreserve", "WaitOnPermit", "Permit", "Assume",
                                                    "Reserve", "AssumePodVolumes"]


def test_timeline_running_bar_reaches_the_cursor():
    steps = b.binding_steps(rejected_trace()[:16], POD, 1)
    fig = b.timeline_figure(steps, cursor=16)
    running = next(tr for tr in fig.data if tr.name.startswith("…"))
    assert (list(running.base), list(running.x)) == ([15], [2])


def test_cache_figure_highlights_the_current_state():
    fig = b.cache_figure(b.assumed_history(bound_trace()[:-1], POD, TTL))
    colours = dict(zip(b.CACHE_STATES, fig.data[0].marker.color))
    assert colours[b.BINDING_FINISHED] == OKABE_ITO["orange"]
    assert colours[b.ASSUMED] == OKABE_ITO["sky_blue"]
    assert colours[b.CONFIRMED] == "#EEEEEE"
    taken = [a for a in fig.layout.annotations if a.arrowwidth == 3]
    assert len(taken) == 2


def test_upstream_links_cover_every_lane():
    links = b.upstream_links()
    assert [step for step, _, _ in links] == list(b.LANES)
    assert {s: f for s, f, _ in links}["Forget"] == "schedulerCache.ForgetPod"
    assert {s: u for s, _, u in links}["Forget"] == permalink(CACHE_GO)


def test_binding_on_a_real_run_matches_the_bind_records():
    sim = Simulation.from_yaml(SAMPLES / "taints.yaml")
    sim.run_until_idle()
    records = sim.trace[:sim.cursor]
    attempts = b.binding_attempts(records)
    binds = [r for r in records if r.kind is Kind.BIND and r.data.error is None]
    assert [(a.pod, a.node) for a in attempts if a.result == "bound"] == [(r.pod, r.node) for r in binds]
    for a in attempts:
        phases = [s.phase for s in b.binding_steps(records, a.pod, a.cycle)]
        assert phases[:4] == ["AssumePodVolumes", "Reserve", "Assume", "Permit"]


# -- configuration ----------------------------------------------------------------------------------------
MOST_ALLOCATED = """\
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: NodeResourcesLeastAllocated
      enabled:
      - name: NodeResourcesMostAllocated
        weight: 3
"""
HEAD = "apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"

# v1.18.5 algorithmprovider/registry.go getDefaultConfig Score plugins and weights, in order, then
# applyFeatureGates appending PodTopologySpread (EvenPodsSpread is beta, on) with weight 1.
DEFAULT_SCORE = [("NodeResourcesBalancedAllocation", "1"), ("ImageLocality", "1"), ("InterPodAffinity", "1"),
                 ("NodeResourcesLeastAllocated", "1"), ("NodeAffinity", "1"), ("NodePreferAvoidPods", "10000"),
                 ("DefaultPodTopologySpread", "1"), ("TaintToleration", "1"), ("PodTopologySpread", "1")]


def test_plugin_rows_of_the_default_config():
    rows = c.plugin_rows(default_config())
    score = [(r["plugin"], r["weight"]) for r in rows if r["extension point"] == "score"]
    assert score == DEFAULT_SCORE
    assert {r["from"] for r in rows} == {"✓ provider default"}
    assert [r["plugin"] for r in rows if r["extension point"] == "bind"] == ["DefaultBinder"]
    assert [r["plugin"] for r in rows if r["extension point"] == "queueSort"] == ["PrioritySort"]


def test_plugin_rows_and_matrix_after_swapping_least_for_most_allocated():
    config = load_config(MOST_ALLOCATED)
    score = [(r["plugin"], r["weight"], r["from"]) for r in c.plugin_rows(config) if r["extension point"] == "score"]
    assert score[-2:] == [("NodeResourcesMostAllocated", "3", "◆ enabled by the profile"),
                          ("NodeResourcesLeastAllocated", "", "✗ disabled by the profile")]
    plugins, points, codes, texts = c.plugin_matrix(config)
    col = points.index("score")
    assert codes[plugins.index("NodeResourcesMostAllocated")][col] == c.CELL_CUSTOM
    assert texts[plugins.index("NodeResourcesMostAllocated")][col] == "◆ 3"
    assert codes[plugins.index("NodeResourcesLeastAllocated")][col] == c.CELL_DISABLED
    assert texts[plugins.index("NodePreferAvoidPods")][col] == "✓ 10000"
    assert codes[plugins.index("PrioritySort")] == [c.CELL_DEFAULT] + [c.CELL_NONE] * 10


def test_plugin_matrix_figure_fixed_scale():
    fig = c.plugin_matrix_figure(load_config(MOST_ALLOCATED))
    heat = fig.data[0]
    assert (heat.zmin, heat.zmax) == (-0.5, 3.5)
    assert [s[1] for s in heat.colorscale] == [c.CELL_STYLE[i][1] for i in range(4) for _ in range(2)]
    assert list(heat.x) == [name for name, _ in c.EXTENSION_POINTS]


@pytest.mark.parametrize("text, expected", [
    (HEAD + "foo: 1\n", ['config.yaml:3: foo: unknown field "foo" in KubeSchedulerConfiguration']),
    ("kind: x: y\n", ["config.yaml:1: YAML syntax error (column 8): mapping values are not allowed in this context"]),
    (HEAD + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: Nope\n        weight: 1\n",
     [('config.yaml: initializing profiles: creating profile for scheduler name default-scheduler: '
      'ScorePlugin "Nope" does not exist')]),
    (HEAD + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: Nope\n",
     [('config.yaml: initializing profiles: creating profile for scheduler name default-scheduler: '
      'FilterPlugin "Nope" does not exist')]),
])
def test_check_config_problems(text, expected):
    check = compare.check_config(text)
    assert (check.config, list(check.problems)) == (None, expected)


def test_check_config_validation_names_the_field():
    check = compare.check_config(HEAD + "percentageOfNodesToScore: 120\n")
    assert check.config is None and len(check.problems) == 1
    assert check.problems[0].startswith("config.yaml:3: percentageOfNodesToScore: ")


def test_check_config_accepts_a_valid_text():
    check = compare.check_config(MOST_ALLOCATED)
    assert check.problems == () and check.config == load_config(MOST_ALLOCATED)


@pytest.mark.parametrize("nodes, pct, found", [(6, 0, 6), (1000, 0, 420), (1000, 10, 100), (5000, 0, 500)])
def test_settings_note_states_the_filter_stop(nodes, pct, found):
    config = load_config(HEAD + f"percentageOfNodesToScore: {pct}\n")
    rows = {r["field"]: r for r in c.settings_rows(config, nodes)}
    assert rows["percentageOfNodesToScore"]["value"] == str(pct)
    assert f"{nodes} nodes: the Filter walk stops after {found} feasible nodes." in \
        rows["percentageOfNodesToScore"]["meaning here"]


@pytest.mark.parametrize("pct, lang, caption", [
    (0, "en", "percentageOfNodesToScore 0 = adaptive: the walk looks for max(5, 50 − nodes/125) percent of the "
              "nodes, at least 100 nodes; under 100 nodes it searches every node."),
    (0, "zh", "percentageOfNodesToScore 为 0 表示自适应：遍历寻找节点数的 max(5, 50 − 节点数/125)%，但至少 100 个节点；"
              "少于 100 个节点时搜索全部节点。"),
    (10, "en", ""),
])
def test_adaptive_rule_is_a_caption_not_a_cell(pct, lang, caption):
    config = load_config(HEAD + f"percentageOfNodesToScore: {pct}\n")
    assert c.settings_caption(config, lang) == caption
    assert all("adaptive" not in r["meaning here"] for r in c.settings_rows(config, 1000))


def _state(placements: dict[str, str], pending: tuple[str, ...] = ()) -> SimState:
    nodes = tuple(NodeState(n, (), (), False, (), (), ()) for n in ("n1", "n2"))
    pods = tuple(PodState("default", p, "Bound", node, "", 1, 0.0) for p, node in placements.items())
    pods += tuple(PodState("default", p, "Pending", "", "", 2, None) for p in pending)
    return SimState(0.0, 0, "", QueueState(), nodes, pods, (), ())


def test_placement_rows_and_figure():
    a = _state({"a": "n1", "b": "n1", "c": "n2"}, pending=("d",))
    bb = _state({"a": "n1", "b": "n2", "d": "n2"}, pending=("c",))
    rows = c.placement_rows(a, bb)
    assert rows == [{"pod": "default/a", "A": "n1", "B": "n1", "differs": "="},
                    {"pod": "default/b", "A": "n1", "B": "n2", "differs": "≠"},
                    {"pod": "default/c", "A": "n2", "B": "(Pending)", "differs": "≠"},
                    {"pod": "default/d", "A": "(Pending)", "B": "n2", "differs": "≠"}]
    assert [r["pod"] for r in c.differing(rows)] == ["default/b", "default/c", "default/d"]
    fig = c.placement_figure(a, bb)
    assert [list(tr.y) for tr in fig.data] == [[2, 1], [1, 2]]
    assert [tr.marker.color for tr in fig.data] == [OKABE_ITO["blue"], OKABE_ITO["orange"]]
    assert list(fig.data[1].customdata) == ["default/a", "default/b<br>default/d"]


def test_active_config_text():
    assert c.active_config_text(Simulation.from_yaml(SAMPLES / "taints.yaml")) == compare.EMPTY_CONFIG_TEXT
    sim = Simulation.from_yaml(SAMPLES / "taints.yaml", config=MOST_ALLOCATED)
    assert load_config(c.active_config_text(sim)) == load_config(MOST_ALLOCATED)


def test_run_to_idle_compares_least_and_most_allocated():
    source = (SAMPLES / "taints.yaml").read_text()
    a = compare.run_to_idle(source, compare.EMPTY_CONFIG_TEXT, 0)
    most = compare.run_to_idle(source, MOST_ALLOCATED, 0)
    assert a.error == most.error == ""
    direct = Simulation.from_yaml(source, config=MOST_ALLOCATED, seed=0)
    direct.run_until_idle()
    assert most.state.placements() == direct.state().placements()
    assert c.differing(c.placement_rows(a.state, most.state))


def test_run_to_idle_reports_a_scheduler_that_exits():
    bad = HEAD + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: Nope\n        weight: 1\n"
    run = compare.run_to_idle((SAMPLES / "taints.yaml").read_text(), bad, 0)
    assert (run.state, run.error) == (None, 'couldn\'t create scheduler using provider "DefaultProvider": '
                                            "initializing profiles: creating profile for scheduler name "
                                            'default-scheduler: ScorePlugin "Nope" does not exist')
    assert compare.run_to_idle("kind: Node\nmetadata: {name: [}\n", HEAD, 0).error != ""


# -- events ------------------------------------------------------------------------------------------------
TAINTED = PluginStatus("TaintToleration", "Unschedulable", ("node(s) had taints",))
# n1 passes both plugins, n2 fails TaintToleration, n3 is not visited
FILTER_RUN = FilterRun(("NodeResourcesFit", "TaintToleration"), ("n1", "n2", "n3"), 0, 3, 0, 2, 2,
                       ((1, NodeCheck((FilterPass((TAINTED,), "Unschedulable", ("node(s) had taints",)),))),))


def rec(seq, kind, data=None, **kw):
    return Record(seq, kw.pop("time", 0.0), kind, data=data, **kw)


@pytest.mark.parametrize("record, text", [
    (rec(0, Kind.QUEUE_MOVE, QueueMove("", "activeQ", "PodAdd")), "∅ → activeQ (PodAdd)"),
    (rec(0, Kind.PHASE_END, Phase("Permit", "Wait", "waiting")), "Permit Wait: waiting"),
    (rec(0, Kind.PLUGIN_CALL, PluginCall("Filter", code="Unschedulable", reasons=("Insufficient cpu",))),
     "Filter Unschedulable Insufficient cpu"),
    (rec(0, Kind.PLUGIN_CALL, PluginCall("Score", raw_score=40, normalized_score=40, weight=2, weighted_score=80)),
     "Score Success score 40 → 40 × 2 = 80"),
    (rec(0, Kind.INFORMER_EVENT, InformerEvent("ADDED", "Pod", "default", "web")), "ADDED Pod default/web"),
    (rec(0, Kind.SCORE_RUN, ScoreRun(("P",), (1,), ("n1", "n2"), ((3, 4),), fixed_totals=(180, 180), selected="n2")),
     "selected n2 (max 180; ties n1, n2)"),
    (rec(0, Kind.SCORE_RUN, ScoreRun(("P",), (1,), ("n1",), ((),), error="score plugin failed")), "score plugin failed"),
    (rec(0, Kind.POINT_RUN, PointRun("Reserve", (PluginStatus("VolumeBinding"),
                                                 PluginStatus("X", "Error", ("boom",))))),
     "Reserve: VolumeBinding Success, X Error"),
    (rec(0, Kind.FILTER_RUN, FILTER_RUN), "2 evaluated from index 0: 1 feasible, 1 failed, 1 not visited "
                                          "(numFeasibleNodesToFind 3)"),
    (rec(0, Kind.PREEMPTION, Preemption(False, "PreemptionPolicyNever")), "not eligible: PreemptionPolicyNever"),
    (rec(0, Kind.PREEMPTION, Preemption(True, criterion="MinPDBViolations", node="n2", victims=("default/v",))),
     "→ n2 by MinPDBViolations; victims default/v"),
    (rec(0, Kind.PREEMPTION, Preemption(True, potential_nodes=("n1",), done=True)), "no node (1 potential)"),
    (rec(0, Kind.BIND, BindResult("framework", "conflict")), "binder framework: conflict"),
    (rec(0, Kind.API_EVENT, EventData("Warning", "FailedScheduling", "0/2 nodes are available.", "Pod default/web",
                                      count=3)),
     "Warning FailedScheduling Pod default/web: 0/2 nodes are available. (x3)"),
    (rec(0, Kind.PERMIT_WAIT, PermitWait(("Gate",))), "pending_plugins=Gate"),
    (rec(0, Kind.ASSUME), ""),
])
def test_summarize(record, text):
    assert e.summarize(record) == text


def test_summarize_truncates_long_text():
    long = rec(0, Kind.LOG, LogLine(0, "I", "x" * 500))
    assert len(e.summarize(long)) == e.SUMMARY_LIMIT and e.summarize(long).endswith("…")


LOG_RECORDS = [
    rec(0, Kind.QUEUE_MOVE, QueueMove("", "activeQ", "PodAdd"), pod="default/a", time=0.0),
    rec(1, Kind.FILTER_RUN, FILTER_RUN, pod="default/a", cycle=1),
    rec(2, Kind.BIND, BindResult("framework", None), pod="default/a", cycle=1, node="n1", time=0.5),
    rec(3, Kind.QUEUE_MOVE, QueueMove("", "activeQ", "PodAdd"), pod="default/b", time=1.0),
    rec(4, Kind.LOG, LogLine(2, "I", "pod default/a is bound"), time=1.0),
]


@pytest.mark.parametrize("row_filter, seqs", [
    (e.RowFilter(), [0, 1, 1, 1, 1, 1, 2, 3, 4]),
    (e.RowFilter(kinds=("QUEUE_MOVE",)), [0, 3]),
    (e.RowFilter(kinds=("BIND", "LOG")), [2, 4]),
    (e.RowFilter(pod="default/a"), [0, 1, 1, 1, 1, 1, 2]),
    (e.RowFilter(node="n2"), [1, 1]),
    (e.RowFilter(plugin="NodeResourcesFit"), [1, 1]),
    (e.RowFilter(cycle=1), [1, 1, 1, 1, 1, 2]),
    (e.RowFilter(text="TAINTS"), [1]),
    (e.RowFilter(text="default/a"), [0, 1, 1, 1, 1, 1, 2, 4]),
    (e.RowFilter(kinds=("PLUGIN_CALL",), node="n1"), [1, 1]),
    (e.RowFilter(kinds=("FILTER_RUN",)), [1]),
])
def test_filter_rows(row_filter, seqs):
    rows = e.event_rows(LOG_RECORDS)
    assert [r["seq"] for r in e.filter_rows(rows, row_filter)] == seqs


def test_event_rows_list_each_decisions_calls_before_it():
    rows = e.event_rows(LOG_RECORDS)
    assert [(r["kind"], r["node"], r["plugin"]) for r in rows[1:6]] == [
        ("PLUGIN_CALL", "n1", "NodeResourcesFit"), ("PLUGIN_CALL", "n1", "TaintToleration"),
        ("PLUGIN_CALL", "n2", "NodeResourcesFit"), ("PLUGIN_CALL", "n2", "TaintToleration"), ("FILTER_RUN", "", "")]
    assert rows[4] == {"seq": 1, "time": 0.0, "kind": "PLUGIN_CALL", "cycle": 1, "pod": "default/a", "node": "n2",
                       "plugin": "TaintToleration", "summary": "Filter Unschedulable node(s) had taints",
                       "func": "TaintToleration.Filter"}
    assert e.filter_options(rows) == {"kind": ["QUEUE_MOVE", "PLUGIN_CALL", "FILTER_RUN", "BIND", "LOG"],
                                      "pod": ["default/a", "default/b"], "node": ["n1", "n2"],
                                      "plugin": ["NodeResourcesFit", "TaintToleration"], "cycle": [1]}
    assert e.cursor_for_row(rows[4]) == 2


@pytest.mark.parametrize("seconds, text", [
    (-5, "<invalid>"), (-1, "0s"), (0, "0s"), (59.9, "59s"), (119, "119s"), (120, "2m"), (125, "2m5s"),
    (599, "9m59s"), (600, "10m"), (3 * 3600 - 1, "179m"), (3 * 3600, "3h"), (3 * 3600 + 60, "3h1m"),
    (8 * 3600, "8h"), (47 * 3600, "47h"), (48 * 3600, "2d"), (49 * 3600, "2d1h"), (8 * 86400, "8d"),
    (2 * 365 * 86400, "2y0d"), (8 * 365 * 86400, "8y"),
])
def test_human_duration(seconds, text):
    assert e.human_duration(seconds) == text


EVENTS = (
    EventState("Warning", "FailedScheduling", "Pod default/web", "0/3 nodes are available: 3 Insufficient cpu.", 3,
               1.0, 20.0, "default-scheduler"),
    EventState("Normal", "Scheduled", "Pod default/web", "Successfully assigned default/web to n1", 1, 30.0, 30.0,
               "default-scheduler"),
    EventState("Normal", "Scheduled", "Pod default/db", "Successfully assigned default/db to n2", 1, 0.0, 0.0,
               "default-scheduler"),
)


def test_pod_events_and_describe_text():
    mine = e.pod_events(EVENTS, "default/web")
    assert [ev.reason for ev in mine] == ["FailedScheduling", "Scheduled"]
    assert e.describe_text(mine, now=150.0).splitlines() == [
        "Events:",
        "  Type     Reason            Age                    From               Message",
        "  ----     ------            ----                   ----               -------",
        "  Warning  FailedScheduling  2m10s (x3 over 2m29s)  default-scheduler  0/3 nodes are available: 3 Insufficient cpu.",
        "  Normal   Scheduled         2m                     default-scheduler  Successfully assigned default/web to n1",
    ]
    assert e.describe_text((), 0.0) == "Events:  <none>"


def test_describe_rows():
    rows = e.describe_rows(e.pod_events(EVENTS, "default/db"), now=5.0)
    assert rows == [{"type": "Normal", "reason": "Scheduled", "age": "5s", "from": "default-scheduler",
                     "message": "Successfully assigned default/db to n2", "count": 1, "first_seen": 0.0,
                     "last_seen": 0.0}]


def test_klog_text_gates_by_verbosity():
    records = [rec(0, Kind.LOG, LogLine(2, "I", "two"), time=1.5, file=SCHEDULER_GO),
               rec(1, Kind.LOG, LogLine(4, "I", "four"), time=2.0, file=SCHEDULER_GO),
               rec(2, Kind.LOG, LogLine(0, "E", "error"), time=2.0, file=SCHEDULER_GO)]
    assert e.klog_text(records, 2).splitlines() == [
        "I1201 00:00:01.500000       1 scheduler.go] two", "E1201 00:00:02.000000       1 scheduler.go] error"]
    assert len(e.klog_text(records, 4).splitlines()) == 3
    assert e.klog_text(records, 0).splitlines() == ["E1201 00:00:02.000000       1 scheduler.go] error"]
