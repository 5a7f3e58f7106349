"""AppTest: play lesson 01 from start to finish (predict, reveal, Continue, quiz, done)."""

from __future__ import annotations

from pathlib import Path

import pytest

streamlit_testing = pytest.importorskip("streamlit.testing.v1")

LESSON = "01-first-pod"
APP = str(Path(__file__).resolve().parents[3] / "app.py")


def _click(at, key: str) -> None:
    at.button(key=key).click()
    at.run()
    assert not at.exception, at.exception


def test_play_lesson_01_to_the_end() -> None:
    at = streamlit_testing.AppTest.from_file(APP, default_timeout=120)
    at.query_params["lesson"] = LESSON
    at.run()
    at.switch_page("kubesched/ui/pages/lessons.py").run()
    assert not at.exception, at.exception
    progress = at.session_state["lesson_progress"][LESSON]
    assert (progress.step, progress.stage) == (0, "narrate")
    for _ in range(40):
        progress = at.session_state["lesson_progress"][LESSON]
        if progress.stage == "quiz":
            break
        if progress.stage == "predict":
            radio = [w for w in at.radio if w.key and w.key.startswith("lesson_guess_")]
            multi = [w for w in at.multiselect if w.key and w.key.startswith("lesson_guess_")]
            if radio:
                radio[0].set_value(radio[0].options[0])
            elif multi:
                multi[0].set_value(list(multi[0].options))
            _click(at, "lesson_reveal")
            assert any("Your guess" in t.value for t in at.text)
            continue
        assert any(t.value.startswith("✓ ") for t in at.text)
        assert not any(t.value.startswith("✗ ") and " " in t.value and "Not quite" not in t.value for t in at.text)
        _click(at, "lesson_continue")
    assert at.session_state["lesson_progress"][LESSON].stage == "quiz"
    for radio in (w for w in at.radio if w.key and w.key.startswith("lesson_quiz_")):
        radio.set_value(radio.options[0])
    for multi in (w for w in at.multiselect if w.key and w.key.startswith("lesson_quiz_")):
        multi.set_value(["zone-b-large-1"])
    at.run()
    for i in range(3):
        _click(at, f"lesson_check_{i}")
    assert any("Answered by running a variant of this cluster: patch Pod/web-1" in c.value for c in at.caption)
    _click(at, "lesson_finish")
    assert at.session_state["lesson_progress"][LESSON].stage == "done"
    assert at.query_params["lesson"] == [LESSON] or at.query_params["lesson"] == LESSON


def test_reveal_with_nothing_chosen_asks_for_a_choice_and_a_wrong_guess_says_why() -> None:
    at = streamlit_testing.AppTest.from_file(APP, default_timeout=120)
    at.query_params["lesson"] = "06-filter"
    at.run()
    at.switch_page("kubesched/ui/pages/lessons.py").run()
    assert at.session_state["lesson_progress"]["06-filter"].stage == "predict"
    _click(at, "lesson_reveal")
    assert at.session_state["lesson_progress"]["06-filter"].stage == "predict"
    assert [w.value for w in at.warning] == ["Choose an answer first."]
    (multi,) = [w for w in at.multiselect if w.key and w.key.startswith("lesson_guess_")]
    multi.set_value(["node-ok", "node-small"])
    _click(at, "lesson_reveal")
    assert at.session_state["lesson_progress"]["06-filter"].stage == "narrate"
    assert any(t.value.startswith("✗ Not quite.") for t in at.text)
    assert any("node-small fails NodeResourcesFit: Insufficient cpu." in c.value for c in at.caption)
