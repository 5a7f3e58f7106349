"""Schedule one pod in AppTest at the cursor: the cycle picker's entry carries no number that could
lag the header, "Why (not) on node X?" is in the page's language and true at the cursor, and no
score cell or sentence says "None" before scoring."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.trace import Kind
from kubesched.ui.i18n import t

APP = str(Path(__file__).resolve().parents[3] / "app.py")
SCHEDULE = "kubesched/ui/pages/schedule.py"


def _schedule(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["cluster"] = "default.yaml"
    at.run()
    at.session_state["lang"] = lang
    at.switch_page(SCHEDULE).run()
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_picker_header_and_why_follow_each_step(lang):
    at = _schedule(lang)
    sim = at.session_state["sim"]
    starts = [r for r in sim.trace if r.kind is Kind.CYCLE_START][:3]
    filter_runs = {r.cycle: r.seq for r in sim.trace if r.kind is Kind.FILTER_RUN}
    for start in starts:
        sim.seek(filter_runs[start.cycle])          # inside the cycle, before its Filter walk
        at.run()
        assert not at.exception, at.exception
        picker = at.selectbox(key="schedule_cycle")
        assert picker.value == 0 and picker.options[0] == t("schedule.pick.follow", lang)
        header = t("schedule.cycle_header", lang, cycle=start.cycle, pod="", profile="", time="").split("·")[0]
        assert at.subheader[0].value.startswith(header)          # "Cycle 2 " / "周期 2 ": the cycle at the cursor
        node = at.selectbox(key="schedule_why_node").value
        expected = t("why.not_yet", lang, node=node, cycle=start.cycle)
        assert expected in [x.value for x in at.text]
        page = " ".join(x.value for x in at.text) + " ".join(x.value for x in at.markdown)
        assert "None" not in page


def test_a_step_that_leaves_a_chart_as_it_was_does_not_build_it_again(monkeypatch):
    """After the cycle's Score phase, steps through Reserve, Permit and the binding cycle leave the
    score chart and the Filter matrix as they were: they are not built again (the same spec goes
    out); the phase strip follows the phase the cursor is in."""
    from kubesched.ui.figures import schedule as fig
    built = []
    for name in ("filter_matrix_figure", "score_breakdown_figure", "phase_timeline_figure"):
        real = getattr(fig, name)
        monkeypatch.setattr(fig, name, lambda *a, _real=real, _name=name, **k: built.append(_name) or _real(*a, **k))
    at = _schedule("en")
    sim = at.session_state["sim"]
    first = next(r for r in sim.trace if r.kind is Kind.CYCLE_END)
    bound = next(r.seq for r in sim.trace if r.kind is Kind.BINDING_CYCLE_END and r.cycle == first.cycle)
    sim.seek(first.seq + 1)
    at.run()
    before = {c.proto.spec for c in at.get("plotly_chart")}
    built.clear()
    for cursor in range(first.seq + 2, bound + 2):
        sim.seek(cursor)
        at.run()
        assert not at.exception, at.exception
    after = {c.proto.spec for c in at.get("plotly_chart")}
    assert len(before) == len(after) == 3 and len(before & after) == 2
    assert "filter_matrix_figure" not in built and "score_breakdown_figure" not in built
    assert 1 <= built.count("phase_timeline_figure") < bound - first.seq   # once per new phase, not per step
