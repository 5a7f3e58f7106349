"""The benchmark-driven fast paths give the same answers as the plain computations.

Quantity rounding in integer math, the allocation scorers' per-pod request memo, the
ImageLocality name memo and the NodePreferAvoidPods early exit.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from kubesched.api.core import Container, Node, NodeSpec, NodeStatus, Pod, PodSpec
from kubesched.api.meta import ObjectMeta, OwnerReference
from kubesched.api.quantity import Quantity
from kubesched.scheduler.framework.plugins.imagelocality.image_locality import LastImageNames
from kubesched.scheduler.framework.plugins.nodepreferavoidpods.node_prefer_avoid_pods import score_node
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    LastPodRequests, calculate_pod_resource_request)
from tests.testing.wrappers import make_pod


@pytest.mark.parametrize("text", ["0", "1", "-1", "1m", "-1m", "1.5", "-1.5", "0.0001", "-0.0001", "1n", "-1n",
                                  "999999999n", "1Ki", "1.1Ki", "-1.1Ki", "1e-4", "123456789012345678"])
def test_quantity_rounding_matches_fraction_math(text: str) -> None:
    q = Quantity.parse(text)
    def away(x: Fraction) -> int:
        return math.ceil(x) if x >= 0 else math.floor(x)
    assert (q.value(), q.milli_value()) == (away(q.amount), away(q.amount * 1000))


def _pod(name: str, cpu: str, memory: str) -> Pod:
    return make_pod().name(name).container("c", {"cpu": cpu, "memory": memory}, image="nginx").obj()


def test_pod_request_memo_follows_the_pod() -> None:
    pods = [_pod("a", "100m", "1Mi"), _pod("b", "250m", "2Mi"), _pod("a2", "100m", "1Mi")]
    memo = LastPodRequests()
    seen = [(memo.requests(p), tuple(calculate_pod_resource_request(p, r) for r in ("cpu", "memory")))
            for p in pods + pods[::-1] + pods]
    assert all(remembered == plain for remembered, plain in seen)
    assert [s[0] for s in seen[:3]] == [(100, 1024 * 1024), (250, 2 * 1024 * 1024), (100, 1024 * 1024)]
    assert memo.pod is pods[-1]


def test_image_names_memo_and_lists() -> None:
    a = (Container(name="a", image="nginx"), Container(name="b", image="gcr.io/x/y:1.0"))
    b = (Container(name="a", image="redis:6"),)
    names = LastImageNames()
    assert names.of(a) == ("nginx:latest", "gcr.io/x/y:1.0")
    assert names.of(b) == ("redis:6",)
    assert names.of(a) == ("nginx:latest", "gcr.io/x/y:1.0")
    assert names.of(list(b)) == ("redis:6",)
    assert names.containers is a  # a list is never remembered


AVOID = ('{"preferAvoidPods": [{"podSignature": {"podController": '
         '{"kind": "ReplicationController", "name": "rc", "uid": "u1", "apiVersion": "v1"}}}]}')


@pytest.mark.parametrize("annotations, owner_uid, want", [
    ({}, "u1", 100),
    ({"scheduler.alpha.kubernetes.io/preferAvoidPods": ""}, "u1", 100),
    ({"scheduler.alpha.kubernetes.io/preferAvoidPods": AVOID}, "u1", 0),
    ({"scheduler.alpha.kubernetes.io/preferAvoidPods": AVOID}, "u2", 100),
    ({"scheduler.alpha.kubernetes.io/preferAvoidPods": AVOID}, "", 100),
])
def test_prefer_avoid_pods_early_exit(annotations: dict, owner_uid: str, want: int) -> None:
    owners = (OwnerReference(api_version="v1", kind="ReplicationController", name="rc", uid=owner_uid,
                             controller=True),) if owner_uid else ()
    pod = Pod(metadata=ObjectMeta(name="p", owner_references=owners), spec=PodSpec())
    node = Node(metadata=ObjectMeta(name="n", annotations=annotations), spec=NodeSpec(), status=NodeStatus())
    assert score_node(pod, node) == want
