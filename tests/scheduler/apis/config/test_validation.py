"""ValidateKubeSchedulerConfiguration: each rule with v1.18.5's message."""

from __future__ import annotations

import dataclasses

import pytest

from kubesched.scheduler.apis.config.types import (
    KubeSchedulerConfiguration,
    Plugin,
    PluginSet,
)
from kubesched.scheduler.apis.config.validation import (
    errors_text,
    go_plugin_set,
    validate_kube_scheduler_configuration,
)
from tests.scheduler.apis.config.helpers import doc, load_config, problems_of

SORT = {"queueSort": {"enabled": [{"name": "CustomSort"}]}}

CASES = [
    ("burst", {"clientConnection": {"burst": -1}}, ["clientConnection.burst: Invalid value: -1: must be non-negative"]),
    ("lease-negative", {"leaderElection": {"leaseDuration": "-1s"}},
     ["leaderElection.leaseDuration: Invalid value: -1s: must be greater than zero",
      "leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline"]),
    ("renew-negative", {"leaderElection": {"renewDeadline": "-10s"}},
     ["leaderElection.renewDeadline: Invalid value: -10s: must be greater than zero"]),
    ("retry-negative", {"leaderElection": {"retryPeriod": "-1ms"}},
     ["leaderElection.retryPeriod: Invalid value: -1ms: must be greater than zero"]),
    ("lease-below-renew", {"leaderElection": {"leaseDuration": "5s"}},
     ["leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline"]),
    ("leader-election-off-skips", {"leaderElection": {"leaderElect": False, "leaseDuration": "-1s"}}, []),
    ("scheduler-name-empty", {"profiles": [{"schedulerName": "a"}, {"schedulerName": ""}]},
     ["profiles[1].schedulerName: Required value"]),
    ("scheduler-name-duplicate", {"profiles": [{"schedulerName": "x"}, {"schedulerName": "x"}]},
     ['profiles[1].schedulerName: Duplicate value: "x"']),
    ("queue-sort-differs", {"profiles": [{"schedulerName": "a", "plugins": SORT},
                                         {"schedulerName": "b", "plugins": {"queueSort": {
                                             "enabled": [{"name": "AnotherSort"}]}}}]},
     [('profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin'
      '{Name:"AnotherSort", Weight:0}}, Disabled:[]config.Plugin(nil)}: has to match for all profiles')]),
    ("queue-sort-one-empty", {"profiles": [{"schedulerName": "a"}, {"schedulerName": "b", "plugins": SORT}]},
     [('profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin'
      '{Name:"CustomSort", Weight:0}}, Disabled:[]config.Plugin(nil)}: has to match for all profiles')]),
    ("queue-sort-missing-later", {"profiles": [{"schedulerName": "a", "plugins": SORT}, {"schedulerName": "b"}]},
     ["profiles[1].plugins.queueSort: Invalid value: null: has to match for all profiles"]),
    ("queue-sort-same", {"profiles": [{"schedulerName": "a", "plugins": SORT},
                                      {"schedulerName": "b", "plugins": SORT}]}, []),
    ("healthz-port", {"healthzBindAddress": "0.0.0.0:909090"},
     ['healthzBindAddress: Invalid value: "0.0.0.0:909090": must be between 1 and 65535, inclusive']),
    ("healthz-host", {"healthzBindAddress": "0.0.0.0.0:9090"},
     ['healthzBindAddress: Invalid value: "0.0.0.0.0:9090": must be a valid IP address, (e.g. 10.9.8.7)']),
    ("metrics-port", {"metricsBindAddress": "1.2.3.4:"},
     ['metricsBindAddress: Invalid value: "1.2.3.4:": must be between 1 and 65535, inclusive']),
    ("percentage-101", {"percentageOfNodesToScore": 101},
     ["percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"]),
    ("percentage-negative", {"percentageOfNodesToScore": -1},
     ["percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"]),
    ("percentage-100", {"percentageOfNodesToScore": 100}, []),
    ("initial-backoff-zero", {"podInitialBackoffSeconds": 0},
     ["podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"]),
    ("max-backoff-below-initial", {"podInitialBackoffSeconds": 5, "podMaxBackoffSeconds": 4},
     ["podMaxBackoffSeconds: Invalid value: 4: must be greater than or equal to PodInitialBackoffSeconds"]),
    ("bind-timeout-not-validated", {"bindTimeoutSeconds": -5}, []),
    ("extender-weight", {"extenders": [{"urlPrefix": "http://127.0.0.1:1", "prioritizeVerb": "p", "weight": -2}]},
     ["extenders[0].weight: Invalid value: -2: must have a positive weight applied to it"]),
    ("extender-weight-unset", {"extenders": [{"urlPrefix": "http://127.0.0.1:1", "prioritizeVerb": "p"}]},
     ["extenders[0].weight: Invalid value: 0: must have a positive weight applied to it"]),
    ("extender-no-prioritize-no-weight", {"extenders": [{"urlPrefix": "http://127.0.0.1:1", "filterVerb": "f"}]}, []),
    ("extender-two-binders", {"extenders": [{"urlPrefix": "http://127.0.0.1:1", "bindVerb": "bind"},
                                            {"urlPrefix": "http://127.0.0.1:2", "bindVerb": "bind"}]},
     ['extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind']),
    ("extender-duplicate-resource", {"extenders": [
        {"urlPrefix": "a", "managedResources": [{"name": "foo.com/bar"}]},
        {"urlPrefix": "b", "managedResources": [{"name": "foo.com/bar"}]}]},
     ['extenders[1].managedResources[0].name: Invalid value: "foo.com/bar": duplicate extender managed resource name']),
    ("extender-native-resource", {"extenders": [{"urlPrefix": "a", "managedResources": [{"name": "kubernetes.io/foo"}]}]},
     [('extenders[0].managedResources[0].name: Invalid value: "kubernetes.io/foo": '
      'kubernetes.io/foo is an invalid extended resource name')]),
    ("extender-bad-name", {"extenders": [{"urlPrefix": "a", "managedResources": [{"name": "a/b/c"}]}]},
     [('extenders[0].managedResources[0].name: Invalid value: "a/b/c": a qualified name must consist of '
      "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
      "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
      "(e.g. 'example.com/MyName')")]),
    ("feature-gate-unknown", {"featureGates": {"NoSuchGate": True}},
     ["featureGates.NoSuchGate: unrecognized feature gate: NoSuchGate"]),
]


