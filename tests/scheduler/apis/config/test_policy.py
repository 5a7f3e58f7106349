"""The legacy Policy: decoding, ValidatePolicy, and every 1.18 predicate / priority name as plugins.

Upstream: staging/src/k8s.io/kube-scheduler/config/v1 (Policy), pkg/scheduler/apis/config/
validation/validation.go (ValidatePolicy, validateCustomPriorities),
pkg/scheduler/framework/plugins/legacy_registry.go (producers, Process*Policy, *OrDie) and
pkg/scheduler/factory.go (createFromConfig) @ release-1.18.
"""

from __future__ import annotations

import pytest

from kubesched import features
from kubesched.scheduler.apis.config.scheme import ConfigError, load_policy, policy_file_config
from kubesched.scheduler.framework.plugins import legacy_registry as lr
from kubesched.scheduler.profile.from_policy import translate_policy
from kubesched.sim.config_source import Located, resolve_config


def policy(**fields) -> dict:
    return {"kind": "Policy", "apiVersion": "v1", **fields}


def problems(source) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_policy(source)
    return [f"{p.path}: {p.message}" if p.path else p.message for p in info.value.problems]


DECODE = [
    ("unknown-field", policy(predicate=[]), ['predicate: unknown field "predicate" in Policy']),
    ("unknown-in-argument", policy(predicates=[{"name": "x", "argument": {"serviceAffinity": {"label": ["a"]}}}]),
     ['predicates[0].argument.serviceAffinity.label: unknown field "label" in ServiceAffinity']),
    ("weight-string", policy(priorities=[{"name": "LeastRequestedPriority", "weight": "1"}]),
     ["priorities[0].weight: must be an integer, not a string"]),
    ("shape-score-string", policy(priorities=[{"name": "r", "weight": 1, "argument": {
        "requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": "0"}]}}}]),
     ["priorities[0].argument.requestedToCapacityRatioArguments.shape[0].score: must be an integer, not a string"]),
    ("wrong-api-version", {"kind": "Policy", "apiVersion": "audit.k8s.io/v1"},
     ['expected kind Policy with apiVersion "v1", "kubescheduler.config.k8s.io/v1", found kind "Policy" with '
      'apiVersion "audit.k8s.io/v1"']),
]


@pytest.mark.parametrize("source,expected", [c[1:] for c in DECODE], ids=[c[0] for c in DECODE])
def test_decode_errors(source, expected):
    assert problems(source) == expected


def test_decode_both_api_versions_and_case_insensitive_extenders():
    got = load_policy(policy(apiVersion="kubescheduler.config.k8s.io/v1", extenders=[
        {"URLPrefix": "http://127.0.0.1:1", "BindVerb": "bind", "TLSConfig": {"Insecure": True}}]))
    assert (got.predicates, got.priorities) == (None, None)
    assert (got.extenders[0].url_prefix, got.extenders[0].bind_verb) == ("http://127.0.0.1:1", "bind")


VALIDATE = [  # ValidatePolicy, upstream's messages
    ("zero-weight", policy(priorities=[{"name": "LeastRequestedPriority", "weight": 0}]),
     ["priorities[0].weight: Priority LeastRequestedPriority should have a positive weight applied to it or it has "
      "overflown"]),
    ("overflow-weight", policy(priorities=[{"name": "ImageLocalityPriority", "weight": (1 << 63) // 10}]),
     ["priorities[0].weight: Priority ImageLocalityPriority should have a positive weight applied to it or it has "
      "overflown"]),
    ("rtcr-twice", policy(priorities=[
        {"name": "a", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {"shape": []}}},
        {"name": "b", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {"shape": []}}}]),
     ['priorities[1]: Priority "b" redeclares custom priority "RequestedToCapacityRatio", from:"a"']),
    ("label-preference-weights", policy(priorities=[
        {"name": "a", "weight": 1, "argument": {"labelPreference": {"label": "x"}}},
        {"name": "b", "weight": 2, "argument": {"labelPreference": {"label": "y"}}}]),
     ['priorities[1]: LabelPreference  priority "b" has a different weight with "a"']),
    ("anti-affinity-weights", policy(priorities=[
        {"name": "a", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "x"}}},
        {"name": "b", "weight": 4, "argument": {"serviceAntiAffinity": {"label": "y"}}}]),
     ['priorities[1]: ServiceAntiAffinity  priority "b" has a different weight with "a"']),
    ("empty-argument", policy(priorities=[{"name": "a", "weight": 1, "argument": {}}]),
     ["priorities[0]: No priority arguments set for priority a"]),
    ("hard-pod-affinity-range", policy(hardPodAffinitySymmetricWeight=101),
     ["hardPodAffinitySymmetricWeight: Invalid value: 101: not in valid range [0-100]"]),
    ("extender-weight", policy(extenders=[{"urlPrefix": "http://127.0.0.1:1", "prioritizeVerb": "p"}]),
     ["extenders[0].weight: Invalid value: 0: must have a positive weight applied to it"]),
]


