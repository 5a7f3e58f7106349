"""Tiny builders for the pod-placement plugin tests: manifests in, API objects out."""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.decode import decode_object
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers
from tests.testing.wrappers import make_node, make_pod


def _decode(doc: dict) -> Any:
    obj, problems = decode_object(doc)
    hard = [p for p in problems if not p.warning and p.message != "Required value"]
    assert obj is not None and not hard, hard
    return obj


def pod(name: str = "", namespace: str = "", labels: Optional[dict] = None, node: str = "",
        uid: str = "", affinity: Optional[dict] = None, spread: Optional[list] = None,
        node_selector: Optional[dict] = None, terminating: bool = False) -> Pod:
    w = make_pod().name(name).namespace(namespace).labels(labels).uid(uid).node(node)
    if terminating:
        w.terminating()
    if affinity is not None:
        w.affinity(affinity)
    if spread is not None:
        w.spread_constraints(spread)
    if node_selector is not None:
        w.node_selector(node_selector)
    return w.obj()


def node(name: str, **labels: str) -> Node:
    return make_node().name(name).labels(labels).obj()


def service(name: str, selector: dict, namespace: str = "") -> Any:
    return _decode({"apiVersion": "v1", "kind": "Service",
                    "metadata": {"name": name, "namespace": namespace}, "spec": {"selector": selector}})


def term(key: str, op: str, values: list[str], topology_key: str) -> dict:
    expr: dict[str, Any] = {"key": key, "operator": op}
    if values:
        expr["values"] = values
    return {"labelSelector": {"matchExpressions": [expr]}, "topologyKey": topology_key}


def spread_constraint(key: str, action: str = "DoNotSchedule", max_skew: int = 1,
                      selector_key: str = "foo") -> dict:
    return {"maxSkew": max_skew, "topologyKey": key, "whenUnsatisfiable": action,
            "labelSelector": {"matchExpressions": [{"key": selector_key, "operator": "Exists"}]}}


class Handle:
    """FrameworkHandle with a snapshot and informer listers."""

    def __init__(self, pods=(), nodes=(), objects=(), listers: bool = True) -> None:
        self.snapshot = Snapshot.new(list(pods), list(nodes))
        self._listers = InformerListers(objects) if listers else None

    def snapshot_shared_lister(self) -> Snapshot:
        return self.snapshot

    def listers(self) -> Optional[InformerListers]:
        return self._listers
