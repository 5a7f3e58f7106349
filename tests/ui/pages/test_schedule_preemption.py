"""Schedule one pod and Preemption pages in AppTest: every sample cluster renders both without an
exception, the Filter matrix shown is the trace's, the cycle picker and "why not node X?" work, and
the Preemption page walks the showcase."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.trace import Kind
from kubesched.ui import session, theme
from kubesched.ui.figures import preemption as pfig
from kubesched.ui.figures import schedule as sfig
from kubesched.ui.i18n import t

APP = str(Path(__file__).resolve().parents[3] / "app.py")
SCHEDULE = "kubesched/ui/pages/schedule.py"
PREEMPTION = "kubesched/ui/pages/preemption.py"


def _app(cluster: str, lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["cluster"] = cluster
    at.run()
    if lang != "en":
        at.session_state["lang"] = lang
    return at


def _heatmap(at: AppTest) -> dict | None:
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if spec["data"] and spec["data"][0]["type"] == "heatmap":
            return spec["data"][0]
    return None


@pytest.mark.parametrize("cluster", session.sample_clusters())
def test_both_pages_render_for_every_sample(cluster):
    at = _app(cluster)
    sim = at.session_state["sim"]
    sim.run_until_idle()
    at.switch_page(SCHEDULE).run()
    assert not at.exception, at.exception
    assert not at.error
    assert at.title[0].value == t("schedule.title", "en")
    visible = sim.trace[:sim.cursor]
    cycle = sfig.cycle_at_cursor(visible)
    records = sfig.cycle_records(visible, cycle)
    if any(r.kind is Kind.FILTER_RUN and r.data.plugins for r in records):
        heat = _heatmap(at)
        start = next(r for r in records if r.kind is Kind.CYCLE_START)
        matrix = sfig.filter_matrix(records, sfig.profile_filters(sim.trace, start.profile))
        assert heat["z"] == [list(row) for row in matrix.codes] and heat["y"] == list(matrix.nodes)
    at.switch_page(PREEMPTION).run()
    assert not at.exception, at.exception
    assert not at.error
    attempts = pfig.preemption_attempts(visible)
    if attempts and attempts[-1].nominated_node:
        assert attempts[-1].nominated_node in at.success[0].value.replace("\\", "")
    elif attempts:
        assert at.info[0].value.replace("\\", "") == t("preemption.answer_nothing", "en", pod=attempts[-1].pod)
    else:
        assert at.info[0].value == t("preemption.none", "en")


def test_schedule_page_follows_the_cursor_and_picks_a_cycle():
    at = _app("default.yaml")
    sim = at.session_state["sim"]
    ends = [r for r in sim.trace if r.kind is Kind.CYCLE_END]
    sim.seek(ends[0].seq + 1)
    at.switch_page(SCHEDULE).run()
    assert not at.exception, at.exception
    heat = _heatmap(at)
    gpu, taint = heat["y"].index("zone-c-gpu-1"), heat["x"].index("TaintToleration")
    assert heat["z"][gpu][taint] == theme.FILTER_FAIL and heat["text"][gpu][taint] == "✗"
    assert at.success and "zone-b-large-1" in at.success[0].value.replace("\\", "")
    # a failed cycle picked from the selectbox shows the exact FailedScheduling message
    failed = next(r for r in sim.trace if r.kind is Kind.SCHEDULING_FAILURE)
    sim.seek(failed.seq + 1)
    at.run()
    at.selectbox(key="schedule_cycle").select(failed.cycle).run()
    assert not at.exception, at.exception
    assert [x.value for x in at.text if x.value == failed.data.message] == [failed.data.message]
    # why not node X? in one sentence, from kubesched/explain
    at.selectbox(key="schedule_why_node").select("zone-c-gpu-1").run()
    assert any(x.value.startswith("Not on zone-c-gpu-1: Filter plugin ") for x in at.text)


def test_schedule_page_reveals_only_up_to_the_cursor_unless_asked():
    at = _app("default.yaml")
    sim = at.session_state["sim"]
    start = next(r for r in sim.trace if r.kind is Kind.PHASE_START and r.data.phase == "Filter")
    sim.seek(start.seq + 1)
    at.switch_page(SCHEDULE).run()
    assert not at.exception, at.exception
    assert _heatmap(at) is None
    at.toggle(key="schedule_whole").set_value(True).run()
    assert not at.exception, at.exception
    heat = _heatmap(at)
    assert heat is not None and theme.FILTER_FAIL in {c for row in heat["z"] for c in row}


def test_preemption_showcase_button_and_chinese():
    at = _app("default.yaml", lang="zh")
    at.switch_page(PREEMPTION).run()
    assert not at.exception, at.exception
    assert at.title[0].value == t("preemption.title", "zh")
    at.button(key="preemption_showcase").click().run()
    assert not at.exception, at.exception
    assert at.session_state["cluster"] == "preemption.yaml"
    assert "node-2" in at.success[0].value.replace("\\", "")
    charts = [json.loads(c.proto.spec)["data"] for c in at.get("plotly_chart")]
    assert [[trace["type"] for trace in data] for data in charts] == [["bar", "bar"], ["heatmap"]]
    rows = at.dataframe[-1].value
    assert list(rows[t("preemption.col.victim", "zh")]) == ["default/cache-2"]
