"""PreFilterSkip hooks: the exact answer per pod, and the promise checked by running Filter.

``skip_filter(pod)`` True must mean: PreFilter then Filter give Success on
every node of a cluster built to make each plugin fail somewhere (shortcut_world).
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1.interface import PreFilterSkip
from tests.scheduler.framework.plugins.shortcut_world import FILTER_PLUGINS, Handle, build, filter_everywhere, incoming, with_volumes

_REQUIRED_SSD = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}]}
_PREFERRED_SSD = [{"weight": 5, "preference": {"matchExpressions": [
    {"key": "disk", "operator": "In", "values": ["ssd"]}]}}]


def _spread(action: str, key: str = "zone") -> dict:
    return {"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": action,
            "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "Exists"}]}}


# name -> (spec, labels)
PODS: dict[str, tuple[dict, dict]] = {
    "bare": ({}, {}),
    "web": ({}, {"app": "web", "foo": "w"}),  # matched by the Service: default constraints apply
    "container-port": ({"containers": [{"name": "c", "ports": [{"containerPort": 80}]}]}, {}),
    "host-port": ({"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 80}]}]}, {}),
    "host-port-udp": ({"containers": [{"name": "c", "ports": [
        {"containerPort": 53, "hostPort": 53, "protocol": "UDP", "hostIP": "10.0.0.1"}]}]}, {}),
    "init-host-port": ({"initContainers": [{"name": "i", "ports": [{"containerPort": 80, "hostPort": 80}]}]}, {}),
    "harmless-volumes": (with_volumes("empty-dir", "config-map", "host-path"), {}),
    "csi-inline": (with_volumes("csi-inline"), {}),
    "gce-pd": (with_volumes("gce-pd"), {}),
    "ebs": (with_volumes("ebs"), {}),
    "rbd": (with_volumes("rbd"), {}),
    "iscsi": (with_volumes("iscsi"), {}),
    "azure-disk": (with_volumes("azure-disk"), {}),
    "cinder": (with_volumes("cinder"), {}),
    "pvc-bound": (with_volumes("empty-dir", "pvc-bound"), {}),
    "pvc-unbound": (with_volumes("pvc-unbound"), {}),
    "pvc-missing": (with_volumes("pvc-missing"), {}),
    "pvc-noname": (with_volumes("pvc-noname"), {}),
    "node-name": ({"nodeName": "n-full"}, {}),
    "node-name-elsewhere": ({"nodeName": "elsewhere"}, {}),
    "node-selector": ({"nodeSelector": {"disk": "ssd"}}, {}),
    "required-affinity": ({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                         _REQUIRED_SSD}}}, {}),
    "required-no-terms": ({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                         {"nodeSelectorTerms": []}}}}, {}),
    "preferred-affinity": ({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
                                                          _PREFERRED_SSD}}}, {}),
    "empty-node-affinity": ({"affinity": {"nodeAffinity": {}}}, {}),
    "pod-anti-affinity-only": ({"affinity": {"podAntiAffinity": {}}}, {}),
    "spread-hard": ({"topologySpreadConstraints": [_spread("DoNotSchedule")]}, {"foo": "p"}),
    "spread-soft": ({"topologySpreadConstraints": [_spread("ScheduleAnyway")]}, {"foo": "p"}),
    "spread-both": ({"topologySpreadConstraints": [_spread("ScheduleAnyway"), _spread("DoNotSchedule", "node")]},
                    {"foo": "p"}),
    "spread-soft-web": ({"topologySpreadConstraints": [_spread("ScheduleAnyway", "rack")]},
                        {"app": "web", "foo": "w"}),
}

_NO_VOLUME_PODS = {"bare", "web", "container-port", "host-port", "host-port-udp", "init-host-port", "node-name",
                   "node-name-elsewhere", "node-selector", "required-affinity", "required-no-terms",
                   "preferred-affinity", "empty-node-affinity", "pod-anti-affinity-only", "spread-hard",
                   "spread-soft", "spread-both", "spread-soft-web"}
_NO_CLAIM_PODS = _NO_VOLUME_PODS | {"harmless-volumes", "csi-inline", "gce-pd", "ebs", "rbd", "iscsi",
                                    "azure-disk", "cinder"}
_NO_HARD_SPREAD_POD = {"spread-hard", "spread-both"}

# plugin -> the catalogue pods whose hook answers True (every other pod: False)
HOOK_TRUE: dict[str, set[str]] = {
    "NodePorts": set(PODS) - {"host-port", "host-port-udp"},
    "NodeName": set(PODS) - {"node-name", "node-name-elsewhere"},
    "NodeAffinity": set(PODS) - {"node-selector", "required-affinity", "required-no-terms"},
    "VolumeRestrictions": set(PODS) - {"gce-pd", "ebs", "rbd", "iscsi"},
    "EBSLimits": _NO_CLAIM_PODS - {"ebs"},
    "GCEPDLimits": _NO_CLAIM_PODS - {"gce-pd"},
    "AzureDiskLimits": _NO_CLAIM_PODS - {"azure-disk"},
    "CinderLimits": _NO_CLAIM_PODS - {"cinder"},
    "NodeVolumeLimits": _NO_CLAIM_PODS,
    "VolumeZone": _NO_CLAIM_PODS,
    "VolumeBinding": _NO_CLAIM_PODS,
    "PodTopologySpread": set(PODS) - _NO_HARD_SPREAD_POD,
    "PodTopologySpread/hard-defaults": {"spread-soft", "spread-soft-web"},
    "PodTopologySpread/soft-defaults": set(PODS) - _NO_HARD_SPREAD_POD,
}

# plugin -> a pod whose real Filter fails on some node of the world (the checks below can fail)
CONTROL_PODS: dict[str, str] = {
    "NodePorts": "host-port", "NodeName": "node-name", "NodeAffinity": "node-selector",
    "VolumeRestrictions": "gce-pd", "EBSLimits": "ebs", "GCEPDLimits": "gce-pd", "AzureDiskLimits": "azure-disk",
    "CinderLimits": "cinder", "NodeVolumeLimits": "pvc-bound", "VolumeZone": "pvc-bound",
    "VolumeBinding": "pvc-unbound", "PodTopologySpread": "spread-hard", "PodTopologySpread/hard-defaults": "web",
    "PodTopologySpread/soft-defaults": "spread-both",
}


def pod_named(name: str):
    spec, labels = PODS[name]
    return incoming(spec, labels, name)


def test_tables_cover_every_plugin_and_pod():
    assert set(HOOK_TRUE) == set(FILTER_PLUGINS) == set(CONTROL_PODS)
    assert all(names <= set(PODS) for names in HOOK_TRUE.values())
    assert _NO_VOLUME_PODS == {n for n, (spec, _) in PODS.items() if not spec.get("volumes")}


@pytest.mark.parametrize("plugin_name", sorted(FILTER_PLUGINS))
def test_plugin_offers_the_hook(plugin_name):
    assert isinstance(build(plugin_name), PreFilterSkip)


@pytest.mark.parametrize("plugin_name,pod_name", [(p, n) for p in sorted(FILTER_PLUGINS) for n in PODS])
def test_hook_answer(plugin_name, pod_name):
    want = pod_name in HOOK_TRUE[plugin_name]
    assert build(plugin_name).skip_filter(pod_named(pod_name)) is want


@pytest.mark.parametrize("plugin_name,pod_name",
                         [(p, n) for p in sorted(FILTER_PLUGINS) for n in sorted(HOOK_TRUE[p])])
def test_promise_holds_when_running_filter(plugin_name, pod_name):
    handle = Handle()
    results = filter_everywhere(build(plugin_name, handle), pod_named(pod_name), handle)
    assert {"n-plain", "n-zone-a", "n-zone-b", "n-full"} <= set(results)
    assert {key: status for key, status in results.items() if status is not None} == {}


@pytest.mark.parametrize("plugin_name", sorted(CONTROL_PODS))
def test_control_pod_fails_somewhere(plugin_name):
    """The world can make each plugin say no: the promise checks above are not vacuous."""
    pod_name = CONTROL_PODS[plugin_name]
    assert pod_name not in HOOK_TRUE[plugin_name]
    handle = Handle()
    results = filter_everywhere(build(plugin_name, handle), pod_named(pod_name), handle)
    assert any(status is not None for status in results.values())


@pytest.mark.parametrize("plugin_name,pod_name,node_name", [
    ("NodePorts", "host-port", "n-full"),
    ("NodeName", "node-name-elsewhere", "n-plain"),
    ("NodeAffinity", "required-no-terms", "n-full"),
    ("VolumeRestrictions", "rbd", "n-full"),
    ("EBSLimits", "ebs", "n-zone-b"),
    ("NodeVolumeLimits", "pvc-bound", "n-zone-b"),
    ("VolumeZone", "pvc-bound", "n-zone-a"),
    ("VolumeBinding", "pvc-bound", "n-plain"),
    ("PodTopologySpread", "spread-hard", "n-plain"),
])
def test_control_pod_fails_on_the_expected_node(plugin_name, pod_name, node_name):
    handle = Handle()
    results = filter_everywhere(build(plugin_name, handle), pod_named(pod_name), handle)
    assert results[node_name] is not None
