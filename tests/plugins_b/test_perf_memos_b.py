"""The InterPodAffinity selector memo answers what parsing the LabelSelector again answers."""

from __future__ import annotations

import pytest

from kubesched.api.labels import NOTHING, SelectorError, label_selector_as_selector
from kubesched.api.meta import LabelSelector, LabelSelectorRequirement
from kubesched.scheduler.framework.plugins.interpodaffinity import filtering
from kubesched.scheduler.framework.plugins.interpodaffinity.filtering import selector_of

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
