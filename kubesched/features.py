"""Feature gates with their v1.18.5 defaults, scoped to the running context (thread).

Upstream: pkg/features/kube_features.go (defaultKubernetesFeatureGates) and
component-base/featuregate.

Deviation: upstream's DefaultFeatureGate is process-wide; here the gates live in a
``contextvars.ContextVar``, so each thread (each dashboard session, each simulation run in
it) sees only its own. ``override`` sets some gates for a ``with`` block (tests, a
conformance case's ``feature_gates``, a scheduler config's ``featureGates`` while an engine
step runs); outside every block, and in a new thread, the defaults hold.
"""

from __future__ import annotations

import contextlib
import contextvars
from types import MappingProxyType
from typing import Iterator, Mapping

DEFAULTS: Mapping[str, bool] = MappingProxyType({
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
})

# the gates in force: a dict never changed once set (override sets a new one), read on hot paths
_gates: contextvars.ContextVar[dict[str, bool]] = contextvars.ContextVar("feature_gates", default=dict(DEFAULTS))
_current = _gates.get


def enabled(name: str) -> bool:
    """Whether gate ``name`` is on; an unknown gate is an error, as upstream panics."""
    try:
        return _current()[name]
    except KeyError:
        raise KeyError(f"feature {name!r} is not registered") from None


def current() -> dict[str, bool]:
    return dict(_gates.get())


@contextlib.contextmanager
def override(gates: Mapping[str, bool] | None) -> Iterator[None]:
    """Set some gates for the duration of a ``with`` block (in this context only)."""
    merged = dict(_gates.get())
    for name, value in (gates or {}).items():
        if name not in merged:
            raise KeyError(f"unrecognized feature gate: {name}")
        merged[name] = bool(value)
    token = _gates.set(merged)
    try:
        yield
    finally:
        _gates.reset(token)
