"""Records are frozen, slotted and plain; Trace is append-only with cycle indexing."""

from __future__ import annotations

import dataclasses

import pytest

from kubesched.trace import upstream
from kubesched.trace.records import (
    PAYLOAD_OF,
    PAYLOAD_TYPES,
    CycleInfo,
    Kind,
    Phase,
    FilterRun,
    PluginCall,
    QueueMove,
    Record,
    ScoreRun,
    Trace,
)
from kubesched.trace.decisions import DEFLATE_FROM, Deflated, PluginStatus, pack, unpack


def rec(seq: int, kind: Kind = Kind.LOG, cycle: int | None = None, pod: str | None = None,
        node: str | None = None, plugin: str | None = None) -> Record:
    return Record(seq, float(seq), kind, cycle, pod, "default-scheduler" if cycle else None, node, plugin)


@pytest.mark.parametrize("obj, field, value", [
    (rec(0), "seq", 1),
    (rec(0), "kind", Kind.BIND),
    (rec(0), "data", None),
    (QueueMove("", "activeQ", "PodAdd"), "event", "NodeAdd"),
    (PluginCall("Filter"), "code", "Error"),
    (PluginStatus("P"), "code", "Error"),
    (ScoreRun((), (), (), ()), "selected", "n1"),
    (FilterRun((), (), 0, 0, 0, 0, 0), "visited", 3),
])
def test_frozen(obj, field, value):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, field, value)


@pytest.mark.parametrize("cls", [Record, *PAYLOAD_TYPES.values()])
def test_slotted_no_dict(cls):
    assert "__slots__" in cls.__dict__
    assert "__dict__" not in dir(cls)


@pytest.mark.parametrize("cls", list(PAYLOAD_TYPES.values()))
def test_payload_fields_are_plain_types(cls):
    allowed = ("str", "int", "float", "bool", "None", "tuple", "Optional", "Column", "PluginStatus", "NodeCheck",
               "FilterPass", "ExtensionFailure", "ScoreFailure", "PreemptionNode")
    for f in dataclasses.fields(cls):
        words = f.type.replace("[", " ").replace("]", " ").replace(",", " ").replace("|", " ").replace(".", " ")
        assert all(w in allowed for w in words.split()), (cls.__name__, f.name, f.type)


@pytest.mark.parametrize("values, form", [
    ([7, 7, 7], 7), ([0, 100, 55], bytes([0, 100, 55])), ([-3, 300], (-3, 300)), ([2**40, 0], (2**40, 0)),
    ([], b""), ([300, 300], 300),
])
def test_a_column_is_packed_in_its_smallest_form_the_collector_never_walks(values, form):
    import gc
    column = pack(values)
    assert column == form and type(column) is type(form)
    assert list(unpack(column, len(values))) == values
    assert not gc.is_tracked(column) or type(column) is tuple  # a tuple of ints is untracked at the first collection


