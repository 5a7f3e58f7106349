"""Defaults of v1alpha2 (SetDefaults_KubeSchedulerConfiguration) and the conversion."""

from __future__ import annotations

import pytest

from kubesched.scheduler.apis.config.defaults import default_bind_address
from kubesched.scheduler.apis.config.scheme import default_config, load_config
from kubesched.scheduler.apis.config.types import KubeSchedulerProfile, PluginConfig
from tests.scheduler.apis.config.helpers import doc, problems_of

EMPTY_DEFAULTS = [
    ("algorithm_source.provider", "DefaultProvider"),
    ("percentage_of_nodes_to_score", 0),
    ("bind_timeout_seconds", 600),
    ("pod_initial_backoff_seconds", 1),
    ("pod_max_backoff_seconds", 10),
    ("disable_preemption", False),
    ("healthz_bind_address", "0.0.0.0:10251"),
    ("metrics_bind_address", "0.0.0.0:10251"),
    ("enable_profiling", True),
    ("enable_contention_profiling", True),
    ("leader_election.leader_elect", True),
    ("leader_election.lease_duration_ns", 15_000_000_000),
    ("leader_election.renew_deadline_ns", 10_000_000_000),
    ("leader_election.retry_period_ns", 2_000_000_000),
    ("leader_election.resource_lock", "endpointsleases"),
    ("leader_election.resource_namespace", "kube-system"),
    ("leader_election.resource_name", "kube-scheduler"),
    ("client_connection.qps", 50.0),
    ("client_connection.burst", 100),
    ("client_connection.content_type", "application/vnd.kubernetes.protobuf"),
    ("profiles", (KubeSchedulerProfile("default-scheduler", None, ()),)),
    ("extenders", ()),
    ("feature_gates", {}),
]


def _get(obj, dotted: str):
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("field,expected", EMPTY_DEFAULTS, ids=[f for f, _ in EMPTY_DEFAULTS])
def test_empty_config_defaults(field, expected):
    assert _get(load_config(doc()), field) == expected


def test_default_config_is_the_empty_document():
    assert default_config() == load_config("apiVersion: kubescheduler.config.k8s.io/v1alpha2\n"
                                           "kind: KubeSchedulerConfiguration\n")


@pytest.mark.parametrize("given,expected", [
    (None, "0.0.0.0:10251"),
    (":1234", "0.0.0.0:1234"),
    ("127.0.0.1:9999", "127.0.0.1:9999"),
    ("127.0.0.1", "127.0.0.1:10251"),
    ("::1", "[::1]:10251"),
    ("[::1]:80", "[::1]:80"),
    ("garbage", "0.0.0.0:10251"),
    ("1.2.3.4:", "1.2.3.4:"),
])
def test_bind_address_defaulting(given, expected):
    assert default_bind_address(given) == expected


@pytest.mark.parametrize("fields,path,expected", [
    ({"percentageOfNodesToScore": 30}, "percentage_of_nodes_to_score", 30),
    ({"bindTimeoutSeconds": 0}, "bind_timeout_seconds", 0),
    ({"disablePreemption": True}, "disable_preemption", True),
    ({"enableProfiling": False}, "enable_contention_profiling", False),
    ({"enableProfiling": False, "enableContentionProfiling": True}, "enable_contention_profiling", True),
    ({"leaderElection": {"leaseDuration": "0s"}}, "leader_election.lease_duration_ns", 15_000_000_000),
    ({"leaderElection": {"leaseDuration": "1m30s"}}, "leader_election.lease_duration_ns", 90_000_000_000),
    ({"leaderElection": {"leaderElect": False}}, "leader_election.leader_elect", False),
    ({"clientConnection": {"qps": 0}}, "client_connection.qps", 50.0),
    ({"clientConnection": {"burst": 7}}, "client_connection.burst", 7),
    ({"healthzBindAddress": ":8080"}, "healthz_bind_address", "0.0.0.0:8080"),
    ({"metricsBindAddress": "10.0.0.1"}, "metrics_bind_address", "10.0.0.1:10251"),
    ({"podMaxBackoffSeconds": None}, "pod_max_backoff_seconds", 10),
    ({"featureGates": {"EvenPodsSpread": False}}, "feature_gates", {"EvenPodsSpread": False}),
])
def test_explicit_values_and_null(fields, path, expected):
    assert _get(load_config(doc(**fields)), path) == expected


def test_single_unnamed_profile_gets_default_name():
    cfg = load_config(doc(profiles=[{"pluginConfig": [{"name": "X", "args": {"a": 1}}]}]))
    assert cfg.profiles == (KubeSchedulerProfile("default-scheduler", None, (PluginConfig("X", {"a": 1}),)),)


def test_several_unnamed_profiles_are_not_defaulted():
    assert problems_of(doc(profiles=[{}, {"schedulerName": "b"}])) == [
        "profiles[0].schedulerName: Required value"]


def test_plugin_weight_absent_is_zero_and_points_absent_are_none():
    cfg = load_config(doc(profiles=[{"plugins": {"score": {"enabled": [{"name": "A"}, {"name": "B", "weight": 3}]}}}]))
    plugins = cfg.profiles[0].plugins
    assert [(p.name, p.weight) for p in plugins.score.enabled] == [("A", 0), ("B", 3)]
    assert plugins.filter is None and plugins.queue_sort is None
