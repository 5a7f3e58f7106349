"""The dashboard shell headless (AppTest): router, session, stepper, URL, language, Home and Cluster."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.sim.simulation import Simulation
from kubesched.ui import stepper
from kubesched.ui.figures.markup import md
from kubesched.ui.i18n import CATALOG, LANGUAGES, missing_keys, t
from kubesched.ui.session import DEFAULT_CLUSTER, SAMPLE_DIR, sample_clusters
from tests.ui.pages.apptest import open_editor, run_app

ROOT = Path(__file__).resolve().parents[3]
HOME, CLUSTER = "kubesched/ui/pages/home.py", "kubesched/ui/pages/cluster.py"
PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")
STATUS = re.compile(r"t = (\S+) s · cycle (\d+) · step (\d+)/(\d+)")


def status(at: AppTest) -> tuple[str, int, int, int]:
    line = next(x.value for x in at.text if STATUS.fullmatch(x.value))
    time, cycle, cursor, total = STATUS.fullmatch(line).groups()
    return time, int(cycle), int(cursor), int(total)


def click(at: AppTest, key: str) -> AppTest:
    """Click a button; a step reruns only the stepper's position and the views, and AppTest then lists
    only their elements, so the app is drawn once more first when the button is not among them."""
    if key not in {b.key for b in at.button}:
        at.run()
    return at.button(key=key).click().run()


def fresh(name: str = DEFAULT_CLUSTER) -> Simulation:
    """What the session builds: the whole (small) run computed, the cursor at 0."""
    sim = Simulation.from_yaml(SAMPLE_DIR / name, seed=0)
    sim.run_until_idle()
    sim.seek(0)
    return sim


@pytest.fixture(scope="module")
def app() -> AppTest:
    return run_app()


def test_opens_on_the_default_cluster(app):
    sim = app.session_state["sim"]
    expected = fresh()
    assert app.selectbox(key="cluster").value == DEFAULT_CLUSTER
    assert sim.inputs.filename.endswith(DEFAULT_CLUSTER)
    assert (sim.cursor, len(sim.trace), sim.digest()) == (0, len(expected.trace), expected.digest())
    assert status(app) == ("0", 0, 0, len(expected.trace))
    assert app.slider(key=stepper.slider_key(app.session_state)).value == 0
    assert app.title[0].value == t("home.title", "en")


@pytest.mark.parametrize("name", sample_clusters())
def test_every_sample_renders_home_and_cluster(name):
    at = run_app(cluster=name)
    assert at.selectbox(key="cluster").value == name
    assert at.session_state["sim"].inputs.filename.endswith(name)
    assert not at.error
    at.switch_page(CLUSTER).run()
    assert not at.exception and not at.error, (at.exception, at.error)
    assert at.title[0].value == t("cluster.title", "en")
    assert [c.key for c in at.get("plotly_chart")] == ["cluster_allocation"]   # tabs run lazily
    at.session_state["cluster_tab"] = t("cluster.tab_topology", "en")
    at.run()
    assert [c.key for c in at.get("plotly_chart")] == ["cluster_topology"]
    at.button(key="next_pod").click().run()
    assert not at.exception


@pytest.mark.parametrize("unit", stepper.UNITS)
def test_stepper_moves_the_cursor(unit):
    expected = fresh()
    first = expected.step(unit)
    second = expected.step(unit)
    at = run_app()
    click(at, f"next_{unit}")
    assert at.session_state["sim"].cursor == first and at.slider(key=stepper.slider_key(at.session_state)).value == first
    click(at, f"next_{unit}")
    assert status(at)[2] == second
    assert at.query_params["step"] == str(second)
    click(at, f"back_{unit}")
    assert status(at)[2] == first
    assert at.slider(key=stepper.slider_key(at.session_state)).value == first


def test_slider_and_run_to_idle():
    at = run_app()
    total = len(at.session_state["sim"].trace)
    at.slider(key=stepper.slider_key(at.session_state)).set_value(100).run()
    assert status(at)[2] == 100
    expected = fresh()
    expected.seek(100)
    assert status(at)[:2] == (f"{expected.time:g}", expected.cycle)
    click(at, "run_to_idle")
    assert status(at)[2] == total
    stopped = at.session_state["sim"].stopped_reason
    assert any(x.value == t("stepper.stopped", "en", reason=t(f"stepper.reason_{stopped}", "en")) for x in at.text)


@pytest.mark.parametrize("step", ["57", "101"])
def test_url_step_is_honoured(step):
    at = run_app(cluster="taints.yaml", step=step)
    expected = fresh("taints.yaml")
    expected.seek(int(step))
    assert at.session_state["sim"].cursor == int(step)
    assert at.slider(key=stepper.slider_key(at.session_state)).value == int(step)
    assert status(at)[:3] == (f"{expected.time:g}", expected.cycle, int(step))


def test_language_switch_changes_text(app):
    at = run_app()
    at.radio(key="lang").set_value("zh").run()
    assert at.title[0].value == t("home.title", "zh") != t("home.title", "en")
    assert at.radio(key="lang").label == t("app.language", "zh")
    assert any(STATUS.pattern and "周期" in x.value for x in at.text)
    at.switch_page(CLUSTER).run()
    assert at.title[0].value == t("cluster.title", "zh")


def test_bad_yaml_keeps_the_old_cluster_and_the_text():
    at = run_app()
    at.button(key="next_pod").click().run()
    open_editor(at)
    sim = at.session_state["sim"]
    cursor, digest = sim.cursor, sim.digest()
    good = at.text_area(key="cluster_editor").value
    bad = good.replace("kind: Node\n", "kind: Nodee\n", 1)
    bad_line = bad.splitlines().index("kind: Nodee") + 1
    at.text_area(key="cluster_editor").set_value(bad).run()
    at.button(key="cluster_apply").click().run()
    assert not at.exception
    assert at.error[0].value == t("cluster.errors", "en", count=1)
    rows = at.dataframe[0].value
    assert list(rows["line"]) == [bad_line]
    assert 'unknown kind "Nodee" in v1 (did you mean "Node"?)' in rows["message"][0]
    assert at.session_state["sim"] is sim and (sim.cursor, sim.digest()) == (cursor, digest)
    assert at.text_area(key="cluster_editor").value == bad
    at.switch_page(HOME).run()
    open_editor(at)
    assert at.text_area(key="cluster_editor").value == bad
    fixed = bad.replace("kind: Nodee\n", "kind: Node\n", 1)
    at.text_area(key="cluster_editor").set_value(fixed).run()
    at.button(key="cluster_apply").click().run()
    assert at.session_state["sim"] is not sim and at.session_state["sim"].cursor == 0
    assert at.success[0].value == t("cluster.applied", "en")
    assert at.session_state["sim"].digest() == fresh().digest()


def test_bad_field_reports_line_and_path():
    at = run_app()
    open_editor(at)
    bad = at.text_area(key="cluster_editor").value.replace("memory: ", "memory: lots", 1)
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if "memory: lots" in text)
    at.text_area(key="cluster_editor").set_value(bad).run()
    at.button(key="cluster_apply").click().run()
    rows = at.dataframe[0].value
    assert (list(rows["line"]), list(rows["field"])) == ([line], ["status.capacity.memory"])
    assert list(rows["object"]) == ["Node zone-a-small-1"]
    prefix = f"{DEFAULT_CLUSTER} (edited):{line}: Node zone-a-small-1: status.capacity.memory: "
    assert [c.value for c in at.code if c.value.startswith(prefix)] == [prefix + rows["message"][0]]


def test_picking_a_sample_from_home_loads_it():
    at = run_app()
    at.button(key="use_taints.yaml").click().run()
    assert at.selectbox(key="cluster").value == "taints.yaml"
    assert at.session_state["sim"].digest() == fresh("taints.yaml").digest()
    assert status(at)[2] == 0


def test_i18n_catalog_complete():
    assert missing_keys() == {"zh": set(), "en": set()}
    for lang in LANGUAGES:
        for page in PAGES:
            assert CATALOG[lang][f"nav.{page}"]
    assert {t(f"nav.{p}", "en") for p in PAGES}.isdisjoint({t(f"nav.{p}", "zh") for p in PAGES})


def test_previous_position_inverts_step():
    sim = fresh()
    for unit in stepper.UNITS:
        sim.seek(0)
        positions = [0]
        for _ in range(4):
            positions.append(sim.step(unit))
        for expected in reversed(positions[:-1]):
            assert stepper.move(sim, unit, -1) == expected, unit


REFUSING = """apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: kubesched/v1alpha1
kind: Scenario
spec:
  actions:
  - {at: 3, delete: {kind: Pod, name: ghost}}