@pytest.mark.parametrize("fields,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validation_rule(fields, expected):
    if expected:
        assert problems_of(doc(**fields)) == expected
    else:
        load_config(doc(**fields))


def test_profiles_required():
    cfg = dataclasses.replace(KubeSchedulerConfiguration(), profiles=())
    problems = validate_kube_scheduler_configuration(cfg)
    assert [(p.path, p.message) for p in problems] == [("profiles", "Required value")]


def test_leader_election_required_strings():
    cfg = KubeSchedulerConfiguration()
    cfg = dataclasses.replace(cfg, leader_election=dataclasses.replace(
        cfg.leader_election, resource_lock="", resource_name="", resource_namespace=""))
    assert errors_text(validate_kube_scheduler_configuration(cfg)) == (
        '[leaderElection.resourceLock: Invalid value: "": resourceLock is required, '
        'leaderElection.resourceNamespace: Invalid value: "": resourceNamespace is required, '
        'leaderElection.resourceName: Invalid value: "": resourceName is required]')


def test_all_problems_reported_in_upstream_order():
    fields = {"percentageOfNodesToScore": 200, "podInitialBackoffSeconds": -1, "clientConnection": {"burst": -3},
              "profiles": [{"schedulerName": "a"}, {"schedulerName": "a"}]}
    assert problems_of(doc(**fields)) == [
        "clientConnection.burst: Invalid value: -3: must be non-negative",
        'profiles[1].schedulerName: Duplicate value: "a"',
        "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]",
        "podInitialBackoffSeconds: Invalid value: -1: must be greater than 0",
    ]


@pytest.mark.parametrize("plugin_set,expected", [
    (None, "null"),
    (PluginSet(), "config.PluginSet{Enabled:[]config.Plugin(nil), Disabled:[]config.Plugin(nil)}"),
    (PluginSet((Plugin("A", 2),), (Plugin("*"),)),
     ('config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"A", Weight:2}}, '
     'Disabled:[]config.Plugin{config.Plugin{Name:"*", Weight:0}}}')),
])
def test_go_plugin_set(plugin_set, expected):
    assert go_plugin_set(plugin_set) == expected


@pytest.mark.parametrize("texts,expected", [
    (["a: x"], "a: x"),
    (["a: x", "b: y", "a: x"], "[a: x, b: y]"),
])
def test_errors_text(texts, expected):
    from kubesched.api.decode import Problem
    assert errors_text([Problem(*t.split(": ", 1)) for t in texts]) == expected
