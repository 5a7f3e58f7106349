"""A legacy Policy through scheduler.New: the exact plugins, weights and extenders each one gives.

Upstream: pkg/scheduler/apis/config/testing/compatibility_test.go @ release-1.18
(TestCompatibility_v1_Scheduler): every case reads the Policy from ConfigMap
kube-system/scheduler-custom-policy-config (key policy.cfg), builds the scheduler and compares
``ListPlugins()`` of the default profile and the extenders. The JSON below is upstream's, with
one change: extender URLs are loopback URLs (kubesched refuses other extender hosts).
"""

from __future__ import annotations

import json

import pytest

from kubesched import features
from kubesched.api.yaml_source import read_documents
from kubesched.cluster import APIServer
from kubesched.scheduler import factory
from kubesched.sim.config_source import Located, resolve_config
from kubesched.util.loop import EventLoop

CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha1", "kind": "KubeSchedulerConfiguration",
          "algorithmSource": {"policy": {"configMap": {"name": "scheduler-custom-policy-config"}}}}

# Upstream's predicate and priority lists, release by release.
P_1_0 = [{"name": "MatchNodeSelector"}, {"name": "PodFitsResources"}, {"name": "PodFitsPorts"},
         {"name": "NoDiskConflict"},
         {"name": "TestServiceAffinity", "argument": {"serviceAffinity": {"labels": ["region"]}}},
         {"name": "TestLabelsPresence", "argument": {"labelsPresence": {"labels": ["foo"], "presence": True}}}]
P_1_2 = [{"name": n} for n in ("MatchNodeSelector", "PodFitsResources", "PodFitsHostPorts", "HostName",
                               "NoDiskConflict", "NoVolumeZoneConflict", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount",
                               "MaxAzureDiskVolumeCount")] + P_1_0[4:]
P_1_3 = [{"name": n} for n in ("MatchNodeSelector", "PodFitsResources", "PodFitsHostPorts", "HostName",
                               "NoDiskConflict", "NoVolumeZoneConflict", "PodToleratesNodeTaints",
                               "MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxAzureDiskVolumeCount",
                               "MatchInterPodAffinity")] + P_1_0[4:]
P_1_9 = P_1_3[:11] + [{"name": "CheckVolumeBinding"}] + P_1_0[4:]
P_1_12 = P_1_3[:10] + [{"name": "MaxCSIVolumeCountPred"}, {"name": "MatchInterPodAffinity"},
                       {"name": "CheckVolumeBinding"}] + P_1_0[4:]
P_1_14 = P_1_12[:11] + [{"name": "MaxCinderVolumeCount"}] + P_1_12[11:]


def _w(names: str, weight: int = 2) -> list[dict]:
    return [{"name": n, "weight": weight} for n in names.split()]


R_1_3 = _w("EqualPriority ImageLocalityPriority LeastRequestedPriority BalancedResourceAllocation "
           "SelectorSpreadPriority NodeAffinityPriority TaintTolerationPriority InterPodAffinityPriority")
R_1_4 = _w("EqualPriority ImageLocalityPriority LeastRequestedPriority BalancedResourceAllocation "
           "SelectorSpreadPriority NodePreferAvoidPodsPriority NodeAffinityPriority TaintTolerationPriority "
           "InterPodAffinityPriority MostRequestedPriority")
RTCR = {"name": "RequestedToCapacityRatioPriority", "weight": 2, "argument": {"requestedToCapacityRatioArguments": {
    "shape": [{"utilization": 0, "score": 0}, {"utilization": 50, "score": 7}]}}}
RTCR_RESOURCES = {"name": "RequestedToCapacityRatioPriority", "weight": 2, "argument": {
    "requestedToCapacityRatioArguments": {
        "shape": [{"utilization": 0, "score": 0}, {"utilization": 50, "score": 7}],
        "resources": [{"name": "intel.com/foo", "weight": 3}, {"name": "intel.com/bar", "weight": 5}]}}}
URL = "http://127.0.0.1:8888/prefix"
EXT_1_7 = {"urlPrefix": URL, "filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1, "BindVerb": "bind",
           "enableHttps": True, "tlsConfig": {"Insecure": True}, "httpTimeout": 1, "nodeCacheCapable": True}
EXT_1_8 = {**{k: v for k, v in EXT_1_7.items() if k != "BindVerb"}, "bindVerb": "bind"}
EXT_1_10 = {**EXT_1_8, "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": True}],
            "ignorable": True}

QS, BIND = [("PrioritySort", 0)], [("DefaultBinder", 0)]
MANDATORY = [("NodeUnschedulable", 0), ("TaintToleration", 0)]
FILTER_1_0 = [("NodeUnschedulable", 0), ("NodePorts", 0), ("NodeAffinity", 0), ("NodeResourcesFit", 0),
              ("VolumeRestrictions", 0), ("TaintToleration", 0), ("NodeLabel", 0), ("ServiceAffinity", 0)]
