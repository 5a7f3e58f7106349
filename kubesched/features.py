"""Feature gates with their v1.18.5 defaults.

Upstream: pkg/features/kube_features.go (defaultKubernetesFeatureGates) and
component-base/featuregate. Like upstream's DefaultFeatureGate this is process-wide;
``override`` scopes a change (tests, a conformance case's ``feature_gates``, a
scheduler config's ``featureGates``) and restores the previous values.
"""

from __future__ import annotations

import contextlib
from typing import Iterator, Mapping

DEFAULTS: dict[str, bool] = {
    "LocalStorageCapacityIsolation": True,   # beta
    "PodOverhead": True,                     # beta
    "EvenPodsSpread": True,                  # beta
    "BalanceAttachedNodeVolumes": False,     # alpha
    "ResourceLimitsPriorityFunction": False,  # alpha
    "NonPreemptingPriority": False,          # alpha
    "CSIMigration": True,                    # beta
    "CSIMigrationAWS": False,
    "CSIMigrationGCE": False,
    "CSIMigrationAzureDisk": False,
    "CSIMigrationOpenStack": False,
    "CSIMigrationAWSComplete": False,
    "CSIMigrationGCEComplete": False,
    "CSIMigrationAzureDiskComplete": False,
    "CSIMigrationOpenStackComplete": False,
    "VolumeScheduling": True,                # GA
    "AttachVolumeLimit": True,               # GA in 1.17
    "CSINodeInfo": True,                     # GA in 1.17
    "PodDisruptionBudget": True,
}

_gates: dict[str, bool] = dict(DEFAULTS)


def enabled(name: str) -> bool:
    """Whether gate ``name`` is on; an unknown gate is an error, as upstream panics."""
    try:
        return _gates[name]
    except KeyError:
        raise KeyError(f"feature {name!r} is not registered") from None


def current() -> dict[str, bool]:
    return dict(_gates)


@contextlib.contextmanager
def override(gates: Mapping[str, bool] | None) -> Iterator[None]:
    """Set some gates for the duration of a ``with`` block."""
    saved = dict(_gates)
    try:
        for name, value in (gates or {}).items():
            if name not in _gates:
                raise KeyError(f"unrecognized feature gate: {name}")
            _gates[name] = bool(value)
        yield
    finally:
        _gates.clear()
        _gates.update(saved)
