"""Plugin registries: framework.Registry and the in-tree registry.

Upstream: registry.go (Register, Unregister, Merge), plugins/registry.go (NewInTreeRegistry).
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.registry import IN_TREE_PLUGINS, load_factory, new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.registry import Registry, RegistryError


def f1(args, handle):
    return "one"


def f2(args, handle):
    return "two"


@pytest.mark.parametrize(("ops", "want", "error"), [
    ([("register", "a", f1)], {"a": f1}, None),
    ([("register", "a", f1), ("register", "a", f2)], {"a": f1}, "a plugin named a already exists"),
    ([("register", "a", f1), ("unregister", "a")], {}, None),
    ([("unregister", "a")], {}, "no plugin named a exists"),
    ([("register", "a", f1), ("merge", {"b": f2})], {"a": f1, "b": f2}, None),
    ([("register", "a", f1), ("merge", {"b": f2, "a": f2})], {"a": f1, "b": f2}, "a plugin named a already exists"),
])
def test_registry(ops, want, error) -> None:
    r = Registry()
    raised = None
    for op, *args in ops:
        try:
            getattr(r, op)(*args)
        except RegistryError as exc:
            raised = str(exc)
    assert (dict(r), raised) == (want, error)


V1_18_5_IN_TREE = {
    "DefaultPodTopologySpread", "ImageLocality", "TaintToleration", "NodeName", "NodePorts",
    "NodePreferAvoidPods", "NodeAffinity", "PodTopologySpread", "NodeUnschedulable", "NodeResourcesFit",
    "NodeResourcesBalancedAllocation", "NodeResourcesMostAllocated", "NodeResourcesLeastAllocated",
    "RequestedToCapacityRatio", "NodeResourceLimits", "VolumeBinding", "VolumeRestrictions", "VolumeZone",
    "NodeVolumeLimits", "EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits", "InterPodAffinity",
    "NodeLabel", "ServiceAffinity", "PrioritySort", "DefaultBinder",
}


def test_in_tree_registry_lists_every_plugin() -> None:
    r = new_in_tree_registry()
    assert set(r) == V1_18_5_IN_TREE and len(r) == 28
    assert new_in_tree_registry() is not r


@pytest.mark.parametrize("name", ["PrioritySort", "DefaultBinder"])
def test_in_tree_factory_builds_a_plugin_named_like_its_entry(name: str) -> None:
    plugin = new_in_tree_registry()[name](None, None)
    assert plugin.name() == name


@pytest.mark.parametrize("name", sorted(V1_18_5_IN_TREE))
def test_available_modules_expose_name(name: str) -> None:
    """Every plugin module that exists already must expose ``NAME`` equal to its registry name."""
    import importlib
    module, func = IN_TREE_PLUGINS[name]
    try:
        mod = importlib.import_module(f"kubesched.scheduler.framework.plugins.{module}")
    except ModuleNotFoundError:
        pytest.skip("module not written yet")
    assert callable(getattr(mod, func))
    if func == "new":
        assert mod.NAME == name
    assert load_factory(name) is getattr(mod, func)
