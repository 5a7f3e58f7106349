"""AppTest of the projector layout and the URL: presenter mode, the shortcut sheet, the Lessons page's own
cursor (``?lesson=&lstep=``), ``?lang=``, runs carried by ``?scenario=``, big clusters summarized."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.sim.simulation import Simulation
from kubesched.ui import charts, presenter, shortcuts, stepper, url_state
from kubesched.ui.i18n import t
from kubesched.ui.session import LINK_SOURCE, SAMPLE_DIR
from tests.ui.pages.apptest import open_editor, run_app

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_load import cluster_yaml

LESSONS, SCHEDULE, CLUSTER = ("kubesched/ui/pages/lessons.py", "kubesched/ui/pages/schedule.py",
                              "kubesched/ui/pages/cluster.py")


def keys(block) -> set[str]:
    return {w.key for w in block.button} | {w.key for w in block.toggle}


def test_presenter_mode_moves_the_stepper_into_the_page():
    normal = run_app()
    assert {"next_event", "back_pod", "run_to_idle", "present_toggle_0"} <= keys(normal.sidebar)
    assert not {"next_event", "present_toggle_0"} & keys(normal.main)
    at = run_app(present="1")
    assert at.session_state["present"] is True
    assert {"back_event", "next_event", "back_phase", "next_phase", "back_pod", "next_pod", "run_to_idle", "play",
            "present_toggle_1"} <= keys(at.main)
    assert not {"next_event", "present_toggle_1"} & keys(at.sidebar)
    assert at.toggle(key="present_toggle_1").value is True
    assert [s.value for s in at.selectbox if s.key == stepper.PLAY_UNIT_KEY] == ["event"]
    at.button(key="next_pod").click().run()
    expected = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    assert at.session_state["sim"].cursor == expected.step("pod")
    line = next(x.value for x in at.text if x.value.startswith("t = "))
    assert line.startswith(f"t = {expected.time:g} s · cycle {expected.cycle} · step {expected.cursor}/")
    assert " · " + t("stepper.pod", "en", pod=expected.current_pod or "—") in line   # the status on one line
    at.run()                       # AppTest keeps only the fragments' elements after a step: draw all again
    at.toggle(key="present_toggle_1").set_value(False).run()
    assert "present" not in at.query_params and "next_event" in keys(at.sidebar)


def test_presenter_mode_styles_the_page_and_every_chart():
    at = run_app(present="1")
    at.switch_page(SCHEDULE).run()
    assert any(f"font-size: {presenter.ROOT_FONT_PX}px" in h.value for h in at.html)
    at.button(key="next_pod").click().run()
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert len(specs) == 3
    for spec in specs:
        assert spec["layout"]["font"]["size"] >= charts.PRESENTER_FONT
        assert json.loads(at.get("plotly_chart")[0].proto.config)["modeBarButtons"] == [["toImage"]]


def test_the_shortcut_sheet_lists_every_key():
    rows = shortcuts.shortcut_rows("en")
    assert [r["Keys"] for r in rows] == ["Left", "Right", "Shift+Left", "Shift+Right", "Shift+Up", "Shift+Down",
                                         "End", "P", "?"]
    assert rows[1]["What it does"] == "One event forward" and rows[5]["What it does"].startswith(
        "To the end of the next scheduling cycle")
    assert [r["按键"] for r in shortcuts.shortcut_rows("zh")][:2] == ["Left", "Right"]
    assert shortcuts.shortcut_rows("zh")[0]["作用"] == "后退一个事件"


@pytest.mark.parametrize("lstep", ["1", "2"])
def test_the_lessons_page_has_its_own_cursor_and_url_keys(lstep):
    at = run_app(lesson="01-first-pod", lstep=lstep, step="500")
    main_cursor = at.session_state["sim"].cursor
    at.switch_page(LESSONS).run()
    assert not at.exception
    progress = at.session_state["lesson_progress"]["01-first-pod"]
    assert progress.step == int(lstep) - 1
    assert (at.query_params["lesson"], at.query_params["lstep"], at.query_params["step"]) == (
        "01-first-pod", lstep, "500")
    assert not {"next_event", "next_pod"} & (keys(at.sidebar) | keys(at.main))      # no second cursor here
    lesson_sim = at.session_state["lesson_run"]["sim"]
    assert lesson_sim is not at.session_state["sim"] and at.session_state["sim"].cursor == main_cursor
    status = next(x.value for x in at.text if x.value.startswith("t = "))
    assert status.endswith(f"step {lesson_sim.cursor}/{len(lesson_sim.trace)}")
    if progress.stage != "narrate":
        return                                            # a prediction first: no Continue yet
    continue_button = at.button(key="lesson_continue")
    assert continue_button.proto.shortcut == "right"
    before = lesson_sim.cursor
    continue_button.click().run()
    progress = at.session_state["lesson_progress"]["01-first-pod"]
    assert at.query_params["lstep"] == str(progress.step + 1) and at.query_params["step"] == "500"
    assert at.session_state["lesson_run"]["sim"].cursor >= before


def test_lang_in_the_url():
    at = run_app(lang="zh")
    assert at.title[0].value == t("home.title", "zh") and at.radio(key="lang").value == "zh"
    at.radio(key="lang").set_value("en").run()
    assert at.title[0].value == t("home.title", "en") and "lang" not in at.query_params


def test_an_edited_run_is_carried_by_the_url_and_reopens_from_it():
    text = (SAMPLE_DIR / "taints.yaml").read_text().replace("name: ", "name: x", 1)
    at = run_app(cluster="taints.yaml")
    assert at.query_params["cluster"] == "taints.yaml" and "scenario" not in at.query_params
    open_editor(at)
    at.text_area(key="cluster_editor").set_value(text).run()
    at.button(key="cluster_apply").click().run()
    assert "cluster" not in at.query_params
    link = at.query_params["scenario"]
    carried = url_state.decode_scenario(link)
    assert carried == at.session_state["sim"].to_scenario_yaml()
    reopened = run_app(scenario=link, step="57")
    sim = reopened.session_state["sim"]
    assert reopened.session_state["cluster_source"] == LINK_SOURCE and sim.cursor == 57
    expected = Simulation.from_yaml(text, seed=0)
    expected.run_until_idle()
    assert sim.digest() == expected.digest()


def test_a_bad_scenario_link_says_so_and_opens_the_sample():
    at = run_app(scenario="not-a-scenario", cluster="spread.yaml")
    assert at.session_state["sim"].inputs.filename.endswith("spread.yaml")
    assert t("persist.refused", "en") in [c.value for c in at.sidebar.caption]


@pytest.fixture(scope="module")
def big() -> AppTest:
    """A 1000-node cluster opened from a link, one pod scheduled."""
    at = run_app(scenario=url_state.encode_scenario(cluster_yaml(1000, 3)))
    assert len(at.session_state["sim"].inputs.objects) == 1003
    at.button(key="next_pod").click().run()
    return at


def test_a_big_run_cannot_ride_in_the_url(big):
    big.run()
    assert "scenario" not in big.query_params and "cluster" not in big.query_params
    assert len(big.query_params["run"]) == 16
    assert t("persist.too_big", "en") in [c.value for c in big.sidebar.caption]


def test_a_big_cluster_shows_one_page_of_node_cards(big):
    big.switch_page(CLUSTER).run()
    assert not big.exception
    assert len(big.get("pagination")) == 1
    names = [m.value for m in big.markdown if m.value.startswith("**zone\\-")]
    assert len(names) == 24 and names[0] == "**zone\\-a\\-node\\-0**"
    spec = json.loads(big.get("plotly_chart")[0].proto.spec)
    assert len(spec["data"][0]["y"]) == 24


def test_a_big_filter_matrix_is_summarized(big):
    big.switch_page(SCHEDULE).run()
    assert not big.exception
    spec = json.loads(next(c for c in big.get("plotly_chart") if c.key == "schedule_matrix").proto.spec)
    rows = spec["data"][0]["y"]
    assert len(rows) <= 12 and all(r.startswith("zone-") and " · " not in r for r in rows[:10])
    assert rows[10:] and all(" nodes · " in r for r in rows[10:])     # the rest, grouped
    assert any(t("large.show_all", "en") == w.label for w in big.toggle)
    scores = json.loads(next(c for c in big.get("plotly_chart") if c.key == "schedule_scores").proto.spec)
    assert len(scores["data"][0]["y"]) == 15


@pytest.mark.parametrize(("history", "shown"), [
    (False, "01-first-pod"),   # a click that still carried the URL of the lesson before: the pick stays
    (True, "04-queues"),       # Back/Forward to that lesson's URL: the page follows it
])
def test_only_back_and_forward_change_the_lesson_a_session_shows(monkeypatch, history, shown):
    at = run_app(lesson="01-first-pod")
    at.switch_page(LESSONS).run()
    assert at.session_state["lesson_pick"] == "01-first-pod"
    monkeypatch.setattr(url_state, "is_history_navigation", lambda: history)
    at.query_params["lesson"] = "04-queues"
    at.run()
    assert not at.exception and at.session_state["lesson_pick"] == shown
