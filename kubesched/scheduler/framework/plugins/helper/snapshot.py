"""The node lookup every Score plugin starts with: ``SnapshotSharedLister().NodeInfos().Get(nodeName)``.

Upstream: no helper; each plugin's Score (e.g. pkg/scheduler/framework/plugins/noderesources/
least_allocated.go, LeastAllocated.Score) calls ``NodeInfos().Get`` and formats the error
itself, as ``getting node %q from Snapshot: %v`` (some add ``, node is nil: %v``). Here the
call and the message are made in one place. The lookup returns the NodeInfo alone (a Score
plugin runs it on every node, so no pair is built); only a failed one asks for the message.
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched.scheduler.nodeinfo.node_info import NodeInfo


def get_node_info(node_infos: Any, node_name: str) -> Optional[NodeInfo]:
    """``node_infos.Get(node_name)``; None where it fails (``lookup_error`` says why)."""
    try:
        return node_infos.get(node_name)
    except LookupError:
        return None


def lookup_error(node_infos: Any, node_name: str, node_is_nil: bool = False) -> str:
    """The Score error of a failed lookup (or of a NodeInfo without its Node: ``<nil>``)."""
    try:
        node_infos.get(node_name)
        err = "<nil>"
    except LookupError as exc:
        err = str(exc)
    suffix = ", node is nil: true" if node_is_nil else ""
    return f'getting node "{node_name}" from Snapshot: {err}{suffix}'


def node_infos_of(handle: Any) -> Any:
    """``handle.SnapshotSharedLister().NodeInfos()``, read once when a plugin is built (None
    without a handle or a lister).

    The framework's snapshot is one object for the scheduler's life, updated in place before
    every cycle, so reading it at New (as upstream's InterPodAffinity and PodTopologySpread
    read the shared lister) equals reading it in every Score.
    """
    shared_lister = handle.snapshot_shared_lister() if handle is not None else None
    return shared_lister.node_infos() if shared_lister is not None else None
