"""Startup and Queues pages in AppTest: every sample cluster renders both, the timeline lists the
Run() steps in order, and "stop the leader" produces a LEADER_ELECTION hand-over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.trace import Kind
from kubesched.ui import session
from kubesched.ui.figures import startup as sfig

APP = str(Path(__file__).resolve().parents[3] / "app.py")
STARTUP = "kubesched/ui/pages/startup.py"
QUEUES = "kubesched/ui/pages/queues.py"


def _app(cluster: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["cluster"] = cluster
    at.run()  # lands on Home (its own tests check it); these tests look at Startup and Queues
    return at


@pytest.mark.parametrize("cluster", session.sample_clusters())
def test_both_pages_render_for_every_sample(cluster):
    at = _app(cluster)
    sim = at.session_state["sim"]
    assert at.session_state["cluster"] == cluster
    sim.step("pod")  # past the start-up, into the first scheduling cycle
    at.switch_page(STARTUP).run()
    assert not at.exception, at.exception
    assert not at.error
    steps = at.dataframe[0].value
    startup = [name for name in steps["step"] if name in sfig.RUN_SEQUENCE]
    assert tuple(startup) == sfig.RUN_SEQUENCE
    at.switch_page(QUEUES).run()
    assert not at.exception, at.exception
    assert not at.error
    moves = at.dataframe[0].value
    assert len(moves) == sum(1 for r in sim.trace[:sim.cursor] if r.kind is Kind.QUEUE_MOVE)
    counts = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert [tr["line"]["shape"] for tr in counts["data"]] == ["hv"] * len(counts["data"])


def test_startup_hides_future_steps_until_asked():
    at = _app("default.yaml")
    at.switch_page(STARTUP).run()
    assert at.session_state["sim"].cursor == 0
    assert not at.dataframe  # nothing has happened before the cursor
    at.toggle(key="startup_show_future").set_value(True).run()
    rows = at.dataframe[0].value
    assert not any(rows["past"])
    assert [name for name in rows["step"] if name in sfig.RUN_SEQUENCE] == list(sfig.RUN_SEQUENCE)


def test_stop_the_leader_hands_over_to_the_other_replica():
    at = _app("default.yaml")
    at.switch_page(STARTUP).run()
    at.button(key="startup_reload").click().run()
    assert not at.exception, at.exception
    sim = at.session_state["sim"]
    assert sim.inputs.scenario.replicas == 2
    assert sim.state().leader.startswith("scheduler-a_")
    at.button(key="startup_kill").click().run()
    assert not at.exception, at.exception
    sim = at.session_state["sim"]
    elections = [r for r in sim.trace[:sim.cursor] if r.kind is Kind.LEADER_ELECTION]
    acquired = [sfig.replica_of_identity(r.data.identity) for r in elections if r.data.transition == "acquired"]
    assert acquired == ["scheduler-a", "scheduler-b"]
    assert sim.state().leader.startswith("scheduler-b_")
    assert [type(a.edit).__name__ for a in sim.edits] == ["KillLeader"]
    assert at.success  # the hand-over sentence
    assert "scheduler-b" in at.success[0].value
