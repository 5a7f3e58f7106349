"""Pure helpers the pages call instead of computing in the page script (startup, cluster,
preemption, schedule, lessons) and the shared ``cycle_records``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kubesched.api.meta import ObjectMeta
from kubesched.explain.cycles import cycle_records
from kubesched.lessons import format as fmt
from kubesched.lessons.runner import open_simulation
from kubesched.sim.edits import Cordon, KillLeader
from kubesched.sim.simulation import AppliedEdit
from kubesched.sim.state import NodeState
from kubesched.trace.records import Kind, LeaderElection, Record, StartupStep, Trace
from kubesched.ui.figures import cluster as fc
from kubesched.ui.figures import lessons as fl
from kubesched.ui.figures import preemption as fp
from kubesched.ui.figures import queues as fq
from kubesched.ui.figures import schedule as fs
from kubesched.ui.figures import startup as fst


def election(seq: int, replica: str, transition: str) -> Record:
    return Record(seq, float(seq), Kind.LEADER_ELECTION,
                  data=LeaderElection(f"{replica}_uuid", transition, "", "kube-system/kube-scheduler", ""))


def startup(seq: int, name: str) -> Record:
    return Record(seq, 0.0, Kind.STARTUP_STEP, data=StartupStep(name, "", ()))


# -- startup -----------------------------------------------------------------------------------------
def test_kill_times_keep_only_kill_leader_edits() -> None:
    edits = [AppliedEdit(KillLeader(), 3, 4.5), AppliedEdit(Cordon("n1"), 5, 6.0), AppliedEdit(KillLeader(), 9, 20.0)]
    assert fst.kill_times(edits) == [4.5, 20.0]
    assert fst.kill_times([]) == []


@pytest.mark.parametrize(("records", "old", "expected"), [
    ((), "scheduler-a", False),
    ((election(0, "scheduler-a", "acquired"),), "scheduler-a", False),
    ((election(0, "scheduler-b", "attempt failed"),), "scheduler-a", False),
    ((election(0, "scheduler-a", "acquired"), election(1, "scheduler-b", "acquired")), "scheduler-a", True),
    ((Record(0, 0.0, Kind.LOG), election(1, "scheduler-b", "acquired")), "", True),
])
def test_leader_acquired_by_other(records: tuple[Record, ...], old: str, expected: bool) -> None:
    assert fst.leader_acquired_by_other(records, old) is expected


@pytest.mark.parametrize(("records", "expected"), [
    ((), None),
    ((startup(0, "main"), startup(1, "sched.Run")), None),
    ((startup(0, "main"), Record(1, 0.0, Kind.LOG), startup(2, "scheduleOne"), startup(3, "scheduleOne")), 2),
])
def test_first_schedule_one(records: tuple[Record, ...], expected: int | None) -> None:
    assert fst.first_schedule_one(records) == expected


# -- cluster -----------------------------------------------------------------------------------------
def _node(name: str, labels=(), allocatable=()) -> NodeState:
    return NodeState(name, tuple(labels), (), False, tuple(allocatable), (), ())


def test_resource_choices_core_first_then_by_name() -> None:
    cards = fc.node_cards(SimpleNamespace(nodes=(
        _node("a", allocatable=(("pods", "10"), ("memory", "1Gi"), ("example.com/gpu", "2"))),
        _node("b", allocatable=(("cpu", "2"), ("a.io/x", "1"))))))
    assert fc.resource_choices(cards) == ["cpu", "memory", "pods", "a.io/x", "example.com/gpu"]
    assert fc.resource_choices(()) == []


def test_topology_key_and_layout_of_key_match_the_direct_layout() -> None:
    nodes = (_node("n2", (("topology.kubernetes.io/zone", "z1"), ("topology.kubernetes.io/region", "r1"))),
             _node("n1", (("failure-domain.beta.kubernetes.io/zone", "z2"),)),
             _node("n3"))
    key = fc.topology_key(nodes)
    assert key == (("n2", "r1", "z1"), ("n1", "", "z2"), ("n3", "", ""))
    hint = (("default/p1", "n1"), ("default/p2", "n2"), ("default/p3", ""))
    assert fc.layout_of_key(key, hint) == fc.topology_layout(fc.topology_graph(nodes), dict(hint))


# -- preemption --------------------------------------------------------------------------------------
def test_controller_keys() -> None:
    def obj(kind: str, name: str, namespace: str = "") -> object:
        return type(kind, (), {"metadata": ObjectMeta(name=name, namespace=namespace)})()
    objects = [obj("ReplicaSet", "web"), obj("Pod", "web-1", "default"), obj("StatefulSet", "db", "data"),
               obj("ReplicationController", "rc", "x"), obj("Deployment", "web")]
    assert fp.controller_keys(objects) == ("default/web", "data/db", "x/rc")


# -- schedule ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("records", "expected"), [
    ((), ""),
    ((Record(0, 0.0, Kind.NOMINATE, node=None), Record(1, 0.0, Kind.LOG, node="n9")), ""),
    ((Record(0, 0.0, Kind.LOG, node="n9"), Record(1, 0.0, Kind.NOMINATE, node="n2"),
      Record(2, 0.0, Kind.NOMINATE, node="n3")), "n2"),
])
def test_nominated_node(records: tuple[Record, ...], expected: str) -> None:
    assert fs.nominated_node(records) == expected


# -- lessons -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "expected"), [
    (("n1", "n2"), "n1, n2"), (["a"], "a"), (frozenset(), ""), ("node-1", "node-1"), (3, "3"), ((), ""),
])
def test_answer_text(answer: object, expected: str) -> None:
    assert fl.answer_text(answer) == expected


@pytest.mark.parametrize(("answer", "lang", "expected"), [
    (("~tie",), "en", "Any of them — a random pick among equals"), ("~none", "zh", "都不是"),
    (("~yes",), "zh", "是"), (("node-2", "~no"), "en", "node-2, No"),
])
def test_answer_text_words_the_tokens(answer: object, lang: str, expected: str) -> None:
    assert fl.answer_text(answer, lang) == expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_feedback_key_has_text_with_exactly_its_arguments(lang: str) -> None:
    import string

    from kubesched.lessons import feedback, quiz
    from kubesched.ui.i18n import CATALOG
    for key, args in feedback.KEYS.items():
        text = CATALOG[lang][f"lessons.why.{key}"]
        assert {name for _, name, _, _ in string.Formatter().parse(text) if name} == set(args), key
        assert fl.why_text(feedback.why(key, **{a: "x" for a in args}), lang)
    assert all(fl.option_label(token, lang) != token for token in quiz.TOKENS)


@pytest.mark.parametrize(("kinds", "start", "explicit", "view"), [
    ((Kind.CYCLE_START, Kind.FILTER_RUN, Kind.SCORE_RUN), 1, "", "score"),
    ((Kind.FILTER_RUN, Kind.QUEUE_MOVE, Kind.EVENT), 0, "", "queue"),     # a failed cycle ends in the queue
    ((Kind.FILTER_RUN, Kind.LOG), 2, "", "filter"),                       # nothing decided since: the one before
    ((Kind.PREEMPTION, Kind.NOMINATE, Kind.QUEUE_MOVE), 0, "preemption", "preemption"),
    ((Kind.LEADER_ELECTION,), 0, "", "election"),
    ((Kind.TIME,), 0, "", "queue"),
    ((), 0, "", "queue"),
])
def test_step_view_is_the_lessons_or_the_steps_last_decision(kinds, start, explicit, view) -> None:
    records = [Record(i, 0.0, kind) for i, kind in enumerate(kinds)]
    assert fl.step_view(records, start, explicit) == view


def test_step_view_names_binding_phases_only() -> None:
    from kubesched.trace.records import Phase
    records = [Record(0, 0.0, Kind.FILTER_RUN), Record(1, 0.0, Kind.PHASE_END, data=Phase("Filter", "Success")),
               Record(2, 0.0, Kind.PHASE_END, data=Phase("Reserve", "Success"))]
    assert fl.step_view(records[:2], 0) == "filter"
    assert fl.step_view(records, 2) == "binding"


def test_pod_rows_show_node_nominated_node_and_terminating() -> None:
    from kubesched.sim.state import PodState
    state = type("State", (), {"pods": (
        PodState("default", "cache-2", "Running", "node-2", "", 0, 0.0, terminating=True),
        PodState("default", "critical-api", "Pending", "", "node-2", 1, None, "unschedulableQ"))})()
    from kubesched.trace.records import QueueMove
    moves = [Record(0, 0.0, Kind.QUEUE_MOVE, pod="default/critical-api",
                    data=QueueMove("", "unschedulableQ", "ScheduleAttemptFailure"))]
    assert fl.pod_rows(state, moves) == [
        {"pod": "cache-2", "queue": "", "node": "node-2", "nominated": "", "phase": "Terminating"},
        {"pod": "critical-api", "queue": "unschedulableQ", "node": "", "nominated": "node-2", "phase": "Pending"}]


# -- records of a cycle ------------------------------------------------------------------------------
def test_cycle_records_same_from_a_trace_and_from_a_slice() -> None:
    records = [Record(0, 0.0, Kind.LOG), Record(1, 0.0, Kind.CYCLE_START, cycle=1),
               Record(2, 0.0, Kind.CYCLE_START, cycle=2), Record(3, 0.0, Kind.CYCLE_END, cycle=1),
               Record(4, 0.0, Kind.BIND, cycle=1)]
    trace = Trace(records)
    assert [r.seq for r in cycle_records(tuple(records), 1)] == [1, 3, 4]
    assert cycle_records(trace, 1) == cycle_records(tuple(records), 1)
    assert cycle_records(trace, 7) == [] == cycle_records(records, 7)
    assert fs.cycle_records is cycle_records


# -- queues / configuration --------------------------------------------------------------------------
def test_counts_summary_lists_every_place_with_glyph_and_count() -> None:
    from kubesched.ui.figures import queues as fq
    sample = fq.CountSample(4, 1.0, (2, 0, 1, 0, 3))
    assert fq.counts_summary(sample) == "▶ activeQ 2 · ‖ podBackoffQ 0 · ■ unschedulableQ 1 · ◉ inFlight 0 · ✓ bound 3"


def test_node_count_counts_only_nodes() -> None:
    from kubesched.ui.figures import configuration as fcfg
    node = type("Node", (), {})
    pod = type("Pod", (), {})
    assert fcfg.node_count([node(), pod(), node(), pod()]) == 2
    assert fcfg.node_count([]) == 0


@pytest.mark.parametrize(("lesson_id", "axis"), [("01-first-pod", "seq"), ("04-queues", None)])
def test_a_lessons_queue_chart_takes_the_queues_pages_axis(lesson_id, axis) -> None:
    """At t=0 every move shares one timestamp: the chart runs in record order, as on the Queues page."""
    sim = open_simulation(fmt.load(lesson_id))
    sim.run_until_idle()
    expected = axis or fq.default_axis(sim.trace)
    counts = fq.counts_figure(sim.trace[:20], 20, 0.0, axis=expected)
    (panel, _states) = fl.view_panels("queues", sim.trace, 20, 0.0)
    assert panel.figure.layout.xaxis.title.text == counts.layout.xaxis.title.text
    assert [tr.x for tr in panel.figure.data] == [tr.x for tr in counts.data]
