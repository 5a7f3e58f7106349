"""InterPodAffinity's name and weight bounds, shared by plugin.py, filtering.py and scoring.py.

Upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (Name,
DefaultHardPodAffinityWeight, MinHardPodAffinityWeight, MaxHardPodAffinityWeight); kept apart so
the mixin modules need not import plugin.py, which combines them.
"""

from __future__ import annotations

from typing import Final

NAME: Final = "InterPodAffinity"
DEFAULT_HARD_POD_AFFINITY_WEIGHT: Final = 1
MIN_HARD_POD_AFFINITY_WEIGHT: Final = 0
MAX_HARD_POD_AFFINITY_WEIGHT: Final = 100
