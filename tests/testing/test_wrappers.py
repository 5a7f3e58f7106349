"""The shared builders (tests/testing/wrappers.py) decode to the objects a hand-built model gives."""

import pytest

from kubesched.api.core import (Container, Node, NodeSpec, NodeStatus, PersistentVolumeClaim, Pod, PodSpec,
                                PodStatus, ResourceRequirements, Taint)
from kubesched.api.meta import ObjectMeta
from kubesched.api.quantity import Quantity
from tests.testing.wrappers import make_node, make_pod, make_pvc

CPU = {"cpu": Quantity.parse("1")}


@pytest.mark.parametrize("built, want", [
    (make_pod().name("p").namespace("ns").uid("u").obj(),
     Pod(metadata=ObjectMeta(name="p", namespace="ns", uid="u"), spec=PodSpec())),
    (make_pod().name("p").req(cpu="1").priority(5).node("n1").nominated_node_name("n2").obj(),
     Pod(metadata=ObjectMeta(name="p"),
         spec=PodSpec(containers=(Container(name="c", resources=ResourceRequirements(requests=CPU)),),
                      priority=5, node_name="n1"),
         status=PodStatus(nominated_node_name="n2"))),
    (make_node().name("n").label("a", "1").capacity({"cpu": "1"}).taints(
        [{"key": "k", "effect": "NoSchedule"}]).obj(),
     Node(metadata=ObjectMeta(name="n", labels={"a": "1"}), spec=NodeSpec(taints=(Taint("k", effect="NoSchedule"),)),
          status=NodeStatus(capacity=CPU, allocatable=CPU))),
    (make_pvc().name("c").namespace("ns").volume_name("pv").obj().spec.volume_name, "pv"),
], ids=["pod-meta", "pod-req-node-nominated", "node-capacity-taint", "pvc-volume-name"])
def test_wrapper_builds(built, want):
    assert built == want


def test_doc_is_a_copy_with_kind():
    w = make_pod().name("p")
    doc = w.doc()
    doc["metadata"]["name"] = "changed"
    assert (doc["apiVersion"], doc["kind"], w.doc()["metadata"]["name"]) == ("v1", "Pod", "p")
    assert isinstance(make_pvc().obj(), PersistentVolumeClaim)
