"""profile.NewMap (cfgValidator) and build_frameworks: one framework per profile, args to plugins."""

from __future__ import annotations

import pytest

from kubesched.scheduler.apis.config.scheme import load_config
from kubesched.scheduler.apis.config.types import (
    KubeSchedulerProfile,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
)
from kubesched.scheduler.profile.profile import (
    Map,
    Profile,
    ProfileError,
    handles_scheduler_name,
    new_map,
)
from tests.scheduler.apis.config.helpers import doc, frameworks


def _plugins(queue_sort: tuple[str, ...] = ("QS",)) -> Plugins:
    return Plugins(queue_sort=PluginSet(tuple(Plugin(n) for n in queue_sort)))


def _fake_framework(cfg: KubeSchedulerProfile) -> tuple:
    return ("fwk", cfg.scheduler_name)


def _recorder(name: str) -> tuple:
    return ("recorder", name)


NEW_MAP_ERRORS = [
    ("name-needed", [KubeSchedulerProfile("", _plugins())], "scheduler name is needed"),
    ("plugins-required", [KubeSchedulerProfile("p", None)], 'plugins required for profile with scheduler name "p"'),
    ("duplicate", [KubeSchedulerProfile("p", _plugins()), KubeSchedulerProfile("p", _plugins())],
     'duplicate profile with scheduler name "p"'),
    ("no-queue-sort", [KubeSchedulerProfile("p", Plugins())],
     'one queue sort plugin required for profile with scheduler name "p"'),
    ("two-queue-sorts", [KubeSchedulerProfile("p", _plugins(("A", "B")))],
     'one queue sort plugin required for profile with scheduler name "p"'),
    ("different-queue-sort", [KubeSchedulerProfile("p", _plugins(("A",))), KubeSchedulerProfile("q", _plugins(("B",)))],
     'different queue sort plugins for profile "q": "B", first: "A"'),
    ("different-queue-sort-args", [
        KubeSchedulerProfile("p", _plugins(), (PluginConfig("QS", {"b": 1, "a": [2]}),)),
        KubeSchedulerProfile("q", _plugins(), (PluginConfig("QS", {"a": 3}),))],
     'different queue sort plugin args for profile "q": {"a":3}'),
    ("queue-sort-args-missing-later", [
        KubeSchedulerProfile("p", _plugins(), (PluginConfig("QS", {"a": 1}),)), KubeSchedulerProfile("q", _plugins())],
     'different queue sort plugin args for profile "q": '),
]


@pytest.mark.parametrize("cfgs,message", [c[1:] for c in NEW_MAP_ERRORS], ids=[c[0] for c in NEW_MAP_ERRORS])
def test_new_map_errors(cfgs, message):
    with pytest.raises(ProfileError) as info:
        new_map(cfgs, _fake_framework, _recorder)
    assert str(info.value) == message


def test_new_map_builds_profiles_in_order():
    args = (PluginConfig("QS", {"a": 1}), PluginConfig("Other", {"x": 1}))
    m = new_map([KubeSchedulerProfile("p", _plugins(), args), KubeSchedulerProfile("q", _plugins(), args[:1])],
                _fake_framework, _recorder)
    assert isinstance(m, Map) and isinstance(m, dict)
    assert list(m) == ["p", "q"]
    assert m["q"] == Profile("q", ("fwk", "q"), ("recorder", "q"))
    assert [m.handles_scheduler_name(n) for n in ("p", "q", "default-scheduler")] == [True, True, False]
    assert handles_scheduler_name(dict(m), "p")


def test_framework_factory_error_is_wrapped():
    def failing(cfg):
        raise ValueError("boom")
    with pytest.raises(ProfileError, match="^creating profile for scheduler name p: boom$"):
        new_map([KubeSchedulerProfile("p", _plugins())], failing, _recorder)


