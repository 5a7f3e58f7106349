"""Canonical JSON lines: exact bytes, round trip, digest stability and sensitivity."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kubesched.trace import digest, dumps, loads
from kubesched.trace.digest import record_from_dict, record_to_dict, to_jsonable
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    CycleInfo,
    EventData,
    ExtenderCall,
    FilterRun,
    InformerEvent,
    Kind,
    LeaderElection,
    LogLine,
    Outcome,
    PermitWait,
    Phase,
    PluginCall,
    PointRun,
    Preemption,
    QueueMove,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRun,
    StartupStep,
    Trace,
    Victim,
)
from kubesched.trace.decisions import (
    PASSED,
    ExtensionFailure,
    FilterPass,
    NodeCheck,
    PluginStatus,
    PreemptionNode,
    ScoreFailure,
    pack,
)

FIT = PluginStatus("NodeResourcesFit", "Unschedulable", ("Insufficient cpu",))
NOMINATED = NodeCheck((FilterPass(), FilterPass((FIT,), "Unschedulable", ("Insufficient cpu",))), ("default/n",))

PAYLOADS = [
    (Kind.STARTUP_STEP, StartupStep("healthz", "serving", (("port", "10251"),))),
    (Kind.INFORMER_EVENT, InformerEvent("ADDED", "Node", "", "n1")),
    (Kind.CACHE_EVENT, CacheChange("AddNode", "added node n1")),
    (Kind.QUEUE_MOVE, QueueMove("unschedulableQ", "activeQ", "NodeAdd")),
    (Kind.POD_POPPED, CycleInfo(attempts=2)),
    (Kind.PHASE_END, Phase("Permit", "Wait", "one or more plugins asked to wait")),
    (Kind.PLUGIN_CALL, PluginCall("Score", "Schedule", "Success", (), 7, 70, 2, 140)),
    (Kind.PLUGIN_CALL, PluginCall("Permit", "Permit", "Wait", ("w",), timeout=10.5)),
    (Kind.PLUGIN_CALL, PluginCall("ScoreExtensionNormalize", "Schedule", scores=(("n1", 0), ("n2", 100)))),
    (Kind.POINT_RUN, PointRun("Permit", (PluginStatus("Gate", "Wait", ("w",)), PluginStatus("Other")), (10.5, 0),
                              "Permit")),
    (Kind.FILTER_RUN, FilterRun(("NodeResourcesFit", "TaintToleration"), ("n1", "n2", "n3"), 0, 3, 1, 3, 1,
                                ((0, NodeCheck((FilterPass((FIT,), "Unschedulable", ("Insufficient cpu",)),))),
                                 (2, NOMINATED)), ("InterPodAffinity",))),
    (Kind.EXTENDER_CALL, ExtenderCall("Filter", "ext", ("n1", "n2"), ("n1",), (("n2", "no"),))),
    (Kind.EXTENDER_CALL, ExtenderCall("ProcessPreemption", "ext", ("n1",), None, error="boom", ignored=True)),
    (Kind.SCORE_RUN, ScoreRun(("P", "Q"), (2, 10000), ("n1", "n2"), (pack([1, 300]), 100),
                              (pack([10, 100]), 100), (0,), extender_scores=(("n1", 5),),
                              selected="n2")),
    (Kind.SCORE_RUN, ScoreRun((), (), ("n1", "n2"), (), fixed_totals=pack([1, 1]), selected="n1")),
    (Kind.SCORE_RUN, ScoreRun(("P",), (1,), ("n1", "n2"), (pack([4]),),
                              score_failure=ScoreFailure(1, 0, 0, "Error", ("boom",)), error="score failed")),
    (Kind.SCHEDULE_RESULT, ScheduleResult("n2", 3, 2, False)),
    (Kind.PREEMPTION, Preemption(False, "PreemptionPolicyNever")),
    (Kind.PREEMPTION, Preemption(
        True, "", (), ("n1", "n2"), ("n3",),
        (PreemptionNode("n1", True, ("default/v",), 1, ("default/v",),
                        (("PreFilterExtensionRemovePod", "default/v"), PASSED, ("PreFilterExtensionAddPod", "default/v"),
                         NOMINATED, ("PreFilterExtensionRemovePod", "default/v"))),
         PreemptionNode("n2", False, steps=(("PreFilterExtensionRemovePod", "default/w"),),
                        extension_failure=ExtensionFailure("PreFilterExtensionRemovePod", "default/w", "P", "Error"))),
        "MinPDBViolations", (("MinPDBViolations", ("n1",)),), True, "n1", ("default/v",), (), "",
        ("NodeResourcesFit",), ("P",))),
    (Kind.PERMIT_WAIT, PermitWait(("Gate",))),
    (Kind.BINDING_CYCLE_END, Outcome("failed", "Binding rejected: x")),
    (Kind.BIND, BindResult("framework", None)),
    (Kind.SCHEDULING_FAILURE, SchedulingFailure("Unschedulable", "0/1 nodes are available", "0/1 nodes")),
    (Kind.VICTIM, Victim("default/hi")),
    (Kind.API_EVENT, EventData("Warning", "FailedScheduling", "0/3 nodes", "Pod default/b", "default-scheduler",
                               "", "", 3, 0.0, 61.25)),
    (Kind.LEADER_ELECTION, LeaderElection("a", "acquired", "a", "kube-system/kube-scheduler", "ok")),
    (Kind.LOG, LogLine(3, "I", "Attempting to schedule pod: default/a — é")),
    (Kind.ASSUME, None),
]


def make_trace() -> Trace:
    return Trace(Record(i, 0.5 * i + 0.000001, kind, i // 4 or None, "default/a" if i % 2 else None,
                        "default-scheduler", "n1" if i % 3 else None, "P" if i % 5 == 0 else None,
                        "pkg/scheduler/scheduler.go", "Scheduler.scheduleOne", data)
                 for i, (kind, data) in enumerate(PAYLOADS))


def test_round_trip_every_payload():
    trace = make_trace()
    again = loads(dumps(trace))
    assert again == trace
    assert [type(r.data) for r in again] == [type(r.data) for r in trace]


@pytest.mark.parametrize("index", range(len(PAYLOADS)))
def test_record_dict_round_trip(index):
    record = make_trace()[index]
    assert record_from_dict(json.loads(json.dumps(record_to_dict(record)))) == record


def test_exact_line():
    record = Record(3, 5.0, Kind.QUEUE_MOVE, None, "default/a", None, None, None,
                    "pkg/scheduler/internal/queue/scheduling_queue.go", "PriorityQueue.Add",
                    QueueMove("", "activeQ", "PodAdd"))
    assert dumps([record]) == (
        '{"cycle":null,"data":{"@type":"QueueMove","event":"PodAdd","source":"","target":"activeQ"},'
        '"file":"pkg/scheduler/internal/queue/scheduling_queue.go","func":"PriorityQueue.Add",'
        '"kind":"QUEUE_MOVE","node":null,"plugin":null,"pod":"default/a","profile":null,"seq":3,"time":5.0}\n')


@pytest.mark.parametrize("value, expected", [
    (1.0000004, 1.0), (1.0000006, 1.000001), (0.1 + 0.2, 0.3), (5, 5), (True, True), ((1, (2.5, "x")), [1, [2.5, "x"]]),
])
def test_to_jsonable(value, expected):
    assert to_jsonable(value) == expected
    assert type(to_jsonable(value)) is type(expected)


def test_to_jsonable_rejects_engine_objects():
    with pytest.raises(TypeError):
        to_jsonable({"a": 1})


def test_digest_is_sha256_of_dumps():
    import hashlib
    trace = make_trace()
    assert digest(trace) == hashlib.sha256(dumps(trace).encode("utf-8")).hexdigest()


def test_digest_stable_for_equal_records():
    assert digest(make_trace()) == digest(make_trace())
    assert digest(make_trace()) == digest(loads(dumps(make_trace())))


def test_digest_ignores_sub_microsecond_noise():
    a = Trace([Record(0, 1.0, Kind.ASSUME)])
    b = Trace([Record(0, 1.0000000001, Kind.ASSUME)])
    assert digest(a) == digest(b)


ENVELOPE_CHANGES = [("seq", None), ("time", 99.0), ("kind", Kind.FORGET), ("cycle", 42), ("pod", "x/y"),
                    ("profile", "other"), ("node", "n9"), ("plugin", "Q"), ("file", "f.go"), ("func", "F")]


@pytest.mark.parametrize("field, value", ENVELOPE_CHANGES)
def test_digest_changes_with_any_envelope_field(field, value):
    trace = make_trace()
    records = list(trace)
    last = records[-1]
    changed = dataclasses.replace(last, **{field: value}) if field != "seq" else None
    if changed is None:  # a reordered trace
        records[0], records[1] = dataclasses.replace(records[1], seq=0), dataclasses.replace(records[0], seq=1)
    else:
        records[-1] = changed
    assert digest(records) != digest(trace)


def bumped(old):
    if isinstance(old, bool):
        return not old
    if isinstance(old, (int, float)):
        return old + 1
    if isinstance(old, str):
        return old + "!"
    return old + (old[0],) if old else ("z",)


@pytest.mark.parametrize("index", range(len(PAYLOADS) - 1))
def test_digest_changes_with_first_payload_field(index):
    trace = make_trace()
    records = list(trace)
    data = records[index].data
    first = dataclasses.fields(data)[0]
    old = getattr(data, first.name)
    new = bumped(old)
    records[index] = dataclasses.replace(records[index], data=dataclasses.replace(data, **{first.name: new}))
    assert digest(records) != digest(trace)


def test_a_deflated_score_column_is_written_as_its_ints_and_loads_back_deflated():
    from kubesched.trace.decisions import DEFLATE_FROM, Deflated, ScoreRun, pack
    values = [7, 9, 9, 7] * DEFLATE_FROM
    run = ScoreRun(("P",), (1,), tuple(f"n{i}" for i in range(len(values))), (pack(values),))
    record = Record(0, 0.0, Kind.SCORE_RUN, 1, "ns/p", "s", None, None, "f", "g", run)
    assert record_to_dict(record)["data"]["raw"] == [values]
    back = loads(dumps([record]))[0]
    assert back == record and type(back.data.raw[0]) is Deflated
