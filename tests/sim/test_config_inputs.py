"""Which configuration a cluster file runs with: KubeSchedulerConfiguration and Policy documents,
``--config`` and ``--policy-config-file`` (kubesched.sim.inputs / config_source)."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.sim.inputs import load_inputs
from kubesched.sim.simulation import Simulation

NODE = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
"""
POLICY = """apiVersion: v1
kind: Policy
predicates: [{name: PodFitsResources}]
priorities: [{name: MostRequestedPriority, weight: 4}]
"""
V1ALPHA1_FILE = """apiVersion: kubescheduler.config.k8s.io/v1alpha1
kind: KubeSchedulerConfiguration
algorithmSource: {policy: {file: {path: /etc/kubernetes/scheduler-policy.json}}}
"""
V1ALPHA2 = """apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
"""


def _score(inputs) -> list[tuple[str, int]]:
    from kubesched.scheduler.profile.frameworks import resolve_profiles
    return [(p.name, p.weight) for p in resolve_profiles(inputs.config)[0].plugins.score.enabled]


def _problems(*args, **kwargs) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_inputs(*args, **kwargs)
    return [str(p) for p in info.value.problems]


def test_policy_document_alone_is_the_policy_config_file_flag():
    inputs = load_inputs(NODE + "---\n" + POLICY)
    assert inputs.config_given
    assert inputs.config.algorithm_source.provider is None
    assert inputs.config.algorithm_source.policy.file.path == "<string>"
    assert _score(inputs) == [("NodeResourcesMostAllocated", 4)]


def test_v1alpha1_file_source_reads_the_policy_document_of_the_cluster_file():
    inputs = load_inputs(NODE + "---\n" + V1ALPHA1_FILE + "---\n" + POLICY)
    assert inputs.config.algorithm_source.policy.file.path == "/etc/kubernetes/scheduler-policy.json"
    assert _score(inputs) == [("NodeResourcesMostAllocated", 4)]


def test_v1alpha1_file_source_without_a_policy_document():
    assert _problems(NODE + "---\n" + V1ALPHA1_FILE) == [
        "<string>:8: algorithmSource.policy.file.path: missing policy config file "
        "/etc/kubernetes/scheduler-policy.json (a configuration given as text reads no file: put the Policy "
        "document in the cluster file)"]


def test_policy_beside_a_provider_configuration_is_refused():
    assert _problems(NODE + "---\n" + V1ALPHA2 + "---\n" + POLICY) == [
        '<string>:9: the Policy is not used: the configuration\'s algorithm source is the provider '
        '"DefaultProvider" (kube-scheduler v1.18.5 ignores --policy-config-file when --config is given); name the '
        "Policy in algorithmSource.policy.file of a kubescheduler.config.k8s.io/v1alpha1 configuration"]


def test_a_second_policy_document():
    assert _problems(NODE + "---\n" + POLICY + "---\n" + POLICY) == [
        "<string>:11: a second Policy document (the first is at line 6); a cluster file may hold one"]


def test_other_groups_policy_kind_is_not_the_schedulers():
    inputs_text = NODE + "---\napiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n"
    with pytest.raises(Exception) as info:
        load_inputs(inputs_text)
    assert "ConfigError" not in type(info.value).__name__


def test_bad_policy_document_names_file_line_and_field():
    assert _problems(NODE + "---\n" + POLICY.replace("weight: 4", "weight: -1").replace("PodFitsResources",
                                                                                          "PodFitsResource")) == [
        "<string>:9: priorities[0].weight: Priority MostRequestedPriority should have a positive weight applied "
        "to it or it has overflown"]
    assert _problems(NODE + "---\n" + POLICY.replace("PodFitsResources", "PodFitsResource")) == [
        "<string>:6: couldn't create scheduler from policy: Invalid configuration: Predicate type not found for "
        '"PodFitsResource"']


def test_flag_replaces_the_documents_and_is_written_back(tmp_path: pathlib.Path):
    (tmp_path / "policy.yaml").write_text(POLICY.replace("weight: 4", "weight: 9"))
    sim = Simulation.from_yaml(NODE + "---\n" + POLICY, policy=tmp_path / "policy.yaml")
    assert _score(sim.inputs) == [("NodeResourcesMostAllocated", 9)]
    again = Simulation.from_yaml(sim.to_scenario_yaml())
    assert _score(again.inputs) == [("NodeResourcesMostAllocated", 9)]
    assert again.inputs.config == sim.inputs.config.__class__(**{
        **{f: getattr(sim.inputs.config, f) for f in sim.inputs.config.__dataclass_fields__},
        "algorithm_source": again.inputs.config.algorithm_source})


def test_config_given_as_text_and_flag_as_text():
    inputs = load_inputs(NODE, config=V1ALPHA1_FILE, policy=POLICY)
    assert _score(inputs) == [("NodeResourcesMostAllocated", 4)]
    assert inputs.policy_document == {"apiVersion": "v1", "kind": "Policy",
                                      "predicates": [{"name": "PodFitsResources"}],
                                      "priorities": [{"name": "MostRequestedPriority", "weight": 4}]}
