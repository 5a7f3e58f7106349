"""How large a cluster a shared server takes: bytes and YAML values before reading, nodes and
pods after, so one learner's file cannot hold a core or the memory of a workshop server.

Upstream: no counterpart (a real API server has request-size limits of its own; this bounds
the simulation's work, which grows with nodes × pods: every scheduling cycle filters and
scores every node, and the trace keeps a row per node per cycle).

``check_text`` runs before the cluster is loaded: bytes and YAML values first (one pass over
the parser's events), then, when the text has workloads, nodes and pods as the documents ask
for them — Pods written plus the ``replicas`` of every workload, since loading expands
workloads into pods (a 9-line Deployment asks for 5,000). ``check_objects`` counts the loaded
nodes and pods. Both raise a LoadError whose one problem says "this cluster is
larger than this server allows: …". ``DASHBOARD`` is what the dashboard passes to
``Simulation.from_text`` (a run at these limits takes about 10 s of one core:
benchmarks/fuzz_inputs.py); its byte limit is Streamlit's ``server.maxUploadSize`` in
``.streamlit/config.toml`` (MiB, the one place the number is written), so an upload Streamlit
accepts is one the dashboard reads and editor text is held to the same bound. ``CLI`` is what
``run`` passes. The reader's own limits (kubesched.api.yaml_source) hold everywhere.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from kubesched.api.load import LoadError, LoadProblem
from kubesched.api.yaml_source import (
    MAX_DOCUMENTS,
    MAX_NODES,
    MAX_SOURCE_BYTES,
    check_limits,
    read_documents,
)


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The largest input a server takes (counts; ``max_bytes`` of UTF-8 text)."""

    name: str  # who refuses: "this server", "kubesched run"
    max_bytes: int
    max_documents: int
    max_values: int
    max_nodes: int
    max_pods: int
    max_node_pod_pairs: int

    @property
    def too_large(self) -> str:
        return f"this cluster is larger than {self.name} allows"

    def describe(self) -> str:
        return (f"at most {self.max_nodes:,} nodes, {self.max_pods:,} pods and {self.max_node_pod_pairs:,} "
                f"nodes × pods")


STREAMLIT_CONFIG: Final = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def _upload_limit_bytes() -> int:
    """``server.maxUploadSize`` of the dashboard's Streamlit configuration, in bytes (Streamlit
    counts it in MiB: ``maxUploadSize * 1024 * 1024``)."""
    with STREAMLIT_CONFIG.open("rb") as file:
        return int(tomllib.load(file)["server"]["maxUploadSize"]) << 20


DASHBOARD: Final = ServerLimits("this server", max_bytes=_upload_limit_bytes(), max_documents=4_000, max_values=150_000,
                                max_nodes=2_500, max_pods=1_000, max_node_pod_pairs=250_000)
CLI: Final = ServerLimits("kubesched run", max_bytes=MAX_SOURCE_BYTES, max_documents=MAX_DOCUMENTS,
                          max_values=MAX_NODES, max_nodes=5_000, max_pods=10_000, max_node_pod_pairs=5_000_000)
"""The reader's own limits and a budget twenty times the dashboard's (upstream's scheduler_perf
sizes, 5,000 nodes × 1,000 pods, fit): about a minute of one core and 1 GB traced."""
_WORKLOADS: Final = frozenset({"Deployment", "ReplicaSet", "ReplicationController", "StatefulSet"})


def check_text(text: str, limits: ServerLimits, filename: str) -> None:
    """Refuse ``text`` larger than ``limits`` allow, before loading it (LoadError)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        _refuse(filename, limits, f"{size:,} bytes (at most {limits.max_bytes:,} bytes, {limits.max_bytes / 2**20:g} MiB)")
    crossed = check_limits(text, max_documents=limits.max_documents, max_nodes=limits.max_values,
                           what=limits.too_large)
    if crossed is not None:
        raise LoadError([LoadProblem(filename, crossed.document, crossed.line, "", "", "", "", crossed.message)])
    if any(kind in text for kind in _WORKLOADS):  # loading expands them: count what they ask for first
        _check_counts(*_asked_for(d.data for d in read_documents(text)[0]), limits, filename, ", counting replicas")


def check_objects(objects: Iterable[Any], limits: ServerLimits, filename: str) -> None:
    """Refuse loaded objects with more nodes, pods or nodes × pods than ``limits`` allow."""
    kinds = [type(o).__name__ for o in objects]
    _check_counts(kinds.count("Node"), kinds.count("Pod"), limits, filename)


def _check_counts(nodes: int, pods: int, limits: ServerLimits, filename: str, how: str = "") -> None:
    if nodes > limits.max_nodes or pods > limits.max_pods or nodes * pods > limits.max_node_pod_pairs:
        _refuse(filename, limits, f"{nodes:,} nodes × {pods:,} pods{how} ({limits.describe()})")


def _asked_for(documents: Iterable[Any]) -> tuple[int, int]:
    """(Nodes, Pods written plus workload replicas) in raw documents (``List`` items too)."""
    nodes = pods = 0
    for data in documents:
        if not isinstance(data, dict):
            continue
        items = data.get("items") if data.get("kind") == "List" else [data]
        for obj in items if isinstance(items, list) else ():
            kind = obj.get("kind") if isinstance(obj, dict) else None
            if not isinstance(kind, str):      # a malformed kind is the loader's to name, not a count
                continue
            if kind == "Node":
                nodes += 1
            elif kind == "Pod":
                pods += 1
            elif kind in _WORKLOADS:
                spec = obj.get("spec")
                replicas = spec.get("replicas", 1) if isinstance(spec, dict) else 1
                pods += replicas if isinstance(replicas, int) and replicas > 0 else 0
    return nodes, pods


def _refuse(filename: str, limits: ServerLimits, what: str) -> None:
    raise LoadError([LoadProblem(filename, 0, 1, "", "", "", "", f"{limits.too_large}: {what}")])


__all__ = ["CLI", "DASHBOARD", "ServerLimits", "check_objects", "check_text"]
