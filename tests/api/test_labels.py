"""Label selector semantics (apimachinery labels.Selector, metav1.LabelSelectorAsSelector)."""

import pytest

from kubesched.api.labels import (EVERYTHING, NOTHING, Requirement, SelectorError,
                                  label_selector_as_selector, selector_from_set)
from kubesched.api.meta import LabelSelector, LabelSelectorRequirement as Req

LABELS = {"app": "web", "tier": "front", "gen": "3"}


@pytest.mark.parametrize("req, want", [
    (Requirement.new("app", "In", ["web", "db"]), True),
    (Requirement.new("app", "In", ["db"]), False),
    (Requirement.new("missing", "In", ["x"]), False),
    (Requirement.new("app", "NotIn", ["db"]), True),
    (Requirement.new("app", "NotIn", ["web"]), False),
    (Requirement.new("missing", "NotIn", ["x"]), True),
    (Requirement.new("tier", "Exists"), True),
    (Requirement.new("missing", "Exists"), False),
    (Requirement.new("missing", "DoesNotExist"), True),
    (Requirement.new("tier", "DoesNotExist"), False),
    (Requirement.new("gen", "Gt", ["2"]), True),
    (Requirement.new("gen", "Gt", ["3"]), False),
    (Requirement.new("gen", "Lt", ["4"]), True),
    (Requirement.new("app", "Gt", ["1"]), False),  # non-integer label value never matches
    (Requirement.new("missing", "Lt", ["9"]), False),
])
def test_requirement_matches(req, want):
    assert req.matches(LABELS) is want


@pytest.mark.parametrize("key, op, values, message", [
    ("a", "In", [], "values set can't be empty"),
    ("a", "Exists", ["x"], "values set must be empty"),
    ("a", "Gt", ["x"], "the value must be an integer"),
    ("a", "Gt", ["1", "2"], "exactly one value is required"),
    ("a", "Foo", ["1"], 'Unsupported value: "Foo"'),
    ("", "Exists", [], "name part must be non-empty"),
])
def test_requirement_validation(key, op, values, message):
    with pytest.raises(SelectorError, match=message):
        Requirement.new(key, op, values)


@pytest.mark.parametrize("selector, labels, want", [
    (None, {}, False),                                   # nil selector selects nothing
    (LabelSelector(), {}, True),                         # empty selector selects everything
    (LabelSelector({"app": "web"}), LABELS, True),
    (LabelSelector({"app": "db"}), LABELS, False),
    (LabelSelector({"app": "web"}, (Req("tier", "In", ("back",)),)), LABELS, False),
    (LabelSelector({}, (Req("tier", "NotIn", ("back",)),)), LABELS, True),
])
def test_label_selector_as_selector(selector, labels, want):
    assert label_selector_as_selector(selector).matches(labels) is want


def test_label_selector_rejects_node_only_operators():
    with pytest.raises(SelectorError):
        label_selector_as_selector(LabelSelector({}, (Req("gen", "Gt", ("1",)),)))


@pytest.mark.parametrize("given, labels, want", [
    ({}, {"a": "b"}, True),
    (None, {}, True),
    ({"a": "b"}, {"a": "b", "c": "d"}, True),
    ({"a": "b", "c": "x"}, {"a": "b", "c": "d"}, False),
])
def test_selector_from_set(given, labels, want):
    assert selector_from_set(given).matches(labels) is want


def test_everything_and_nothing():
    assert EVERYTHING.matches({}) and EVERYTHING.empty()
    assert not NOTHING.matches({}) and not NOTHING.empty()


def test_selector_string_form():
    sel = label_selector_as_selector(LabelSelector({"app": "web"}, (Req("tier", "In", ("b", "a")),)))
    assert str(sel) == "app=web,tier in (a,b)"
