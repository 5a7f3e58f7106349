"""Shared helpers for the configuration tests."""

from __future__ import annotations

from typing import Any

from kubesched.scheduler.apis.config.scheme import ConfigError, load_config
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.internal.cache.snapshot import new_empty_snapshot
from kubesched.client.listers.informer_listers import InformerListers
from kubesched.scheduler.profile.frameworks import build_frameworks

HEAD = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration"}


def doc(**fields: Any) -> dict[str, Any]:
    """A v1alpha2 document with the given top-level fields."""
    return {**HEAD, **fields}


def problems_of(source: Any) -> list[str]:
    """``path: message`` of every problem ``load_config`` reports (fails if it loads)."""
    try:
        load_config(source)
    except ConfigError as err:
        return [f"{p.path}: {p.message}" if p.path else p.message for p in err.problems]
    raise AssertionError("the configuration loaded without errors")


def frameworks(config: Any, **options: Any) -> Any:
    """``build_frameworks`` with the in-tree registry and an empty snapshot."""
    return build_frameworks(config, new_in_tree_registry(), snapshot_shared_lister=new_empty_snapshot(),
                            listers=InformerListers(), informer_factory=object(), **options)
