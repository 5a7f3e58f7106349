"""A configurable fake SchedulerVolumeBinder for tests and conformance vectors.

Upstream: pkg/controller/volume/scheduling/scheduler_binder_fake.go @ v1.18.5
(FakeVolumeBinderConfig, NewFakeVolumeBinder, FakeVolumeBinder).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Optional

from kubesched.api.core import Node, Pod
from kubesched.controller.volume.scheduling.scheduler_binder import VolumeBinderError
from kubesched.controller.volume.scheduling.scheduler_binder_cache import PodBindingCache


@dataclass(frozen=True, slots=True)
class FakeVolumeBinderConfig:
    all_bound: bool = False
    find_unbound_satisfied: bool = False
    find_bound_satisfied: bool = False
    find_err: Optional[str] = None
    assume_err: Optional[str] = None
    bind_err: Optional[str] = None


@dataclass(slots=True)
class FakeVolumeBinder:
    config: FakeVolumeBinderConfig = field(default_factory=FakeVolumeBinderConfig)
    assume_called: bool = False
    bind_called: bool = False

    def find_pod_volumes(self, pod: Pod, node: Node) -> tuple[bool, bool]:
        if self.config.find_err is not None:
            raise VolumeBinderError(self.config.find_err)
        return self.config.find_unbound_satisfied, self.config.find_bound_satisfied

    def assume_pod_volumes(self, assumed_pod: Pod, node_name: str) -> bool:
        self.assume_called = True
        if self.config.assume_err is not None:
            raise VolumeBinderError(self.config.assume_err)
        return self.config.all_bound

    def bind_pod_volumes(self, assumed_pod: Pod, done: Callable[[Optional[Exception]], None]) -> None:
        """Returns at once (no poll): ``done`` gets ``BindErr`` or None."""
        self.bind_called = True
        done(VolumeBinderError(self.config.bind_err) if self.config.bind_err is not None else None)

    def get_bindings_cache(self) -> Optional[PodBindingCache]:
        return None

    def delete_pod_bindings(self, pod: Pod) -> None:
        return None


def fake_config_from_args(args: dict) -> FakeVolumeBinderConfig:
    """Build a config from a vector's ``fake_volume_binder`` map (Go field names, any case)."""
    lowered = {str(k).lower(): v for k, v in (args or {}).items()}
    return FakeVolumeBinderConfig(
        all_bound=bool(lowered.get("allbound", False)),
        find_unbound_satisfied=bool(lowered.get("findunboundsatisfied", False)),
        find_bound_satisfied=bool(lowered.get("findboundsatisfied", False)),
        find_err=lowered.get("finderr"), assume_err=lowered.get("assumeerr"), bind_err=lowered.get("binderr"))
