"""Assume caches for PVs and PVCs: informer objects overlaid with in-memory assumptions.

Upstream: pkg/controller/volume/scheduling/scheduler_assume_cache.go @ v1.18.5
(assumeCache Get/GetAPIObj/Assume/Restore, PVAssumeCache GetPV/GetAPIPV/ListPVs,
PVCAssumeCache GetPVC/GetAPIPVC, errNotFound).

Deviation: no informer event handlers; the API object is read from InformerListers on each
call and an assumed object is dropped as soon as the API object's resourceVersion is newer
(what upstream's update handler does). ListPVs returns PVs sorted by name (upstream: index order).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from kubesched.api.core import PersistentVolume, PersistentVolumeClaim
from kubesched.controller.volume.scheduling.volume_util import get_persistent_volume_class


class ErrNotFound(Exception):
    """``errNotFound``: ``could not find <type> "<name>"``."""

    def __init__(self, type_name: str, name: str) -> None:
        super().__init__(f'could not find {type_name} "{name}"')


def _version(obj: Any) -> int:
    try:
        return int(obj.metadata.resource_version or 0)
    except ValueError:
        return 0


class AssumeCache:
    def __init__(self, type_name: str, get_api: Callable[[str], Optional[Any]]) -> None:
        self._type_name = type_name
        self._get_api = get_api
        self._assumed: dict[str, Any] = {}

    def get_api_obj(self, name: str) -> Any:
        obj = self._get_api(name)
        if obj is None:
            self._assumed.pop(name, None)
            raise ErrNotFound(self._type_name, name)
        return obj

    def get(self, name: str) -> Any:
        api = self.get_api_obj(name)
        assumed = self._assumed.get(name)
        if assumed is None:
            return api
        if _version(api) > _version(assumed):
            del self._assumed[name]
            return api
        return assumed

    def assume(self, name: str, obj: Any) -> None:
        stored = self.get(name)
        if _version(obj) < _version(stored):
            raise ValueError(f'{self._type_name} "{name}" is out of sync '
                             f"(stored: {_version(stored)}, assume: {_version(obj)})")
        self._assumed[name] = obj

    def restore(self, name: str) -> None:
        self._assumed.pop(name, None)


class PVAssumeCache(AssumeCache):
    def __init__(self, listers) -> None:
        super().__init__("v1.PersistentVolume", listers.persistent_volume)
        self._listers = listers

    def get_pv(self, name: str) -> PersistentVolume:
        return self.get(name)

    def get_api_pv(self, name: str) -> PersistentVolume:
        return self.get_api_obj(name)

    def list_pvs(self, storage_class_name: str) -> list[PersistentVolume]:
        pvs = [self.get(pv.metadata.name) for pv in self._listers.persistent_volumes()]
        return sorted((pv for pv in pvs if get_persistent_volume_class(pv) == storage_class_name),
                      key=lambda pv: pv.metadata.name)


def _split_key(key: str) -> tuple[str, str]:
    namespace, _, name = key.partition("/")  # namespaces never contain "/"
    return namespace, name


class PVCAssumeCache(AssumeCache):
    """Keys are ``namespace/name``."""

    def __init__(self, listers) -> None:
        super().__init__("v1.PersistentVolumeClaim", lambda key: listers.persistent_volume_claim(*_split_key(key)))

    def get_pvc(self, key: str) -> PersistentVolumeClaim:
        return self.get(key)

    def get_api_pvc(self, key: str) -> PersistentVolumeClaim:
        return self.get_api_obj(key)
