"""Shared helpers for the kubesched.api tests."""

from __future__ import annotations

import textwrap

import pytest

from kubesched.api.load import LoadError, LoadedCluster, load_cluster

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
    base_spec = {"containers": [{"name": "c", "image": "nginx"}]}
    base_spec.update(spec or {})
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, **meta}, "spec": base_spec}


def node(name: str = "n", spec: dict | None = None, **meta: object) -> dict:
    doc: dict = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, **meta}}
    if spec is not None:
        doc["spec"] = spec
    return doc
