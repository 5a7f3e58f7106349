"""NodeAffinity's per-pod selectors give exactly the per-node rebuild's verdicts and errors.

The oracle is upstream's shape: helper.PodMatchesNodeSelectorAndAffinityTerms for Filter,
and Score's loop building each weighted preferred term's selector for the node at hand.
"""

from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import given, settings, strategies as st

from kubesched.api import v1helper
from kubesched.api.labels import SelectorError
from kubesched.conformance._harness import as_object
from kubesched.scheduler.framework.plugins.helper.node_affinity import pod_matches_node_selector_and_affinity_terms
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.plugins.nodeaffinity.pod_selectors import LastPodSelectors, PodSelectors
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from tests.scheduler.framework.plugins.plugin_builders import Handle


def _oracle_preferred(pod, node) -> tuple[int, Optional[str]]:
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None:
        return 0, None
    count = 0
    for term in affinity.node_affinity.preferred_during_scheduling_ignored_during_execution:
        if term.weight == 0:
            continue
        try:
            selector = v1helper.node_selector_requirements_as_selector(term.preference.match_expressions)
        except SelectorError as err:
            return 0, str(err)
        if selector.matches(node.metadata.labels):
            count += term.weight
    return count, None


# mostly valid requirements (each kind of invalid one still comes up)
_KEYS = st.sampled_from(["disk", "disk", "zone", "gpu", "bad key!"])
_EXPR = st.one_of(
    st.fixed_dictionaries({"key": _KEYS, "operator": st.sampled_from(["In", "In", "In", "NotIn", "Bogus"]),
                           "values": st.lists(st.sampled_from(["ssd", "ssd", "hdd", "1", "x y"]),
                                              min_size=1, max_size=2)}),
    st.fixed_dictionaries({"key": _KEYS, "operator": st.sampled_from(["Exists", "DoesNotExist"]),
                           "values": st.sampled_from([[], [], ["ssd"]])}),
    st.fixed_dictionaries({"key": _KEYS, "operator": st.sampled_from(["Gt", "Lt"]),
                           "values": st.sampled_from([["3"], ["3"], ["x"], ["1", "5"]])}))
_FIELD = st.fixed_dictionaries({"key": st.just("metadata.name"),
                                "operator": st.sampled_from(["In", "In", "NotIn", "Exists"]),
                                "values": st.sampled_from([["n1"], ["n1"], ["n2"], [], ["n1", "n2"]])})
_TERM = st.fixed_dictionaries({"matchExpressions": st.lists(_EXPR, max_size=2),
                               "matchFields": st.lists(_FIELD, max_size=1)})
_PREFERRED = st.lists(st.fixed_dictionaries({"weight": st.sampled_from([0, 1, 7]), "preference": _TERM}), max_size=3)
_REQUIRED_TERMS = st.builds(lambda terms: {"nodeSelectorTerms": terms}, st.lists(_TERM, max_size=2))
_REQUIRED = st.one_of(st.none(), _REQUIRED_TERMS, _REQUIRED_TERMS, _REQUIRED_TERMS)
_NODE_SELECTOR = st.sampled_from([{}, {"disk": "ssd"}, {"bad key!": "x"}, {"zone": "a", "disk": "hdd"}])
_LABELS = st.dictionaries(st.sampled_from(["disk", "zone", "gpu"]), st.sampled_from(["ssd", "hdd", "a", "1", "5"]))


@st.composite
def pods(draw):
    spec: dict = {"containers": [], "nodeSelector": draw(_NODE_SELECTOR)}
    node_affinity_doc = {}
    required = draw(_REQUIRED)
    if required is not None:
        node_affinity_doc["requiredDuringSchedulingIgnoredDuringExecution"] = required
    preferred = draw(_PREFERRED)
    if preferred:
        node_affinity_doc["preferredDuringSchedulingIgnoredDuringExecution"] = preferred
    if draw(st.sampled_from([True, True, True, False])):
        spec["affinity"] = {"nodeAffinity": node_affinity_doc}
    return as_object({"metadata": {"name": "p"}, "spec": spec}, "Pod")


def _node(name: str, labels: dict):
    return as_object({"metadata": {"name": name, "labels": labels}}, "Node")


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(pod=pods(), nodes=st.lists(st.tuples(st.sampled_from(["n1", "n2", "n3"]), _LABELS), min_size=1, max_size=3))
def test_matches_the_per_node_rebuild(pod, nodes):
    selectors = PodSelectors(pod)
    for name, labels in nodes:
        node = _node(name, labels)
        assert selectors.matches(node) is pod_matches_node_selector_and_affinity_terms(pod, node)
        want_score, want_error = _oracle_preferred(pod, node)
        if want_error is None:
            assert selectors.preferred_score(node) == want_score
        else:
            with pytest.raises(SelectorError) as info:
                selectors.preferred_score(node)
            assert str(info.value) == want_error


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(pod=pods(), labels=_LABELS)
def test_plugin_filter_and_score_match_upstream_shape(pod, labels):
    node = _node("n1", labels)
    plugin = node_affinity.new(None, Handle(Snapshot.new([], [node])))
    info = plugin.node_infos.get("n1")
    want_filter = None if pod_matches_node_selector_and_affinity_terms(pod, node) else \
        Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (node_affinity.ERR_REASON,))
    assert plugin.filter(CycleState(), pod, info) == want_filter
    want_score, want_error = _oracle_preferred(pod, node)
    want = (want_score, None) if want_error is None else (0, Status(Code.ERROR, (want_error,)))
    assert plugin.score(CycleState(), pod, "n1") == want


def test_last_pod_is_remembered_and_replaced():
    a = as_object({"metadata": {"name": "a"}, "spec": {"containers": [], "nodeSelector": {"disk": "ssd"}}}, "Pod")
    b = as_object({"metadata": {"name": "b"}, "spec": {"containers": []}}, "Pod")
    ssd, plain = _node("n1", {"disk": "ssd"}), _node("n2", {})
    last = LastPodSelectors()
    first = last.of(a)
    assert last.of(a) is first
    assert (first.matches(ssd), first.matches(plain)) == (True, False)
    other = last.of(b)
    assert other is not first and (other.matches(ssd), other.matches(plain)) == (True, True)
    assert last.of(a) is not first  # only the last pod is kept
    assert LastPodSelectors().of(a) is not last.of(a)  # each plugin instance keeps its own