def test_build_frameworks_default_profile():
    m = frameworks(load_config(doc()), recorder_factory=_recorder)
    prof = m["default-scheduler"]
    assert prof.recorder == ("recorder", "default-scheduler")
    assert [pl.name() for pl in prof.framework.plugins_by_point["queue_sort"]] == ["PrioritySort"]
    assert prof.plugin_name_to_weight["NodePreferAvoidPods"] == 10000  # delegated to the framework
    assert prof.list_plugins()["BindPlugin"] == [Plugin("DefaultBinder")]


def test_plugin_config_args_reach_plugins():
    cfg = load_config(doc(profiles=[{"pluginConfig": [
        {"name": "NodeResourcesFit", "args": {"ignoredResources": ["example.com/foo"]}},
        {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 7}},
    ]}]))
    fwk = frameworks(cfg)["default-scheduler"].framework
    fit = next(p for p in fwk.plugins_by_point["filter"] if p.name() == "NodeResourcesFit")
    ipa = next(p for p in fwk.plugins_by_point["filter"] if p.name() == "InterPodAffinity")
    assert fit.ignored_resources == frozenset({"example.com/foo"})
    assert ipa.hard_pod_affinity_weight == 7


def test_extender_ignored_resources_reach_fit():
    cfg = load_config(doc(extenders=[{"urlPrefix": "u", "managedResources": [
        {"name": "example.com/gpu", "ignoredByScheduler": True}]}]))
    fwk = frameworks(cfg)["default-scheduler"].framework
    fit = next(p for p in fwk.plugins_by_point["filter"] if p.name() == "NodeResourcesFit")
    assert fit.ignored_resources == frozenset({"example.com/gpu"})


def test_two_profiles_two_frameworks():
    cfg = load_config(doc(profiles=[
        {"schedulerName": "a"},
        {"schedulerName": "b", "plugins": {"score": {"disabled": [{"name": "*"}],
                                                     "enabled": [{"name": "ImageLocality", "weight": 3}]}}}]))
    m = frameworks(cfg)
    assert list(m) == ["a", "b"]
    assert m["a"].framework is not m["b"].framework
    assert m["b"].list_plugins()["ScorePlugin"] == [Plugin("ImageLocality", 3)]
    assert len(m["a"].list_plugins()["ScorePlugin"]) == 9


BUILD_ERRORS = [
    ("unknown-plugin", {"profiles": [{"plugins": {"filter": {"enabled": [{"name": "Nope"}]}}}]},
     'initializing profiles: creating profile for scheduler name default-scheduler: FilterPlugin "Nope" does not exist'),
    ("reenabled-default", {"profiles": [{"plugins": {"filter": {"enabled": [{"name": "NodeName"}]}}}]},
     ('initializing profiles: creating profile for scheduler name default-scheduler: '
     'plugin "NodeName" already registered as "FilterPlugin"')),
    ("repeated-config", {"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args": {}}]}],
                         "extenders": [{"urlPrefix": "u", "managedResources": [
                             {"name": "example.com/a", "ignoredByScheduler": True}]}]},
     ("initializing profiles: creating profile for scheduler name default-scheduler: "
     "repeated config for plugin NodeResourcesFit")),
    ("bad-args", {"profiles": [{"pluginConfig": [{"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 101}}]}]},
     ('initializing profiles: creating profile for scheduler name default-scheduler: error initializing plugin '
     '"InterPodAffinity": hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]')),
    ("no-queue-sort", {"profiles": [{"plugins": {"queueSort": {"disabled": [{"name": "*"}]}}}]},
     'initializing profiles: one queue sort plugin required for profile with scheduler name "default-scheduler"'),
]


@pytest.mark.parametrize("fields,message", [c[1:] for c in BUILD_ERRORS], ids=[c[0] for c in BUILD_ERRORS])
def test_build_frameworks_errors(fields, message):
    with pytest.raises(ProfileError) as info:
        frameworks(load_config(doc(**fields)))
    assert str(info.value) == message
