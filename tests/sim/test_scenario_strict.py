"""Scenario documents held to the standard of manifests (issue 15, issue 17 items 2 and 3):
duplicate keys, huge or far ``at``, any YAML line break, and never an exception other than a
loader error — checked by table tests and a bounded hypothesis fuzz."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from kubesched.api.kinds import KINDS
from kubesched.sim import Simulation
from kubesched.sim.inputs import INPUT_ERRORS
from kubesched.sim.scenario import ScenarioError
from tests.sim.clusters import SMALL, node

CLUSTER = node("n1")                        # 9 lines (with its leading ---)
HEAD = "---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  actions:\n"   # actions from line 14


def problems(text: str, **options) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        Simulation.from_text(text, **options)
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("action, message", [
    ("{at: 5, at: 50, cordon: n1}", 'spec.actions[0].at: duplicate key "at" (first at line 14)'),
    ("{at: 5, cordon: n1, cordon: n2}", 'spec.actions[0].cordon: duplicate key "cordon" (first at line 14)'),
    ("{at: " + "1" * 400 + ", cordon: n1}",
     "spec.actions[0].at: must be a number of seconds from 0 to 10000000, not a 400-digit integer"),
    ("{at: 1.0e+300, cordon: n1}", "spec.actions[0].at: must be a number of seconds from 0 to 10000000, not 1e+300"),
    ("{at: .inf, cordon: n1}", "spec.actions[0].at: must be a number of seconds from 0 to 10000000, not inf"),
    ("{at: .nan, cordon: n1}", "spec.actions[0].at: must be a number of seconds from 0 to 10000000, not nan"),
    ("{at: 1, afterEvent: 3, afterEvent: 4, cordon: n1}",
     'spec.actions[0].afterEvent: duplicate key "afterEvent" (first at line 14)'),
    ("{at: 1, yes: n1}", 'spec.actions[0].yes: key must be a string, but YAML read unquoted yes as a boolean: '
                         'write "yes"'),
])
def test_action_errors_name_the_line(action, message):
    assert problems(CLUSTER + HEAD + f"  - {action}\n") == [f"<string>:14: Scenario: {message}"]


def test_duplicate_key_on_its_own_line():
    text = CLUSTER + HEAD + "  - at: 5\n    cordon: n1\n    at: 50\n"
    assert problems(text) == ['<string>:16: Scenario: spec.actions[0].at: duplicate key "at" (first at line 14)']


@pytest.mark.parametrize("actions, horizon, message", [
    (["{at: 301, cordon: n1}"], 300, "spec.actions[0].at: 301s is more than the horizon (300s) after t=0; "
                                     "a run stops 300s after its last change, so write at most 300"),
    (["{at: 200, cordon: n1}", "{at: 600, uncordon: n1}"], 300,
     "spec.actions[1].at: 600s is more than the horizon (300s) after the action before it (at 200s); "
     "a run stops 300s after its last change, so write at most 500"),
    (["{at: 90, cordon: n1}"], 60, "spec.actions[0].at: 90s is more than the horizon (60s) after t=0; "
                                   "a run stops 60s after its last change, so write at most 60"),
])
def test_timed_actions_lie_within_the_horizon(actions, horizon, message):
    text = CLUSTER + HEAD + "".join(f"  - {a}\n" for a in actions)
    line = 14 + len(actions) - 1
    assert problems(text, horizon=horizon) == [f"<string>:{line}: Scenario: {message}"]


@pytest.mark.parametrize("actions, horizon", [
    (["{at: 300, cordon: n1}", "{at: 600, uncordon: n1}", "{at: 900, cordon: n1}"], 300),  # a chain of horizons
    (["{at: 5000, afterEvent: 3, cordon: n1}"], 300),   # positional: its time is where an edit was made
    (["{at: 60, cordon: n1}"], 60),
])
def test_actions_within_the_horizon_load(actions, horizon):
    text = CLUSTER + HEAD + "".join(f"  - {a}\n" for a in actions)
    assert len(Simulation.from_text(text, horizon=horizon).inputs.scenario.actions) == len(actions)


SCENARIO = HEAD.removeprefix("---\n").replace("spec:\n", "spec:\n  seed: 3\n") + "  - {at: 5, cordon: n1}\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85"],
                         ids=["LF", "CRLF", "CR", "LS", "PS", "NEL"])
@pytest.mark.parametrize("scenario_first", [False, True], ids=["scenario-last", "scenario-first"])
def test_every_yaml_line_break_keeps_the_scenario(newline, scenario_first):
    parts = [SCENARIO, CLUSTER.removeprefix("---\n")]
    text = "---\n".join(reversed(parts) if not scenario_first else parts).replace("\n", newline)
    sim = Simulation.from_text(text)
    assert (sim.inputs.seed, len(sim.inputs.scenario.actions)) == (3, 1)
    assert [o.metadata.name for o in sim.inputs.objects] == ["n1"]
    bad = text.replace("at: 5", "at: -5")
    line = 6 if scenario_first else 6 + 8
    assert problems(bad) == [f"<string>:{line}: Scenario: spec.actions[0].at: must be a number of seconds "
                             f"from 0 to 10000000, not -5"]


# -- fuzz: a field error or a run, never another exception -------------------------------------------------
SCALARS = hs.one_of(
    hs.none(), hs.booleans(), hs.integers(min_value=-(10 ** 30), max_value=10 ** 30),
    hs.integers(min_value=10 ** 300, max_value=10 ** 420), hs.floats(allow_nan=True, allow_infinity=True),
    hs.text(max_size=8), hs.sampled_from(["n1", "n2", "", "yes", "1e999", "0x1F", "default", "Pod", "Node"]))
NODE_BODY = hs.fixed_dictionaries({"apiVersion": hs.just("v1"), "kind": hs.just("Node"),
                                   "metadata": hs.fixed_dictionaries({"name": hs.sampled_from(["n1", "n3", "x"])})},
                                  optional={"spec": hs.fixed_dictionaries({"unschedulable": SCALARS}),
                                            "status": hs.dictionaries(hs.sampled_from(["capacity", "allocatable"]),
                                                                      hs.dictionaries(hs.sampled_from(["cpu", "pods"]),
                                                                                      SCALARS, max_size=2),
                                                                      max_size=2)})
POD_BODY = hs.fixed_dictionaries({"apiVersion": hs.just("v1"), "kind": hs.just("Pod"),
                                  "metadata": hs.fixed_dictionaries({"name": hs.sampled_from(["web-1", "p9", "db"])}),
                                  "spec": hs.fixed_dictionaries({"containers": hs.just([{"name": "c", "image": "i"}])},
                                                                optional={"nodeName": SCALARS,
                                                                          "priority": SCALARS})})
BODIES = {
    "create": hs.one_of(NODE_BODY, POD_BODY, SCALARS),
    "update": hs.one_of(NODE_BODY, POD_BODY, SCALARS),
    "delete": hs.one_of(hs.fixed_dictionaries({"kind": hs.sampled_from(sorted(KINDS) + ["Gadget"]),
                                               "name": hs.sampled_from(["n1", "web-1", "ghost"])},
                                              optional={"namespace": SCALARS, "extra": SCALARS}), SCALARS),
    "cordon": hs.one_of(hs.sampled_from(["n1", "n2", "nope"]), SCALARS),
    "uncordon": hs.one_of(hs.sampled_from(["n1", "n2"]), SCALARS),
    "killLeader": hs.one_of(hs.just(True), SCALARS),
}
ACTION = hs.builds(
    lambda at, after, verbs, junk: {**({"at": at} if at != "-" else {}), **({"afterEvent": after} if after else {}),
                                    **verbs, **junk},
    hs.one_of(hs.just("-"), SCALARS, hs.floats(min_value=0, max_value=400)),
    hs.one_of(hs.none(), hs.integers(min_value=-2, max_value=40), SCALARS),
    hs.dictionaries(hs.sampled_from(sorted(BODIES)), hs.none(), min_size=0, max_size=2).flatmap(
        lambda keys: hs.fixed_dictionaries({k: BODIES[k] for k in keys})),
    hs.dictionaries(hs.sampled_from(["drain", "when", "at2"]), SCALARS, max_size=1))
SCENARIO_DOC = hs.fixed_dictionaries(
    {"kind": hs.just("Scenario")},
    optional={"apiVersion": hs.sampled_from(["kubesched/v1alpha1", "v1", ""]),
              "metadata": hs.one_of(hs.fixed_dictionaries({"name": SCALARS}), SCALARS),
              "spec": hs.one_of(SCALARS, hs.fixed_dictionaries(
                  {}, optional={"seed": SCALARS, "replicas": hs.one_of(SCALARS, hs.integers(0, 30)),
                                "actions": hs.one_of(hs.lists(ACTION, max_size=4), SCALARS),
                                "tempo": SCALARS})),
              "status": SCALARS})
TEXT_EDITS = hs.sampled_from(["none", "CR", "LS", "duplicate-line", "drop-line", "tab"])


def _edited(text: str, edit: str, where: int) -> str:
    lines = text.split("\n")
    i = where % max(1, len(lines))
    if edit == "CR":
        return text.replace("\n", "\r")
    if edit == "LS":
        return text.replace("\n", "\u2028")
    if edit == "duplicate-line":
        return "\n".join(lines[:i + 1] + lines[i:])
    if edit == "drop-line":
        return "\n".join(lines[:i] + lines[i + 1:])
    if edit == "tab":
        return "\n".join(lines[:i] + ["\t" + lines[i]] + lines[i + 1:])
    return text


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=SCENARIO_DOC, edit=TEXT_EDITS, where=hs.integers(0, 200), flow=hs.booleans())
def test_fuzzed_scenarios_give_a_field_error_or_a_run(doc, edit, where, flow):
    text = SMALL + "---\n" + _edited(yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True), edit, where)
    try:
        sim = Simulation.from_text(text, max_events=300)
    except INPUT_ERRORS as err:
        lines = [str(p) for p in getattr(err, "problems", ())] or [str(err)]
        assert lines and all(line.startswith("<string>:") for line in lines), lines
        assert not any("internal error" in line for line in lines), lines
        return
    sim.run_until_idle()
    assert sim.stopped_reason in ("idle", "horizon", "max_events")
