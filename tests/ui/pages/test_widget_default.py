"""A choice widget whose value the session set keeps it when the browser reports no value.

Streamlit falls back to a widget's default option when the browser sends the widget without a
value (kubesched/ui/widget_default.py). Each row opens the app the way a link does, lets the
browser report the widget empty, and asserts the session still holds what it held.
"""

from __future__ import annotations

import pytest

from tests.ui.pages.apptest import run_app

LESSONS = "kubesched/ui/pages/lessons.py"


def _widget(at, key: str):
    for kind in (at.selectbox, at.radio):
        found = [w for w in kind if w.key == key]
        if found:
            return found[0]
    raise AssertionError(f"no selectbox or radio with key {key!r}")


@pytest.mark.parametrize("query, page, key, held", [
    ({"lang": "zh"}, None, "lang", "zh"),
    ({"cluster": "preemption.yaml"}, None, "cluster", "preemption.yaml"),
    ({"lesson": "20-policy-to-plugins"}, LESSONS, "lesson_pick", "20-policy-to-plugins"),
    ({"lesson": "20-policy-to-plugins", "lang": "zh"}, LESSONS, "lesson_pick", "20-policy-to-plugins"),
])
def test_an_empty_report_keeps_the_value_the_session_set(query, page, key, held) -> None:
    at = run_app(**query)
    if page is not None:
        at.switch_page(page).run()
    assert at.session_state[key] == held
    _widget(at, key).set_value(None)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state[key] == held
    if key == "lesson_pick":
        assert at.query_params["lesson"] in (held, [held])
