"""A typed object store keyed by (kind, namespace, name) with etcd-style revisions.

Upstream: staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (one global
revision counter; every create, update and delete is a new revision) and
APIObjectVersioner (``resourceVersion`` is the revision printed as a decimal).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Optional

Key = tuple[str, str, str]
"""(kind, namespace, name); namespace is "" for cluster-scoped kinds."""


def key_of(obj: Any) -> Key:
    return (type(obj).KIND, obj.metadata.namespace, obj.metadata.name)


def with_resource_version(obj: Any, revision: int) -> Any:
    meta = dataclasses.replace(obj.metadata, resource_version=str(revision))
    return dataclasses.replace(obj, metadata=meta)


class Store:
    """Objects by key plus the global revision; knows nothing of API semantics."""

    def __init__(self) -> None:
        self._objects: dict[Key, Any] = {}
        self._revision = 0

    @property
    def revision(self) -> int:
        return self._revision

    def next_revision(self) -> int:
        self._revision += 1
        return self._revision

    def get(self, key: Key) -> Optional[Any]:
        return self._objects.get(key)

    def put(self, obj: Any) -> None:
        self._objects[key_of(obj)] = obj

    def remove(self, key: Key) -> Any:
        return self._objects.pop(key)

    def items(self, kind: Optional[str] = None, namespace: Optional[str] = None) -> Iterator[Any]:
        """Objects in (kind, namespace, name) order, optionally of one kind / namespace."""
        for key in sorted(self._objects):
            if kind is not None and key[0] != kind:
                continue
            if namespace is not None and key[1] != namespace:
                continue
            yield self._objects[key]

    def __len__(self) -> int:
        return len(self._objects)
