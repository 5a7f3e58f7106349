"""Pod fixtures for the scheduling-queue tests (upstream scheduling_queue_test.go globals)."""

from __future__ import annotations

import dataclasses
from typing import Mapping, Optional

from kubesched.api.core import (
    Affinity, Pod, PodAffinity, PodAffinityTerm, PodCondition,
)
from kubesched.api.meta import LabelSelector, LabelSelectorRequirement
from tests.testing import wrappers

LOW, MID, HIGH = 0, 100, 1000
MEDIUM = (LOW + HIGH) // 2


def make_pod(name: str, namespace: str = "ns1", uid: str = "", priority: Optional[int] = None,
             nominated: str = "", labels: Mapping[str, str] | None = None,
             annotations: Mapping[str, str] | None = None, affinity: Optional[Affinity] = None,
             node_name: str = "", conditions: tuple[PodCondition, ...] = ()) -> Pod:
    made = (wrappers.make_pod().name(name).namespace(namespace).uid(uid).labels(labels).annotations(annotations)
            .priority(priority).node(node_name).nominated_node_name(nominated).obj())
    return dataclasses.replace(made, spec=dataclasses.replace(made.spec, affinity=affinity),
                               status=dataclasses.replace(made.status, conditions=conditions))


UNSCHEDULABLE_CONDITION = PodCondition(type="PodScheduled", status="False", reason="Unschedulable")

HIGH_PRIORITY_POD = make_pod("hpp", "ns1", "hppns1", HIGH)
HIGH_PRI_NOMINATED_POD = make_pod("hpp", "ns1", "hppns1", HIGH, nominated="node1")
MED_PRIORITY_POD = make_pod("mpp", "ns2", "mppns2", MEDIUM, nominated="node1", annotations={"annot2": "val2"})
UNSCHEDULABLE_POD = make_pod("up", "ns1", "upns1", LOW, nominated="node1", annotations={"annot2": "val2"},
                             conditions=(UNSCHEDULABLE_CONDITION,))


def required_affinity(key: str, values: tuple[str, ...], namespaces: tuple[str, ...] = ()) -> Affinity:
    term = PodAffinityTerm(
        label_selector=LabelSelector(match_expressions=(LabelSelectorRequirement(key, "In", values),)),
        namespaces=namespaces, topology_key="region")
    return Affinity(pod_affinity=PodAffinity(required_during_scheduling_ignored_during_execution=(term,)))


def with_condition(pod: Pod, message: str = "fake scheduling failure") -> Pod:
    cond = dataclasses.replace(UNSCHEDULABLE_CONDITION, message=message)
    return dataclasses.replace(pod, status=dataclasses.replace(pod.status, conditions=(cond,)))


def numbered_pods(count: int, start: int = 1) -> list[Pod]:
    """``makePodInfos``-style pods test-pod-i in namespace nsi."""
    return [make_pod(f"test-pod-{i}", f"ns{i}", f"tp-{i}") for i in range(start, start + count)]
