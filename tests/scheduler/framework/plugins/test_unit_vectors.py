"""The ``unit_cases`` of the group-A vector files (internal helpers), checked field by field.

Upstream: TestNormalizedImageName (image_locality_test.go), TestGetContainerPorts
(node_ports_test.go), the shape/weight validation and TestBrokenLinearFunction tests of
requested_to_capacity_ratio_test.go. The adapter returns each outcome under the case's own
result key (``expect``, ``expect_error`` or ``points``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubesched.conformance import evaluate

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "vectors"
FILES = ["ImageLocality.yaml", "NodePorts.yaml", "RequestedToCapacityRatio.yaml"]
RESULT_KEYS = ("expect", "expect_error", "points")


def _unit_cases() -> list:
    out = []
    for name in FILES:
        doc = yaml.safe_load((VECTORS / name).read_text())
        out += [pytest.param(doc, case, id=f"{name}:{case['name']}") for case in doc["unit_cases"]]
    return out


@pytest.mark.parametrize("doc,case", _unit_cases())
def test_unit_case(doc: dict, case: dict) -> None:
    want = {k: case[k] for k in RESULT_KEYS if k in case}
    assert want, "a unit case must state a result"
    got = evaluate(case, doc)
    assert {k: got.get(k) for k in want} == want
