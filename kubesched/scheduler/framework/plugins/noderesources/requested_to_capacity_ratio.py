"""RequestedToCapacityRatio: score nodes by a configurable piecewise-linear function of utilization.

Upstream: pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go
(FunctionShapePoint, FunctionShape, NewRequestedToCapacityRatio, RequestedToCapacityRatio.Name,
Score, ScoreExtensions, ValidateFunctionShape, validateResourceWeightMap,
buildRequestedToCapacityRatioScorerFunction, buildBrokenLinearFunction); args are
apis/config RequestedToCapacityRatioArguments (shape of {utilization, score}, resources of
{name, weight}).

Shape scores are given on 0..10 (MaxCustomPriorityScore) and scaled ×10 to 0..100. A weight of 0
becomes 1; a bad weight map is only logged upstream, never rejected. Go integer division
truncates toward zero (decreasing segments) and the final mean uses math.Round (half away from zero).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Final, Mapping, Optional, Sequence

from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    DEFAULT_REQUESTED_RATIO_RESOURCES, ResourceAllocationScorer, ResourceToValueMap,
    ScorerFunc, go_div)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, ScorePlugin, Status

NAME: Final = "RequestedToCapacityRatio"
MAX_CUSTOM_PRIORITY_SCORE: Final = 10  # apis/config.MaxCustomPriorityScore
MIN_UTILIZATION: Final = 0
MAX_UTILIZATION: Final = 100
MIN_SCORE: Final = 0


@dataclass(frozen=True, slots=True)
class FunctionShapePoint:
    """One (utilization, score) point of the scoring function."""

    utilization: int
    score: int


FunctionShape = Sequence[FunctionShapePoint]


class RequestedToCapacityRatio:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object, scorer: ResourceAllocationScorer) -> None:
        self.node_infos = node_infos
        self.scorer = scorer

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*RequestedToCapacityRatio).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        return self.scorer.score(pod, node_info)

    def score_extensions(self) -> None:
        return None


def validate_function_shape(shape: FunctionShape) -> None:
    """Upstream: ValidateFunctionShape. Raises ValueError with upstream's message."""
    if not shape:
        raise ValueError("at least one point must be specified")
    for i in range(1, len(shape)):
        if shape[i - 1].utilization >= shape[i].utilization:
            raise ValueError(f"utilization values must be sorted. Utilization[{i - 1}]=="
                             f"{shape[i - 1].utilization} >= Utilization[{i}]=={shape[i].utilization}")
    for i, point in enumerate(shape):
        if point.utilization < MIN_UTILIZATION:
            raise ValueError(f"utilization values must not be less than {MIN_UTILIZATION}. "
                             f"Utilization[{i}]=={point.utilization}")
        if point.utilization > MAX_UTILIZATION:
            raise ValueError(f"utilization values must not be greater than {MAX_UTILIZATION}. "
                             f"Utilization[{i}]=={point.utilization}")
        if point.score < MIN_SCORE:
            raise ValueError(f"score values must not be less than {MIN_SCORE}. Score[{i}]=={point.score}")
        if point.score > MAX_NODE_SCORE:
            raise ValueError(f"score values not be greater than {MAX_NODE_SCORE}. Score[{i}]=={point.score}")


def validate_resource_weight_map(resource_to_weight_map: Mapping[str, int]) -> None:
    """Upstream: validateResourceWeightMap. Raises ValueError (callers only log it)."""
    if not resource_to_weight_map:
        raise ValueError("resourceToWeightMap cannot be nil")
    for resource, weight in resource_to_weight_map.items():
        if weight < 1:
            raise ValueError(f"resource {resource} weight {weight} must not be less than 1")


def build_requested_to_capacity_ratio_scorer_function(
        shape: FunctionShape, resource_to_weight_map: Mapping[str, int]) -> ScorerFunc:
    """Upstream: buildRequestedToCapacityRatioScorerFunction."""
    raw = build_broken_linear_function(shape)
    try:
        validate_resource_weight_map(resource_to_weight_map)
    except ValueError:
        pass  # upstream: klog.Error(err) and carry on with the weights as given

    def resource_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return raw(MAX_UTILIZATION)
        return raw(MAX_UTILIZATION - go_div((capacity - requested) * MAX_UTILIZATION, capacity))

    def scorer(requested: ResourceToValueMap, allocatable: ResourceToValueMap,
               include_volumes: bool, requested_volumes: int, allocatable_volumes: int) -> int:
        node_score = weight_sum = 0
        for resource, weight in resource_to_weight_map.items():
            score = resource_score(requested.get(resource, 0), allocatable.get(resource, 0))
            if score > 0:
                node_score += score * weight
                weight_sum += weight
        if weight_sum == 0:
            return 0
        return go_round(float(node_score) / float(weight_sum))

    return scorer


def build_broken_linear_function(shape: FunctionShape) -> Callable[[int], int]:
    """Upstream: buildBrokenLinearFunction. Linear between points, flat outside them."""
    def f(p: int) -> int:
        for i, point in enumerate(shape):
            if p <= point.utilization:
                if i == 0:
                    return shape[0].score
                prev = shape[i - 1]
                return prev.score + go_div((point.score - prev.score) * (p - prev.utilization),
                                           point.utilization - prev.utilization)
        return shape[-1].score
    return f


def go_round(x: float) -> int:
    """Go's math.Round: half away from zero (Python's round() rounds half to even)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def _field(obj: object, key: str, default: object = None) -> object:
    """A JSON field matched as Go's encoding/json does: exact, then case-insensitive."""
    if not isinstance(obj, Mapping):
        raise ValueError(f"json: cannot unmarshal {type(obj).__name__} into Go value of type object")
    if key in obj:
        return obj[key]
    return next((v for k, v in obj.items() if k.lower() == key.lower()), default)


def _int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"json: cannot unmarshal {type(value).__name__} into Go struct field {field} of type int")
    return value


def new(args: dict | None, handle: object) -> RequestedToCapacityRatio:
    """Upstream: NewRequestedToCapacityRatio. Raises ValueError for an invalid shape."""
    args = args or {}
    shape = [FunctionShapePoint(
        _int(_field(p, "utilization", 0), "UtilizationShapePoint.utilization"),
        _int(_field(p, "score", 0), "UtilizationShapePoint.score") * (MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE))
        for p in _field(args, "shape") or []]
    validate_function_shape(shape)
    resources = _field(args, "resources") or []
    weights: dict[str, int] = {}
    for spec in resources:
        weight = _int(_field(spec, "weight", 0), "ResourceSpec.weight")
        weights[str(_field(spec, "name", ""))] = weight if weight != 0 else 1
    if not resources:
        weights = dict(DEFAULT_REQUESTED_RATIO_RESOURCES)
    scorer = ResourceAllocationScorer(NAME, build_requested_to_capacity_ratio_scorer_function(shape, weights),
                                      weights)
    return RequestedToCapacityRatio(node_infos_of(handle), scorer)


_s: ScorePlugin = RequestedToCapacityRatio(None, ResourceAllocationScorer(NAME, lambda *a: 0, {}))
