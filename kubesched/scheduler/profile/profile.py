"""A scheduling profile (framework + recorder) and the map of profiles by scheduler name.

Upstream: pkg/scheduler/profile/profile.go @ v1.18.5 (Profile, NewProfile, Map, NewMap,
Map.HandlesSchedulerName, cfgValidator.validate, RecorderFactory, FrameworkFactory).

``Map`` is a ``dict[str, Profile]`` with ``handles_scheduler_name``. A ``Profile`` passes
unknown attributes on to its framework, as upstream's embedded ``framework.Framework``.
Errors are ``ProfileError`` with upstream's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubesched.scheduler.apis.config.types import KubeSchedulerProfile
from kubesched.util.strconv import go_quote

FrameworkFactory = Callable[[KubeSchedulerProfile], Any]
RecorderFactory = Callable[[str], Any]  # scheduler name → recorder with eventf(obj, type, reason, message)


class ProfileError(ValueError):
    """A profile cannot be built; the text is upstream's error."""


@dataclass(frozen=True, slots=True)
class Profile:
    """``Profile``: the framework of one scheduler name and the recorder of its events."""

    name: str
    framework: Any
    recorder: Any

    def __getattr__(self, attr: str) -> Any:
        if attr in ("name", "framework", "recorder"):  # not set yet (copy/unpickle)
            raise AttributeError(attr)
        return getattr(self.framework, attr)


def new_profile(cfg: KubeSchedulerProfile, framework_factory: FrameworkFactory,
                recorder_factory: RecorderFactory) -> Profile:
    """``NewProfile``: build the framework, then the recorder named after the profile."""
    framework = framework_factory(cfg)
    return Profile(cfg.scheduler_name, framework, recorder_factory(cfg.scheduler_name))


class Map(dict[str, Profile]):
    """``profile.Map``: profiles indexed by scheduler name."""

    def handles_scheduler_name(self, name: str) -> bool:
        """``HandlesSchedulerName``: whether a pod with this ``schedulerName`` is ours."""
        return name in self


def new_map(cfgs: Sequence[KubeSchedulerProfile], framework_factory: FrameworkFactory,
            recorder_factory: RecorderFactory) -> Map:
    """``NewMap``: validate each profile in order, then build it."""
    m = Map()
    validator = _CfgValidator(m)
    for cfg in cfgs:
        validator.validate(cfg)
        try:
            m[cfg.scheduler_name] = new_profile(cfg, framework_factory, recorder_factory)
        except Exception as err:
            raise ProfileError(f"creating profile for scheduler name {cfg.scheduler_name}: {err}") from err
    return m


def handles_scheduler_name(profiles: Mapping[str, Profile], name: str) -> bool:
    """``Map.HandlesSchedulerName`` for any mapping of profiles."""
    return name in profiles


@dataclass(slots=True)
class _CfgValidator:
    """``cfgValidator``: names set and unique, one queue sort plugin shared by all profiles."""

    m: Map
    queue_sort: str = ""
    queue_sort_args: Any = None

    def validate(self, cfg: KubeSchedulerProfile) -> None:
        name = cfg.scheduler_name
        if not name:
            raise ProfileError("scheduler name is needed")
        if cfg.plugins is None:
            raise ProfileError(f"plugins required for profile with scheduler name {go_quote(name)}")
        if name in self.m:
            raise ProfileError(f"duplicate profile with scheduler name {go_quote(name)}")
        queue_sort_set = cfg.plugins.queue_sort
        if queue_sort_set is None or len(queue_sort_set.enabled) != 1:
            raise ProfileError(f"one queue sort plugin required for profile with scheduler name {go_quote(name)}")
        queue_sort = queue_sort_set.enabled[0].name
        args = None
        for pc in cfg.plugin_config:
            if pc.name == queue_sort:
                args = pc.args
        if not self.queue_sort:
            self.queue_sort, self.queue_sort_args = queue_sort, args
            return
        if self.queue_sort != queue_sort:
            raise ProfileError(f"different queue sort plugins for profile {go_quote(name)}: "
                               f"{go_quote(queue_sort)}, first: {go_quote(self.queue_sort)}")
        if self.queue_sort_args != args:
            raise ProfileError(f"different queue sort plugin args for profile {go_quote(name)}: {_raw(args)}")


def _raw(args: Any) -> str:
    """The args as upstream prints ``runtime.Unknown.Raw``: JSON text (keys sorted, as the
    YAML-to-JSON conversion writes them), empty when absent."""
    if args is None:
        return ""
    raw = getattr(args, "raw", None)
    if raw is not None or hasattr(args, "content_type"):
        return raw.decode() if isinstance(raw, bytes) else (raw or "")
    return json.dumps(args, sort_keys=True, separators=(",", ":"))
