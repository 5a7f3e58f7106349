"""Shared helpers for the kubesched.api tests."""

from __future__ import annotations

import textwrap

import pytest

from kubesched.api.load import LoadError, LoadedCluster, load_cluster
from tests.testing.wrappers import make_node, make_pod

FILE = "cluster.yaml"

NODE = """\
apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
"""

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: web-1
spec:
  containers:
  - name: c
    image: nginx
"""


def load(text: str) -> LoadedCluster:
    return load_cluster(textwrap.dedent(text), filename=FILE)


def problems(text: str) -> list[str]:
    """Every problem line (errors and warnings) the text produces; [] when it loads cleanly."""
    try:
        cluster = load(text)
    except LoadError as err:
        return [str(p) for p in err.problems]
    return [str(w) for w in cluster.warnings]


def errors(text: str) -> list[str]:
    with pytest.raises(LoadError) as info:
        load(text)
    return [str(p) for p in info.value.problems if not p.warning]


def dump(*docs: dict) -> str:
    import yaml
    return "".join("---\n" + yaml.safe_dump(d, sort_keys=False) for d in docs)


def messages(*docs: dict) -> list[str]:
    """Errors as ``subject: path: message`` (no file/line), for rule tables."""
    try:
        load_cluster(dump(*docs), filename=FILE)
    except LoadError as err:
        return [f"{p.subject()}: {p.path}: {p.message}" for p in err.problems if not p.warning]
    return []


def pod(spec: dict | None = None, name: str = "p", **meta: object) -> dict:
    w = make_pod().name(name).set("metadata", **meta).container("c", image="nginx")
    return w.set("spec", **(spec or {})).doc()


def node(name: str = "n", spec: dict | None = None, **meta: object) -> dict:
    w = make_node().name(name).set("metadata", **meta)
    return (w if spec is None else w.set("spec", **spec)).doc()
