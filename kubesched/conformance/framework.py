"""Conformance adapters for the framework's own plugins and helper.

Upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go (TestLess),
defaultbinder/default_binder_test.go (TestDefaultBinder), helper/normalize_score_test.go
(TestDefaultNormalizeScore), translated to PrioritySort.yaml, defaultbinder.yaml and
DefaultNormalizeScore.yaml.

Harness choices: ``timestamp: null`` is Go's zero time (year 1, before any real instant);
DefaultBinder runs against a fake client that records the Binding it is asked to create
(built from the pod's namespace, name and UID, as upstream builds it) or raises the
injected error.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Optional

from kubesched.cluster.errors import APIError
from kubesched.conformance import register
from kubesched.conformance._harness import as_object, pod_of
from kubesched.scheduler.framework.plugins.helper.normalize_score import default_normalize_score
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.interface import NodeScore
from kubesched.scheduler.internal.queue.pod_info import PodInfo

GO_ZERO_TIME = -62135596800.0  # 0001-01-01T00:00:00Z in Unix seconds


def _timestamp(value: Optional[str]) -> float:
    if value is None:
        return GO_ZERO_TIME
    return _dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def _pod_info(side: dict) -> PodInfo:
    return PodInfo(pod_of(side), timestamp=_timestamp(side.get("timestamp")))


@register("PrioritySort")
def priority_sort(case: dict, doc: dict) -> dict:
    framework = Framework(new_in_tree_registry(), None)
    plugin = framework.registry["PrioritySort"](case.get("args"), framework)
    return {"less": plugin.less(_pod_info(case["p1"]), _pod_info(case["p2"]))}


class _RecordingClient:
    """A client whose ``bind`` records the Binding object, or fails with the injected error."""

    def __init__(self, pod: Any, error: Optional[str]) -> None:
        self.pod = pod
        self.error = error
        self.bindings: list[dict] = []

    def bind(self, namespace: str, name: str, node_name: str) -> None:
        if self.error is not None:
            raise APIError(self.error)
        metadata = {"namespace": namespace, "name": name}
        if self.pod.metadata.uid:
            metadata["uid"] = self.pod.metadata.uid
        self.bindings.append({"apiVersion": "v1", "kind": "Binding", "metadata": metadata,
                              "target": {"kind": "Node", "name": node_name}})


@register("DefaultBinder")
def default_binder(case: dict, doc: dict) -> dict:
    manifest = dict(case["pod"])
    manifest.setdefault("spec", {"containers": []})  # upstream's pod has an empty spec
    pod = as_object(manifest, "Pod")
    client = _RecordingClient(pod, (case.get("args") or {}).get("inject_bind_error"))
    framework = Framework(new_in_tree_registry(), None, client_set=client)
    plugin = framework.registry["DefaultBinder"](None, framework)
    status = plugin.bind(CycleState(), pod, case["node_name"])
    got: dict = {"bind": {"code": "Success"} if status is None
                 else {"code": str(status.code), "message": status.message()}}
    if client.bindings:
        got["binding"] = client.bindings[-1]
    return got


@register("helper.DefaultNormalizeScore")
def normalize_score(case: dict, doc: dict) -> dict:
    scores = [NodeScore(f"node{i}", s) for i, s in enumerate(case["scores"])]
    default_normalize_score(case["max_priority"], case["reverse"], scores)
    return {"normalized": [s.score for s in scores]}
