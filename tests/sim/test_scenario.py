"""Scenario documents: parsing, timed actions, clear errors, and the export round trip."""

from __future__ import annotations

import pytest

from kubesched.api.load import LoadError
from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.sim import Simulation
from kubesched.sim.edits import Cordon, Create, Delete, KillLeader, Uncordon, Update
from kubesched.sim.scenario import ScenarioError, join_documents, split_source
from kubesched.trace import Kind
from tests.sim.clusters import SMALL, node, scenario
from tests.sim.test_fork import CLUSTER, at_first_failure, big_node

NODE_N2 = ("{apiVersion: v1, kind: Node, metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}, "
           "status: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}}")
CONFIG = """---
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 70
"""


def test_actions_of_every_kind_are_parsed():
    text = SMALL + scenario(
        f"{{at: 5, create: {NODE_N2}}}",
        "{at: 6, update: {apiVersion: v1, kind: Node, metadata: {name: n1}}}",
        "{at: 7, delete: {kind: Pod, namespace: default, name: web-1}}",
        "{at: 8, delete: {kind: Node, name: n2}}",
        "{at: 9.5, cordon: n1}", "{at: 10, uncordon: n1}", "{at: 11, killLeader: true}",
        seed=4, replicas=3)
    rest, parsed = split_source(text, "cluster.yaml")
    assert (parsed.seed, parsed.replicas, parsed.name) == (4, 3, "test")
    assert [(a.at, type(a.edit)) for a in parsed.actions] == [
        (5.0, Create), (6.0, Update), (7.0, Delete), (8.0, Delete), (9.5, Cordon), (10.0, Uncordon),
        (11.0, KillLeader)]
    assert parsed.actions[2].edit == Delete("Pod", "default", "web-1")
    assert parsed.actions[3].edit == Delete("Node", "", "n2")
    assert parsed.actions[0].edit.obj.metadata.name == "n2"
    assert "Scenario" not in rest and rest.count("\n") == text.count("\n")   # line numbers kept


def test_timed_action_runs_at_its_time():
    sim = Simulation.from_yaml(CLUSTER + scenario(f"{{at: 5, create: {NODE_N2}}}"))
    sim.run_until_idle()
    big = sim.state().pod("default", "big")
    assert (big.phase, big.node, big.bound_at) == ("Running", "n2", 5.0)
    node_add = [r for r in sim.trace if r.kind is Kind.QUEUE_MOVE and r.pod == "default/big"
                and r.data.event == "NodeAdd"]
    assert [r.time for r in node_add] == [5.0]


def test_action_the_api_server_refuses_is_reported_and_skipped():
    sim = Simulation.from_yaml(SMALL + scenario("{at: 2, delete: {kind: Pod, name: ghost}}"))
    sim.run_until_idle()
    (refused,) = sim.action_errors
    assert (refused.index, refused.time, refused.action, refused.error) == (
        0, 2.0, "delete Pod default/ghost", 'pods "ghost" not found')
    assert str(refused) == 'spec.actions[0] at t=2s: delete Pod default/ghost: pods "ghost" not found'


NEEDS_ONE = "needs exactly one of create, update, delete, cordon, uncordon, killLeader, partition, stallWatch, tick, found "
BAD_POD = ("{at: 1, create: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: "
           "[{name: c, image: i, resources: {requests: {cpu: lots}}}]}}}")


