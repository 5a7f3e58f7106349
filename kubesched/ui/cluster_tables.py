"""Rows for the cluster overview tables: nodes and pods as a learner reads them.

Pure functions over a loaded cluster; the Streamlit page only lays them out.
"""

from __future__ import annotations

from pathlib import Path

from kubesched.api.core import Node, Pod

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_clusters"
DEFAULT_SAMPLE = "default.yaml"


def sample_clusters() -> list[str]:
    """File names of the built-in sample clusters, the default first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*.yaml"))
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


def describe(path: Path) -> str:
    """The leading comment of a sample cluster file (what it teaches)."""
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").rstrip())
    return " ".join(l for l in lines if l)


def _resources(resources) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(resources.items()))


def node_rows(nodes: list[Node]) -> list[dict]:
    return [{
        "node": n.metadata.name,
        "zone": n.metadata.labels.get("topology.kubernetes.io/zone",
                                      n.metadata.labels.get("failure-domain.beta.kubernetes.io/zone", "")),
        "allocatable": _resources(n.status.allocatable),
        "taints": ", ".join(f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"
                            for t in n.spec.taints),
        "unschedulable": n.spec.unschedulable,
    } for n in nodes]


def pod_rows(pods: list[Pod]) -> list[dict]:
    return [{
        "pod": f"{p.metadata.namespace}/{p.metadata.name}",
        "phase": p.status.phase,
        "node": p.spec.node_name,
        "priority": p.spec.priority,
        "requests": "; ".join(_resources(c.resources.requests) for c in p.spec.containers
                              if c.resources.requests),
    } for p in pods]