FILTER_1_1 = FILTER_1_0[:1] + [("NodeName", 0)] + FILTER_1_0[1:]
FILTER_1_2 = FILTER_1_1 + [("EBSLimits", 0), ("GCEPDLimits", 0), ("AzureDiskLimits", 0), ("VolumeZone", 0)]
FILTER_1_3 = FILTER_1_2 + [("InterPodAffinity", 0)]
FILTER_1_9 = FILTER_1_2[:12] + [("VolumeBinding", 0), ("VolumeZone", 0), ("InterPodAffinity", 0)]
FILTER_1_12 = FILTER_1_9[:11] + [("NodeVolumeLimits", 0)] + FILTER_1_9[11:]
FILTER_1_14 = FILTER_1_12[:13] + [("CinderLimits", 0)] + FILTER_1_12[13:]
PRE_FILTER = [("NodePorts", 0), ("NodeResourcesFit", 0), ("ServiceAffinity", 0)]
PRE_FILTER_IPA = PRE_FILTER + [("InterPodAffinity", 0)]
PRE_SCORE = [("InterPodAffinity", 0), ("DefaultPodTopologySpread", 0), ("TaintToleration", 0)]
SCORE_1_3 = [("NodeResourcesBalancedAllocation", 2), ("ImageLocality", 2), ("InterPodAffinity", 2),
             ("NodeResourcesLeastAllocated", 2), ("NodeAffinity", 2), ("DefaultPodTopologySpread", 2),
             ("TaintToleration", 2)]
SCORE_1_4 = SCORE_1_3[:4] + [("NodeResourcesMostAllocated", 2), ("NodeAffinity", 2), ("NodePreferAvoidPods", 2),
                             ("DefaultPodTopologySpread", 2), ("TaintToleration", 2)]
SCORE_1_11 = SCORE_1_4[:7] + [("RequestedToCapacityRatio", 2)] + SCORE_1_4[7:]


def _all(pre_filter, filters, pre_score, score) -> dict:
    found = {"QueueSortPlugin": QS, "PreFilterPlugin": pre_filter, "FilterPlugin": filters,
             "PreScorePlugin": pre_score, "ScorePlugin": score, "BindPlugin": BIND}
    return {k: v for k, v in found.items() if v}


CASES = [
    ("GeneralPredicate", {"predicates": [{"name": "GeneralPredicates"}], "priorities": []}, {},
     _all([("NodeResourcesFit", 0), ("NodePorts", 0)],
          [("NodeUnschedulable", 0), ("NodeResourcesFit", 0), ("NodeName", 0), ("NodePorts", 0), ("NodeAffinity", 0),
           ("TaintToleration", 0)], [], [])),
    ("MandatoryFilters", {"predicates": [], "priorities": []}, {}, _all([], MANDATORY, [], [])),
    ("1.0", {"predicates": P_1_0, "priorities": [
        {"name": "LeastRequestedPriority", "weight": 1}, {"name": "ServiceSpreadingPriority", "weight": 2},
        {"name": "TestServiceAntiAffinity", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "TestLabelPreference", "weight": 4, "argument": {"labelPreference": {"label": "bar", "presence": True}}},
    ]}, {}, _all(PRE_FILTER, FILTER_1_0, [("DefaultPodTopologySpread", 0)],
                 [("NodeResourcesLeastAllocated", 1), ("NodeLabel", 4), ("DefaultPodTopologySpread", 2),
                  ("ServiceAffinity", 3)])),
    ("1.1", {"predicates": P_1_0[:2] + [{"name": "PodFitsHostPorts"}, {"name": "NoDiskConflict"}, {"name": "HostName"}]
             + P_1_0[4:], "priorities": _w("EqualPriority LeastRequestedPriority BalancedResourceAllocation "
                                           "SelectorSpreadPriority") + [
        {"name": "TestServiceAntiAffinity1", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "TestServiceAntiAffinity2", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "region"}}},
        {"name": "TestLabelPreference1", "weight": 4, "argument": {"labelPreference": {"label": "bar", "presence": True}}},
        {"name": "TestLabelPreference2", "weight": 4, "argument": {"labelPreference": {"label": "foo",
                                                                                       "presence": False}}},
    ]}, {}, _all(PRE_FILTER, FILTER_1_1, [("DefaultPodTopologySpread", 0)],
                 [("NodeResourcesBalancedAllocation", 2), ("NodeResourcesLeastAllocated", 2),
                  ("NodeLabel", 8),  # 4 × two LabelPreference priorities
                  ("DefaultPodTopologySpread", 2),
                  ("ServiceAffinity", 6)])),  # 3 × two ServiceAntiAffinity priorities
    ("1.2", {"predicates": P_1_2, "priorities": _w(
        "EqualPriority NodeAffinityPriority ImageLocalityPriority LeastRequestedPriority BalancedResourceAllocation "
        "SelectorSpreadPriority") + [
        {"name": "TestServiceAntiAffinity", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "TestLabelPreference", "weight": 4, "argument": {"labelPreference": {"label": "bar", "presence": True}}},
    ]}, {}, _all(PRE_FILTER, FILTER_1_2, [("DefaultPodTopologySpread", 0)],
                 [("NodeResourcesBalancedAllocation", 2), ("ImageLocality", 2), ("NodeResourcesLeastAllocated", 2),
                  ("NodeAffinity", 2), ("NodeLabel", 4), ("DefaultPodTopologySpread", 2), ("ServiceAffinity", 3)])),
    ("1.3", {"predicates": P_1_3, "priorities": R_1_3}, {}, _all(PRE_FILTER_IPA, FILTER_1_3, PRE_SCORE, SCORE_1_3)),
    ("1.4", {"predicates": P_1_3, "priorities": R_1_4}, {}, _all(PRE_FILTER_IPA, FILTER_1_3, PRE_SCORE, SCORE_1_4)),
    ("1.7", {"predicates": P_1_3, "priorities": R_1_4, "extenders": [EXT_1_7]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_3, PRE_SCORE, SCORE_1_4)),
    ("1.8", {"predicates": P_1_3, "priorities": R_1_4, "extenders": [EXT_1_8]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_3, PRE_SCORE, SCORE_1_4)),
    ("1.9", {"predicates": P_1_9, "priorities": R_1_4, "extenders": [EXT_1_8]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_9, PRE_SCORE, SCORE_1_4)),
    ("1.10", {"predicates": P_1_9, "priorities": R_1_4, "extenders": [EXT_1_10]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_9, PRE_SCORE, SCORE_1_4)),
    ("1.11", {"predicates": P_1_9, "priorities": R_1_4 + [RTCR], "extenders": [EXT_1_10]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_9, PRE_SCORE, SCORE_1_11)),
    ("1.12", {"predicates": P_1_12, "priorities": R_1_4 + [RTCR], "extenders": [EXT_1_10]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_12, PRE_SCORE, SCORE_1_11)),
    ("1.14", {"predicates": P_1_14, "priorities": R_1_4 + [RTCR], "extenders": [EXT_1_10]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_14, PRE_SCORE, SCORE_1_11)),
    ("1.16", {"predicates": P_1_14, "priorities": R_1_4 + [RTCR_RESOURCES], "extenders": [EXT_1_10]}, {},
     _all(PRE_FILTER_IPA, FILTER_1_14, PRE_SCORE, SCORE_1_11)),
    ("enable alpha feature ResourceLimitsPriorityFunction and disable beta feature EvenPodsSpread",
     {"predicates": [], "priorities": [{"name": "ResourceLimitsPriority", "weight": 2}]},
     {"EvenPodsSpread": False, "ResourceLimitsPriorityFunction": True},
     _all([], MANDATORY, [("NodeResourceLimits", 0)], [("NodeResourceLimits", 2)])),
]


