"""NodeAffinity and the node-selector helpers: operators, matchFields, nodeSelector quirks.

Upstream: nodeaffinity/node_affinity.go, helper/node_affinity.go and
pkg/apis/core/v1/helper/helpers.go (MatchNodeSelectorTerms, NodeSelectorRequirementsAs*)
with apimachinery labels v0.18 (NewRequirement, Requirement.Matches).
"""

from __future__ import annotations

import pytest

from kubesched.api import v1helper
from kubesched.api.core import NodeSelectorRequirement as Req
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.helper.node_affinity import (
    pod_matches_node_selector_and_affinity_terms)
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, NodeScore

from tests.scheduler.framework.plugins.plugin_builders import handle, node, node_info, pod

LABELS = {"zone": "a", "cores": "8", "padded": "0206", "text": "x1"}


def _required(*terms: dict) -> dict:
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": list(terms)}}}}


def _expr(key: str, op: str, *values: str) -> dict:
    out = {"key": key, "operator": op}
    if values:
        out["values"] = list(values)
    return out


OPERATOR_CASES = [
    ("In matches", _expr("zone", "In", "b", "a"), True),
    ("In misses", _expr("zone", "In", "b"), False),
    ("NotIn on absent key", _expr("missing", "NotIn", "a"), True),
    ("NotIn on listed value", _expr("zone", "NotIn", "a"), False),
    ("Exists", _expr("zone", "Exists"), True),
    ("Exists on absent key", _expr("missing", "Exists"), False),
    ("DoesNotExist", _expr("missing", "DoesNotExist"), True),
    ("DoesNotExist on present key", _expr("zone", "DoesNotExist"), False),
    ("Gt strictly greater", _expr("cores", "Gt", "7"), True),
    ("Gt equal is false", _expr("cores", "Gt", "8"), False),
    ("Lt strictly less", _expr("cores", "Lt", "9"), True),
    ("Lt with leading zeros on node", _expr("padded", "Lt", "207"), True),
    ("Gt on non-integer node value", _expr("text", "Gt", "0"), False),
    ("Gt on absent key", _expr("missing", "Gt", "0"), False),
    ("Gt needs an integer value", _expr("cores", "Gt", "seven"), False),
    ("Gt needs exactly one value", _expr("cores", "Gt", "1", "2"), False),
    ("Exists with values is invalid", _expr("zone", "Exists", "a"), False),
    ("In without values is invalid", _expr("zone", "In"), False),
    ("unknown operator", _expr("zone", "Equals", "a"), False),
    ("invalid key", _expr("bad key", "Exists"), False),
    ("invalid value", _expr("zone", "In", "not valid!"), False),
]


@pytest.mark.parametrize("name,expr,want", OPERATOR_CASES, ids=[c[0] for c in OPERATOR_CASES])
def test_match_expression_operators(name, expr, want) -> None:
    p = pod(_required({"matchExpressions": [expr]}))
    assert pod_matches_node_selector_and_affinity_terms(p, node("n1", LABELS)) is want


FIELD_CASES = [
    ("In on metadata.name", [_expr("metadata.name", "In", "n1")], True),
    ("In on other name", [_expr("metadata.name", "In", "n2")], False),
    ("NotIn on other name", [_expr("metadata.name", "NotIn", "n2")], True),
    ("NotIn on own name", [_expr("metadata.name", "NotIn", "n1")], False),
    ("In with two values is invalid", [_expr("metadata.name", "In", "n1", "n2")], False),
    ("Exists is not a field operator", [_expr("metadata.name", "Exists")], False),
    ("unknown field reads empty", [_expr("metadata.uid", "In", "")], True),
    ("ANDed requirements", [_expr("metadata.name", "In", "n1"), _expr("metadata.name", "NotIn", "n1")], False),
]


@pytest.mark.parametrize("name,fields,want", FIELD_CASES, ids=[c[0] for c in FIELD_CASES])
def test_match_fields(name, fields, want) -> None:
    p = pod(_required({"matchFields": fields}))
    assert pod_matches_node_selector_and_affinity_terms(p, node("n1", LABELS)) is want


TERM_CASES = [
    ("terms are ORed", _required({"matchExpressions": [_expr("zone", "In", "b")]},
                                 {"matchExpressions": [_expr("zone", "In", "a")]}), True),
    ("expressions and fields are ANDed in one term",
     _required({"matchExpressions": [_expr("zone", "In", "a")], "matchFields": [_expr("metadata.name", "In", "x")]}),
     False),
    ("empty term matches nothing", _required({}), False),
    ("empty term list matches nothing", _required(), False),
    ("invalid term skipped, valid term matches",
     _required({"matchExpressions": [_expr("zone", "Bogus")]}, {"matchExpressions": [_expr("zone", "Exists")]}),
     True),
    ("nil required selector matches", {"affinity": {"nodeAffinity": {}}}, True),
    ("nodeSelector must also match", {"nodeSelector": {"zone": "b"}, **_required(
        {"matchExpressions": [_expr("zone", "Exists")]})}, False),
    ("nodeSelector match", {"nodeSelector": {"zone": "a", "cores": "8"}}, True),
    ("nodeSelector value mismatch", {"nodeSelector": {"zone": "b"}}, False),
    ("nodeSelector with invalid key selects everything", {"nodeSelector": {"bad key": "a", "zone": "b"}}, True),
    ("nodeSelector with invalid value selects everything", {"nodeSelector": {"zone": "b!"}}, True),
]


