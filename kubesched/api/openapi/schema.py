"""The v1.18.0 OpenAPI definitions and the kinds (``apiVersion`` + ``kind``) they serve.

Upstream: api/openapi-spec/swagger.json @ v1.18.0 (``definitions``, each top-level type's
``x-kubernetes-group-version-kind``), read from the strict JSON schemas the pinned
``kubernetes-validate==1.18.0`` package ships (``v1.18.0-local-strict/_definitions.json``).
The package is located, never imported (its module needs distutils); the data is read once
and is read-only.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import pathlib
from typing import Any, Mapping

BASE_RELEASE = "1.18.0"
SCHEMA_PACKAGE = "kubernetes_validate"
META_KINDS = frozenset({"APIGroup", "APIGroupList", "APIResourceList", "APIVersions", "DeleteOptions",
                        "Status", "WatchEvent"})
"""Wire types of apimachinery that every group registers; they are not objects to store."""


def api_version_of(gvk: Mapping[str, str]) -> str:
    """``apps/v1`` from ``{group: apps, version: v1}``; ``v1`` for the core group."""
    return f"{gvk['group']}/{gvk['version']}" if gvk["group"] else gvk["version"]


def schema_folder() -> pathlib.Path:
    spec = importlib.util.find_spec(SCHEMA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {SCHEMA_PACKAGE} package is missing: pip install -r requirements.txt")
    root = pathlib.Path(next(iter(spec.submodule_search_locations)))
    return root / "kubernetes-json-schema" / f"v{BASE_RELEASE}-local-strict"


@functools.cache
def definitions() -> Mapping[str, Any]:
    """Every v1.18.0 definition by its OpenAPI name (``io.k8s.api.core.v1.PodSpec``)."""
    text = (schema_folder() / "_definitions.json").read_text(encoding="utf-8")
    return json.loads(text)["definitions"]


@functools.cache
def served() -> Mapping[tuple[str, str], str]:
    """``(apiVersion, kind)`` → definition name, for every object kind v1.18 serves."""
    out: dict[tuple[str, str], str] = {}
    for name, schema in definitions().items():
        for gvk in schema.get("x-kubernetes-group-version-kind", ()):
            if gvk["kind"] not in META_KINDS:
                out.setdefault((api_version_of(gvk), gvk["kind"]), name)
    return out


@functools.cache
def versions_of_kind() -> Mapping[str, tuple[str, ...]]:
    """Every apiVersion v1.18 serves a kind in (``Ingress`` → ``extensions/v1beta1``, …)."""
    out: dict[str, list[str]] = {}
    for version, kind in served():
        out.setdefault(kind, []).append(version)
    return {kind: tuple(sorted(vs)) for kind, vs in out.items()}


@functools.cache
def groups() -> frozenset[str]:
    """The API groups v1.18 serves (``""`` is the core group)."""
    return frozenset(v.rpartition("/")[0] for v, _ in served())
