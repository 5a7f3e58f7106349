"""Events: kubectl-style aggregation (count, first/last), similar-event combining, spam filter."""

from __future__ import annotations

import pytest

from cluster_fakes import FakeLoop, node, pod
from kubesched.cluster import APIServer
from kubesched.cluster.events import AGGREGATE_MAX_EVENTS, SPAM_BURST


def _api():
    loop = FakeLoop()
    return loop, APIServer(loop)


def _at(loop, api, t, obj, reason="FailedScheduling", message="0/3 nodes are available", **kw):
    loop.run(until=t)
    return api.record_event(obj, kw.pop("type", "Warning"), reason, message, **kw)


def _rows(events):
    return [(e.reason, e.message, e.count, e.first_timestamp, e.last_timestamp) for e in events]


# times of identical events -> (count, first, last) of the single resulting Event
IDENTICAL = [
    ([0.0], (1, 0.0, 0.0)),
    ([0.0, 5.0], (2, 0.0, 5.0)),
    ([1.0, 2.0, 30.0, 4000.0], (4, 1.0, 4000.0)),
]


@pytest.mark.parametrize("times,expected", IDENTICAL)
def test_identical_events_are_counted(times, expected):
    loop, api = _api()
    p = api.create(pod("web-1"))
    for t in times:
        _at(loop, api, t, p)
    events = api.events_for(p)
    assert [(e.count, e.first_timestamp, e.last_timestamp) for e in events] == [expected]
    assert events[0].metadata.name == {0.0: "web-1.0000000000000000", 1.0: "web-1.000000003b9aca00"}[times[0]]
    assert events[0].metadata.namespace == "default"
    assert (events[0].source.component, events[0].involved_object.uid) == ("default-scheduler", p.metadata.uid)


def test_different_reason_type_or_source_make_separate_events_listed_by_last_seen():
    loop, api = _api()
    p = api.create(pod("web-1"))
    _at(loop, api, 1.0, p)
    _at(loop, api, 2.0, p, reason="Scheduled", message="Successfully assigned default/web-1 to n1",
        type="Normal")
    _at(loop, api, 3.0, p, component="kubelet", host="n1")
    _at(loop, api, 4.0, p)
    assert _rows(api.events_for(p)) == [
        ("Scheduled", "Successfully assigned default/web-1 to n1", 1, 2.0, 2.0),
        ("FailedScheduling", "0/3 nodes are available", 1, 3.0, 3.0),
        ("FailedScheduling", "0/3 nodes are available", 2, 1.0, 4.0),
    ]


def test_events_at_one_instant_get_distinct_names():
    loop, api = _api()
    p = api.create(pod("web-1"))
    a = _at(loop, api, 2.0, p, reason="A")
    b = _at(loop, api, 2.0, p, reason="B")
    assert (a.metadata.name, b.metadata.name) == ("web-1.0000000077359400", "web-1.0000000077359401")


def test_cluster_scoped_objects_have_events_in_default():
    loop, api = _api()
    n = api.create(node("n1"))
    e = _at(loop, api, 0.0, n, reason="NodeNotReady", message="Node n1 status is now: NodeNotReady",
            component="node-controller")
    assert (e.metadata.namespace, e.involved_object.kind, e.involved_object.namespace) == ("default", "Node", "")
    assert api.events_for(n) == [e]


def test_similar_events_are_combined_after_ten_distinct_messages():
    loop, api = _api()
    p = api.create(pod("web-1"))
    for i in range(AGGREGATE_MAX_EVENTS + 1):
        _at(loop, api, float(i), p, message=f"0/{i} nodes are available")
    rows = _rows(api.events_for(p))
    assert rows[:9] == [("FailedScheduling", f"0/{i} nodes are available", 1, float(i), float(i))
                        for i in range(9)]
    combined = "(combined from similar events): "
    # the 10th distinct message creates the combined event; the 11th patches it (count 2)
    assert rows[9:] == [("FailedScheduling", combined + "0/10 nodes are available", 2, 9.0, 10.0)]


def test_similar_events_window_resets_after_600s():
    loop, api = _api()
    p = api.create(pod("web-1"))
    for i in range(AGGREGATE_MAX_EVENTS - 1):
        _at(loop, api, float(i), p, message=f"m{i}")
    _at(loop, api, 609.0, p, message="late")  # 601 s after the last similar one: a fresh record
    assert [e.message for e in api.events_for(p)][-1] == "late"


def test_spam_filter_allows_a_burst_then_one_per_five_minutes():
    loop, api = _api()
    p = api.create(pod("web-1"))
    kept = [_at(loop, api, 0.0, p) is not None for _ in range(SPAM_BURST + 2)]
    assert kept == [True] * SPAM_BURST + [False, False]
    assert _at(loop, api, 299.0, p) is None
    # the counter also saw the 3 dropped occurrences (the logger observes before the filter)
    assert _at(loop, api, 300.0, p).count == SPAM_BURST + 4
    assert api.events_for(p)[0].count == SPAM_BURST + 4


def test_events_for_ignores_other_objects_and_recreated_uids():
    loop, api = _api()
    a = api.create(pod("web-1"))
    b = api.create(pod("web-2"))
    _at(loop, api, 1.0, a)
    _at(loop, api, 1.0, b)
    api.delete("Pod", "default", "web-1")
    a2 = api.create(pod("web-1"))
    assert [e.involved_object.name for e in api.events_for(b)] == ["web-2"]
    assert api.events_for(a2) == []
    assert len(api.events_for(a)) == 1
