"""kubescheduler.config.k8s.io/v1alpha1: defaults, conversion to one profile, leader-election merge.

Upstream: pkg/scheduler/apis/config/v1alpha1/defaults_test.go (TestSchedulerDefaults),
conversion_test.go (TestConvertKubeSchedulerConfiguration,
TestV1alpha1ToConfigKubeSchedulerLeaderElectionConfiguration,
TestConvertBetweenV1Alpha1PluginsAndConfigPlugins) @ release-1.18.
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.apis.config import v1alpha1
from kubesched.scheduler.apis.config.scheme import ConfigError, default_config, load_config
from kubesched.scheduler.apis.config.types import (
    KubeSchedulerProfile,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    RawArgs,
    SchedulerAlgorithmSource,
    SchedulerPolicyConfigMapSource,
)
from tests.scheduler.apis.config.helpers import problems_of

HEAD = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha1", "kind": "KubeSchedulerConfiguration"}


def v1(**fields):
    return {**HEAD, **fields}


def test_empty_v1alpha1_is_the_v1alpha2_default():
    """TestSchedulerDefaults "empty config": the same internal configuration as an empty v1alpha2."""
    assert load_config(v1()) == default_config()


DEFAULTS = [  # TestSchedulerDefaults, on the versioned form
    ("empty", {}, {"schedulerName": "default-scheduler", "algorithmSource": {"provider": "DefaultProvider"},
                   "healthzBindAddress": "0.0.0.0:10251", "metricsBindAddress": "0.0.0.0:10251",
                   "enableProfiling": True, "enableContentionProfiling": True,
                   "leaderElection": {"leaderElect": True, "leaseDuration": 15_000_000_000,
                                      "renewDeadline": 10_000_000_000, "retryPeriod": 2_000_000_000,
                                      "resourceLock": "endpointsleases", "lockObjectName": "kube-scheduler",
                                      "lockObjectNamespace": "kube-system"},
                   "clientConnection": {"qps": 50.0, "burst": 100,
                                        "contentType": "application/vnd.kubernetes.protobuf"},
                   "disablePreemption": False, "percentageOfNodesToScore": 0, "bindTimeoutSeconds": 600,
                   "podInitialBackoffSeconds": 1, "podMaxBackoffSeconds": 10}),
    ("custom hard pod affinity", {"hardPodAffinitySymmetricWeight": 42}, {"hardPodAffinitySymmetricWeight": 42}),
    ("metrics and healthz address with no port", {"metricsBindAddress": "1.2.3.4", "healthzBindAddress": "1.2.3.4"},
     {"metricsBindAddress": "1.2.3.4:10251", "healthzBindAddress": "1.2.3.4:10251"}),
    ("metrics and healthz port with no address", {"metricsBindAddress": ":12345", "healthzBindAddress": ":12345"},
     {"metricsBindAddress": "0.0.0.0:12345", "healthzBindAddress": "0.0.0.0:12345"}),
    ("policy source keeps provider unset", {"algorithmSource": {"policy": {"file": {"path": "p.json"}}}},
     {"algorithmSource": {"policy": {"file": {"path": "p.json"}}}}),
    ("policy configMap namespace", {"algorithmSource": {"policy": {"configMap": {"name": "c"}}}},
     {"algorithmSource": {"policy": {"configMap": {"name": "c", "namespace": "kube-system"}}}}),
    ("resource names given: no lockObject defaults",
     {"leaderElection": {"resourceName": "n", "resourceNamespace": "ns"}},
     {"leaderElection": {"leaderElect": True, "leaseDuration": 15_000_000_000, "renewDeadline": 10_000_000_000,
                         "retryPeriod": 2_000_000_000, "resourceLock": "endpointsleases", "resourceName": "n",
                         "resourceNamespace": "ns"}}),
]


@pytest.mark.parametrize("given,expected", [c[1:] for c in DEFAULTS], ids=[c[0] for c in DEFAULTS])
def test_set_defaults(given, expected):
    defaulted = v1alpha1.set_defaults(given)
    assert {k: defaulted[k] for k in expected} == expected
    if given == {}:
        assert defaulted == expected


CONVERT = [  # TestConvertKubeSchedulerConfiguration: the single profile
    ("scheduler name", v1(schedulerName="custom-name"), (KubeSchedulerProfile("custom-name"),)),
    ("plugins and plugin config", v1(plugins={"queueSort": {"enabled": [{"name": "FooPlugin"}]}},
                                     pluginConfig=[{"name": "FooPlugin"}]),
     (KubeSchedulerProfile("default-scheduler", Plugins(queue_sort=PluginSet((Plugin("FooPlugin"),))),
                           (PluginConfig("FooPlugin"),)),)),
    ("custom hard pod affinity weight", v1(hardPodAffinitySymmetricWeight=3),
     (KubeSchedulerProfile("default-scheduler", None,
                           (PluginConfig("InterPodAffinity", RawArgs('{"hardPodAffinityWeight":3}')),)),)),
    ("custom hard pod affinity weight and existing PluginConfig",
     v1(hardPodAffinitySymmetricWeight=3, pluginConfig=[{"name": "InterPodAffinity",
                                                         "args": {"hardPodAffinityWeight": 5}}]),
     (KubeSchedulerProfile("default-scheduler", None,
                           (PluginConfig("InterPodAffinity", {"hardPodAffinityWeight": 5}),
                            PluginConfig("InterPodAffinity", RawArgs('{"hardPodAffinityWeight":3}')))),)),
]


@pytest.mark.parametrize("source,profiles", [c[1:] for c in CONVERT], ids=[c[0] for c in CONVERT])
def test_convert_to_one_profile(source, profiles):
    assert load_config(source).profiles == profiles


def test_plugins_post_filter_becomes_pre_score():
    """TestConvertBetweenV1Alpha1PluginsAndConfigPlugins: every point, postFilter → preScore, weights kept."""
    points = ("queueSort", "preFilter", "filter", "postFilter", "score", "reserve", "permit", "preBind", "bind",
              "postBind", "unreserve")
    plugins = {p: {"enabled": [{"name": f"{p.lower()}-plugin", "weight": 10 if p == "score" else 42}],
                   "disabled": [{"name": f"disabled-{p.lower()}-plugin", "weight": 10 if p == "score" else 42}]}
               for p in points}
    got = load_config(v1(plugins=plugins)).profiles[0].plugins
    fields = ("queue_sort", "pre_filter", "filter", "pre_score", "score", "reserve", "permit", "pre_bind", "bind",
              "post_bind", "unreserve")
    for point, attr in zip(points, fields):
        weight = 10 if point == "score" else 42
        assert getattr(got, attr) == PluginSet((Plugin(f"{point.lower()}-plugin", weight),),
                                               (Plugin(f"disabled-{point.lower()}-plugin", weight),))


LEADER = [  # TestV1alpha1ToConfigKubeSchedulerLeaderElectionConfiguration
    ("both-set-same-name-and-namespace", {"lockObjectName": "name", "lockObjectNamespace": "namespace",
                                          "resourceName": "name", "resourceNamespace": "namespace"},
     ("namespace", "name")),
    ("not-set-lock-object-name", {"lockObjectNamespace": "namespace", "resourceName": "name",
                                  "resourceNamespace": "namespace"}, ("namespace", "name")),
    ("not-set-lock-object-namespace", {"lockObjectName": "name", "resourceName": "name",
                                       "resourceNamespace": "namespace"}, ("namespace", "name")),
    ("not-set-resource-name", {"lockObjectName": "name", "lockObjectNamespace": "namespace",
                               "resourceNamespace": "namespace"}, ("namespace", "name")),
    ("not-set-resource-namespace", {"lockObjectName": "name", "lockObjectNamespace": "namespace",
                                    "resourceName": "name"}, ("namespace", "name")),
    ("set-empty-name-and-namespace", {}, ("", "")),
]


@pytest.mark.parametrize("le,expected", [c[1:] for c in LEADER], ids=[c[0] for c in LEADER])
def test_leader_election_conversion(le, expected):
    out = v1alpha1.convert_leader_election(le)
    assert (out["resourceNamespace"], out["resourceName"]) == expected


@pytest.mark.parametrize("le,message", [
    ({"lockObjectName": "name1", "resourceName": "name"},
     "leaderElection.lockObjectName: ResourceName and LockObjectName are both set and do not match, "
     "ResourceName: name, LockObjectName: name1"),
    ({"lockObjectNamespace": "namespace1", "resourceNamespace": "namespace"},
     "leaderElection.lockObjectNamespace: ResourceNamespace and LockObjectNamespace are both set and do not match, "
     "ResourceNamespace: namespace, LockObjectNamespace: namespace1"),
], ids=["set-different-name", "set-different-namespace"])
def test_leader_election_mismatch_is_refused(le, message):
    assert problems_of(v1(leaderElection=le)) == [message]


def test_lock_object_names_reach_the_internal_configuration():
    le = load_config(v1(leaderElection={"lockObjectName": "sched", "lockObjectNamespace": "ops"})).leader_election
    assert (le.resource_namespace, le.resource_name) == ("ops", "sched")


def test_docs_perf_tuning_config():
    """The v1.18 docs' Scheduler Performance Tuning example (v1alpha1, provider and percentage)."""
    text = ("apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n"
            "algorithmSource:\n  provider: DefaultProvider\n\npercentageOfNodesToScore: 50\n")
    cfg = load_config(text)
    assert (cfg.percentage_of_nodes_to_score, cfg.algorithm_source) == (50, SchedulerAlgorithmSource("DefaultProvider"))