@pytest.mark.parametrize("name,spec,want", TERM_CASES, ids=[c[0] for c in TERM_CASES])
def test_terms_and_node_selector(name, spec, want) -> None:
    assert pod_matches_node_selector_and_affinity_terms(pod(spec), node("n1", LABELS)) is want


@pytest.mark.parametrize("reqs,error", [
    ([Req("zone", "Equals", ("a",))], '"Equals" is not a valid node selector operator'),
    ([Req("zone", "In", ())], "for 'in', 'notin' operators, values set can't be empty"),
    ([Req("zone", "Exists", ("a",))], "values set must be empty for exists and does not exist"),
    ([Req("n", "Gt", ("1", "2"))], "for 'Gt', 'Lt' operators, exactly one value is required"),
    ([Req("n", "Lt", ("1_0",))], "for 'Gt', 'Lt' operators, the value must be an integer"),
    ([Req("zone", "In", ("a b",))], 'invalid label value: "a b": at key: "zone": a valid label must be an '
     "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
     "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
     "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
])
def test_node_selector_requirement_errors(reqs, error) -> None:
    with pytest.raises(SelectorError) as exc:
        v1helper.node_selector_requirements_as_selector(reqs)
    assert str(exc.value) == error


def test_empty_requirement_list_selects_nothing() -> None:
    assert not v1helper.node_selector_requirements_as_selector([]).matches({})


@pytest.mark.parametrize("reqs,error", [
    ([Req("metadata.name", "Exists")], '"Exists" is not a valid node field selector operator'),
    ([Req("metadata.name", "In", ("a", "b"))], 'unexpected number of value (2) for node field selector operator "In"'),
])
def test_field_selector_errors(reqs, error) -> None:
    with pytest.raises(SelectorError) as exc:
        v1helper.node_selector_requirements_as_field_selector(reqs)
    assert str(exc.value) == error


# ---------------------------------------------------------------- plugin Filter / Score

def test_filter_reason_and_missing_node() -> None:
    plugin = node_affinity.new(None, None)
    p = pod({"nodeSelector": {"zone": "b"}})
    status = plugin.filter(CycleState(), p, node_info(node("n1", LABELS)))
    assert (status.code, status.reasons) == (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) didn't match node selector",))
    status = plugin.filter(CycleState(), p, node_info(None))
    assert (status.code, status.reasons) == (Code.ERROR, ("node not found",))


def _preferred(*terms: tuple[int, list]) -> dict:
    return {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": w, "preference": {"matchExpressions": exprs}} for w, exprs in terms]}}}


SCORE_CASES = [
    ("weights of matching terms add up", _preferred((3, [_expr("zone", "In", "a")]), (5, [_expr("cores", "Gt", "1")])),
     8, None),
    ("weight 0 skipped even if malformed", _preferred((0, [_expr("zone", "Bogus")]), (2, [_expr("zone", "Exists")])),
     2, None),
    ("empty matchExpressions match nothing", _preferred((4, [])), 0, None),
    ("malformed preference is an Error", _preferred((4, [_expr("zone", "Bogus")])), 0,
     '"Bogus" is not a valid node selector operator'),
]


@pytest.mark.parametrize("name,spec,score,error", SCORE_CASES, ids=[c[0] for c in SCORE_CASES])
def test_score(name, spec, score, error) -> None:
    plugin = node_affinity.new(None, handle([node("n1", LABELS)]))
    got, status = plugin.score(CycleState(), pod(spec), "n1")
    assert got == score
    assert (None if status is None else (status.code, status.reasons)) == (
        None if error is None else (Code.ERROR, (error,)))


def test_score_unknown_node_and_normalize() -> None:
    plugin = node_affinity.new(None, handle([node("n1", LABELS)]))
    got, status = plugin.score(CycleState(), pod(), "nope")
    assert (got, status.code, status.reasons) == (
        0, Code.ERROR, ('getting node "nope" from Snapshot: nodeinfo not found for node name "nope"',))
    scores = [NodeScore("a", 3), NodeScore("b", 6), NodeScore("c", 0)]
    assert plugin.score_extensions().normalize_score(CycleState(), pod(), scores) is None
    assert [s.score for s in scores] == [50, 100, 0]
