"""Plugin-set merge rules (Plugins.Append/Apply, mergePluginSets) against the default provider."""

from __future__ import annotations

import pytest

from kubesched import features
from kubesched.scheduler.algorithmprovider.registry import get_default_config
from kubesched.scheduler.apis.config.scheme import load_config
from kubesched.scheduler.apis.config.types import (
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    merge_plugin_sets,
)
from kubesched.scheduler.profile.frameworks import (
    AlgorithmProviderError,
    resolve_profiles,
)
from tests.scheduler.apis.config.helpers import doc

DEFAULT_SCORE = [("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1), ("InterPodAffinity", 1),
                 ("NodeResourcesLeastAllocated", 1), ("NodeAffinity", 1), ("NodePreferAvoidPods", 10000),
                 ("DefaultPodTopologySpread", 1), ("TaintToleration", 1), ("PodTopologySpread", 1)]
DEFAULT_FILTER = ["NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity",
                  "VolumeRestrictions", "TaintToleration", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits",
                  "AzureDiskLimits", "VolumeBinding", "VolumeZone", "InterPodAffinity", "PodTopologySpread"]


def _resolved(plugins: dict | None) -> Plugins:
    profile = {"plugins": plugins} if plugins is not None else {}
    (resolved,) = resolve_profiles(load_config(doc(profiles=[profile])))
    return resolved.plugins


def _score(plugins: Plugins) -> list[tuple[str, int]]:
    return [(p.name, p.weight) for p in plugins.score.enabled]


SCORE_CASES = [
    ("defaults", None, DEFAULT_SCORE),
    ("no-score-key", {"filter": {"disabled": [{"name": "NodeName"}]}}, DEFAULT_SCORE),
    ("disable-one", {"score": {"disabled": [{"name": "ImageLocality"}]}},
     [s for s in DEFAULT_SCORE if s[0] != "ImageLocality"]),
    ("disable-all", {"score": {"disabled": [{"name": "*"}]}}, []),
    ("disable-all-enable", {"score": {"disabled": [{"name": "*"}],
                                      "enabled": [{"name": "NodeAffinity", "weight": 5}, {"name": "ImageLocality"}]}},
     [("NodeAffinity", 5), ("ImageLocality", 0)]),
    ("enable-extra-appended", {"score": {"enabled": [{"name": "NodeResourcesMostAllocated", "weight": 2}]}},
     DEFAULT_SCORE + [("NodeResourcesMostAllocated", 2)]),
    ("reweight", {"score": {"disabled": [{"name": "NodePreferAvoidPods"}],
                            "enabled": [{"name": "NodePreferAvoidPods", "weight": 3}]}},
     [s for s in DEFAULT_SCORE if s[0] != "NodePreferAvoidPods"] + [("NodePreferAvoidPods", 3)]),
    ("reenable-without-disable-duplicates", {"score": {"enabled": [{"name": "ImageLocality", "weight": 4}]}},
     DEFAULT_SCORE + [("ImageLocality", 4)]),
    ("disable-unknown-is-noop", {"score": {"disabled": [{"name": "Nope"}]}}, DEFAULT_SCORE),
    ("empty-set", {"score": {}}, DEFAULT_SCORE),
]


@pytest.mark.parametrize("plugins,expected", [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES])
def test_score_merge(plugins, expected):
    assert _score(_resolved(plugins)) == expected


def test_reorder_filter():
    resolved = _resolved({"filter": {"disabled": [{"name": "NodeName"}, {"name": "TaintToleration"}],
                                     "enabled": [{"name": "TaintToleration"}, {"name": "NodeName"}]}})
    rest = [n for n in DEFAULT_FILTER if n not in ("NodeName", "TaintToleration")]
    assert [p.name for p in resolved.filter.enabled] == rest + ["TaintToleration", "NodeName"]


def test_merged_sets_have_no_disabled_and_untouched_points_keep_defaults():
    resolved = _resolved({"score": {"disabled": [{"name": "*"}]}, "permit": {"enabled": [{"name": "P"}]}})
    defaults = get_default_config()
    assert resolved.score == PluginSet()
    assert resolved.permit == PluginSet((Plugin("P"),))
    assert resolved.filter == defaults.filter
    assert resolved.queue_sort == defaults.queue_sort
    assert resolved.reserve == PluginSet()


@pytest.mark.parametrize("default_set,custom_set,expected", [
    (None, None, PluginSet()),
    (PluginSet((Plugin("a"), Plugin("b"))), None, PluginSet((Plugin("a"), Plugin("b")))),
    (PluginSet((Plugin("a"), Plugin("b"))), PluginSet((Plugin("c"),), (Plugin("a"),)),
     PluginSet((Plugin("b"), Plugin("c")))),
    (PluginSet((Plugin("a"),), (Plugin("x"),)), PluginSet(), PluginSet((Plugin("a"),))),
    (None, PluginSet((Plugin("c", 3),), (Plugin("*"),)), PluginSet((Plugin("c", 3),))),
])
def test_merge_plugin_sets(default_set, custom_set, expected):
    assert merge_plugin_sets(default_set, custom_set) == expected


def test_append_keeps_enabled_and_disabled():
    a = Plugins(filter=PluginSet((Plugin("a"),), (Plugin("x"),)))
    b = Plugins(filter=PluginSet((Plugin("b"),), (Plugin("y"),)), bind=PluginSet((Plugin("B"),)))
    merged = a.append(b)
    assert merged.filter == PluginSet((Plugin("a"), Plugin("b")), (Plugin("x"), Plugin("y")))
    assert merged.bind == PluginSet((Plugin("B"),))
    assert merged.score == PluginSet()


def test_apply_none_keeps_defaults():
    defaults = Plugins().append(get_default_config())
    assert defaults.apply(None) is defaults


def test_two_profiles_merge_independently():
    cfg = load_config(doc(profiles=[
        {"schedulerName": "default-scheduler"},
        {"schedulerName": "bin-packing", "plugins": {"score": {
            "disabled": [{"name": "NodeResourcesLeastAllocated"}],
            "enabled": [{"name": "NodeResourcesMostAllocated", "weight": 1}]}}},
    ]))
    first, second = resolve_profiles(cfg)
    assert (first.scheduler_name, second.scheduler_name) == ("default-scheduler", "bin-packing")
    assert _score(first.plugins) == DEFAULT_SCORE
    assert _score(second.plugins) == [s for s in DEFAULT_SCORE if s[0] != "NodeResourcesLeastAllocated"] + [
        ("NodeResourcesMostAllocated", 1)]


def test_extender_ignored_resources_become_fit_args_of_every_profile():
    cfg = load_config(doc(
        profiles=[{"schedulerName": "a", "pluginConfig": [{"name": "X", "args": {"k": 1}}]}, {"schedulerName": "b"}],
        extenders=[{"urlPrefix": "u", "managedResources": [{"name": "example.com/a", "ignoredByScheduler": True},
                                                          {"name": "example.com/b"}]},
                   {"urlPrefix": "v", "managedResources": [{"name": "example.com/c", "ignoredByScheduler": True}]}]))
    fit = PluginConfig("NodeResourcesFit", {"ignoredResources": ["example.com/a", "example.com/c"]})
    a, b = resolve_profiles(cfg)
    assert a.plugin_config == (PluginConfig("X", {"k": 1}), fit)
    assert b.plugin_config == (fit,)


@pytest.mark.parametrize("gates,expected_filter_tail", [
    ({}, "PodTopologySpread"),
    ({"EvenPodsSpread": False}, "InterPodAffinity"),
])
def test_feature_gates_shape_the_provider_defaults(gates, expected_filter_tail):
    before = features.current()
    (resolved,) = resolve_profiles(load_config(doc(featureGates=gates)))
    assert resolved.plugins.filter.enabled[-1].name == expected_filter_tail
    assert features.current() == before


def test_resource_limits_gate_adds_score_plugin():
    (resolved,) = resolve_profiles(load_config(doc(featureGates={"ResourceLimitsPriorityFunction": True})))
    assert _score(resolved.plugins)[-1] == ("NodeResourceLimits", 1)
    assert resolved.plugins.pre_score.enabled[-1] == Plugin("NodeResourceLimits")


def test_unknown_provider():
    import dataclasses

    from kubesched.scheduler.apis.config.types import SchedulerAlgorithmSource
    cfg = dataclasses.replace(load_config(doc()), algorithm_source=SchedulerAlgorithmSource("Nope"))
    with pytest.raises(AlgorithmProviderError, match='^algorithm provider "Nope" is not registered$'):
        resolve_profiles(cfg)
