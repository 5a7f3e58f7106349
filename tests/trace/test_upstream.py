"""Upstream locations and permalinks."""

from __future__ import annotations

import pytest

from kubesched.scheduler.internal.queue import events as qevents
from kubesched.trace import upstream as up

P = f"{up.SCHED}/framework/plugins"


@pytest.mark.parametrize("plugin, point, loc", [
    ("NodeResourcesFit", "Filter", (f"{P}/noderesources/fit.go", "Fit.Filter")),
    ("NodeResourcesFit", "PreFilterExtensionAddPod", (f"{P}/noderesources/fit.go", "Fit.AddPod")),
    ("InterPodAffinity", "Filter", (f"{P}/interpodaffinity/filtering.go", "InterPodAffinity.Filter")),
    ("InterPodAffinity", "ScoreExtensionNormalize", (f"{P}/interpodaffinity/scoring.go",
                                                     "InterPodAffinity.NormalizeScore")),
    ("PodTopologySpread", "PreScore", (f"{P}/podtopologyspread/scoring.go", "PodTopologySpread.PreScore")),
    ("EBSLimits", "Filter", (f"{P}/nodevolumelimits/non_csi.go", "nonCSILimits.Filter")),
    ("DefaultBinder", "Bind", (f"{P}/defaultbinder/default_binder.go", "DefaultBinder.Bind")),
    ("MyOutOfTree", "Reserve", (up.FRAMEWORK_GO, "framework.RunReservePlugins")),
])
def test_plugin_location(plugin, point, loc):
    assert up.plugin_location(plugin, point) == loc


def test_every_in_tree_plugin_has_a_file():
    from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
    assert set(new_in_tree_registry()) <= set(up.PLUGIN_FILES)


@pytest.mark.parametrize("source, target, event, func", [
    ("", "activeQ", qevents.POD_ADD, "PriorityQueue.Add"),
    ("activeQ", "", "Pop", "PriorityQueue.Pop"),
    ("", "unschedulableQ", qevents.SCHEDULE_ATTEMPT_FAILURE, "PriorityQueue.AddUnschedulableIfNotPresent"),
    ("podBackoffQ", "activeQ", qevents.BACKOFF_COMPLETE, "PriorityQueue.flushBackoffQCompleted"),
    ("unschedulableQ", "podBackoffQ", qevents.UNSCHEDULABLE_TIMEOUT, "PriorityQueue.flushUnschedulableQLeftover"),
    ("unschedulableQ", "activeQ", qevents.ASSIGNED_POD_ADD, "PriorityQueue.AssignedPodAdded"),
    ("unschedulableQ", "activeQ", qevents.NODE_ADD, "PriorityQueue.MoveAllToActiveOrBackoffQueue"),
    ("activeQ", "", "Delete", "PriorityQueue.Delete"),
])
def test_queue_location(source, target, event, func):
    assert up.queue_location(source, target, event) == (up.QUEUE_GO, func)


@pytest.mark.parametrize("path, line, url", [
    ("pkg/scheduler/scheduler.go", None,
     "https://github.com/kubernetes/kubernetes/blob/v1.18.5/pkg/scheduler/scheduler.go"),
    ("pkg/scheduler/core/generic_scheduler.go", 120,
     "https://github.com/kubernetes/kubernetes/blob/v1.18.5/pkg/scheduler/core/generic_scheduler.go#L120"),
])
def test_permalink(path, line, url):
    assert up.permalink(path, line) == url


def test_record_link():
    from kubesched.trace.records import Kind, Record
    assert up.record_link(Record(0, 0.0, Kind.BIND, file=up.SCHEDULER_GO)).endswith("/v1.18.5/pkg/scheduler/scheduler.go")
    assert up.record_link(Record(0, 0.0, Kind.BIND)) == ""