@pytest.mark.parametrize("source,expected", [c[1:] for c in VALIDATE], ids=[c[0] for c in VALIDATE])
def test_validate_policy(source, expected):
    assert problems(source) == expected


# Every predicate and priority name of v1.18 (and each custom argument) and what it becomes:
# (kind, entry, [(extension point, plugin, weight)]) with priorities weighted 3.
NAMES = [
    ("predicate", "CheckNodeUnschedulable", [("filter", "NodeUnschedulable", 0)]),
    ("predicate", "GeneralPredicates", [("pre_filter", "NodeResourcesFit", 0), ("pre_filter", "NodePorts", 0),
                                        ("filter", "NodeResourcesFit", 0), ("filter", "NodeName", 0),
                                        ("filter", "NodePorts", 0), ("filter", "NodeAffinity", 0)]),
    ("predicate", "HostName", [("filter", "NodeName", 0)]),
    ("predicate", "PodFitsHostPorts", [("pre_filter", "NodePorts", 0), ("filter", "NodePorts", 0)]),
    ("predicate", "PodFitsPorts", [("pre_filter", "NodePorts", 0), ("filter", "NodePorts", 0)]),
    ("predicate", "MatchNodeSelector", [("filter", "NodeAffinity", 0)]),
    ("predicate", "PodFitsResources", [("pre_filter", "NodeResourcesFit", 0), ("filter", "NodeResourcesFit", 0)]),
    ("predicate", "NoDiskConflict", [("filter", "VolumeRestrictions", 0)]),
    ("predicate", "PodToleratesNodeTaints", [("filter", "TaintToleration", 0)]),
    ("predicate", "CheckNodeLabelPresence", [("filter", "NodeLabel", 0)]),
    ("predicate", "CheckServiceAffinity", [("pre_filter", "ServiceAffinity", 0), ("filter", "ServiceAffinity", 0)]),
    ("predicate", "MaxEBSVolumeCount", [("filter", "EBSLimits", 0)]),
    ("predicate", "MaxGCEPDVolumeCount", [("filter", "GCEPDLimits", 0)]),
    ("predicate", "MaxCSIVolumeCountPred", [("filter", "NodeVolumeLimits", 0)]),
    ("predicate", "MaxAzureDiskVolumeCount", [("filter", "AzureDiskLimits", 0)]),
    ("predicate", "MaxCinderVolumeCount", [("filter", "CinderLimits", 0)]),
    ("predicate", "CheckVolumeBinding", [("filter", "VolumeBinding", 0)]),
    ("predicate", "NoVolumeZoneConflict", [("filter", "VolumeZone", 0)]),
    ("predicate", "EvenPodsSpread", [("pre_filter", "PodTopologySpread", 0), ("filter", "PodTopologySpread", 0)]),
    ("predicate", "MatchInterPodAffinity", [("pre_filter", "InterPodAffinity", 0), ("filter", "InterPodAffinity", 0)]),
    ("predicate", {"serviceAffinity": {"labels": ["zone"]}},
     [("pre_filter", "ServiceAffinity", 0), ("filter", "ServiceAffinity", 0)]),
    ("predicate", {"labelsPresence": {"labels": ["ssd"], "presence": True}}, [("filter", "NodeLabel", 0)]),
    ("priority", "EqualPriority", []),
    ("priority", "MostRequestedPriority", [("score", "NodeResourcesMostAllocated", 3)]),
    ("priority", "RequestedToCapacityRatio", [("score", "RequestedToCapacityRatio", 3)]),
    ("priority", "SelectorSpreadPriority", [("pre_score", "DefaultPodTopologySpread", 0),
                                            ("score", "DefaultPodTopologySpread", 3)]),
    ("priority", "ServiceSpreadingPriority", [("pre_score", "DefaultPodTopologySpread", 0),
                                              ("score", "DefaultPodTopologySpread", 3)]),
    ("priority", "InterPodAffinityPriority", [("pre_score", "InterPodAffinity", 0), ("score", "InterPodAffinity", 3)]),
    ("priority", "LeastRequestedPriority", [("score", "NodeResourcesLeastAllocated", 3)]),
    ("priority", "BalancedResourceAllocation", [("score", "NodeResourcesBalancedAllocation", 3)]),
    ("priority", "NodePreferAvoidPodsPriority", [("score", "NodePreferAvoidPods", 3)]),
    ("priority", "NodeAffinityPriority", [("score", "NodeAffinity", 3)]),
    ("priority", "TaintTolerationPriority", [("pre_score", "TaintToleration", 0), ("score", "TaintToleration", 3)]),
    ("priority", "ImageLocalityPriority", [("score", "ImageLocality", 3)]),
    ("priority", "EvenPodsSpreadPriority", [("pre_score", "PodTopologySpread", 0), ("score", "PodTopologySpread", 3)]),
    ("priority", "ResourceLimitsPriority", [("pre_score", "NodeResourceLimits", 0), ("score", "NodeResourceLimits", 3)]),
    ("priority", {"requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": 10},
                                                                  {"utilization": 100, "score": 0}]}},
     [("score", "RequestedToCapacityRatio", 3)]),
    ("priority", {"serviceAntiAffinity": {"label": "zone"}}, [("score", "ServiceAffinity", 3)]),
    ("priority", {"labelPreference": {"label": "ssd", "presence": True}}, [("score", "NodeLabel", 3)]),
]
POINTS = ("pre_filter", "filter", "pre_score", "score")
MANDATORY_FILTERS = {("filter", "NodeUnschedulable", 0), ("filter", "TaintToleration", 0)}