def test_algorithm_source_conversion():
    cfg = load_config(v1(algorithmSource={"policy": {"configMap": {"name": "p"}}}))
    assert cfg.algorithm_source.provider is None
    assert cfg.algorithm_source.policy.config_map == SchedulerPolicyConfigMapSource("kube-system", "p")


@pytest.mark.parametrize("source,expected", [
    (v1(percentageOfNodesToScore=500), ["percentageOfNodesToScore: Invalid value: 500: not in valid range [0-100]"]),
    (v1(schedulerName=""), ["profiles[0].schedulerName: Required value"]),
    (v1(hardPodAffinitySymmetricWeight="3"), ["hardPodAffinitySymmetricWeight: must be an integer, not a string"]),
    (v1(algorithmSource={"policy": {"flie": {}}}),
     ['algorithmSource.policy.flie: unknown field "flie" in SchedulerPolicySource']),
])
def test_validation_and_decoding(source, expected):
    assert problems_of(source) == expected


def test_text_config_naming_a_policy_file_reads_no_file():
    with pytest.raises(ConfigError) as info:
        load_config("apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n"
                    "algorithmSource:\n  policy:\n    file:\n      path: /etc/passwd\n", filename="c.yaml")
    assert [str(p) for p in info.value.problems] == [
        "c.yaml:6: algorithmSource.policy.file.path: missing policy config file /etc/passwd (a configuration given "
        "as text reads no file: put the Policy document in the cluster file)"]


def test_policy_file_relative_to_the_config_file(tmp_path):
    (tmp_path / "policy.json").write_text('{"kind": "Policy", "apiVersion": "v1", "predicates": [], '
                                          '"priorities": [{"name": "MostRequestedPriority", "weight": 3}]}')
    (tmp_path / "sched.yaml").write_text("apiVersion: kubescheduler.config.k8s.io/v1alpha1\n"
                                         "kind: KubeSchedulerConfiguration\nalgorithmSource:\n  policy:\n"
                                         "    file:\n      path: policy.json\n")
    policy = load_config(tmp_path / "sched.yaml").algorithm_source.policy.policy
    assert [(p.name, p.weight) for p in policy.priorities] == [("MostRequestedPriority", 3)]
    (tmp_path / "policy.json").unlink()
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "sched.yaml")
    assert [str(p) for p in info.value.problems] == ["policy.json: missing policy config file policy.json"]
