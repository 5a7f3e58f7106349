"""Conformance adapters for the volume plugins.

Upstream: the plugin tests volume_binding_test.go (1.18 form, fake binder),
volume_restrictions_test.go, volume_zone_test.go, csi_test.go and non_csi_test.go
(TestGetMaxVols too). Each case builds NodeInfos (node + the existing pods naming it),
listers over ``objects`` and the plugin through its real ``new`` factory, then runs Filter
on a fresh CycleState.

Upstream's fixtures are Go structs that leave required API fields empty (pods without
containers, ISCSI volumes without a target portal), so manifests are decoded without the
"Required value" check; any other decoding problem still fails the case.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from kubesched import features
from kubesched.conformance._harness import as_object
from kubesched.conformance import register
from kubesched.controller.volume.scheduling.scheduler_binder import VolumeBinder
from kubesched.controller.volume.scheduling.scheduler_binder_fake import FakeVolumeBinder, fake_config_from_args
from kubesched.scheduler.framework.plugins.nodevolumelimits import csi, non_csi
from kubesched.scheduler.framework.plugins.volumebinding import volume_binding
from kubesched.scheduler.framework.plugins.volumerestrictions import volume_restrictions
from kubesched.scheduler.framework.plugins.volumezone import volume_zone
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Status
from kubesched.client.listers.informer_listers import InformerListers
from kubesched.scheduler.nodeinfo.node_info import NodeInfo


lenient = as_object


class VolumeHandle:
    """The part of FrameworkHandle the volume plugins use."""

    def __init__(self, listers: InformerListers, binder: Any = None) -> None:
        self._listers = listers
        self._binder = binder if binder is not None else VolumeBinder(listers)

    def listers(self) -> InformerListers:
        return self._listers

    def volume_binder(self) -> Any:
        return self._binder

    def snapshot_shared_lister(self) -> None:
        return None


def _node_infos(case: dict) -> list[NodeInfo]:
    pods = [lenient(m, "Pod") for m in case.get("existing_pods") or []]
    infos = []
    for manifest in case.get("nodes") or []:
        node = lenient(manifest, "Node")
        info = NodeInfo(*[p for p in pods if p.spec.node_name == node.metadata.name])
        info.set_node(node)
        infos.append(info)
    return infos


def _shape(status: Optional[Status], want: dict) -> dict:
    """A status in the keys the expectation uses (code, reasons and/or message)."""
    got: dict[str, Any] = {"code": "Success" if status is None else str(status.code)}
    if "reasons" in want:
        got["reasons"] = [] if status is None else list(status.reasons)
    if "message" in want:
        got["message"] = "" if status is None else status.message()
    return got


def _run_filter(case: dict, build: Callable[[VolumeHandle], Any]) -> dict:
    args = case.get("args") or {}
    gates = {**(args.get("feature_gates") or {}), **(case.get("feature_gates") or {})}
    with features.override(gates):
        listers = InformerListers(lenient(m, m.get("kind", "")) for m in case.get("objects") or [])
        plugin = build(VolumeHandle(listers))
        pod = lenient(case.get("pod") or {}, "Pod")
        infos = _node_infos(case)
        expect, got = case["expect"], {}
        if "filter" in expect:
            by_name = {info.node_name(): info for info in infos}
            got["filter"] = {name: _shape(plugin.filter(CycleState(), pod, by_name[name]), want)
                             for name, want in expect["filter"].items()}
        if "filter_any_node" in expect:
            got["filter_any_node"] = _shape(plugin.filter(CycleState(), pod, infos[0]), expect["filter_any_node"])
        return got


@register("VolumeBinding")
def volume_binding_adapter(case: dict, doc: dict) -> dict:
    config = fake_config_from_args((case.get("args") or {}).get("fake_volume_binder") or {})
    return _run_filter(case, lambda h: volume_binding.new(None, VolumeHandle(h.listers(), FakeVolumeBinder(config))))


@register("VolumeRestrictions")
def volume_restrictions_adapter(case: dict, doc: dict) -> dict:
    return _run_filter(case, lambda h: volume_restrictions.new(None, h))


@register("VolumeZone")
def volume_zone_adapter(case: dict, doc: dict) -> dict:
    return _run_filter(case, lambda h: volume_zone.new(None, h))


@register("NodeVolumeLimits")
def csi_limits_adapter(case: dict, doc: dict) -> dict:
    return _run_filter(case, lambda h: csi.new(None, h))


_NON_CSI_FACTORIES = {
    non_csi.EBS_NAME: non_csi.new_ebs, non_csi.GCE_PD_NAME: non_csi.new_gce_pd,
    non_csi.AZURE_DISK_NAME: non_csi.new_azure_disk, non_csi.CINDER_NAME: non_csi.new_cinder,
}


@register("EBSLimits|GCEPDLimits|AzureDiskLimits|CinderLimits")
def non_csi_limits_adapter(case: dict, doc: dict) -> dict:
    args = case.get("args") or {}
    if "max_vol_limit_from_env" in case["expect"]:
        return {"max_vol_limit_from_env": non_csi.get_max_vol_limit_from_env(args.get("env") or {})}
    factory = _NON_CSI_FACTORIES[args["plugin"]]
    return _run_filter(case, lambda h: factory(args, h))
