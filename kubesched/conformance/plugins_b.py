"""Conformance adapters for the pod-placement plugins (InterPodAffinity, PodTopologySpread,
DefaultPodTopologySpread, ServiceAffinity).

Upstream: the tests in pkg/scheduler/framework/plugins/{interpodaffinity,podtopologyspread,
defaultpodtopologyspread,serviceaffinity}/*_test.go, whose harnesses each vector file's
``notes`` describe. The filter and score files of one plugin share the plugin name, so
each adapter handles both shapes, keyed on what ``expect`` asks for.
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched import features
from kubesched.api.core import Node, Pod
from kubesched.api.labels import EQUALS, Selector
from kubesched.conformance import register
from kubesched.conformance._harness import as_object, pod_of, pods_of, status_dict
from kubesched.scheduler.framework.plugins import defaultpodtopologyspread as dpts
from kubesched.scheduler.framework.plugins import interpodaffinity as ipa
from kubesched.scheduler.framework.plugins import podtopologyspread as pts
from kubesched.scheduler.framework.plugins import serviceaffinity as sa
from kubesched.scheduler.framework.plugins.interpodaffinity import filtering as ipa_filtering
from kubesched.scheduler.framework.plugins.podtopologyspread import filtering as pts_filtering
from kubesched.scheduler.framework.plugins.podtopologyspread import scoring as pts_scoring
from kubesched.scheduler.framework.plugins.serviceaffinity import service_affinity as sa_module
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import NodeScore, Status
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers
from kubesched.scheduler.nodeinfo.node_info import NodeInfo


_object = as_object


def nodes_of(case: dict) -> list[Node]:
    return [_object(m, "Node") for m in case.get("nodes") or []]


def listers_of(case: dict) -> InformerListers:
    return InformerListers(_object(m, m.get("kind", "")) for m in case.get("objects") or [])


class _Handle:
    """The two parts of FrameworkHandle these plugins use."""

    def __init__(self, snapshot: Snapshot, listers: InformerListers) -> None:
        self._snapshot, self._listers = snapshot, listers

    def snapshot_shared_lister(self) -> Snapshot:
        return self._snapshot

    def listers(self) -> InformerListers:
        return self._listers


def _setup(case: dict, factory, extra_pods: tuple[Pod, ...] = ()):
    snapshot = Snapshot.new(pods_of(case) + list(extra_pods), nodes_of(case))
    return snapshot, factory(case.get("args"), _Handle(snapshot, listers_of(case)))


def _phase_status(status: Optional[Status], expect: dict) -> dict:
    """``{code, message_contains}`` (or ``message``/``reasons``) shaped like the expectation."""
    got: dict[str, Any] = {"code": status_dict(status)["code"]}
    message = status.message() if status is not None else ""
    if "message_contains" in expect:
        got["message_contains"] = expect["message_contains"] if expect["message_contains"] in message else message
    if "message" in expect:
        got["message"] = message
    if "reasons" in expect:
        got["reasons"] = status_dict(status)["reasons"]
    return got


def _filter_status(status: Optional[Status], expect: dict) -> dict:
    got = status_dict(status)
    if "message" in expect:
        got = {"code": got["code"], "message": status.message() if status is not None else ""}
    elif "reasons" not in expect:
        got.pop("reasons")
    return got


def _filters(plugin, state: CycleState, pod: Pod, snapshot: Snapshot, expect: dict) -> dict:
    return {name: _filter_status(plugin.filter(state, pod, snapshot.get(name)), want)
            for name, want in expect.items()}


def _filter_any_node(plugin, case: dict, pod: Pod, state: CycleState) -> dict:
    nodes = nodes_of(case)
    info = NodeInfo()
    if nodes:
        info.set_node(nodes[0])
    return _filter_status(plugin.filter(state, pod, info), case["expect"]["filter_any_node"])


def _scores(plugin, state: CycleState, pod: Pod, names: list[str]) -> dict:
    scores = []
    for name in names:
        score, status = plugin.score(state, pod, name)
        if status is not None:
            return {"error": status.message()}
        scores.append(NodeScore(name, score))
    ext = plugin.score_extensions()
    if ext is not None:
        status = ext.normalize_score(state, pod, scores)
        if status is not None:
            return {"error": status.message()}
    return {s.name: s.score for s in scores}


def _pairs(counts) -> dict:
    return {f"{key}={value}": n for (key, value), n in counts.items()}


# ------------------------------------------------------------------ InterPodAffinity


_IPA_MAPS = {
    "topologyToMatchedExistingAntiAffinityTerms": "topology_to_matched_existing_anti_affinity_terms",
    "topologyToMatchedAffinityTerms": "topology_to_matched_affinity_terms",
    "topologyToMatchedAntiAffinityTerms": "topology_to_matched_anti_affinity_terms",
}


def _ipa_state(state: ipa_filtering.PreFilterState, want: dict) -> dict:
    return {key: _pairs(getattr(state, _IPA_MAPS[key])) for key in want}


@register("InterPodAffinity")
def interpodaffinity(case: dict, doc: dict) -> dict:
    with features.override(case.get("feature_gates")):
        if "scores" in case["expect"] or "prescore" in case["expect"]:
            return _ipa_score(case)
        return _ipa_filter(case)


def _ipa_score(case: dict) -> dict:
    snapshot, plugin = _setup(case, ipa.new)
    pod, state = pod_of(case), CycleState()
    nodes = nodes_of(case)
    status = plugin.pre_score(state, pod, nodes)
    if "prescore" in case["expect"]:
        return {"prescore": _phase_status(status, case["expect"]["prescore"])}
    if status is not None:
        return {"prescore": status_dict(status)}
    return {"scores": _scores(plugin, state, pod, [n.metadata.name for n in nodes])}


def _ipa_filter(case: dict) -> dict:
    expect = case["expect"]
    snapshot, plugin = _setup(case, ipa.new)
    pod, state = pod_of(case), CycleState()
    if case.get("skip_prefilter"):
        return {"filter_any_node": _filter_any_node(plugin, case, pod, state)}
    status = plugin.pre_filter(state, pod)
    if "prefilter" in expect:
        return {"prefilter": _phase_status(status, expect["prefilter"])}
    if status is not None:
        return {"prefilter": status_dict(status)}
    got: dict[str, Any] = {}
    if "filter" in expect:
        got["filter"] = _filters(plugin, state, pod, snapshot, expect["filter"])
    original = ipa_filtering.get_pre_filter_state(state).clone()
    if "prefilter_state" in expect:
        got["prefilter_state"] = _ipa_state(original, expect["prefilter_state"])
    if "added_pod" in case:
        got.update(_ipa_add_remove(case, plugin, pod, state, snapshot, original))
    return got


def _ipa_add_remove(case, plugin, pod, state, snapshot, original) -> dict:
    expect = case["expect"]
    added = pod_of(case, "added_pod")
    info = snapshot.get(added.spec.node_name)
    plugin.pre_filter_extensions().add_pod(state, pod, added, info)
    after_add = ipa_filtering.get_pre_filter_state(state).clone()
    got: dict[str, Any] = {}
    if "prefilter_state_after_add" in expect:
        got["prefilter_state_after_add"] = _ipa_state(after_add, expect["prefilter_state_after_add"])
    if "state_after_add_equals_prefilter_with_added_pod" in expect:
        _, fresh_plugin = _setup(case, ipa.new, (added,))
        fresh = CycleState()
        fresh_plugin.pre_filter(fresh, pod)
        got["state_after_add_equals_prefilter_with_added_pod"] = \
            ipa_filtering.get_pre_filter_state(fresh) == after_add
    plugin.pre_filter_extensions().remove_pod(state, pod, added, info)
    if "state_after_remove_equals_original" in expect:
        got["state_after_remove_equals_original"] = ipa_filtering.get_pre_filter_state(state) == original
    return got


# ------------------------------------------------------------------ PodTopologySpread


def _selector_dict(selector: Selector) -> dict:
    """A parsed selector written back as the LabelSelector it came from."""
    labels = {r.key: r.values[0] for r in selector.requirements if r.operator == EQUALS}
    exprs = [{"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}
             for r in selector.requirements if r.operator != EQUALS]
    out: dict[str, Any] = {}
    if labels:
        out["matchLabels"] = labels
    if exprs:
        out["matchExpressions"] = exprs
    return out


def _constraints(constraints) -> list[dict]:
    return [{"maxSkew": c.max_skew, "topologyKey": c.topology_key, "selector": _selector_dict(c.selector)}
            for c in constraints]


def _critical_paths(paths: pts_filtering.CriticalPaths) -> list[list]:
    entries = [list(p) for p in paths.paths]
    if entries[0][1] == entries[1][1]:
        entries.sort(key=lambda e: e[0])  # upstream's comparison sorts equal-count entries by value
    return entries


def _pts_state(state: pts_filtering.PreFilterState) -> dict:
    return {"constraints": _constraints(state.constraints),
            "tpKeyToCriticalPaths": {k: _critical_paths(v) for k, v in state.tp_key_to_critical_paths.items()},
            "tpPairToMatchNum": _pairs(state.tp_pair_to_match_num)}


@register("PodTopologySpread")
def podtopologyspread(case: dict, doc: dict) -> dict:
    with features.override(case.get("feature_gates")):
        if "scores" in case["expect"] or "prescore_state" in case["expect"]:
            return _pts_score(case)
        return _pts_filter(case)


def _pts_filter(case: dict) -> dict:
    expect = case["expect"]
    snapshot, plugin = _setup(case, pts.new)
    pod, state = pod_of(case), CycleState()
    status = plugin.pre_filter(state, pod)
    if status is not None:
        return {"prefilter": _phase_status(status, expect.get("prefilter", {}))}
    got: dict[str, Any] = {}
    if "filter" in expect:
        got["filter"] = _filters(plugin, state, pod, snapshot, expect["filter"])
    if "prefilter_state" in expect:
        got["prefilter_state"] = _pts_state(pts_filtering.get_pre_filter_state(state))
    for verb, key in (("add", "added"), ("remove", "removed")):
        if f"{key}_pod" in case:
            other = pod_of(case, f"{key}_pod")
            info = snapshot.get(case[f"{key}_pod_node"])
            ext = plugin.pre_filter_extensions()
            (ext.add_pod if verb == "add" else ext.remove_pod)(state, pod, other, info)
            got[f"prefilter_state_after_{verb}"] = _pts_state(pts_filtering.get_pre_filter_state(state))
    return got


def _pts_score(case: dict) -> dict:
    expect = case["expect"]
    snapshot, plugin = _setup(case, pts.new)
    pod, state = pod_of(case), CycleState()
    nodes = {n.metadata.name: n for n in nodes_of(case)}
    names = case.get("filtered_nodes", list(nodes))
    status = plugin.pre_score(state, pod, [nodes[n] for n in names])
    if status is not None:
        return {"prescore": _phase_status(status, expect.get("prescore", {}))}
    got: dict[str, Any] = {}
    if "prescore_state" in expect:
        s = pts_scoring.get_pre_score_state(state)
        got["prescore_state"] = {"constraints": _constraints(s.constraints),
                                 "nodeNameSet": sorted(s.node_name_set),
                                 "topologyPairToPodCounts": _pairs(s.topology_pair_to_pod_counts)}
    if "scores" in expect:
        got["scores"] = _scores(plugin, state, pod, names)
    return got


# ------------------------------------------------------------------ DefaultPodTopologySpread


@register("DefaultPodTopologySpread")
def defaultpodtopologyspread(case: dict, doc: dict) -> dict:
    with features.override(case.get("feature_gates")):
        snapshot, plugin = _setup(case, dpts.new)
        pod, state = pod_of(case), CycleState()
        nodes = nodes_of(case)
        status = plugin.pre_score(state, pod, nodes)
        if status is not None:
            return {"prescore": status_dict(status)}
        return {"scores": _scores(plugin, state, pod, [n.metadata.name for n in nodes])}


# ------------------------------------------------------------------ ServiceAffinity


def _sa_state(state: sa_module.PreFilterState) -> dict:
    return {"matchingPodList": sorted(p.metadata.name for p in state.matching_pod_list),
            "matchingPodServices": len(state.matching_pod_services)}


@register("ServiceAffinity")
def serviceaffinity(case: dict, doc: dict) -> dict:
    expect = case["expect"]
    with features.override(case.get("feature_gates")):
        snapshot, plugin = _setup(case, sa.new)
        pod, state = pod_of(case), CycleState()
        if "scores" in expect:
            return {"scores": _scores(plugin, state, pod, [n.metadata.name for n in nodes_of(case)])}
        if case.get("skip_prefilter"):
            return {"filter_any_node": _filter_any_node(plugin, case, pod, state)}
        status = plugin.pre_filter(state, pod)
        if status is not None:
            return {"prefilter": _phase_status(status, expect.get("prefilter", {}))}
        got: dict[str, Any] = {}
        if "filter" in expect:
            got["filter"] = _filters(plugin, state, pod, snapshot, expect["filter"])
        original = sa_module.get_pre_filter_state(state).clone()
        if "prefilter_state" in expect:
            got["prefilter_state"] = _sa_state(original)
        if "added_pod" in case:
            got.update(_sa_add_remove(case, plugin, pod, state, snapshot, original))
        return got


def _sa_add_remove(case, plugin, pod, state, snapshot, original) -> dict:
    expect = case["expect"]
    added = pod_of(case, "added_pod")
    info = snapshot.get(added.spec.node_name) if added.spec.node_name in snapshot.node_info_map else NodeInfo()
    plugin.pre_filter_extensions().add_pod(state, pod, added, info)
    after_add = sa_module.get_pre_filter_state(state).clone()
    got: dict[str, Any] = {"prefilter_state_after_add": _sa_state(after_add)}
    if "state_after_add_equals_prefilter_with_added_pod" in expect:
        _, fresh_plugin = _setup(case, sa.new, (added,))
        fresh = CycleState()
        fresh_plugin.pre_filter(fresh, pod)
        got["state_after_add_equals_prefilter_with_added_pod"] = \
            _sa_state(sa_module.get_pre_filter_state(fresh)) == _sa_state(after_add)
    plugin.pre_filter_extensions().remove_pod(state, pod, added, info)
    got["state_after_remove_equals_original"] = sa_module.get_pre_filter_state(state) == original
    return got
