"""queue.yaml through the conformance adapter, and proof that the adapter can fail."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

# The adapter is called directly: ``kubesched.conformance.evaluate`` imports every
# adapter module of the package, so one broken neighbour would fail these tests.
from kubesched.conformance.queue import evaluate_queue as evaluate

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "vectors" / "queue.yaml"
DOC = yaml.safe_load(VECTORS.read_text())
CASES = {case["name"]: case for case in DOC["cases"]}


@pytest.mark.parametrize("name", list(CASES))
def test_vector(name):
    case = copy.deepcopy(CASES[name])
    assert evaluate(case, DOC) == {}


# (case, step index, key, wrong value, message fragment, step that must fail)
MUTATIONS = [
    ("TestPriorityQueue_Add", 4, "expect", "medPriorityPod", "popped highPriorityPod", 4),
    ("TestPriorityQueue_Add", 3, "nominated", {"node1": ["unschedulablePod", "medPriorityPod"]}, "nominated", 3),
    ("TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff", 31, "backoffQ_contains", ["pod0"], "backoffQ", 31),
    ("TestPriorityQueue_MoveAllToActiveOrBackoffQueue", 4, "backoffQ_len", 0, "backoffQ_len", 4),
    ("TestHighPriorityFlushUnschedulableQLeftover", 4, "seconds", 60, "empty activeQ", 5),
    ("TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod", 9, "expect", "test-pod-unscheduled", "popped", 9),
    ("TestIncomingPodsMetrics/add pods to activeQ", 3, "incoming_pods_total", {"PodAdd/active": 2}, "incoming", 3),
    ("TestPerPodSchedulingMetrics/Attempt twice", 3, "offset_s", 60, "empty activeQ", 5),
]


@pytest.mark.parametrize("name,index,key,value,fragment,failing", MUTATIONS, ids=[f"{m[0]}#{m[1]}" for m in MUTATIONS])
def test_wrong_expectation_fails(name, index, key, value, fragment, failing):
    case = copy.deepcopy(CASES[name])
    assert key in case["steps"][index]
    case["steps"][index][key] = value
    with pytest.raises(AssertionError, match=fragment) as err:
        evaluate(case, DOC)
    assert str(err.value).startswith(f"step {failing} (")