def _entry(kind: str, entry) -> dict:
    if isinstance(entry, str):
        return {"name": entry, "weight": 3} if kind == "priority" else {"name": entry}
    return {"name": "Custom", "argument": entry, **({"weight": 3} if kind == "priority" else {})}


@pytest.mark.parametrize("kind,entry,expected", NAMES, ids=[str(n[1]) for n in NAMES])
def test_every_name(kind, entry, expected):
    lists = {"predicates": [], "priorities": []}
    lists[kind + ("s" if kind == "predicate" else "")] = [_entry(kind, entry)] if kind == "predicate" else []
    if kind == "priority":
        lists = {"predicates": [], "priorities": [_entry(kind, entry)]}
    with features.override({"ResourceLimitsPriorityFunction": True}):
        translated = translate_policy(load_policy(policy(**lists)))
    got = {(point, p.name, p.weight) for point in POINTS for p in getattr(translated.plugins, point).enabled}
    assert got - MANDATORY_FILTERS == set(expected) - MANDATORY_FILTERS
    assert MANDATORY_FILTERS <= got


def test_the_table_covers_every_registered_name():
    with features.override({"ResourceLimitsPriorityFunction": True}):
        registry = lr.new_legacy_registry()
    names = {n[1] for n in NAMES if isinstance(n[1], str)}
    assert set(registry.predicate_to_config_producer) | {"PodFitsPorts"} <= names
    assert set(registry.priority_to_config_producer) - {"NodeLabel", "ServiceAffinity"} <= names
    assert len(names) == 34  # 20 predicate names (PodFitsPorts included), 14 priority names


def test_omitted_lists_use_the_legacy_defaults():
    """predicates / priorities absent (nil): DefaultPredicates in PredicateOrdering (EvenPodsSpread on in
    1.18, so PodTopologySpread runs before InterPodAffinity) and DefaultPriorities by name."""
    cfg = resolve_config(policy=Located(policy(), "policy.yaml"))
    plugins = translate_policy(cfg.algorithm_source.policy.policy).plugins
    assert [p.name for p in plugins.filter.enabled] == [
        "NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity", "VolumeRestrictions",
        "TaintToleration", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding",
        "VolumeZone", "PodTopologySpread", "InterPodAffinity"]
    assert [(p.name, p.weight) for p in plugins.score.enabled] == [
        ("NodeResourcesBalancedAllocation", 1), ("PodTopologySpread", 1), ("ImageLocality", 1),
        ("InterPodAffinity", 1), ("NodeResourcesLeastAllocated", 1), ("NodeAffinity", 1),
        ("NodePreferAvoidPods", 10000), ("DefaultPodTopologySpread", 1), ("TaintToleration", 1)]


def test_hard_pod_affinity_weight_and_always_check_all_predicates():
    translated = translate_policy(load_policy(policy(
        predicates=[], priorities=[{"name": "InterPodAffinityPriority", "weight": 2}],
        hardPodAffinitySymmetricWeight=7, alwaysCheckAllPredicates=True)))
    assert [(c.name, c.args.raw) for c in translated.plugin_config] == [
        ("InterPodAffinity", '{"hardPodAffinityWeight":7}')]
    assert translated.always_check_all_predicates is True
    without = translate_policy(load_policy(policy(predicates=[], priorities=[], hardPodAffinitySymmetricWeight=7)))
    assert without.plugin_config == ()  # only the InterPodAffinityPriority producer passes it on


