"""Feature gates: v1.18.5 defaults and scoped overrides."""

import pytest

from kubesched import features


@pytest.mark.parametrize("gate, default", [
    ("EvenPodsSpread", True), ("PodOverhead", True), ("LocalStorageCapacityIsolation", True),
    ("ResourceLimitsPriorityFunction", False), ("BalanceAttachedNodeVolumes", False),
    ("NonPreemptingPriority", False),
])
def test_defaults(gate, default):
    assert features.enabled(gate) is default


def test_override_is_scoped():
    with features.override({"EvenPodsSpread": False}):
        assert not features.enabled("EvenPodsSpread")
    assert features.enabled("EvenPodsSpread")


def test_unknown_gate_rejected():
    with pytest.raises(KeyError):
        with features.override({"NoSuchGate": True}):
            pass
    with pytest.raises(KeyError):
        features.enabled("NoSuchGate")
