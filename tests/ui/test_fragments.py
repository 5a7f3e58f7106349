"""``fragments.after_cursor_move``: which rerun a step asks for (Streamlit's ``st.rerun`` and run
context replaced by recorders; the rule, not Streamlit, is under test)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kubesched.ui import fragments

NOW = 1000.0


class Rerun(Exception):
    def __init__(self, scope: object) -> None:
        super().__init__(scope)
        self.scope = scope


@pytest.mark.parametrize(("fragment_run", "ended_ago", "has_views", "expected"), [
    (False, 5.0, True, None),                                  # the callback opens a full run: it draws all
    (True, 5.0, True, [fragments.STEPPER, fragments.VIEWS]),   # a settled page: the stepper and the views
    (True, 5.0, False, [fragments.STEPPER]),                   # Home: no views fragment
    (True, 0.2, True, "app"),                                  # just after a full run: the whole app
    (True, None, True, "app"),                                 # the last full run did not end
    (True, fragments.SETTLE_S, True, [fragments.STEPPER, fragments.VIEWS]),
])
def test_the_rerun_a_step_asks_for(monkeypatch, fragment_run, ended_ago, has_views, expected):
    state = {"_page_has_views": has_views, "_full_run_end": None if ended_ago is None else NOW - ended_ago}
    monkeypatch.setattr(fragments.st, "session_state", state)
    monkeypatch.setattr(fragments.time, "monotonic", lambda: NOW)
    monkeypatch.setattr(fragments, "get_script_run_ctx",
                        lambda: SimpleNamespace(fragment_ids_this_run=["f1"] if fragment_run else []))

    def rerun(scope: object = "app") -> None:
        raise Rerun(scope)

    monkeypatch.setattr(fragments.st, "rerun", rerun)
    if expected is None:
        assert fragments.after_cursor_move() is None
        return
    with pytest.raises(Rerun) as asked:
        fragments.after_cursor_move()
    assert asked.value.scope == expected


def test_begin_and_end_of_a_page_run(monkeypatch):
    state: dict[str, object] = {}
    monkeypatch.setattr(fragments.st, "session_state", state)
    monkeypatch.setattr(fragments.time, "monotonic", lambda: NOW)
    fragments.begin_page()
    assert state == {"_page_has_views": False, "_full_run_end": None}
    fragments.end_page()
    assert state["_full_run_end"] == NOW
