"""The legacy scheduler ``Policy``: predicates, priorities, extenders (``kind: Policy, apiVersion: v1``).

Upstream: pkg/scheduler/apis/config/legacy_types.go @ v1.18.5 (Policy, PredicatePolicy,
PriorityPolicy, PredicateArgument, PriorityArgument, ServiceAffinity, LabelsPresence,
ServiceAntiAffinity, LabelPreference, RequestedToCapacityRatioArguments,
UtilizationShapePoint, ResourceSpec) and staging/src/k8s.io/kube-scheduler/config/v1 (the
same shapes, JSON names as written below).

``predicates``/``priorities`` are ``None`` when the document omits them (or writes null): the
legacy defaults are then used. An empty list means "none" (only the mandatory predicates run).
"""

from __future__ import annotations

from dataclasses import dataclass

from kubesched.scheduler.apis.config.types import Extender


@dataclass(frozen=True, slots=True)
class ServiceAffinity:
    """``serviceAffinity``: pods of one Service must share these node label values."""

    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelsPresence:
    """``labelsPresence``: nodes must (presence) or must not have these label keys."""

    labels: tuple[str, ...] = ()
    presence: bool = False


@dataclass(frozen=True, slots=True)
class PredicateArgument:
    """``argument`` of a custom predicate: exactly one of the two must be set."""

    service_affinity: ServiceAffinity | None = None
    labels_presence: LabelsPresence | None = None


@dataclass(frozen=True, slots=True)
class PredicatePolicy:
    """One ``predicates[]`` entry: a registered name, or any name with a custom argument."""

    name: str = ""
    argument: PredicateArgument | None = None


@dataclass(frozen=True, slots=True)
class ServiceAntiAffinity:
    """``serviceAntiAffinity``: spread a Service's pods over the values of this node label."""

    label: str = ""


@dataclass(frozen=True, slots=True)
class LabelPreference:
    """``labelPreference``: prefer nodes that have (presence) or lack this label key."""

    label: str = ""
    presence: bool = False


@dataclass(frozen=True, slots=True)
class UtilizationShapePoint:
    """One point of the RequestedToCapacityRatio function: utilization 0-100 → score 0-10."""

    utilization: int = 0
    score: int = 0


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    """A resource the RequestedToCapacityRatio priority weighs."""

    name: str = ""
    weight: int = 0


@dataclass(frozen=True, slots=True)
class RequestedToCapacityRatioArguments:
    """``requestedToCapacityRatioArguments``: the shape and the weighted resources."""

    shape: tuple[UtilizationShapePoint, ...] = ()
    resources: tuple[ResourceSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class PriorityArgument:
    """``argument`` of a custom priority: exactly one of the three must be set."""

    service_anti_affinity: ServiceAntiAffinity | None = None
    label_preference: LabelPreference | None = None
    requested_to_capacity_ratio_arguments: RequestedToCapacityRatioArguments | None = None


@dataclass(frozen=True, slots=True)
class PriorityPolicy:
    """One ``priorities[]`` entry: a name, its weight, and a custom argument if any."""

    name: str = ""
    weight: int = 0
    argument: PriorityArgument | None = None


@dataclass(frozen=True, slots=True)
class Policy:
    """``Policy``: what a scheduler started with ``--policy-config-file`` (or a policy ConfigMap) runs."""

    predicates: tuple[PredicatePolicy, ...] | None = None
    priorities: tuple[PriorityPolicy, ...] | None = None
    extenders: tuple[Extender, ...] = ()
    hard_pod_affinity_symmetric_weight: int = 0
    always_check_all_predicates: bool = False
