"""NewFramework: instantiation, extension-point checks, weights, errors.

Upstream: TestInitFrameworkWithScorePlugins, TestNewFrameworkErrors in
pkg/scheduler/framework/v1alpha1/framework_test.go (v1.18), and NewFramework's checks.
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1.framework import Framework, FrameworkInitError
from kubesched.scheduler.framework.v1alpha1.interface import MAX_TOTAL_SCORE
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, PluginConfig, Plugins, PluginSet, RawArgs
from kubesched.scheduler.framework.v1alpha1.registry import Registry
from tests.scheduler.framework.v1alpha1.fakes import (BIND_PLUGIN, QUEUE_SORT_PLUGIN, BindOnly, NameOnly, QueueSortOnly, TestPlugin,
                                   constant, plugin_set, registry_of, with_queue_sort_and_bind)

QS = plugin_set(QUEUE_SORT_PLUGIN)
BIND = plugin_set(BIND_PLUGIN)


def base_registry() -> Registry:
    r = registry_of(TestPlugin("score-plugin-1"), TestPlugin("duplicate-plugin"), TestPlugin("other"),
                    QueueSortOnly(), BindOnly())
    r.register("plugin-not-implementing-score", constant(NameOnly("plugin-not-implementing-score")))
    return r


ERROR_CASES = [
    ("enabled Score plugin doesn't exist in registry",
     Plugins(queue_sort=QS, bind=BIND, score=plugin_set("notExist", weights={"notExist": 1})), (),
     'ScorePlugin "notExist" does not exist'),
    ("enabled Score plugin doesn't extend the ScorePlugin interface",
     Plugins(queue_sort=QS, bind=BIND, score=plugin_set("plugin-not-implementing-score")), (),
     'plugin "plugin-not-implementing-score" does not extend ScorePlugin plugin'),
    ("duplicate plugin name",
     Plugins(queue_sort=QS, bind=BIND, pre_filter=plugin_set("duplicate-plugin", "duplicate-plugin")), (),
     'plugin "duplicate-plugin" already registered as "PreFilterPlugin"'),
    ("duplicate plugin config",
     Plugins(queue_sort=QS, bind=BIND, pre_filter=plugin_set("duplicate-plugin")),
     (PluginConfig("duplicate-plugin"), PluginConfig("duplicate-plugin")),
     "repeated config for plugin duplicate-plugin"),
    ("no queue sort plugin", Plugins(bind=BIND), (), "no queue sort plugin is enabled"),
    ("two queue sort plugins",
     Plugins(queue_sort=plugin_set(QUEUE_SORT_PLUGIN, "other"), bind=BIND), (),
     "only one queue sort plugin can be enabled"),
    ("no bind plugin", Plugins(queue_sort=QS), (), "at least one bind plugin is needed"),
    ("weight overflow",
     Plugins(queue_sort=QS, bind=BIND, score=plugin_set("score-plugin-1", "other",
                                                        weights={"score-plugin-1": MAX_TOTAL_SCORE // 100,
                                                                 "other": 1})), (),
     "total score of Score plugins could overflow"),
    ("undecodable args",
     Plugins(queue_sort=QS, bind=BIND, filter=plugin_set("other")),
     (PluginConfig("other", RawArgs(b"x: 1", "text/plain")),),
     'error initializing plugin "other": not supported content type text/plain'),
]


@pytest.mark.parametrize(("name", "plugins", "configs", "want"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_new_framework_errors(name, plugins, configs, want) -> None:
    with pytest.raises(FrameworkInitError) as info:
        Framework(base_registry(), plugins, configs)
    assert str(info.value) == want


def test_factory_error_is_wrapped() -> None:
    def broken(args, handle):
        raise ValueError("bad args")
    r = Registry({"broken": broken})
    with pytest.raises(FrameworkInitError, match='^error initializing plugin "broken": bad args$'):
        with_queue_sort_and_bind(r, Plugins(filter=plugin_set("broken")))


@pytest.mark.parametrize(("name", "plugins"), [
    ("Score plugins are nil", Plugins(score=None)),
    ("enabled Score plugin list is empty", Plugins(score=PluginSet())),
    ("enabled plugin only implements ScorePlugin interface", Plugins(score=plugin_set("score-plugin-1"))),
])
def test_init_framework_with_score_plugins(name, plugins) -> None:
    f = with_queue_sort_and_bind(base_registry(), plugins)
    assert f.has_score_plugins() == bool(plugins.score and plugins.score.enabled)


def test_plugins_none_builds_an_empty_framework() -> None:
    f = Framework(base_registry(), None)
    assert (f.list_plugins(), f.has_filter_plugins(), f.has_score_plugins()) == (None, False, False)


def test_one_instance_shared_across_points_and_args_passed_by_name() -> None:
    made: list = []

    def factory(args, handle):
        made.append((args, handle))
        return TestPlugin("p")
    r = Registry({"p": factory})
    f = with_queue_sort_and_bind(r, Plugins(filter=plugin_set("p"), score=plugin_set("p", weights={"p": 3})),
                                 (PluginConfig("p", {"x": 1}),))
    assert made == [({"x": 1}, f)]
    assert f.plugins_by_point["filter"][0] is f.plugins_by_point["score"][0]


def test_raw_json_args_are_decoded_before_the_factory() -> None:
    got: list = []
    r = Registry({"p": lambda args, handle: got.append(args) or TestPlugin("p")})
    with_queue_sort_and_bind(r, Plugins(filter=plugin_set("p")), (PluginConfig("p", RawArgs('{"A": 2}')),))
    assert got == [{"A": 2}]


@pytest.mark.parametrize(("plugins", "want_weight"), [
    (Plugins(score=plugin_set("p", weights={"p": 5})), 5),
    (Plugins(score=plugin_set("p")), 1),
    # pluginsNeeded: the last extension point listing the plugin (Permit after Score) sets the weight.
    (Plugins(score=plugin_set("p", weights={"p": 5}), permit=plugin_set("p")), 1),
    (Plugins(filter=plugin_set("p", weights={"p": 7}), score=plugin_set("p", weights={"p": 5})), 5),
])
def test_weights(plugins, want_weight) -> None:
    f = with_queue_sort_and_bind(Registry({"p": constant(TestPlugin("p"))}), plugins)
    assert f.plugin_weight("p") == want_weight


def test_list_plugins() -> None:
    r = registry_of(TestPlugin("a"), TestPlugin("b"))
    f = with_queue_sort_and_bind(r, Plugins(pre_filter=plugin_set("b"), filter=plugin_set("a", "b"),
                                            score=plugin_set("b", "a", weights={"a": 2})))
    assert f.list_plugins() == {
        "PreFilterPlugin": [Plugin("b")],
        "FilterPlugin": [Plugin("a"), Plugin("b")],
        "ScorePlugin": [Plugin("b", 1), Plugin("a", 2)],
        "BindPlugin": [Plugin(BIND_PLUGIN)],
        "QueueSortPlugin": [Plugin(QUEUE_SORT_PLUGIN)],
    }


def test_queue_sort_func_is_the_plugins_less() -> None:
    f = with_queue_sort_and_bind(base_registry(), Plugins())
    assert f.queue_sort_func() == f.plugins_by_point["queue_sort"][0].less
    with pytest.raises(RuntimeError, match="No QueueSort plugin is registered in the framework."):
        Framework(base_registry(), None).queue_sort_func()