@pytest.mark.parametrize("values", [
    [0, 1] * (DEFLATE_FROM // 2), [99, 98, 99, 99, 100] * 200, list(range(256)) * 3,
])
def test_a_long_column_is_deflated_and_unpacks_to_its_values(values):
    column = pack(values)
    assert type(column) is Deflated and column == pack(list(values))
    assert list(unpack(column, len(values))) == values
    assert len(column) < len(values) or len(set(values)) == 256


@pytest.mark.parametrize("length, form", [(DEFLATE_FROM - 1, bytes), (DEFLATE_FROM, Deflated)])
def test_deflating_starts_at_deflate_from(length, form):
    assert type(pack([1, 2] * (length // 2) + [1] * (length % 2))) is form


def test_every_kind_has_payload_entry_and_location():
    assert set(PAYLOAD_OF) == set(Kind)
    assert set(upstream.KIND_LOCATION) == set(Kind)


def test_append_requires_next_seq():
    trace = Trace()
    trace.append(rec(0))
    with pytest.raises(ValueError):
        trace.append(rec(2))
    assert len(trace) == 1


def sample_trace() -> Trace:
    return Trace([
        rec(0, Kind.QUEUE_MOVE, pod="default/a"),
        rec(1, Kind.CYCLE_START, cycle=1, pod="default/a"),
        rec(2, Kind.ASSUME, cycle=1, pod="default/a", node="n1", plugin="NodeResourcesFit"),
        rec(3, Kind.ASSUME, cycle=1, pod="default/a", node="n2", plugin="NodeResourcesFit"),
        rec(4, Kind.CYCLE_START, cycle=2, pod="default/b"),
        rec(5, Kind.ASSUME, cycle=2, pod="default/b", node="n1", plugin="TaintToleration"),
        rec(6, Kind.BIND, cycle=1, pod="default/a", node="n2"),
    ])


@pytest.mark.parametrize("criteria, seqs", [
    ({}, [0, 1, 2, 3, 4, 5, 6]),
    ({"kind": Kind.ASSUME}, [2, 3, 5]),
    ({"kind": [Kind.CYCLE_START, Kind.BIND]}, [1, 4, 6]),
    ({"pod": "default/a"}, [0, 1, 2, 3, 6]),
    ({"cycle": 1}, [1, 2, 3, 6]),
    ({"cycle": 1, "kind": Kind.ASSUME, "node": "n2"}, [3]),
    ({"plugin": "TaintToleration"}, [5]),
    ({"profile": "default-scheduler"}, [1, 2, 3, 4, 5, 6]),
    ({"cycle": 9}, []),
    ({"kind": Kind.ASSUME, "start": 3}, [3, 5]),
    ({"cycle": 1, "start": 3}, [3, 6]),
    ({"start": 7}, []),
])
def test_filter(criteria, seqs):
    assert [r.seq for r in sample_trace().filter(**criteria)] == seqs


def test_cycles_and_for_cycle():
    trace = sample_trace()
    assert trace.cycles() == (1, 2)
    assert [r.seq for r in trace.for_cycle(1)] == [1, 2, 3, 6]
    assert [r.seq for r in trace.for_cycle(2)] == [4, 5]
    assert trace.for_cycle(3) == []


def test_sequence_protocol():
    trace = sample_trace()
    assert len(trace) == 7
    assert trace[-1].kind is Kind.BIND
    assert [r.seq for r in trace[2:4]] == [2, 3]
    assert isinstance(trace[2:4], tuple)
    assert [r.seq for r in trace] == list(range(7))
    assert trace == sample_trace()
    assert trace != Trace(list(trace)[:3])


def test_stored_columns_give_back_each_field_as_appended():
    odd = Record(0, 3, Kind.LOG, 0, "", "", "", "", "", "", None)  # int time, cycle 0, empty strings
    big = Record(1, 2.5, Kind.BIND, 2**40, "ns/p", "s", "n", "P", "f", "g", Phase("Bind"))
    zeros = [Record(seq, t, Kind.TIME) for seq, t in ((2, 0.0), (3, -0.0), (4, -0.0), (5, 2.5))]
    trace = Trace([odd, big, *zeros])
    assert list(trace) == [odd, big, *zeros] and trace[-6] == odd and trace[1] == big
    assert [str(r.time) for r in trace[2:]] == ["0.0", "-0.0", "-0.0", "2.5"]
    assert type(trace[0].time) is int and type(trace[1].time) is float and trace[0].cycle == 0
    assert trace.filter(pod="") == [odd] and trace.filter(pod="no/such") == []
    with pytest.raises(IndexError):
        trace[6]


def test_records_compare_by_value():
    a = Record(0, 1.0, Kind.PHASE_END, 1, "ns/p", "s", "n", None, "f", "g", Phase("Bind", "Success", ""))
    b = Record(0, 1.0, Kind.PHASE_END, 1, "ns/p", "s", "n", None, "f", "g", Phase("Bind", "Success", ""))
    assert a == b and hash(a) == hash(b)
    assert a != dataclasses.replace(a, data=CycleInfo())


def test_a_slice_from_the_start_keeps_its_records_and_grows_with_the_trace():
    trace = sample_trace()
    first = trace[:3]
    assert trace[:3] == first and all(a is b for a, b in zip(trace[:3], first))
    trace.append(rec(7, Kind.BIND, cycle=2, pod="default/b"))
    assert [r.seq for r in trace[:]] == list(range(8)) and trace[:8][-1] == rec(7, Kind.BIND, cycle=2, pod="default/b")
    assert trace[1:8:3] == (trace[1], trace[4], trace[7])


def test_the_shape_column_widens_past_16_bits():
    trace = Trace(Record(seq, 0.5, Kind.LOG, plugin=f"P{seq}") for seq in range(0x10002))
    assert trace._shape.typecode == "i"
    assert [trace[i].plugin for i in (0, 0xFFFF, 0x10000, 0x10001)] == ["P0", "P65535", "P65536", "P65537"]
