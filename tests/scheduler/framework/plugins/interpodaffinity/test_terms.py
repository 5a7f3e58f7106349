"""The InterPodAffinity memos (parsed selectors, existing pods' processed terms) answer what
processing the objects again answers."""

from __future__ import annotations

import pytest

from kubesched.api.core import PodAffinityTerm, WeightedPodAffinityTerm
from kubesched.api.labels import NOTHING, SelectorError, label_selector_as_selector
from kubesched.api.meta import LabelSelector, LabelSelectorRequirement
from kubesched.scheduler.framework.plugins.interpodaffinity.terms import TermMemo
from tests.scheduler.framework.plugins.placement_builders import pod

SELECTORS = [
    ("empty selects everything", LabelSelector()),
    ("match labels", LabelSelector(match_labels={"app": "web", "tier": "front"})),
    ("expressions", LabelSelector(match_expressions=(
        LabelSelectorRequirement("app", "In", ("web", "db")), LabelSelectorRequirement("x", "DoesNotExist")))),
]


@pytest.mark.parametrize("name,selector", SELECTORS, ids=[s[0] for s in SELECTORS])
def test_selector_equals_a_fresh_parse(name: str, selector: LabelSelector) -> None:
    memo = TermMemo()
    first = memo.selector(selector)
    assert first == label_selector_as_selector(selector)
    assert memo.selector(selector) is first  # remembered
    twin = LabelSelector(selector.match_labels, selector.match_expressions)
    assert memo.selector(twin) == first  # an equal object parses to an equal selector


def test_selector_of_none_selects_nothing() -> None:
    assert TermMemo().selector(None) is NOTHING


def test_invalid_selector_raises_every_time() -> None:
    memo = TermMemo()
    bad = LabelSelector(match_expressions=(LabelSelectorRequirement("app", "Gt", ("1",)),))
    for _ in range(2):
        with pytest.raises(SelectorError):
            memo.selector(bad)


def test_selector_memo_is_bounded() -> None:
    memo = TermMemo(limit=3)
    selectors = [LabelSelector(match_labels={"n": str(i)}) for i in range(7)]
    assert [memo.selector(s) for s in selectors] == [label_selector_as_selector(s) for s in selectors]
    assert len(memo.selectors.entries) <= 3


def _weighted(weight: int, selector: LabelSelector, namespaces: tuple[str, ...] = ()) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight=weight, pod_affinity_term=PodAffinityTerm(
        label_selector=selector, namespaces=namespaces, topology_key="zone"))


WEB = LabelSelector(match_labels={"app": "web"})
PREFERRED = (_weighted(5, WEB), _weighted(2, LabelSelector(), ("other",)))


@pytest.mark.parametrize("namespace", ["a", "b"])
def test_existing_weighted_terms_equal_a_fresh_processing(namespace: str) -> None:
    p, memo = pod("e", namespace=namespace), TermMemo()
    first = memo.existing_weighted_terms(p, PREFERRED)
    assert list(first) == TermMemo().weighted_terms(p, PREFERRED)
    assert memo.existing_weighted_terms(p, PREFERRED) is first  # remembered per namespace
    required = tuple(t.pod_affinity_term for t in PREFERRED)
    assert list(memo.existing_weighted_terms(p, required, 7)) == [memo.weighted_term(p, t, 7) for t in required]
    assert [t.weight for t in memo.existing_weighted_terms(p, required, 3)] == [3, 3]


def test_existing_weighted_terms_lists_and_errors_are_not_remembered() -> None:
    p, memo = pod("e", namespace="a"), TermMemo()
    as_list = list(PREFERRED)
    assert list(memo.existing_weighted_terms(p, as_list)) == memo.weighted_terms(p, PREFERRED)
    as_list.pop()
    assert list(memo.existing_weighted_terms(p, as_list)) == memo.weighted_terms(p, PREFERRED[:1])
    bad = (_weighted(1, LabelSelector(match_expressions=(LabelSelectorRequirement("app", "Gt", ("1",)),))),)
    for _ in range(2):
        with pytest.raises(SelectorError):
            memo.existing_weighted_terms(p, bad)
    assert memo.existing_weighted_terms(p, ()) == ()


REQUIRED = (PodAffinityTerm(label_selector=WEB, topology_key="zone"),
            PodAffinityTerm(label_selector=LabelSelector(), namespaces=("x", "y"), topology_key="host"))


@pytest.mark.parametrize("namespace", ["a", "b"])
def test_existing_affinity_terms_equal_a_fresh_processing(namespace: str) -> None:
    p, memo = pod("e", namespace=namespace), TermMemo()
    first = memo.existing_affinity_terms(p, REQUIRED)
    assert list(first) == TermMemo().affinity_terms(p, REQUIRED)
    assert memo.existing_affinity_terms(p, REQUIRED) is first
    as_list = list(REQUIRED[:1])
    assert list(memo.existing_affinity_terms(p, as_list)) == memo.affinity_terms(p, REQUIRED[:1])
    bad = (PodAffinityTerm(label_selector=LabelSelector(match_labels={"a": "b c"}), topology_key="zone"),)
    for _ in range(2):
        with pytest.raises(SelectorError):
            memo.existing_affinity_terms(p, bad)
