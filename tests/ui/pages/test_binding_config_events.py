"""Binding cycle, Configuration and Event log pages in AppTest: every sample cluster renders them, the
A/B comparison shows a placement difference for LeastAllocated → MostAllocated, a bad configuration
shows the loader's message, and selecting an event row moves the shared cursor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.trace import Kind, plugin_calls
from kubesched.ui import session, stepper
from kubesched.ui.figures import binding as bfig
from kubesched.ui.figures import configuration as cfig
from kubesched.ui.figures import events as efig

APP = str(Path(__file__).resolve().parents[3] / "app.py")
BINDING = "kubesched/ui/pages/binding.py"
CONFIGURATION = "kubesched/ui/pages/configuration.py"
EVENTS = "kubesched/ui/pages/events.py"


def _app(cluster: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["cluster"] = cluster
    at.run()
    assert not at.exception, at.exception
    return at


def _ok(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def _table(at: AppTest, prefix: str):
    return next(d for d in at.dataframe if (d.key or "").startswith(prefix))


@pytest.mark.parametrize("cluster", session.sample_clusters())
def test_pages_render_for_every_sample(cluster):
    at = _app(cluster)
    sim = at.session_state["sim"]
    at.switch_page(BINDING).run()  # cursor 0: nothing reserved yet
    _ok(at)
    assert [i.value for i in at.info] == [("No pod has reached Reserve yet at this step. Step on until a pod gets a "
                                          "node.")]
    sim.seek(len(sim.trace))
    visible = sim.trace[:sim.cursor]
    at.switch_page(BINDING).run()
    _ok(at)
    attempt = bfig.attempt_at_cursor(visible)
    if attempt is not None:
        steps = at.dataframe[0].value
        assert list(steps["step"]) == [s.phase for s in bfig.binding_steps(visible, attempt.pod, attempt.cycle)]
        timeline = json.loads(at.get("plotly_chart")[0].proto.spec)
        assert {tr["type"] for tr in timeline["data"]} == {"bar"}
    at.switch_page(CONFIGURATION).run()
    _ok(at)
    matrix = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    assert (matrix["type"], matrix["zmin"], matrix["zmax"]) == ("heatmap", -0.5, 3.5)
    at.switch_page(EVENTS).run()
    _ok(at)
    table = _table(at, "events_table_").value
    rows = efig.event_rows(visible)
    assert len(rows) == len(visible) + len(plugin_calls(visible))
    assert len(table) == min(len(rows), 5000)
    assert list(table["seq"][:3]) == [r["seq"] for r in rows[::-1][:3]] and table["seq"][0] == sim.cursor - 1
    assert at.code[0].value.startswith("Events:")


def test_compare_least_allocated_with_most_allocated():
    at = _app("taints.yaml")
    at.switch_page(CONFIGURATION).run()
    _ok(at)
    assert at.text_area(key="config_text_a").value == cfig.EMPTY_CONFIG_TEXT
    b_text = at.text_area(key="config_text_b").value
    assert "name: NodeResourcesMostAllocated" in b_text and "name: NodeResourcesLeastAllocated" in b_text
    at.button(key="config_compare_button").click().run()
    _ok(at)
    result = at.session_state["config_compare"]
    rows = cfig.placement_rows(result["A"].state, result["B"].state)
    differ = cfig.differing(rows)
    assert differ, "MostAllocated should move at least one pod on taints.yaml"
    assert f"Placements: {len(differ)} of {len(rows)} pods differ." in [m.value for m in at.markdown]
    differ_table, all_table = [d.value for d in at.dataframe if "differs" in d.value.columns]
    shown = differ_table
    assert len(all_table) == len(rows)
    assert list(shown["pod"]) == [r["pod"] for r in differ]
    assert all(a != b for a, b in zip(shown["A"], shown["B"]))


def test_a_bad_configuration_shows_the_loader_message():
    at = _app("taints.yaml")
    at.switch_page(CONFIGURATION).run()
    at.text_area(key="config_text_b").set_value(cfig.EMPTY_CONFIG_TEXT + "percentageOfNodes: 50\n").run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == ["Configuration B is not valid:"]
    assert at.code[-1].value == 'config-B.yaml:3: percentageOfNodes: unknown field "percentageOfNodes" in ' \
                                'KubeSchedulerConfiguration'
    assert at.button(key="config_compare_button").disabled
    at.switch_page(EVENTS).run()
    at.switch_page(CONFIGURATION).run()  # the learner's text survives a page switch
    assert at.text_area(key="config_text_b").value.endswith("percentageOfNodes: 50\n")


@pytest.mark.parametrize("kinds, row", [((), 3), (("BIND",), 1)])
def test_selecting_an_event_row_moves_the_cursor(kinds, row):
    at = _app("default.yaml")
    sim = at.session_state["sim"]
    sim.seek(len(sim.trace))
    at.switch_page(EVENTS).run()
    if kinds:
        at.multiselect(key="events_kinds").set_value(list(kinds)).run()
    table = _table(at, "events_table_")
    seq = int(table.value["seq"][row])
    if kinds:
        assert sim.trace[seq].kind is Kind.BIND
    at.session_state[table.key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    _ok(at)
    assert sim.cursor == efig.cursor_for_row({"seq": seq})
    assert at.slider(key=stepper.slider_key(at.session_state)).value == sim.cursor
    assert int(_table(at, "events_table_").value["seq"][0]) == seq  # newest first: the jumped-to record


def test_pages_speak_chinese():
    at = _app("taints.yaml")
    at.radio(key="lang").set_value("zh").run()
    titles = {}
    for page in (BINDING, CONFIGURATION, EVENTS):
        at.switch_page(page).run()
        assert not at.exception, at.exception
        titles[page] = at.title[0].value
    assert titles == {BINDING: "绑定周期", CONFIGURATION: "配置", EVENTS: "事件日志"}
