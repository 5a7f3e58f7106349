"""The InterPodAffinity memos (parsed selectors, existing pods' processed terms) answer what
processing the objects again answers."""

from __future__ import annotations

import pytest

from kubesched.api.core import PodAffinityTerm, WeightedPodAffinityTerm
from kubesched.api.labels import NOTHING, SelectorError, label_selector_as_selector
from kubesched.api.meta import LabelSelector, LabelSelectorRequirement
from kubesched.scheduler.framework.plugins.interpodaffinity import filtering
from kubesched.scheduler.framework.plugins.interpodaffinity.filtering import (
    existing_pod_affinity_terms, get_affinity_terms, selector_of)
from kubesched.scheduler.framework.plugins.interpodaffinity.scoring import (
    existing_pod_terms, get_weighted_affinity_terms, new_weighted_affinity_term)
from tests.plugins_b.builders import pod

SELECTORS = [
    ("empty selects everything", LabelSelector()),
    ("match labels", LabelSelector(match_labels={"app": "web", "tier": "front"})),
    ("expressions", LabelSelector(match_expressions=(
        LabelSelectorRequirement("app", "In", ("web", "db")), LabelSelectorRequirement("x", "DoesNotExist")))),
]


@pytest.mark.parametrize("name,selector", SELECTORS, ids=[s[0] for s in SELECTORS])
def test_selector_of_equals_a_fresh_parse(name: str, selector: LabelSelector) -> None:
    first = selector_of(selector)
    assert first == label_selector_as_selector(selector)
    assert selector_of(selector) is first  # remembered
    twin = LabelSelector(selector.match_labels, selector.match_expressions)
    assert selector_of(twin) == first  # an equal object parses to an equal selector


def test_selector_of_none_selects_nothing() -> None:
    assert selector_of(None) is NOTHING


def test_selector_of_invalid_raises_every_time() -> None:
    bad = LabelSelector(match_expressions=(LabelSelectorRequirement("app", "Gt", ("1",)),))
    for _ in range(2):
        with pytest.raises(SelectorError):
            selector_of(bad)


def test_selector_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filtering, "_SELECTOR_MEMO_LIMIT", 3)
    monkeypatch.setattr(filtering, "_selector_memo", {})
    selectors = [LabelSelector(match_labels={"n": str(i)}) for i in range(7)]
    assert [selector_of(s) for s in selectors] == [label_selector_as_selector(s) for s in selectors]
    assert len(filtering._selector_memo) <= 3


def _weighted(weight: int, selector: LabelSelector, namespaces: tuple[str, ...] = ()) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight=weight, pod_affinity_term=PodAffinityTerm(
        label_selector=selector, namespaces=namespaces, topology_key="zone"))


WEB = LabelSelector(match_labels={"app": "web"})
PREFERRED = (_weighted(5, WEB), _weighted(2, LabelSelector(), ("other",)))


@pytest.mark.parametrize("namespace", ["a", "b"])
def test_existing_pod_terms_equal_a_fresh_processing(namespace: str) -> None:
    p = pod("e", namespace=namespace)
    first = existing_pod_terms(p, PREFERRED)
    assert list(first) == get_weighted_affinity_terms(p, PREFERRED)
    assert existing_pod_terms(p, PREFERRED) is first  # remembered per namespace
    required = tuple(t.pod_affinity_term for t in PREFERRED)
    assert list(existing_pod_terms(p, required, 7)) == [new_weighted_affinity_term(p, t, 7) for t in required]
    assert [t.weight for t in existing_pod_terms(p, required, 3)] == [3, 3]


def test_existing_pod_terms_lists_and_errors_are_not_remembered() -> None:
    p = pod("e", namespace="a")
    as_list = list(PREFERRED)
    assert list(existing_pod_terms(p, as_list)) == get_weighted_affinity_terms(p, PREFERRED)
    as_list.pop()
    assert list(existing_pod_terms(p, as_list)) == get_weighted_affinity_terms(p, PREFERRED[:1])
    bad = (_weighted(1, LabelSelector(match_expressions=(LabelSelectorRequirement("app", "Gt", ("1",)),))),)
    for _ in range(2):
        with pytest.raises(SelectorError):
            existing_pod_terms(p, bad)
    assert existing_pod_terms(p, ()) == ()


REQUIRED = (PodAffinityTerm(label_selector=WEB, topology_key="zone"),
            PodAffinityTerm(label_selector=LabelSelector(), namespaces=("x", "y"), topology_key="host"))


@pytest.mark.parametrize("namespace", ["a", "b"])
def test_existing_pod_affinity_terms_equal_a_fresh_processing(namespace: str) -> None:
    p = pod("e", namespace=namespace)
    first = existing_pod_affinity_terms(p, REQUIRED)
    assert list(first) == get_affinity_terms(p, REQUIRED)
    assert existing_pod_affinity_terms(p, REQUIRED) is first
    as_list = list(REQUIRED[:1])
    assert list(existing_pod_affinity_terms(p, as_list)) == get_affinity_terms(p, REQUIRED[:1])
    bad = (PodAffinityTerm(label_selector=LabelSelector(match_labels={"a": "b c"}), topology_key="zone"),)
    for _ in range(2):
        with pytest.raises(SelectorError):
            existing_pod_affinity_terms(p, bad)
