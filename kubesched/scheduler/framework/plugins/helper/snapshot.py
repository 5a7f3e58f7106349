"""The node lookup every Score plugin starts with: ``SnapshotSharedLister().NodeInfos().Get(nodeName)``.

Upstream: no helper; each plugin's Score (e.g. pkg/scheduler/framework/plugins/noderesources/
least_allocated.go, LeastAllocated.Score) calls ``NodeInfos().Get`` and formats the error
itself. Here the call is made in one place and each plugin keeps its own message.
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched.scheduler.nodeinfo.node_info import NodeInfo


def get_node_info(shared_lister: Any, node_name: str) -> tuple[Optional[NodeInfo], str]:
    """(node info, "<nil>"), or (None, the lister's error text) — Go's ``%v`` of the pair."""
    try:
        return shared_lister.node_infos().get(node_name), "<nil>"
    except LookupError as err:
        return None, str(err)


def shared_lister_of(handle: Any) -> Any:
    """``handle.SnapshotSharedLister()``, read once when a plugin is built (None without a handle).

    The framework's snapshot is one object for the scheduler's life, updated in place before
    every cycle, so reading it at New (as upstream's InterPodAffinity and PodTopologySpread do)
    equals reading it in every Score.
    """
    return handle.snapshot_shared_lister() if handle is not None else None