@pytest.mark.parametrize("actions, line, path, message", [
    (["{at: -1, cordon: n1}"], 9, "spec.actions[0].at", "must be a number of seconds from 0 to 10000000, not -1"),
    (["{cordon: n1}"], 9, "spec.actions[0]", "missing field at (simulated seconds)"),
    (["{at: 1}"], 9, "spec.actions[0]", NEEDS_ONE + "none"),
    (["{at: 1, cordon: n1, uncordon: n1}"], 9, "spec.actions[0]", NEEDS_ONE + "cordon, uncordon"),
    (["{at: 1, cordon: n1}", "{at: 2, drain: n1}"], 10, "spec.actions[1].drain",
     "unknown field (expected at and one of create, update, delete, cordon, uncordon, killLeader, partition, stallWatch, tick)"),
    (["{at: 1, delete: {kind: Gadget, name: x}}"], 9, "spec.actions[0].delete.kind", 'unknown kind "Gadget"'),
    (["{at: 1, delete: {kind: Pod}}"], 9, "spec.actions[0].delete", "missing field name"),
    (["{at: 1, killLeader: false}"], 9, "spec.actions[0].killLeader", "must be true, not False"),
    ([BAD_POD], 9, "spec.actions[0].create.spec.containers[0].resources.requests.cpu", '"lots" is not a valid quantity'),
])
def test_scenario_errors_name_file_line_and_field(actions, line, path, message):
    text = scenario(*actions)
    with pytest.raises(ScenarioError) as info:
        split_source(text, "lesson.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.path) == ("lesson.yaml", line, path)
    assert problem.message.startswith(message)
    assert str(problem).startswith(f"lesson.yaml:{line}: Scenario: {path}: ")


@pytest.mark.parametrize("spec, path, message", [
    ("  replicas: 0\n", "spec.replicas", "must be an integer from 1 to 26, not 0"),
    ("  seed: -2\n", "spec.seed", "must be a non-negative integer, not -2"),
    ("  speed: 2\n", "spec.speed", "unknown field (expected seed, replicas, actions)"),
    ("  actions: {at: 1}\n", "spec.actions", "must be a list, not a mapping"),
])
def test_spec_errors(spec, path, message):
    text = f"apiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n{spec}"
    with pytest.raises(ScenarioError) as info:
        Simulation.from_yaml(text)
    (problem,) = info.value.problems
    assert (problem.line, problem.path, problem.message) == (4, path, message)


def test_wrong_api_version_and_two_scenarios():
    with pytest.raises(ScenarioError, match=r'<string>:2: Scenario: apiVersion: must be "kubesched/v1alpha1", '
                                            r'not "v1"'):
        Simulation.from_yaml("---\napiVersion: v1\nkind: Scenario\n")
    with pytest.raises(ScenarioError, match=r"a second Scenario document \(the first is at line 2\)"):
        Simulation.from_yaml(scenario() + scenario())


def test_cluster_and_config_errors_keep_their_own_types():
    with pytest.raises(LoadError):
        Simulation.from_yaml(node("n1") + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n"
                             + scenario())
    with pytest.raises(ConfigError, match="percentageOfNodesToScore"):
        Simulation.from_yaml(SMALL, config=CONFIG.replace("70", "170"))


@pytest.mark.parametrize("config_in_file", [True, False])
def test_export_round_trip_reproduces_the_digest(config_in_file):
    source = CLUSTER + (CONFIG if config_in_file else "") + scenario("{at: 4, cordon: n1}", seed=3, replicas=2)
    sim = Simulation.from_yaml(source, config=None if config_in_file else CONFIG)
    at_first_failure(sim)
    sim.apply(Create(big_node()))
    sim.advance(10)
    sim.apply(Delete("Pod", "default", "small"))
    sim.run_until_idle()
    exported = sim.to_scenario_yaml()
    assert exported.count("kind: KubeSchedulerConfiguration") == 1
    assert exported.count("kind: Scenario") == 1
    again = Simulation.from_yaml(exported)
    again.run_until_idle()
    assert again.inputs.config.percentage_of_nodes_to_score == 70
    assert (again.inputs.seed, again.inputs.scenario.replicas) == (3, 2)
    assert again.digest() == sim.digest()
    # and once more: export of the reloaded run is the same text
    assert again.to_scenario_yaml() == exported


def test_seed_argument_overrides_the_scenario_seed():
    sim = Simulation.from_yaml(SMALL + scenario(seed=9), seed=2)
    assert sim.inputs.seed == 2
    assert "seed: 2" in sim.to_scenario_yaml()


def test_path_source_names_the_file_in_errors(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(node("n1") + scenario("{at: x, cordon: n1}"))
    with pytest.raises(ScenarioError, match=r"bad.yaml:17: Scenario: spec.actions\[0\].at: "):
        Simulation.from_path(path)
    good = tmp_path / "good.yaml"
    good.write_text(SMALL)
    assert Simulation.from_path(good).run_until_idle() > 0


def test_missing_file_is_a_load_error(tmp_path):
    with pytest.raises(LoadError, match="cannot read file"):
        Simulation.from_yaml(tmp_path / "nope.yaml")


def test_config_object_is_not_exported_and_says_so():
    from kubesched.scheduler.apis.config.scheme import load_config
    sim = Simulation.from_yaml(SMALL, config=load_config(CONFIG))
    assert sim.inputs.config.percentage_of_nodes_to_score == 70
    assert "# KubeSchedulerConfiguration given as an object: not written" in sim.to_scenario_yaml()


@pytest.mark.parametrize(("parts", "expected"), [
    (["a: 1\n", "b: 2\n"], "a: 1\n---\nb: 2\n"),
    (["\n\na: 1\n\n", "", "  \n", "b: 2"], "a: 1\n---\nb: 2\n"),
    (["only: x"], "only: x\n"),
])
def test_join_documents(parts: list[str], expected: str) -> None:
    assert join_documents(parts) == expected
