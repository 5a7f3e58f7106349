"""Decoding a legacy ``Policy`` document (``kind: Policy``, ``apiVersion: v1``) into ``legacy_types``.

Upstream: staging/src/k8s.io/kube-scheduler/config/v1/types.go and register.go @ v1.18.5
(Policy is registered as ``kubescheduler.config.k8s.io/v1`` and, for old files, as plain
``v1``), decoded by the strict codec of pkg/scheduler/apis/config/scheme (initPolicyFromFile,
initPolicyFromConfigMap). Extender fields are matched case-insensitively (``BindVerb``,
``tlsConfig: {Insecure: true}``), as the stdlib-decoded ``caseInsensitiveExtender``.

Deviation: unknown fields inside ``extenders[]`` are errors here (upstream's stdlib decoding
of extenders ignores them), as for v1alpha2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kubesched.scheduler.apis.config import legacy_types as lt
from kubesched.scheduler.apis.config.decoder import (
    FieldProblem,
    ListOf,
    Struct,
    TrapLookup,
)
from kubesched.scheduler.apis.config.decoder import decode as decode_spec
from kubesched.scheduler.apis.config.defaults import convert_extender
from kubesched.scheduler.apis.config.v1alpha2 import EXTENDER, GROUP_NAME

KIND: Final = "Policy"
API_VERSIONS: Final = ("v1", f"{GROUP_NAME}/v1")

_STRINGS: Final = ListOf("string")
_PREDICATE_ARGUMENT: Final = Struct("PredicateArgument", {
    "serviceAffinity": Struct("ServiceAffinity", {"labels": _STRINGS}),
    "labelsPresence": Struct("LabelsPresence", {"labels": _STRINGS, "presence": "bool"})})
_RTCR_ARGUMENTS: Final = Struct("RequestedToCapacityRatioArguments", {
    "shape": ListOf(Struct("UtilizationShapePoint", {"utilization": "int32", "score": "int32"})),
    "resources": ListOf(Struct("ResourceSpec", {"name": "string", "weight": "int64"}))})
_PRIORITY_ARGUMENT: Final = Struct("PriorityArgument", {
    "serviceAntiAffinity": Struct("ServiceAntiAffinity", {"label": "string"}),
    "labelPreference": Struct("LabelPreference", {"label": "string", "presence": "bool"}),
    "requestedToCapacityRatioArguments": _RTCR_ARGUMENTS})
POLICY: Final = Struct(KIND, {
    "apiVersion": "string", "kind": "string",
    "predicates": ListOf(Struct("PredicatePolicy", {"name": "string", "argument": _PREDICATE_ARGUMENT})),
    "priorities": ListOf(Struct("PriorityPolicy", {"name": "string", "weight": "int64",
                                                   "argument": _PRIORITY_ARGUMENT})),
    "extenders": ListOf(EXTENDER),
    "hardPodAffinitySymmetricWeight": "int32",
    "alwaysCheckAllPredicates": "bool",
})


def is_policy(data: Any) -> bool:
    """Whether a parsed document is a scheduler Policy (other groups also have a ``Policy`` kind)."""
    return isinstance(data, Mapping) and data.get("kind") == KIND and data.get("apiVersion") in API_VERSIONS


def decode(data: Any, trap_at: TrapLookup = lambda path: None) -> tuple[lt.Policy | None, list[FieldProblem]]:
    """The Policy of a document (its apiVersion and kind already checked), or the problems."""
    versioned, problems = decode_spec(POLICY, data, trap_at)
    if problems:
        return None, problems
    return convert(versioned), []


def convert(obj: Mapping[str, Any]) -> lt.Policy:
    """The internal Policy of a decoded versioned form."""
    predicates = obj.get("predicates")
    priorities = obj.get("priorities")
    return lt.Policy(
        predicates=None if predicates is None else tuple(_predicate(p) for p in predicates),
        priorities=None if priorities is None else tuple(_priority(p) for p in priorities),
        extenders=tuple(convert_extender(e) for e in obj.get("extenders", ())),
        hard_pod_affinity_symmetric_weight=obj.get("hardPodAffinitySymmetricWeight", 0),
        always_check_all_predicates=obj.get("alwaysCheckAllPredicates", False),
    )


def _predicate(p: Mapping[str, Any]) -> lt.PredicatePolicy:
    arg = p.get("argument")
    argument = None
    if arg is not None:
        sa, lp = arg.get("serviceAffinity"), arg.get("labelsPresence")
        argument = lt.PredicateArgument(
            service_affinity=None if sa is None else lt.ServiceAffinity(tuple(sa.get("labels", ()))),
            labels_presence=None if lp is None else lt.LabelsPresence(tuple(lp.get("labels", ())),
                                                                       lp.get("presence", False)))
    return lt.PredicatePolicy(p.get("name", ""), argument)


def _priority(p: Mapping[str, Any]) -> lt.PriorityPolicy:
    arg = p.get("argument")
    argument = None
    if arg is not None:
        saa, pref, rtcr = (arg.get("serviceAntiAffinity"), arg.get("labelPreference"),
                           arg.get("requestedToCapacityRatioArguments"))
        argument = lt.PriorityArgument(
            service_anti_affinity=None if saa is None else lt.ServiceAntiAffinity(saa.get("label", "")),
            label_preference=None if pref is None else lt.LabelPreference(pref.get("label", ""),
                                                                          pref.get("presence", False)),
            requested_to_capacity_ratio_arguments=None if rtcr is None else lt.RequestedToCapacityRatioArguments(
                shape=tuple(lt.UtilizationShapePoint(s.get("utilization", 0), s.get("score", 0))
                            for s in rtcr.get("shape", ())),
                resources=tuple(lt.ResourceSpec(r.get("name", ""), r.get("weight", 0))
                                for r in rtcr.get("resources", ()))))
    return lt.PriorityPolicy(p.get("name", ""), p.get("weight", 0), argument)
