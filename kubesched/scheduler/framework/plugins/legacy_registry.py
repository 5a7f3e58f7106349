"""Predicates and priorities of a legacy Policy translated to framework plugins and their args.

Upstream: pkg/scheduler/framework/plugins/legacy_registry.go @ v1.18.5 (the predicate and
priority names, PredicateOrdering, NewLegacyRegistry with its config producers,
MandatoryPredicates, DefaultPredicates, DefaultPriorities, ConfigProducerArgs,
ProcessPredicatePolicy, ProcessPriorityPolicy, validatePredicateOrDie,
validatePriorityOrDie, NewPluginConfig).

A producer is data here: the (extension point, plugin) pairs it appends, in upstream's order,
the ``ConfigProducerArgs`` field whose value becomes the plugin's config, and for priorities
the Score plugin that carries the weight. Plugin configs are ``RawArgs`` holding the JSON Go's
``json.Marshal`` writes for the args struct (field order, ``omitempty``).

``new_legacy_registry`` reads the feature gates when it is called, as upstream's constructor:
EvenPodsSpread (on in 1.18) adds the ``EvenPodsSpread`` predicate and priority to the
registry and to the defaults; ResourceLimitsPriorityFunction (off) adds ``ResourceLimitsPriority``.

Deviation: where upstream calls ``klog.Fatalf`` (an unknown name, a custom entry with not
exactly one argument) or dereferences a nil pointer (a ``NodeLabel`` / ``ServiceAffinity``
priority key without its argument), ``LegacyPolicyError`` is raised with the same text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubesched import features
from kubesched.scheduler.apis.config import legacy_types as lt
from kubesched.scheduler.apis.config.types import Plugin, PluginConfig, Plugins, PluginSet, RawArgs

# -- names (legacy_registry.go constants) -----------------------------------------------------------
EQUAL_PRIORITY: Final = "EqualPriority"
MOST_REQUESTED_PRIORITY: Final = "MostRequestedPriority"
REQUESTED_TO_CAPACITY_RATIO_PRIORITY: Final = "RequestedToCapacityRatioPriority"
SELECTOR_SPREAD_PRIORITY: Final = "SelectorSpreadPriority"
SERVICE_SPREADING_PRIORITY: Final = "ServiceSpreadingPriority"
INTER_POD_AFFINITY_PRIORITY: Final = "InterPodAffinityPriority"
LEAST_REQUESTED_PRIORITY: Final = "LeastRequestedPriority"
BALANCED_RESOURCE_ALLOCATION: Final = "BalancedResourceAllocation"
NODE_PREFER_AVOID_PODS_PRIORITY: Final = "NodePreferAvoidPodsPriority"
NODE_AFFINITY_PRIORITY: Final = "NodeAffinityPriority"
TAINT_TOLERATION_PRIORITY: Final = "TaintTolerationPriority"
IMAGE_LOCALITY_PRIORITY: Final = "ImageLocalityPriority"
RESOURCE_LIMITS_PRIORITY: Final = "ResourceLimitsPriority"
EVEN_PODS_SPREAD_PRIORITY: Final = "EvenPodsSpreadPriority"

MATCH_INTER_POD_AFFINITY_PRED: Final = "MatchInterPodAffinity"
CHECK_VOLUME_BINDING_PRED: Final = "CheckVolumeBinding"
GENERAL_PRED: Final = "GeneralPredicates"
HOST_NAME_PRED: Final = "HostName"
POD_FITS_HOST_PORTS_PRED: Final = "PodFitsHostPorts"
MATCH_NODE_SELECTOR_PRED: Final = "MatchNodeSelector"
POD_FITS_RESOURCES_PRED: Final = "PodFitsResources"
NO_DISK_CONFLICT_PRED: Final = "NoDiskConflict"
POD_TOLERATES_NODE_TAINTS_PRED: Final = "PodToleratesNodeTaints"
CHECK_NODE_UNSCHEDULABLE_PRED: Final = "CheckNodeUnschedulable"
CHECK_NODE_LABEL_PRESENCE_PRED: Final = "CheckNodeLabelPresence"
CHECK_SERVICE_AFFINITY_PRED: Final = "CheckServiceAffinity"
MAX_EBS_VOLUME_COUNT_PRED: Final = "MaxEBSVolumeCount"
MAX_GCE_PD_VOLUME_COUNT_PRED: Final = "MaxGCEPDVolumeCount"
MAX_AZURE_DISK_VOLUME_COUNT_PRED: Final = "MaxAzureDiskVolumeCount"
MAX_CINDER_VOLUME_COUNT_PRED: Final = "MaxCinderVolumeCount"
MAX_CSI_VOLUME_COUNT_PRED: Final = "MaxCSIVolumeCountPred"
NO_VOLUME_ZONE_CONFLICT_PRED: Final = "NoVolumeZoneConflict"
EVEN_PODS_SPREAD_PRED: Final = "EvenPodsSpread"
POD_FITS_PORTS: Final = "PodFitsPorts"  # accepted for compatibility: PodFitsHostPorts

# Plugin names (each plugin package's Name).
NODE_RESOURCES_FIT, NODE_NAME, NODE_PORTS, NODE_AFFINITY = "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity"
NODE_LABEL, SERVICE_AFFINITY, INTER_POD_AFFINITY = "NodeLabel", "ServiceAffinity", "InterPodAffinity"
REQUESTED_TO_CAPACITY_RATIO: Final = "RequestedToCapacityRatio"
POD_TOPOLOGY_SPREAD, NODE_RESOURCE_LIMITS = "PodTopologySpread", "NodeResourceLimits"


def predicate_ordering() -> tuple[str, ...]:
    """``PredicateOrdering``: the order predicates (hence their Filter plugins) run in."""
    return (CHECK_NODE_UNSCHEDULABLE_PRED, GENERAL_PRED, HOST_NAME_PRED, POD_FITS_HOST_PORTS_PRED,
            MATCH_NODE_SELECTOR_PRED, POD_FITS_RESOURCES_PRED, NO_DISK_CONFLICT_PRED,
            POD_TOLERATES_NODE_TAINTS_PRED, CHECK_NODE_LABEL_PRESENCE_PRED, CHECK_SERVICE_AFFINITY_PRED,
            MAX_EBS_VOLUME_COUNT_PRED, MAX_GCE_PD_VOLUME_COUNT_PRED, MAX_CSI_VOLUME_COUNT_PRED,
            MAX_AZURE_DISK_VOLUME_COUNT_PRED, MAX_CINDER_VOLUME_COUNT_PRED, CHECK_VOLUME_BINDING_PRED,
            NO_VOLUME_ZONE_CONFLICT_PRED, EVEN_PODS_SPREAD_PRED, MATCH_INTER_POD_AFFINITY_PRED)


class LegacyPolicyError(ValueError):
    """A Policy entry v1.18.5 cannot run (upstream: klog.Fatalf or a nil dereference)."""


# -- producers --------------------------------------------------------------------------------------
@dataclass
class ConfigProducerArgs:
    """``ConfigProducerArgs``: the weight, and the args structs (as Go-ordered JSON objects)."""

    weight: int = 0
    node_label_args: dict[str, list[str]] | None = None
    requested_to_capacity_ratio_args: dict[str, Any] | None = None
    service_affinity_args: dict[str, list[str]] | None = None
    node_resources_fit_args: dict[str, Any] | None = None
    inter_pod_affinity_args: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Producer:
    """A ``ConfigProducer`` as data: appended (point, plugin) pairs, the ``ConfigProducerArgs``
    field whose value configures ``config_plugin``, and the lists of that value whose total
    length multiplies a Score weight (NodeLabel, ServiceAffinity: one weight per label)."""

    plugins: tuple[tuple[str, str], ...]
    args: str = ""
    config_plugin: str = ""
    weight_lists: tuple[str, ...] = ()

    def produce(self, args: ConfigProducerArgs) -> tuple[Plugins, tuple[PluginConfig, ...]]:
        """The plugins and plugin configs for ``args``."""
        sets: dict[str, list[Plugin]] = {}
        for point, name in self.plugins:
            sets.setdefault(point, []).append(Plugin(name, self._weight(args) if point == "score" else 0))
        value = getattr(args, self.args) if self.args else None
        configs = (new_plugin_config(self.config_plugin, value),) if value is not None else ()
        return Plugins(**{p: PluginSet(enabled=tuple(ps)) for p, ps in sets.items()}), configs

    def _weight(self, args: ConfigProducerArgs) -> int:
        if not self.weight_lists:
            return args.weight
        lists = getattr(args, self.args)
        if lists is None:  # upstream dereferences the nil args here and panics
            raise LegacyPolicyError(f"priority {self.config_plugin} has no custom argument: "
                                    "runtime error: invalid memory address or nil pointer dereference")
        return int32(args.weight * sum(len(lists.get(k, ())) for k in self.weight_lists))


def _filters(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple(("filter", n) for n in names)


def _predicates() -> dict[str, Producer]:
    fit = (("filter", NODE_RESOURCES_FIT), ("pre_filter", NODE_RESOURCES_FIT))
    ports = (("filter", NODE_PORTS), ("pre_filter", NODE_PORTS))
    return {
        GENERAL_PRED: Producer(fit + _filters(NODE_NAME) + ports + _filters(NODE_AFFINITY),
                               "node_resources_fit_args", NODE_RESOURCES_FIT),
        POD_TOLERATES_NODE_TAINTS_PRED: Producer(_filters("TaintToleration")),
        POD_FITS_RESOURCES_PRED: Producer(fit, "node_resources_fit_args", NODE_RESOURCES_FIT),
        HOST_NAME_PRED: Producer(_filters(NODE_NAME)),
        POD_FITS_HOST_PORTS_PRED: Producer(ports),
        MATCH_NODE_SELECTOR_PRED: Producer(_filters(NODE_AFFINITY)),
        CHECK_NODE_UNSCHEDULABLE_PRED: Producer(_filters("NodeUnschedulable")),
        CHECK_VOLUME_BINDING_PRED: Producer(_filters("VolumeBinding")),
        NO_DISK_CONFLICT_PRED: Producer(_filters("VolumeRestrictions")),
        NO_VOLUME_ZONE_CONFLICT_PRED: Producer(_filters("VolumeZone")),
        MAX_CSI_VOLUME_COUNT_PRED: Producer(_filters("NodeVolumeLimits")),
        MAX_EBS_VOLUME_COUNT_PRED: Producer(_filters("EBSLimits")),
        MAX_GCE_PD_VOLUME_COUNT_PRED: Producer(_filters("GCEPDLimits")),
        MAX_AZURE_DISK_VOLUME_COUNT_PRED: Producer(_filters("AzureDiskLimits")),
        MAX_CINDER_VOLUME_COUNT_PRED: Producer(_filters("CinderLimits")),
        MATCH_INTER_POD_AFFINITY_PRED: Producer((("filter", INTER_POD_AFFINITY), ("pre_filter", INTER_POD_AFFINITY))),
        CHECK_NODE_LABEL_PRESENCE_PRED: Producer(_filters(NODE_LABEL), "node_label_args", NODE_LABEL),
        CHECK_SERVICE_AFFINITY_PRED: Producer((("filter", SERVICE_AFFINITY), ("pre_filter", SERVICE_AFFINITY)),
                                              "service_affinity_args", SERVICE_AFFINITY),
    }


def _scored(name: str, pre_score: bool = False) -> tuple[tuple[str, str], ...]:
    return ((("pre_score", name),) if pre_score else ()) + (("score", name),)


def _priorities() -> dict[str, Producer]:
    return {
        SELECTOR_SPREAD_PRIORITY: Producer(_scored("DefaultPodTopologySpread", pre_score=True)),
        TAINT_TOLERATION_PRIORITY: Producer(_scored("TaintToleration", pre_score=True)),
        NODE_AFFINITY_PRIORITY: Producer(_scored(NODE_AFFINITY)),
        IMAGE_LOCALITY_PRIORITY: Producer(_scored("ImageLocality")),
        INTER_POD_AFFINITY_PRIORITY: Producer(_scored(INTER_POD_AFFINITY, pre_score=True),
                                              "inter_pod_affinity_args", INTER_POD_AFFINITY),
        NODE_PREFER_AVOID_PODS_PRIORITY: Producer(_scored("NodePreferAvoidPods")),
        MOST_REQUESTED_PRIORITY: Producer(_scored("NodeResourcesMostAllocated")),
        BALANCED_RESOURCE_ALLOCATION: Producer(_scored("NodeResourcesBalancedAllocation")),
        LEAST_REQUESTED_PRIORITY: Producer(_scored("NodeResourcesLeastAllocated")),
        REQUESTED_TO_CAPACITY_RATIO: Producer(_scored(REQUESTED_TO_CAPACITY_RATIO), "requested_to_capacity_ratio_args",
                                              REQUESTED_TO_CAPACITY_RATIO),
        NODE_LABEL: Producer(_scored(NODE_LABEL), "node_label_args", NODE_LABEL,
                             ("presentLabelsPreference", "absentLabelsPreference")),
        SERVICE_AFFINITY: Producer(_scored(SERVICE_AFFINITY), "service_affinity_args", SERVICE_AFFINITY,
                                   ("antiAffinityLabelsPreference",)),
    }


@dataclass(frozen=True)
class LegacyRegistry:
    """``LegacyRegistry``: producers by predicate / priority key, the mandatory predicates and
    the defaults used when a Policy omits ``predicates`` / ``priorities``."""

    predicate_to_config_producer: Mapping[str, Producer]
    priority_to_config_producer: Mapping[str, Producer]
    mandatory_predicates: frozenset[str]
    default_predicates: frozenset[str]
    default_priorities: Mapping[str, int] = field(default_factory=dict)

    def process_predicate_policy(self, policy: lt.PredicatePolicy, args: ConfigProducerArgs) -> str:
        """``ProcessPredicatePolicy``: the predicate key; custom arguments accumulate in ``args``."""
        _validate_predicate(policy)
        name = POD_FITS_HOST_PORTS_PRED if policy.name == POD_FITS_PORTS else policy.name
        if name in self.predicate_to_config_producer:
            return name
        arg = policy.argument
        if arg is None or (arg.service_affinity is None and arg.labels_presence is None):
            raise LegacyPolicyError(f'Invalid configuration: Predicate type not found for "{policy.name}"')
        if arg.service_affinity is not None:
            _extend(args, "service_affinity_args", "affinityLabels", arg.service_affinity.labels)
            name = CHECK_SERVICE_AFFINITY_PRED
        if arg.labels_presence is not None:
            key = "presentLabels" if arg.labels_presence.presence else "absentLabels"
            _extend(args, "node_label_args", key, arg.labels_presence.labels)
            name = CHECK_NODE_LABEL_PRESENCE_PRED
        return name

    def process_priority_policy(self, policy: lt.PriorityPolicy, args: ConfigProducerArgs) -> str:
        """``ProcessPriorityPolicy``: the priority key; custom arguments accumulate in ``args``."""
        _validate_priority(policy)
        name = SELECTOR_SPREAD_PRIORITY if policy.name == SERVICE_SPREADING_PRIORITY else policy.name
        if name in self.priority_to_config_producer:
            return name
        arg = policy.argument
        if arg is None or (arg.service_anti_affinity is None and arg.requested_to_capacity_ratio_arguments is None
                           and arg.label_preference is None):
            raise LegacyPolicyError(f'Invalid configuration: Priority type not found for "{name}"')
        if arg.service_anti_affinity is not None:
            name = SERVICE_AFFINITY
            _extend(args, "service_affinity_args", "antiAffinityLabelsPreference", (arg.service_anti_affinity.label,))
        if arg.label_preference is not None:
            name = NODE_LABEL
            key = "presentLabelsPreference" if arg.label_preference.presence else "absentLabelsPreference"
            _extend(args, "node_label_args", key, (arg.label_preference.label,))
        if arg.requested_to_capacity_ratio_arguments is not None:
            args.requested_to_capacity_ratio_args = rtcr_args(arg.requested_to_capacity_ratio_arguments)
            name = REQUESTED_TO_CAPACITY_RATIO
        return name


def new_legacy_registry() -> LegacyRegistry:
    """``NewLegacyRegistry`` with the feature gates as they are now."""
    predicates, priorities = _predicates(), _priorities()
    default_predicates = {NO_VOLUME_ZONE_CONFLICT_PRED, MAX_EBS_VOLUME_COUNT_PRED, MAX_GCE_PD_VOLUME_COUNT_PRED,
                          MAX_AZURE_DISK_VOLUME_COUNT_PRED, MAX_CSI_VOLUME_COUNT_PRED, MATCH_INTER_POD_AFFINITY_PRED,
                          NO_DISK_CONFLICT_PRED, GENERAL_PRED, POD_TOLERATES_NODE_TAINTS_PRED,
                          CHECK_VOLUME_BINDING_PRED, CHECK_NODE_UNSCHEDULABLE_PRED}
    default_priorities = {SELECTOR_SPREAD_PRIORITY: 1, INTER_POD_AFFINITY_PRIORITY: 1, LEAST_REQUESTED_PRIORITY: 1,
                          BALANCED_RESOURCE_ALLOCATION: 1, NODE_PREFER_AVOID_PODS_PRIORITY: 10000,
                          NODE_AFFINITY_PRIORITY: 1, TAINT_TOLERATION_PRIORITY: 1, IMAGE_LOCALITY_PRIORITY: 1}
    if features.enabled("EvenPodsSpread"):
        predicates[EVEN_PODS_SPREAD_PRED] = Producer((("pre_filter", POD_TOPOLOGY_SPREAD),
                                                      ("filter", POD_TOPOLOGY_SPREAD)))
        default_predicates.add(EVEN_PODS_SPREAD_PRED)
        priorities[EVEN_PODS_SPREAD_PRIORITY] = Producer(_scored(POD_TOPOLOGY_SPREAD, pre_score=True))
        default_priorities[EVEN_PODS_SPREAD_PRIORITY] = 1
    if features.enabled("ResourceLimitsPriorityFunction"):
        priorities[RESOURCE_LIMITS_PRIORITY] = Producer(_scored(NODE_RESOURCE_LIMITS, pre_score=True))
        default_priorities[RESOURCE_LIMITS_PRIORITY] = 1
    return LegacyRegistry(predicates, priorities,
                          frozenset({POD_TOLERATES_NODE_TAINTS_PRED, CHECK_NODE_UNSCHEDULABLE_PRED}),
                          frozenset(default_predicates), default_priorities)


# -- args -------------------------------------------------------------------------------------------
def new_plugin_config(plugin: str, args: Mapping[str, Any]) -> PluginConfig:
    """``NewPluginConfig``: the args struct marshalled to JSON (as ``runtime.Unknown`` raw bytes)."""
    return PluginConfig(plugin, RawArgs(json.dumps(args, separators=(",", ":"))))


def rtcr_args(arguments: lt.RequestedToCapacityRatioArguments) -> dict[str, Any]:
    """``RequestedToCapacityRatioArgs`` as Go marshals it (``resources`` omitted when empty)."""
    out: dict[str, Any] = {"shape": [{"utilization": p.utilization, "score": p.score} for p in arguments.shape]}
    if arguments.resources:
        out["resources"] = [{"name": r.name, "weight": r.weight} for r in arguments.resources]
    return out


def _extend(args: ConfigProducerArgs, struct: str, key: str, values: tuple[str, ...]) -> None:
    """Append to one list field of an args struct (created when nil), keeping the struct's field
    order and ``omitempty`` for the others."""
    order = ("presentLabels", "absentLabels", "presentLabelsPreference", "absentLabelsPreference",
             "affinityLabels", "antiAffinityLabelsPreference")
    current = getattr(args, struct) or {}
    merged = {**current, key: current.get(key, []) + list(values)}
    setattr(args, struct, {k: merged[k] for k in order if merged.get(k)})


def int32(value: int) -> int:
    """Go's ``int32(x)`` conversion (wraps)."""
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


def _validate_predicate(predicate: lt.PredicatePolicy) -> None:
    """``validatePredicateOrDie``."""
    arg = predicate.argument
    if arg is not None:
        count = (arg.service_affinity is not None) + (arg.labels_presence is not None)
        if count != 1:
            raise LegacyPolicyError(f"Exactly 1 predicate argument is required, numArgs: {count}, "
                                    f"Predicate: {predicate.name}")


def _validate_priority(priority: lt.PriorityPolicy) -> None:
    """``validatePriorityOrDie``."""
    arg = priority.argument
    if arg is not None:
        count = ((arg.service_anti_affinity is not None) + (arg.label_preference is not None)
                 + (arg.requested_to_capacity_ratio_arguments is not None))
        if count != 1:
            raise LegacyPolicyError(f"Exactly 1 priority argument is required, numArgs: {count}, "
                                    f"Priority: {priority.name}")
