"""The hooks against upstream's own tables: a promised pass must be a pass in every vector.

For every Filter case of the conformance vectors (PreFilter run, not skipped) whose pod makes
the plugin's ``skip_filter`` True, every expected Filter result must be Success;
for every NodeAffinity / PodTopologySpread score case whose ``constant_score`` (after PreScore,
as the adapters run it) is an int, every expected (normalized) score must be equal.
How many cases fire the hook, and how many do not, is pinned per file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubesched.conformance._harness import as_object, pod_of
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.plugins.nodename import node_name
from kubesched.scheduler.framework.plugins.nodeports import node_ports
from kubesched.scheduler.framework.plugins.nodevolumelimits import csi, non_csi
from kubesched.scheduler.framework.plugins.podtopologyspread import plugin as pts
from kubesched.scheduler.framework.plugins.volumebinding import volume_binding
from kubesched.scheduler.framework.plugins.volumerestrictions import volume_restrictions
from kubesched.scheduler.framework.plugins.volumezone import volume_zone
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers

VECTORS = Path(__file__).parents[3] / "conformance" / "vectors"

FACTORIES = {
    "NodeAffinity": node_affinity.new, "NodeName": node_name.new, "NodePorts": node_ports.new,
    "VolumeRestrictions": volume_restrictions.new, "VolumeZone": volume_zone.new,
    "VolumeBinding": volume_binding.new, "NodeVolumeLimits": csi.new, "EBSLimits": non_csi.new_ebs,
    "GCEPDLimits": non_csi.new_gce_pd, "AzureDiskLimits": non_csi.new_azure_disk,
    "CinderLimits": non_csi.new_cinder, "PodTopologySpread": pts.new,
}
# vector file -> (cases where the filter hook fires, cases where it does not); every vector pod
# of volumebinding, nodevolumelimits_csi and podtopologyspread_filter has a claim / hard constraint.
FILTER_FILES = {
    "NodeAffinity": (2, 13), "NodeName": (1, 2), "NodePorts": (1, 11), "volumerestrictions": (5, 7),
    "volumezone": (1, 13), "volumebinding": (0, 4), "nodevolumelimits_csi": (0, 16),
    "nodevolumelimits_noncsi": (11, 34), "podtopologyspread_filter": (0, 11),
}


class _Handle:
    def __init__(self, snapshot: Snapshot | None = None, objects=()) -> None:
        self._snapshot = snapshot or Snapshot()
        self._listers = InformerListers(objects)

    def snapshot_shared_lister(self) -> Snapshot:
        return self._snapshot

    def listers(self) -> InformerListers:
        return self._listers

    def volume_binder(self) -> None:
        return None


def _cases(stem: str) -> tuple[dict, list[dict]]:
    doc = yaml.safe_load((VECTORS / f"{stem}.yaml").read_text())
    return doc, [c for c in doc["cases"] if not c.get("skip_reason")]


def _plugin_name(doc: dict, case: dict) -> str:
    return (case.get("args") or {}).get("plugin") or doc["plugin"]


def _plugin_args(case: dict):
    args = case.get("args")
    return args if isinstance(args, dict) and "defaultConstraints" in args else None


@pytest.mark.parametrize("stem,want", sorted(FILTER_FILES.items()))
def test_promised_pass_is_an_upstream_pass(stem, want):
    doc, cases = _cases(stem)
    fired = not_fired = 0
    for case in cases:
        expect = case.get("expect") or {}
        results = list((expect.get("filter") or {}).values())
        if "filter_any_node" in expect:
            results.append(expect["filter_any_node"])
        if not results or case.get("skip_prefilter") or "pod" not in case:
            continue
        name = _plugin_name(doc, case)
        plugin = FACTORIES[name](_plugin_args(case), _Handle())
        if plugin.skip_filter(pod_of(case)):
            fired += 1
            assert [r["code"] for r in results] == ["Success"] * len(results), case["name"]
        else:
            not_fired += 1
    assert (fired, not_fired) == want


def _score_cases(stem: str):
    doc, cases = _cases(stem)
    return [c for c in cases if (c.get("expect") or {}).get("scores")]


def _constant_after_prescore(name: str, case: dict):
    nodes = [as_object(n, "Node") for n in case.get("nodes") or []]
    existing = [as_object(p, "Pod") for p in case.get("existing_pods") or []]
    objects = [as_object(o, o.get("kind", "")) for o in case.get("objects") or []]
    handle = _Handle(Snapshot.new(existing, nodes), objects)
    plugin = FACTORIES[name](_plugin_args(case), handle)
    state = CycleState()
    pod = pod_of(case)
    if name == "PodTopologySpread":
        wanted = case.get("filtered_nodes")
        filtered = nodes if wanted is None else [n for n in nodes if n.metadata.name in wanted]
        assert plugin.pre_score(state, pod, filtered) is None
    return plugin.constant_score(state, pod, nodes)


@pytest.mark.parametrize("stem,name,want", [("NodeAffinity", "NodeAffinity", (1, 2)),
                                            ("podtopologyspread_score", "PodTopologySpread", (0, 7))])
def test_constant_score_matches_upstream_scores(stem, name, want):
    fired = not_fired = 0
    for case in _score_cases(stem):
        constant = _constant_after_prescore(name, case)
        if constant is None:
            not_fired += 1
            continue
        fired += 1
        # NormalizeScore of equal raw scores: DefaultNormalizeScore keeps 0s, PodTopologySpread gives 100s.
        assert len(set(case["expect"]["scores"].values())) == 1, case["name"]
    assert (fired, not_fired) == want
