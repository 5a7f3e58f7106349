"""Strict decoding of v1alpha2 documents: unknown fields, types, apiVersion/kind, sources."""

from __future__ import annotations

import pytest

from kubesched.api.load import load_cluster
from kubesched.scheduler.apis.config.scheme import ConfigError, load_config
from kubesched.scheduler.apis.config.types import Extender, ExtenderManagedResource
from kubesched.scheduler.framework.v1alpha1.plugin_args import RawArgs
from tests.scheduler.apis.config.helpers import HEAD, doc, problems_of

V = "kubescheduler.config.k8s.io/v1alpha2"

CASES = [
    ("unknown-top", doc(percentageOfNodesToScor=1),
     ['percentageOfNodesToScor: unknown field "percentageOfNodesToScor" in KubeSchedulerConfiguration']),
    ("unknown-case", doc(profiles=[{"SchedulerName": "x"}]),
     [('profiles[0].SchedulerName: unknown field "SchedulerName" in KubeSchedulerProfile '
      '(did you mean "schedulerName"?)')]),
    ("unknown-plugin-point", doc(profiles=[{"plugins": {"postFilter": {}}}]),
     ['profiles[0].plugins.postFilter: unknown field "postFilter" in Plugins']),
    ("unknown-in-extender", doc(extenders=[{"urlPrefix": "u", "verb": "x"}]),
     ['extenders[0].verb: unknown field "verb" in Extender']),
    ("algorithm-source-not-v1alpha2", doc(algorithmSource={"provider": "DefaultProvider"}),
     ['algorithmSource: unknown field "algorithmSource" in KubeSchedulerConfiguration']),
    ("int-as-string", doc(percentageOfNodesToScore="50"),
     ["percentageOfNodesToScore: must be an integer, not a string"]),
    ("int-as-float", doc(bindTimeoutSeconds=1.5), ["bindTimeoutSeconds: must be an integer, not a number"]),
    ("int32-overflow", doc(percentageOfNodesToScore=1 << 31),
     ["percentageOfNodesToScore: 2147483648 does not fit in int32 (between -2147483648 and 2147483647)"]),
    ("bool-as-string", doc(disablePreemption="true"),
     ["disablePreemption: must be a boolean (true or false), not a string"]),
    ("profiles-not-list", doc(profiles={"schedulerName": "x"}), ["profiles: must be a list, not an object"]),
    ("plugins-not-object", doc(profiles=[{"plugins": ["a"]}]), ["profiles[0].plugins: must be an object, not a list"]),
    ("weight-string", doc(profiles=[{"plugins": {"score": {"enabled": [{"name": "A", "weight": "2"}]}}}]),
     ["profiles[0].plugins.score.enabled[0].weight: must be an integer, not a string"]),
    ("name-int", doc(profiles=[{"plugins": {"filter": {"disabled": [{"name": 5}]}}}]),
     ["profiles[0].plugins.filter.disabled[0].name: must be a string, not an integer"]),
    ("duration-number", doc(leaderElection={"leaseDuration": 15}),
     ['leaderElection.leaseDuration: must be a duration string such as "15s" or "1m30s", not an integer']),
    ("duration-no-unit", doc(leaderElection={"renewDeadline": "10"}),
     ['leaderElection.renewDeadline: time: missing unit in duration "10"']),
    ("duration-bad-unit", doc(leaderElection={"retryPeriod": "2d"}),
     ['leaderElection.retryPeriod: time: unknown unit "d" in duration "2d"']),
    ("http-timeout-string", doc(extenders=[{"urlPrefix": "u", "httpTimeout": "30s"}]),
     [("extenders[0].httpTimeout: must be an integer number of nanoseconds (httpTimeout decodes as a "
      "Go time.Duration), not a string; 30s is 30000000000")]),
    ("feature-gate-not-bool", doc(featureGates={"EvenPodsSpread": "no"}),
     ["featureGates.EvenPodsSpread: must be a boolean (true or false), not a string"]),
    ("not-an-object", "- x\n", ["the configuration must be an object, not a list"]),
    ("kind-missing", {"apiVersion": V}, ['kind: Required value: must be "KubeSchedulerConfiguration"']),
    ("kind-wrong", {"apiVersion": V, "kind": "Pod"},
     ['kind: Unsupported value: "Pod": supported values: "KubeSchedulerConfiguration"']),
    ("kind-policy", {"apiVersion": "v1", "kind": "Policy"},
     [("kind: this is a Policy (predicates and priorities), not a KubeSchedulerConfiguration: give it with "
       "--policy-config-file, or name it in algorithmSource.policy of a v1alpha1 configuration")]),
    ("apiversion-missing", {"kind": "KubeSchedulerConfiguration"},
     ['apiVersion: Required value: must be one of "kubescheduler.config.k8s.io/v1alpha1", '
      '"kubescheduler.config.k8s.io/v1alpha2"']),
    ("apiversion-v1beta1", {"apiVersion": "kubescheduler.config.k8s.io/v1beta1", "kind": "KubeSchedulerConfiguration"},
     [("apiVersion: kubescheduler.config.k8s.io/v1beta1 is a Kubernetes 1.19+ format; kube-scheduler v1.18.5 "
       "reads kubescheduler.config.k8s.io/v1alpha1 and v1alpha2")]),
    ("apiversion-v1beta2", {"apiVersion": "kubescheduler.config.k8s.io/v1beta2", "kind": "KubeSchedulerConfiguration"},
     [("apiVersion: kubescheduler.config.k8s.io/v1beta2 is a Kubernetes 1.22+ format; kube-scheduler v1.18.5 "
       "reads kubescheduler.config.k8s.io/v1alpha1 and v1alpha2")]),
    ("apiversion-v1beta3", {"apiVersion": "kubescheduler.config.k8s.io/v1beta3", "kind": "KubeSchedulerConfiguration"},
     [("apiVersion: kubescheduler.config.k8s.io/v1beta3 is a Kubernetes 1.23+ format; kube-scheduler v1.18.5 "
       "reads kubescheduler.config.k8s.io/v1alpha1 and v1alpha2")]),
    ("apiversion-v1", {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"},
     [("apiVersion: kubescheduler.config.k8s.io/v1 is a Kubernetes 1.25+ format; kube-scheduler v1.18.5 "
       "reads kubescheduler.config.k8s.io/v1alpha1 and v1alpha2")]),
    ("apiversion-unknown-in-group", {"apiVersion": "kubescheduler.config.k8s.io/v2", "kind": "KubeSchedulerConfiguration"},
     ['apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v2": supported values: '
      '"kubescheduler.config.k8s.io/v1alpha1", "kubescheduler.config.k8s.io/v1alpha2"']),
    ("apiversion-other", {"apiVersion": "v1", "kind": "KubeSchedulerConfiguration"},
     ['apiVersion: Unsupported value: "v1": supported values: "kubescheduler.config.k8s.io/v1alpha1", '
      '"kubescheduler.config.k8s.io/v1alpha2"']),
    ("v1alpha2-has-no-hard-pod-affinity", doc(hardPodAffinitySymmetricWeight=2),
     ['hardPodAffinitySymmetricWeight: unknown field "hardPodAffinitySymmetricWeight" in KubeSchedulerConfiguration']),
    ("v1alpha1-has-no-profiles", {"apiVersion": "kubescheduler.config.k8s.io/v1alpha1",
                                  "kind": "KubeSchedulerConfiguration", "profiles": []},
     ['profiles: unknown field "profiles" in KubeSchedulerConfiguration']),
    ("v1alpha1-has-no-prescore", {"apiVersion": "kubescheduler.config.k8s.io/v1alpha1",
                                  "kind": "KubeSchedulerConfiguration", "plugins": {"preScore": {}}},
     ['plugins.preScore: unknown field "preScore" in Plugins']),
    ("v1alpha1-has-no-extenders", {"apiVersion": "kubescheduler.config.k8s.io/v1alpha1",
                                   "kind": "KubeSchedulerConfiguration", "extenders": []},
     ['extenders: unknown field "extenders" in KubeSchedulerConfiguration']),
]


@pytest.mark.parametrize("source,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_decode_error(source, expected):
    assert problems_of(source) == expected


YAML = f"""apiVersion: {V}
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: yes
  plugins:
    score:
      enabled:
      - name: A
        weight: two
percentageOfNodesToScore: 10
percentageOfNodesToScore: 20
"""


def test_yaml_lines_traps_and_duplicate_keys():
    with pytest.raises(ConfigError) as info:
        load_config(YAML, filename="sched.yaml")
    assert [str(p) for p in info.value.problems] == [
        'sched.yaml:11: percentageOfNodesToScore: duplicate key "percentageOfNodesToScore" (first at line 10)',
        ('sched.yaml:4: profiles[0].schedulerName: must be a string, but YAML read unquoted yes as a boolean: '
        'write "yes"'),
        "sched.yaml:9: profiles[0].plugins.score.enabled[0].weight: must be an integer, not a string",
    ]


def test_yaml_syntax_error():
    with pytest.raises(ConfigError) as info:
        load_config("kind: [\n", filename="f.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.path) == ("f.yaml", "")
    assert problem.message.startswith("YAML syntax error")


@pytest.mark.parametrize("text,expected", [
    ("", "expected one KubeSchedulerConfiguration document, found no"),
    ("apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Node\n",
     "expected one KubeSchedulerConfiguration document, found no"),
    (f"apiVersion: {V}\nkind: KubeSchedulerConfiguration\n---\napiVersion: {V}\nkind: KubeSchedulerConfiguration\n",
     "expected one KubeSchedulerConfiguration document, found 2"),
])
def test_document_count(text, expected):
    assert problems_of(text) == [expected]


def test_config_among_other_documents():
    text = f"apiVersion: v1\nkind: Node\nmetadata: {{name: n}}\n---\napiVersion: {V}\nkind: KubeSchedulerConfiguration\n" \
           "percentageOfNodesToScore: 7\n"
    assert load_config(text).percentage_of_nodes_to_score == 7


def test_path_source(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(f"apiVersion: {V}\nkind: KubeSchedulerConfiguration\nbogus: 1\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert [str(p) for p in info.value.problems] == [
        f'{path}:3: bogus: unknown field "bogus" in KubeSchedulerConfiguration']


def test_raw_document_from_cluster_loader():
    text = (f"apiVersion: v1\nkind: Node\nmetadata: {{name: n}}\n---\n"
            f"apiVersion: {V}\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 300\n")
    cluster = load_cluster(text, filename="cluster.yaml")
    (raw,) = cluster.config_documents
    with pytest.raises(ConfigError) as info:
        load_config(raw)
    assert [str(p) for p in info.value.problems] == [
        "cluster.yaml:5: percentageOfNodesToScore: Invalid value: 300: not in valid range [0-100]"]


def test_dict_source_has_no_line():
    with pytest.raises(ConfigError) as info:
        load_config(doc(bogus=1))
    assert str(info.value) == ("1 error(s) in the scheduler configuration:\n"
                               '<config>: bogus: unknown field "bogus" in KubeSchedulerConfiguration')


def test_extender_fields_case_insensitive_and_converted():
    cfg = load_config(doc(extenders=[{
        "URLPrefix": "http://127.0.0.1:8888/x", "filterverb": "filter", "PrioritizeVerb": "prio", "weight": 2,
        "BindVerb": "bind", "preemptVerb": "preempt", "httpTimeout": 3_000_000_000, "nodeCacheCapable": True,
        "ignorable": True, "enableHttps": False, "TLSConfig": {"insecure": True},
        "managedResources": [{"name": "example.com/gpu", "IgnoredByScheduler": True}]}]))
    assert cfg.extenders == (Extender(
        url_prefix="http://127.0.0.1:8888/x", filter_verb="filter", preempt_verb="preempt", prioritize_verb="prio",
        weight=2, bind_verb="bind", enable_https=False, tls_config={"insecure": True}, http_timeout_ns=3_000_000_000,
        node_cache_capable=True, managed_resources=(ExtenderManagedResource("example.com/gpu", True),),
        ignorable=True),)


@pytest.mark.parametrize("args,expected", [
    ({"hardPodAffinityWeight": 5}, {"hardPodAffinityWeight": 5}),
    (None, None),
    ([1, 2], RawArgs("[1, 2]")),
])
def test_plugin_config_args(args, expected):
    cfg = load_config(doc(profiles=[{"pluginConfig": [{"name": "InterPodAffinity", "args": args}]}]))
    assert cfg.profiles[0].plugin_config[0].args == expected


def test_head_only_is_valid():
    assert load_config(dict(HEAD)).profiles[0].scheduler_name == "default-scheduler"
