"""The internal ``KubeSchedulerConfiguration``: profiles, plugin sets, extenders.

Upstream: pkg/scheduler/apis/config/types.go @ v1.18.5 (KubeSchedulerConfiguration,
KubeSchedulerProfile, SchedulerAlgorithmSource, SchedulerPolicySource, KubeSchedulerLeaderElectionConfiguration,
Plugins, PluginSet, Plugin, PluginConfig, Plugins.Append, Plugins.Apply, mergePluginSets,
Extender, ExtenderManagedResource) and component-base config (LeaderElectionConfiguration,
ClientConnectionConfiguration, DebuggingConfiguration).

The field defaults of ``KubeSchedulerConfiguration`` are the values v1.18.5 gives an empty
v1alpha2 document after defaulting and conversion, so ``KubeSchedulerConfiguration()`` is
the configuration of a scheduler started without ``--config``.

Deviations:
- Durations are integer nanoseconds (``time.Duration``), named ``*_ns``.
- ``feature_gates`` is not part of upstream's configuration (gates are the
  ``--feature-gates`` flag); a config may carry it here so a scenario is self-contained.
- ``Extender.tls_config`` is kept as a plain mapping and not used (no TLS to extenders).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Optional

SCHEDULER_DEFAULT_PROVIDER_NAME: Final = "DefaultProvider"
SCHEDULER_POLICY_CONFIG_MAP_KEY: Final = "policy.cfg"
DEFAULT_SCHEDULER_NAME: Final = "default-scheduler"  # core/v1 DefaultSchedulerName
DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE: Final = 0  # 0 = adaptive (5%–50% by cluster size)
MAX_CUSTOM_PRIORITY_SCORE: Final = 10
MAX_TOTAL_SCORE: Final = (1 << 63) - 1
MAX_WEIGHT: Final = MAX_TOTAL_SCORE // MAX_CUSTOM_PRIORITY_SCORE
SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE: Final = "kube-system"
SCHEDULER_DEFAULT_LOCK_OBJECT_NAME: Final = "kube-scheduler"
DEFAULT_BIND_ADDRESS: Final = "0.0.0.0:10251"  # ports.InsecureSchedulerPort

# The extension points of config.Plugins, in field order.
EXTENSION_POINT_FIELDS: Final = ("queue_sort", "pre_filter", "filter", "pre_score", "score", "reserve",
                                 "permit", "pre_bind", "bind", "post_bind", "unreserve")


# ----------------------------------------------------------------------------- plugin sets


@dataclass(frozen=True, slots=True)
class Plugin:
    """``config.Plugin``: a plugin name and (for Score) its weight; 0 means "not set"."""

    name: str
    weight: int = 0


@dataclass(frozen=True, slots=True)
class PluginSet:
    """``config.PluginSet``: enabled plugins in run order, and disabled ones."""

    enabled: tuple[Plugin, ...] = ()
    disabled: tuple[Plugin, ...] = ()


@dataclass(frozen=True, slots=True)
class Plugins:
    """``config.Plugins``: one optional ``PluginSet`` per 1.18 extension point."""

    queue_sort: PluginSet | None = None
    pre_filter: PluginSet | None = None
    filter: PluginSet | None = None
    pre_score: PluginSet | None = None
    score: PluginSet | None = None
    reserve: PluginSet | None = None
    permit: PluginSet | None = None
    pre_bind: PluginSet | None = None
    bind: PluginSet | None = None
    post_bind: PluginSet | None = None
    unreserve: PluginSet | None = None

    def append(self, src: Plugins | None) -> Plugins:
        """``Plugins.Append``: every point gets ``src``'s enabled and disabled lists appended.

        As upstream, every point of the result is a (possibly empty) ``PluginSet``.
        """
        if src is None:
            return self
        return replace(self, **{f: _append_set(getattr(self, f), getattr(src, f))
                                for f in EXTENSION_POINT_FIELDS})

    def apply(self, custom: Plugins | None) -> Plugins:
        """``Plugins.Apply``: merge a profile's plugins into these defaults (``None`` keeps them)."""
        if custom is None:
            return self
        return replace(self, **{f: merge_plugin_sets(getattr(self, f), getattr(custom, f))
                                for f in EXTENSION_POINT_FIELDS})


def _append_set(dst: PluginSet | None, src: PluginSet | None) -> PluginSet:
    """``appendPluginSet``."""
    dst = dst or PluginSet()
    if src is None:
        return dst
    return PluginSet(enabled=dst.enabled + src.enabled, disabled=dst.disabled + src.disabled)


def merge_plugin_sets(default_set: PluginSet | None, custom_set: PluginSet | None) -> PluginSet:
    """``mergePluginSets``: defaults minus the disabled ones (all of them for ``"*"``), then
    the custom enabled plugins in the user's order. The result has no disabled list.

    A default plugin enabled again without being disabled appears twice (the framework
    then fails with ``plugin "X" already registered as "..."``); to reorder or reweight a
    default plugin, disable it and enable it again.
    """
    custom_set = custom_set or PluginSet()
    default_set = default_set or PluginSet()
    disabled = {p.name for p in custom_set.disabled}
    kept: tuple[Plugin, ...] = ()
    if "*" not in disabled:
        kept = tuple(p for p in default_set.enabled if p.name not in disabled)
    return PluginSet(enabled=kept + custom_set.enabled)