def _config_map(policy: dict) -> str:
    body = json.dumps({"kind": "Policy", "apiVersion": "v1", **policy})
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: kube-system\n"
            f"  name: scheduler-custom-policy-config\ndata:\n  policy.cfg: '{body}'\n")


def _scheduler(policy: dict, gates: dict):
    with features.override(gates):
        cfg = resolve_config(Located(dict(CONFIG, featureGates=gates), "config.yaml"),
                             cluster_documents=read_documents(_config_map(policy))[0])
        loop = EventLoop()
        return factory.new(APIServer(loop), loop, cfg)


@pytest.mark.parametrize("policy,gates,want", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compatibility_v1_scheduler(policy, gates, want):
    sched = _scheduler(policy, gates)
    got = sched.profiles["default-scheduler"].framework.list_plugins()
    assert {k: [(p.name, p.weight) for p in v] for k, v in got.items()} == want
    extenders = policy.get("extenders", [])
    built = sched.algorithm.get_extenders()
    assert [(e.extender_url, e.filter_verb, e.prioritize_verb, e.bind_verb, e.weight, e.node_cache_capable,
             e.timeout, e.ignorable, sorted(e.managed_resources)) for e in built] == [
        (URL, "filter", "prioritize", "bind", 1, True, 1e-9, e.get("ignorable", False),
         [r["name"] for r in e.get("managedResources", [])]) for e in extenders]


def test_policy_plugin_configs_are_upstreams_json():
    """1.16: RequestedToCapacityRatio, NodeLabel and ServiceAffinity get NewPluginConfig's JSON;
    the extender's ignored resource becomes NodeResourcesFit's config (create())."""
    sched = _scheduler(CASES[14][1], {})
    fwk = sched.profiles["default-scheduler"].framework
    by_name = {p.name(): p for p in fwk.plugins_by_point["score"]}
    assert by_name["RequestedToCapacityRatio"].scorer.resource_to_weight_map == {"intel.com/foo": 3,
                                                                                 "intel.com/bar": 5}
    labels = {p.name(): p for p in fwk.plugins_by_point["filter"]}
    assert labels["NodeLabel"].args.present_labels == ("foo",)
    assert labels["ServiceAffinity"].args.affinity_labels == ("region",)