def test_custom_arguments_accumulate_into_one_plugin_config():
    translated = translate_policy(load_policy(policy(
        predicates=[{"name": "a", "argument": {"labelsPresence": {"labels": ["x"], "presence": False}}},
                    {"name": "b", "argument": {"labelsPresence": {"labels": ["y", "z"], "presence": True}}}],
        priorities=[{"name": "c", "weight": 5, "argument": {"labelPreference": {"label": "p", "presence": True}}},
                    {"name": "RequestedToCapacityRatioPriority", "weight": 1, "argument": {
                        "requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": 0}]}}}])))
    assert [(c.name, c.args.raw) for c in translated.plugin_config] == [
        ("NodeLabel", '{"presentLabels":["y","z"],"absentLabels":["x"],"presentLabelsPreference":["p"]}'),
        ("RequestedToCapacityRatio", '{"shape":[{"utilization":0,"score":0}]}')]


ERRORS = [  # what scheduler.New refuses (upstream: klog.Fatalf, a nil dereference, createFromConfig)
    ("unknown-predicate", None, policy(predicates=[{"name": "PodFitsGPU"}]),
     'policy.yaml: couldn\'t create scheduler from policy: Invalid configuration: Predicate type not found for '
     '"PodFitsGPU"'),
    ("unknown-priority", None, policy(priorities=[{"name": "Spread", "weight": 1}]),
     "policy.yaml: couldn't create scheduler from policy: Invalid configuration: Priority type not found for "
     '"Spread"'),
    ("two-predicate-arguments", None, policy(predicates=[{"name": "x", "argument": {
        "serviceAffinity": {"labels": ["a"]}, "labelsPresence": {"labels": ["b"]}}}]),
     "policy.yaml: couldn't create scheduler from policy: Exactly 1 predicate argument is required, numArgs: 2, "
     "Predicate: x"),
    ("two-priority-arguments", None, policy(priorities=[{"name": "x", "weight": 1, "argument": {
        "serviceAntiAffinity": {"label": "a"}, "labelPreference": {"label": "b"}}}]),
     "policy.yaml: couldn't create scheduler from policy: Exactly 1 priority argument is required, numArgs: 2, "
     "Priority: x"),
    ("node-label-key-without-argument", None, policy(priorities=[{"name": "NodeLabel", "weight": 1}]),
     "policy.yaml: couldn't create scheduler from policy: priority NodeLabel has no custom argument: runtime "
     "error: invalid memory address or nil pointer dereference"),
    ("plugins-and-policy", {"plugins": {"score": {"enabled": [{"name": "ImageLocality", "weight": 1}]}}}, policy(),
     "policy.yaml: couldn't create scheduler from policy: using Plugins and Policy simultaneously is not supported"),
    ("plugin-config-and-policy", {"hardPodAffinitySymmetricWeight": 2}, policy(),
     "policy.yaml: couldn't create scheduler from policy: using PluginConfig and Policy simultaneously is not "
     "supported"),
    ("provider-config-with-policy", {"algorithmSource": {"provider": "DefaultProvider"}}, policy(),
     'policy.yaml: the Policy is not used: the configuration\'s algorithm source is the provider "DefaultProvider" '
     "(kube-scheduler v1.18.5 ignores --policy-config-file when --config is given); name the Policy in "
     "algorithmSource.policy.file of a kubescheduler.config.k8s.io/v1alpha1 configuration"),
    ("unknown-provider", {"algorithmSource": {"provider": "BinPacking"}}, None,
     'config.yaml: algorithmSource.provider: couldn\'t create scheduler using provider "BinPacking": algorithm '
     'provider "BinPacking" is not registered'),
]


@pytest.mark.parametrize("config,pol,message", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_what_scheduler_new_refuses(config, pol, message):
    cfg = None
    if config is not None:
        source = {"policy": {"file": {"path": "policy.yaml"}}} if pol is not None else {}
        cfg = Located({"apiVersion": "kubescheduler.config.k8s.io/v1alpha1", "kind": "KubeSchedulerConfiguration",
                       "algorithmSource": source, **config}, "config.yaml")
    with pytest.raises(ConfigError) as info:
        resolve_config(cfg, Located(pol, "policy.yaml") if pol is not None else None)
    assert [str(p) for p in info.value.problems] == [message]


def test_policy_file_config_is_the_deprecated_flag():
    parsed = load_policy(policy())
    cfg = policy_file_config("/etc/kubernetes/policy.json", parsed)
    assert cfg.algorithm_source.provider is None
    assert cfg.algorithm_source.policy.file.path == "/etc/kubernetes/policy.json"
    assert cfg.algorithm_source.policy.policy is parsed
    assert [p.scheduler_name for p in cfg.profiles] == ["default-scheduler"]
