"""Factories (``new``) and plugin-args validation of the group-A plugins.

Upstream: the New/NewFit/NewRequestedToCapacityRatio constructors of v1.18.5 and
TestValidateNodeLabelArgs (node_label_test.go).
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.imagelocality import image_locality
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.plugins.nodelabel import node_label
from kubesched.scheduler.framework.plugins.nodename import node_name
from kubesched.scheduler.framework.plugins.nodeports import node_ports
from kubesched.scheduler.framework.plugins.nodepreferavoidpods import node_prefer_avoid_pods
from kubesched.scheduler.framework.plugins.noderesources import (
    balanced_allocation, fit, least_allocated, most_allocated, requested_to_capacity_ratio as rtcr,
    resource_limits)
from kubesched.scheduler.framework.plugins.nodeunschedulable import node_unschedulable
from kubesched.scheduler.framework.plugins.tainttoleration import taint_toleration

from tests.scheduler.framework.plugins.plugin_builders import container, node, node_info, pod

MODULES = [
    (fit, "NodeResourcesFit"), (least_allocated, "NodeResourcesLeastAllocated"),
    (most_allocated, "NodeResourcesMostAllocated"), (balanced_allocation, "NodeResourcesBalancedAllocation"),
    (resource_limits, "NodeResourceLimits"), (node_name, "NodeName"), (node_ports, "NodePorts"),
    (node_unschedulable, "NodeUnschedulable"), (taint_toleration, "TaintToleration"),
    (node_affinity, "NodeAffinity"), (node_prefer_avoid_pods, "NodePreferAvoidPods"),
    (node_label, "NodeLabel"), (image_locality, "ImageLocality"),
]


@pytest.mark.parametrize("module,name", MODULES, ids=[n for _, n in MODULES])
def test_factory_builds_plugin_with_upstream_name(module, name) -> None:
    plugin = module.new(None, None)
    assert module.NAME == name
    assert plugin.name() == name


def test_rtcr_factory_name() -> None:
    plugin = rtcr.new({"shape": [{"utilization": 0, "score": 0}]}, None)
    assert (rtcr.NAME, plugin.name()) == ("RequestedToCapacityRatio", "RequestedToCapacityRatio")


@pytest.mark.parametrize("module", [fit, node_ports], ids=["Fit", "NodePorts"])
def test_prefilter_extensions_are_nil_in_v118(module) -> None:
    assert module.new(None, None).pre_filter_extensions() is None


# ---------------------------------------------------------------- NodeLabel args

NODE_LABEL_ARGS = [
    ("no conflict", {"presentLabels": ["foo"], "absentLabels": ["bar"]}, None),
    ("present/absent conflict", {"presentLabels": ["foo", "bar"], "absentLabels": ["bar", "baz"]},
     'detecting at least one label (e.g., "bar") that exist in both the present([foo bar]) and '
     "absent([bar baz]) label list"),
    ("preference conflict reports first absent label",
     {"presentLabelsPreference": ["a", "b", "c"], "absentLabelsPreference": ["c", "b"]},
     'detecting at least one label (e.g., "c") that exist in both the present([a b c]) and '
     "absent([c b]) label list"),
    ("keys are case-insensitive", {"PresentLabels": ["x"], "ABSENTLABELS": ["x"]},
     'detecting at least one label (e.g., "x") that exist in both the present([x]) and absent([x]) label list'),
    ("wrong type", {"presentLabels": "foo"},
     "json: cannot unmarshal str into Go struct field Args.presentLabels of type []string"),
]


@pytest.mark.parametrize("name,args,error", NODE_LABEL_ARGS, ids=[c[0] for c in NODE_LABEL_ARGS])
def test_node_label_args(name, args, error) -> None:
    if error is None:
        assert node_label.new(args, None).name() == "NodeLabel"
    else:
        with pytest.raises(ValueError) as exc:
            node_label.new(args, None)
        assert str(exc.value) == error


# ---------------------------------------------------------------- RequestedToCapacityRatio args

RTCR_ARGS = [
    ("empty shape", {"shape": []}, "at least one point must be specified"),
    ("absent shape", {}, "at least one point must be specified"),
    ("unsorted", {"shape": [{"utilization": 50, "score": 1}, {"utilization": 50, "score": 2}]},
     "utilization values must be sorted. Utilization[0]==50 >= Utilization[1]==50"),
    ("score scaled before validation", {"shape": [{"utilization": 0, "score": 11}]},
     "score values not be greater than 100. Score[0]==110"),
    ("negative score scaled", {"shape": [{"utilization": 0, "score": -1}]},
     "score values must not be less than 0. Score[0]==-10"),
    ("utilization over 100", {"shape": [{"utilization": 101, "score": 1}]},
     "utilization values must not be greater than 100. Utilization[0]==101"),
    ("Go-style keys", {"Shape": [{"Utilization": 0, "Score": 20}]},
     "score values not be greater than 100. Score[0]==200"),
]


@pytest.mark.parametrize("name,args,error", RTCR_ARGS, ids=[c[0] for c in RTCR_ARGS])
def test_rtcr_args_errors(name, args, error) -> None:
    with pytest.raises(ValueError) as exc:
        rtcr.new(args, None)
    assert str(exc.value) == error


@pytest.mark.parametrize("resources,weights", [
    ([], {"memory": 1, "cpu": 1}),
    ([{"name": "cpu", "weight": 0}], {"cpu": 1}),
    ([{"name": "cpu", "weight": -2}, {"name": "intel.com/foo", "weight": 3}], {"cpu": -2, "intel.com/foo": 3}),
], ids=["default resources", "weight 0 becomes 1", "negative weight only logged"])
def test_rtcr_resource_weights(resources, weights) -> None:
    plugin = rtcr.new({"shape": [{"utilization": 0, "score": 0}], "resources": resources}, None)
    assert dict(plugin.scorer.resource_to_weight_map) == weights


# ---------------------------------------------------------------- NodeResourcesFit ignoredResources

FIT_ARGS = [
    ("extended resource ignored", {"ignoredResources": ["example.com/foo"]}, "example.com/foo", []),
    ("Go-style key", {"IgnoredResources": ["example.com/foo"]}, "example.com/foo", []),
    ("other extended resource still checked", {"ignoredResources": ["example.com/bar"]}, "example.com/foo",
     ["Insufficient example.com/foo"]),
    ("hugepages cannot be ignored", {"ignoredResources": ["hugepages-2Mi"]}, "hugepages-2Mi",
     ["Insufficient hugepages-2Mi"]),
    ("kubernetes.io names cannot be ignored", {"ignoredResources": ["kubernetes.io/foo"]}, "kubernetes.io/foo",
     ["Insufficient kubernetes.io/foo"]),
]


@pytest.mark.parametrize("name,args,resource,reasons", FIT_ARGS, ids=[c[0] for c in FIT_ARGS])
def test_fit_ignored_resources(name, args, resource, reasons) -> None:
    from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
    plugin = fit.new(args, None)
    p = pod({"containers": [container(requests={resource: "1"})]})
    info = node_info(node(allocatable={"pods": "10", "cpu": "1", "memory": "1Gi"}))
    state = CycleState()
    assert plugin.pre_filter(state, p) is None
    status = plugin.filter(state, p, info)
    assert (list(status.reasons) if status else []) == reasons


def test_fit_args_wrong_type() -> None:
    with pytest.raises(ValueError):
        fit.new({"ignoredResources": "example.com/foo"}, None)



@pytest.mark.parametrize("args", [{"shape": [1]}, {"shape": [{"utilization": "0", "score": 1}]},
                                  {"shape": [{"utilization": 0, "score": 1}], "resources": ["cpu"]}],
                         ids=["point not an object", "utilization not a number", "resource not an object"])
def test_rtcr_args_type_errors(args) -> None:
    with pytest.raises(ValueError):
        rtcr.new(args, None)
