"""Plugin args decoding, Go-style (framework.DecodeInto + encoding/json).

Upstream: registry.go (DecodeInto); Go's encoding/json field matching.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pytest

from kubesched.scheduler.framework.v1alpha1.plugin_args import (ArgsDecodeError, RawArgs, decode_into, lookup,
                                                                 raw_to_mapping)


@dataclass(frozen=True)
class Point:
    utilization: int = 0
    score: int = 0


@dataclass(frozen=True)
class Args:
    hard_pod_affinity_weight: int = 1
    shape: tuple[Point, ...] = ()
    resources: dict[str, int] = field(default_factory=dict)
    name: Optional[str] = None
    ratio: float = 0.0


@pytest.mark.parametrize(("args", "want"), [
    (None, Args()),
    ({}, Args()),
    ({"hardPodAffinityWeight": 5}, Args(hard_pod_affinity_weight=5)),
    ({"HardPodAffinityWeight": 5}, Args(hard_pod_affinity_weight=5)),
    ({"hardpodaffinityweight": 5, "unknown": 1}, Args(hard_pod_affinity_weight=5)),
    ({"hardPodAffinityWeight": 5, "HARDPODAFFINITYWEIGHT": 6}, Args(hard_pod_affinity_weight=6)),
    ({"shape": [{"Utilization": 0, "SCORE": 10}, {"utilization": 100}]},
     Args(shape=(Point(0, 10), Point(100, 0)))),
    ({"resources": {"cpu": 1}, "name": None, "ratio": 2}, Args(resources={"cpu": 1}, ratio=2.0)),
    (RawArgs(b'{"hardPodAffinityWeight": 3}'), Args(hard_pod_affinity_weight=3)),
    (RawArgs("hardPodAffinityWeight: 4", "application/yaml"), Args(hard_pod_affinity_weight=4)),
    (RawArgs(None), Args()),
])
def test_decode_into(args, want) -> None:
    assert decode_into(args, Args) == want


@pytest.mark.parametrize(("args", "message"), [
    (RawArgs(b"{}", "text/plain"), "not supported content type text/plain"),
    ({"hardPodAffinityWeight": "5"},
     "json: cannot unmarshal string into Go struct field Args.hardPodAffinityWeight of type int"),
    ({"shape": {"a": 1}}, "json: cannot unmarshal object into Go struct field Args.shape of type array"),
    (RawArgs(b"[1]"), "json: cannot unmarshal array into Go value of type object"),
])
def test_decode_errors(args, message) -> None:
    with pytest.raises(ArgsDecodeError) as info:
        decode_into(args, Args)
    assert str(info.value) == message


@pytest.mark.parametrize(("args", "key", "want"), [
    ({"ignoredResources": ["a"]}, "ignoredResources", ["a"]),
    ({"IgnoredResources": ["a"]}, "ignoredResources", ["a"]),
    ({"x": 1}, "ignoredResources", None),
    (None, "x", None),
])
def test_lookup(args, key, want) -> None:
    assert lookup(args, key) == want


def test_raw_to_mapping_passes_mappings_through() -> None:
    args = {"a": 1}
    assert raw_to_mapping(args) is args and raw_to_mapping(None) is None
