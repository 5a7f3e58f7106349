"""Defaulting of a v1alpha2 configuration and its conversion to the internal types (v1alpha1 reuses both).

Upstream: pkg/scheduler/apis/config/v1alpha2/defaults.go @ v1.18.5
(SetDefaults_KubeSchedulerConfiguration), component-base
RecommendedDefaultLeaderElectionConfiguration, and
pkg/scheduler/apis/config/v1alpha2/conversion.go
(Convert_v1alpha2_KubeSchedulerConfiguration_To_config_KubeSchedulerConfiguration: the
provider is always "DefaultProvider").

Both work on the versioned form of ``v1alpha2.decode`` (a dict where a missing key is a
nil pointer) and return new values; nothing is changed in place.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from kubesched.scheduler.apis.config import types as t
from kubesched.scheduler.apis.config.go_format import (
    SECOND,
    AddrError,
    join_host_port,
    parse_ip,
    split_host_port,
)
from kubesched.scheduler.apis.config.v1alpha2 import PLUGINS_JSON

_INSECURE_SCHEDULER_PORT = "10251"


def set_defaults(versioned: Mapping[str, Any]) -> dict[str, Any]:
    """``SetDefaults_KubeSchedulerConfiguration`` on a copy of the versioned form."""
    obj = copy.deepcopy(dict(versioned))
    profiles = obj.setdefault("profiles", []) or []
    if not profiles:
        profiles.append({})
    obj["profiles"] = profiles
    # Only a single profile gets a default name; validation wants every name set and unique.
    if len(profiles) == 1 and "schedulerName" not in profiles[0]:
        profiles[0]["schedulerName"] = t.DEFAULT_SCHEDULER_NAME
    le = obj.setdefault("leaderElection", {})
    for key, value in (("resourceLock", "endpointsleases"),
                       ("resourceNamespace", t.SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE),
                       ("resourceName", t.SCHEDULER_DEFAULT_LOCK_OBJECT_NAME)):
        if not le.get(key):
            le[key] = value
    set_shared_defaults(obj)
    return obj


def set_shared_defaults(obj: dict[str, Any]) -> None:
    """The defaults v1alpha1 and v1alpha2 share (in place): addresses, scoring, client,
    leader-election durations, timeouts, backoffs, profiling."""
    for key in ("healthzBindAddress", "metricsBindAddress"):
        obj[key] = default_bind_address(obj.get(key))
    obj.setdefault("disablePreemption", False)
    obj.setdefault("percentageOfNodesToScore", t.DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE)
    cc = obj.setdefault("clientConnection", {})
    if not cc.get("contentType"):
        cc["contentType"] = "application/vnd.kubernetes.protobuf"
    if not cc.get("qps"):  # the scheduler's own QPS/Burst opinion
        cc["qps"] = 50.0
    if not cc.get("burst"):
        cc["burst"] = 100
    _recommended_leader_election(obj.setdefault("leaderElection", {}))
    obj.setdefault("bindTimeoutSeconds", 600)
    obj.setdefault("podInitialBackoffSeconds", 1)
    obj.setdefault("podMaxBackoffSeconds", 10)
    obj.setdefault("enableProfiling", True)
    if obj["enableProfiling"]:
        obj.setdefault("enableContentionProfiling", True)


def _recommended_leader_election(le: dict[str, Any]) -> None:
    """component-base ``RecommendedDefaultLeaderElectionConfiguration``: a zero duration
    (absent or "0s") gets the default."""
    for key, seconds in (("leaseDuration", 15), ("renewDeadline", 10), ("retryPeriod", 2)):
        if not le.get(key):
            le[key] = seconds * SECOND
    le.setdefault("leaderElect", True)


def default_bind_address(value: str | None) -> str:
    """Healthz/metrics address defaulting: a bare ``:port`` gets host 0.0.0.0, a bare IP the
    insecure scheduler port, anything unreadable the default address."""
    if value is None:
        return t.DEFAULT_BIND_ADDRESS
    try:
        host, port = split_host_port(value)
    except AddrError:
        if parse_ip(value) is not None:
            return join_host_port(value, _INSECURE_SCHEDULER_PORT)
        return t.DEFAULT_BIND_ADDRESS
    return join_host_port(host or "0.0.0.0", port)


# ----------------------------------------------------------------------------- conversion


def convert(obj: Mapping[str, Any]) -> t.KubeSchedulerConfiguration:
    """The internal configuration of a defaulted versioned form."""
    le, cc = obj.get("leaderElection", {}), obj.get("clientConnection", {})
    return t.KubeSchedulerConfiguration(
        algorithm_source=t.SchedulerAlgorithmSource(provider=t.SCHEDULER_DEFAULT_PROVIDER_NAME),
        percentage_of_nodes_to_score=obj.get("percentageOfNodesToScore", 0),
        bind_timeout_seconds=obj.get("bindTimeoutSeconds", 0),
        pod_initial_backoff_seconds=obj.get("podInitialBackoffSeconds", 0),
        pod_max_backoff_seconds=obj.get("podMaxBackoffSeconds", 0),
        disable_preemption=obj.get("disablePreemption", False),
        profiles=tuple(_profile(p) for p in obj.get("profiles", ())),
        extenders=tuple(convert_extender(e) for e in obj.get("extenders", ())),
        leader_election=t.LeaderElectionConfiguration(
            leader_elect=le.get("leaderElect", False), lease_duration_ns=le.get("leaseDuration", 0),
            renew_deadline_ns=le.get("renewDeadline", 0), retry_period_ns=le.get("retryPeriod", 0),
            resource_lock=le.get("resourceLock", ""), resource_name=le.get("resourceName", ""),
            resource_namespace=le.get("resourceNamespace", "")),
        client_connection=t.ClientConnectionConfiguration(
            kubeconfig=cc.get("kubeconfig", ""), accept_content_types=cc.get("acceptContentTypes", ""),
            content_type=cc.get("contentType", ""), qps=cc.get("qps", 0.0), burst=cc.get("burst", 0)),
        healthz_bind_address=obj.get("healthzBindAddress", ""),
        metrics_bind_address=obj.get("metricsBindAddress", ""),
        enable_profiling=obj.get("enableProfiling", False),
        enable_contention_profiling=obj.get("enableContentionProfiling", False),
        feature_gates=dict(obj.get("featureGates", {})),
    )


def _profile(p: Mapping[str, Any]) -> t.KubeSchedulerProfile:
    plugins = p.get("plugins")
    return t.KubeSchedulerProfile(
        scheduler_name=p.get("schedulerName", ""),
        plugins=None if plugins is None else convert_plugins(plugins),
        plugin_config=tuple(t.PluginConfig(c.get("name", ""), convert_args(c)) for c in p.get("pluginConfig", ())),
    )


def convert_plugins(plugins: Mapping[str, Any]) -> t.Plugins:
    """A v1alpha2 ``plugins`` object as ``Plugins``; an absent point stays ``None``."""
    return t.Plugins(**{attr: _plugin_set(plugins[key]) for key, attr in PLUGINS_JSON.items() if key in plugins})


def _plugin_set(s: Mapping[str, Any]) -> t.PluginSet:
    def plugins(items: Any) -> tuple[t.Plugin, ...]:
        return tuple(t.Plugin(i.get("name", ""), i.get("weight", 0)) for i in items or ())
    return t.PluginSet(enabled=plugins(s.get("enabled")), disabled=plugins(s.get("disabled")))


def convert_args(c: Mapping[str, Any]) -> Any:
    """``runtime.Unknown`` args: a mapping stays a mapping; any other JSON value is kept as
    raw JSON text so that the plugin's ``DecodeInto`` reports it."""
    if "args" not in c or isinstance(c["args"], Mapping):
        return c.get("args")
    return t.RawArgs(json.dumps(c["args"]))


def convert_extender(e: Mapping[str, Any]) -> t.Extender:
    return t.Extender(
        url_prefix=e.get("urlPrefix", ""), filter_verb=e.get("filterVerb", ""),
        preempt_verb=e.get("preemptVerb", ""), prioritize_verb=e.get("prioritizeVerb", ""),
        weight=e.get("weight", 0), bind_verb=e.get("bindVerb", ""), enable_https=e.get("enableHttps", False),
        tls_config=e.get("tlsConfig"), http_timeout_ns=e.get("httpTimeout", 0),
        node_cache_capable=e.get("nodeCacheCapable", False),
        managed_resources=tuple(t.ExtenderManagedResource(r.get("name", ""), r.get("ignoredByScheduler", False))
                                for r in e.get("managedResources", ())),
        ignorable=e.get("ignorable", False),
    )