"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sidebar_lists_the_refused_actions_of_the_run(lang):
    at = run_app()
    at.session_state["lang"] = lang
    open_editor(at)
    assert not at.sidebar.warning                            # the default sample refuses nothing
    at.text_area(key="cluster_editor").set_value(REFUSING).run()
    at.button(key="cluster_apply").click().run()
    sim = at.session_state["sim"]
    assert [str(e) for e in sim.action_errors] == ['spec.actions[0] at t=3s: delete Pod default/ghost: '
                                                   'pods "ghost" not found']
    (notice,) = at.sidebar.warning
    assert notice.value.splitlines() == [
        t("home.action_errors", lang, n=1),
        "- " + md(t("home.action_error", lang, time=3.0, where="spec.actions[0]", action="delete Pod default/ghost",
                    error='pods "ghost" not found'))]


@pytest.mark.parametrize(("key", "value", "drawn", "expected"), [
    ("step_3", 40, (3, 12), True),    # the slider drawn last, moved: a drag
    ("step_3", 12, (3, 12), False),   # unmoved (Streamlit reports it after a timer's tick)
    ("step_2", 0, (3, 12), False),    # the slider shown before the last step: a stale value
    ("step_2", 12, (3, 12), False),
])
def test_only_a_moved_current_slider_is_a_drag(key, value, drawn, expected):
    assert stepper.is_drag(key, value, drawn) is expected