@dataclass(frozen=True, slots=True)
class RawArgs:
    """``runtime.Unknown``: undecoded args bytes and their content type ("" = JSON)."""

    raw: Optional[bytes | str]
    content_type: str = ""


@dataclass(frozen=True, slots=True)
class PluginConfig:
    """``config.PluginConfig``: the args handed to the factory of plugin ``name``.

    ``args`` is a mapping (decoded JSON/YAML), ``None`` (plugin defaults), or the
    ``RawArgs`` (undecoded text and content type, as ``runtime.Unknown``).
    """

    name: str
    args: Any = None


# ----------------------------------------------------------------------------- component-base


@dataclass(frozen=True, slots=True)
class LeaderElectionConfiguration:
    """``KubeSchedulerLeaderElectionConfiguration`` (component-base LeaderElectionConfiguration)."""

    leader_elect: bool = True
    lease_duration_ns: int = 15_000_000_000
    renew_deadline_ns: int = 10_000_000_000
    retry_period_ns: int = 2_000_000_000
    resource_lock: str = "endpointsleases"
    resource_name: str = SCHEDULER_DEFAULT_LOCK_OBJECT_NAME
    resource_namespace: str = SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE


@dataclass(frozen=True, slots=True)
class ClientConnectionConfiguration:
    """component-base ``ClientConnectionConfiguration`` (unused by the simulation)."""

    kubeconfig: str = ""
    accept_content_types: str = ""
    content_type: str = "application/vnd.kubernetes.protobuf"
    qps: float = 50.0
    burst: int = 100


# ----------------------------------------------------------------------------- extenders


@dataclass(frozen=True, slots=True)
class ExtenderManagedResource:
    """``ExtenderManagedResource``: an extended resource an extender manages."""

    name: str
    ignored_by_scheduler: bool = False


@dataclass(frozen=True, slots=True)
class Extender:
    """``Extender``: how to reach one HTTP extender; an empty verb = not supported.

    ``http_timeout_ns`` 0 means the extender's default (``DefaultExtenderTimeout``, 5 s,
    applied by ``NewHTTPExtender``). ``weight`` has no default in v1.18: an extender with a
    prioritize verb must set a positive weight.
    """

    url_prefix: str = ""
    filter_verb: str = ""
    preempt_verb: str = ""
    prioritize_verb: str = ""
    weight: int = 0
    bind_verb: str = ""
    enable_https: bool = False
    tls_config: Mapping[str, Any] | None = None
    http_timeout_ns: int = 0
    node_cache_capable: bool = False
    managed_resources: tuple[ExtenderManagedResource, ...] = ()
    ignorable: bool = False


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class SchedulerPolicyFileSource:
    """``SchedulerPolicyFileSource``: a Policy serialized in a file."""

    path: str = ""


@dataclass(frozen=True, slots=True)
class SchedulerPolicyConfigMapSource:
    """``SchedulerPolicyConfigMapSource``: a Policy under key ``policy.cfg`` of a ConfigMap."""

    namespace: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class SchedulerPolicySource:
    """``SchedulerPolicySource``: a file or a ConfigMap; ``policy`` is what it holds.

    Deviation: ``policy`` (a ``legacy_types.Policy``) is filled when the configuration is
    loaded (upstream reads the file or the ConfigMap in ``scheduler.New``), so a run is a
    function of its inputs.
    """

    file: SchedulerPolicyFileSource | None = None
    config_map: SchedulerPolicyConfigMapSource | None = None
    policy: Any = None


@dataclass(frozen=True, slots=True)
class SchedulerAlgorithmSource:
    """``SchedulerAlgorithmSource``: a provider name, or a Policy source (v1alpha1 and the
    deprecated flags); v1alpha2 always converts to the default provider."""

    provider: str | None = SCHEDULER_DEFAULT_PROVIDER_NAME
    policy: SchedulerPolicySource | None = None


@dataclass(frozen=True, slots=True)
class KubeSchedulerProfile:
    """``KubeSchedulerProfile``: a scheduler name, its plugins (``None`` = provider defaults)
    and their args."""

    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    plugins: Plugins | None = None
    plugin_config: tuple[PluginConfig, ...] = ()


@dataclass(frozen=True, slots=True)
class KubeSchedulerConfiguration:
    """``KubeSchedulerConfiguration`` (internal form), with v1.18.5's defaults."""

    algorithm_source: SchedulerAlgorithmSource = SchedulerAlgorithmSource()
    percentage_of_nodes_to_score: int = DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE
    bind_timeout_seconds: int = 600
    pod_initial_backoff_seconds: int = 1
    pod_max_backoff_seconds: int = 10
    disable_preemption: bool = False
    profiles: tuple[KubeSchedulerProfile, ...] = (KubeSchedulerProfile(),)
    extenders: tuple[Extender, ...] = ()
    leader_election: LeaderElectionConfiguration = LeaderElectionConfiguration()
    client_connection: ClientConnectionConfiguration = ClientConnectionConfiguration()
    healthz_bind_address: str = DEFAULT_BIND_ADDRESS
    metrics_bind_address: str = DEFAULT_BIND_ADDRESS
    enable_profiling: bool = True
    enable_contention_profiling: bool = True
    feature_gates: Mapping[str, bool] = field(default_factory=dict)

    def profile(self, scheduler_name: str) -> KubeSchedulerProfile | None:
        """The profile named ``scheduler_name``, if any."""
        return next((p for p in self.profiles if p.scheduler_name == scheduler_name), None)
