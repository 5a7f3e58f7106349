"""The InterPodAffinity plugin: its name, args, validation and factory.

Upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (Name,
DefaultHardPodAffinityWeight, MinHardPodAffinityWeight, MaxHardPodAffinityWeight, Args,
InterPodAffinity, New, validateArgs, ValidateHardPodAffinityWeight).

Go spreads the plugin's methods over plugin.go, filtering.go and scoring.go; here
filtering.py and scoring.py hold them as mixins that this module's class combines
(the constants are in names.py, re-exported here; the processed terms and the
instance's memo of them in terms.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from kubesched.scheduler.framework.plugins.interpodaffinity.filtering import Filtering
from kubesched.scheduler.framework.plugins.interpodaffinity.names import (
    DEFAULT_HARD_POD_AFFINITY_WEIGHT,
    MAX_HARD_POD_AFFINITY_WEIGHT,
    MIN_HARD_POD_AFFINITY_WEIGHT,
    NAME,
)
from kubesched.scheduler.framework.plugins.interpodaffinity.scoring import Scoring
from kubesched.scheduler.framework.plugins.interpodaffinity.terms import TermMemo
from kubesched.scheduler.framework.v1alpha1.interface import PreScoreSkip
from kubesched.scheduler.framework.v1alpha1.plugin_args import decode_into


@dataclass(frozen=True, slots=True)
class Args:
    """``Args``: the weight of existing pods' hard affinity terms in scoring (None = default 1)."""

    hard_pod_affinity_weight: Optional[int] = None


class InterPodAffinity(Filtering, Scoring):
    """Checks and scores inter-pod affinity and anti-affinity."""

    def __init__(self, shared_lister, hard_pod_affinity_weight: int = DEFAULT_HARD_POD_AFFINITY_WEIGHT) -> None:
        self.shared_lister = shared_lister
        self.hard_pod_affinity_weight = hard_pod_affinity_weight
        self.memo = TermMemo()

    def name(self) -> str:
        return NAME

    def build_args(self) -> dict:
        return {"hardPodAffinityWeight": self.hard_pod_affinity_weight}


def validate_hard_pod_affinity_weight(path: str, weight: int) -> None:
    """Raise ValueError (a field.Invalid error) unless ``weight`` is within [0-100]."""
    if weight < MIN_HARD_POD_AFFINITY_WEIGHT or weight > MAX_HARD_POD_AFFINITY_WEIGHT:
        raise ValueError(f"{path}: Invalid value: {weight}: not in valid range "
                         f"[{MIN_HARD_POD_AFFINITY_WEIGHT}-{MAX_HARD_POD_AFFINITY_WEIGHT}]")


def new(args, handle) -> InterPodAffinity:
    """``New``: decode the args; hardPodAffinityWeight defaults to 1 and must lie in [0-100]."""
    shared_lister = handle.snapshot_shared_lister()
    if shared_lister is None:
        raise ValueError("SnapshotSharedlister is nil")
    decoded = decode_into(args, Args)
    if decoded.hard_pod_affinity_weight is None:
        return InterPodAffinity(shared_lister)
    validate_hard_pod_affinity_weight("hardPodAffinityWeight", decoded.hard_pod_affinity_weight)
    return InterPodAffinity(shared_lister, decoded.hard_pod_affinity_weight)


_ss: PreScoreSkip = InterPodAffinity(None)
