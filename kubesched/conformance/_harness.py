"""Shared pieces for conformance adapters: manifests → objects, snapshot, status shapes.

Upstream: the fixtures of the plugin tests (``nodeinfo.NewNodeInfo``, ``cache.NewSnapshot``,
``framework.NewCycleState``) re-expressed once for every adapter.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.decode import DecodeError, decode_object
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers


def as_object(manifest: dict, default_kind: str = "Pod") -> Any:
    """Decode a vector manifest; ``kind``/``apiVersion`` default to a v1 ``default_kind``.

    Upstream fixtures often leave required fields empty (a pod without containers), which
    Go structs allow: only "Required value" findings are tolerated; any other is an error.
    """
    from kubesched.api.kinds import API_VERSIONS
    doc = dict(manifest)
    doc.setdefault("kind", default_kind)
    doc.setdefault("apiVersion", API_VERSIONS[doc["kind"]][0])
    obj, problems = decode_object(doc)
    errors = [p for p in problems if not p.warning and p.message != "Required value"]
    if obj is None or errors:
        raise DecodeError(errors or problems)
    return obj


def pod_of(case: dict, key: str = "pod") -> Pod:
    return as_object(case.get(key) or {"spec": {"containers": []}}, "Pod")


def pods_of(case: dict, key: str = "existing_pods") -> list[Pod]:
    return [as_object(m, "Pod") for m in case.get(key) or []]


def nodes_of(case: dict, key: str = "nodes") -> list[Node]:
    return [as_object(m, "Node") for m in case.get(key) or []]


def listers_of(case: dict, key: str = "objects") -> InformerListers:
    return InformerListers(as_object(m, m.get("kind", "")) for m in case.get(key) or [])


def snapshot_of(case: dict) -> Snapshot:
    return Snapshot.new(pods_of(case), nodes_of(case))


def status_dict(status: Optional[Status]) -> dict:
    """``{code, reasons}`` as vectors write a status (Success has ``reasons: []``)."""
    if status is None:
        return {"code": str(Code.SUCCESS), "reasons": []}
    return {"code": str(status.code), "reasons": list(status.reasons)}


def names(objs: Iterable[Any]) -> list[str]:
    return [o.metadata.name for o in objs]
