"""Decoding a ``kubescheduler.config.k8s.io/v1alpha2`` document into its versioned form.

Upstream: staging/src/k8s.io/kube-scheduler/config/v1alpha2/types.go @ v1.18.5 (the JSON
field names and Go types), staging/src/k8s.io/kube-scheduler/config/v1/types.go (Extender),
and the strict codec of pkg/scheduler/apis/config/scheme (``serializer.EnableStrict``).

The versioned form is plain data: a ``dict`` keyed by the JSON field names, where a field
that is absent or ``null`` is missing from the dict (Go's nil pointer). ``defaults.py``
fills it and converts it to the internal dataclasses.

Type rules follow Go's JSON decoding of the v1alpha2 structs: ``int32``/``int64`` fields
take integers only, durations (``leaderElection.leaseDuration`` …, ``metav1.Duration``) are
strings such as ``"15s"``, an extender's ``httpTimeout`` (``time.Duration``) is an integer
number of nanoseconds, ``pluginConfig[].args`` may hold anything (``runtime.Unknown``).
Extender fields match case-insensitively (``BindVerb`` works), as upstream's
``caseInsensitiveExtender`` does; every other field name is case-sensitive.

The decoding machinery (and its message deviations) is ``decoder``'s; ``scheme`` checks
``apiVersion``/``kind`` first.

Deviations:
- Unknown fields inside ``extenders[]`` are errors here; upstream's lenient extender
  decoding ignores them.
- ``featureGates`` (name → bool) is accepted at the top level (upstream: a flag).
"""

from __future__ import annotations

from typing import Any, Final

from kubesched.scheduler.apis.config.decoder import (
    FieldProblem,
    ListOf,
    MapOf,
    Struct,
    TrapLookup,
)
from kubesched.scheduler.apis.config.decoder import decode as decode_spec

GROUP_NAME: Final = "kubescheduler.config.k8s.io"
API_VERSION: Final = f"{GROUP_NAME}/v1alpha2"
KIND: Final = "KubeSchedulerConfiguration"

PLUGIN: Final = Struct("Plugin", {"name": "string", "weight": "int32"})
PLUGIN_SET: Final = Struct("PluginSet", {"enabled": ListOf(PLUGIN), "disabled": ListOf(PLUGIN)})
PLUGINS_JSON: Final = {  # JSON name → internal Plugins field
    "queueSort": "queue_sort", "preFilter": "pre_filter", "filter": "filter", "preScore": "pre_score",
    "score": "score", "reserve": "reserve", "permit": "permit", "preBind": "pre_bind", "bind": "bind",
    "postBind": "post_bind", "unreserve": "unreserve",
}
PLUGINS: Final = Struct("Plugins", {name: PLUGIN_SET for name in PLUGINS_JSON})
PLUGIN_CONFIG: Final = Struct("PluginConfig", {"name": "string", "args": "any"})
PROFILE: Final = Struct("KubeSchedulerProfile", {
    "schedulerName": "string", "plugins": PLUGINS, "pluginConfig": ListOf(PLUGIN_CONFIG)})
LEADER_ELECTION: Final = Struct("KubeSchedulerLeaderElectionConfiguration", {
    "leaderElect": "bool", "leaseDuration": "duration", "renewDeadline": "duration",
    "retryPeriod": "duration", "resourceLock": "string", "resourceName": "string",
    "resourceNamespace": "string"})
CLIENT_CONNECTION: Final = Struct("ClientConnectionConfiguration", {
    "kubeconfig": "string", "acceptContentTypes": "string", "contentType": "string",
    "qps": "float32", "burst": "int32"})
MANAGED_RESOURCE: Final = Struct("ExtenderManagedResource", {
    "name": "string", "ignoredByScheduler": "bool"}, case_insensitive=True)
EXTENDER: Final = Struct("Extender", {
    "urlPrefix": "string", "filterVerb": "string", "preemptVerb": "string",
    "prioritizeVerb": "string", "weight": "int64", "bindVerb": "string", "enableHttps": "bool",
    "tlsConfig": "object", "httpTimeout": "nanoseconds", "nodeCacheCapable": "bool",
    "managedResources": ListOf(MANAGED_RESOURCE), "ignorable": "bool"}, case_insensitive=True)
CONFIGURATION: Final = Struct(KIND, {
    "apiVersion": "string", "kind": "string",
    "leaderElection": LEADER_ELECTION, "clientConnection": CLIENT_CONNECTION,
    "healthzBindAddress": "string", "metricsBindAddress": "string",
    "enableProfiling": "bool", "enableContentionProfiling": "bool",
    "disablePreemption": "bool", "percentageOfNodesToScore": "int32",
    "bindTimeoutSeconds": "int64", "podInitialBackoffSeconds": "int64", "podMaxBackoffSeconds": "int64",
    "profiles": ListOf(PROFILE), "extenders": ListOf(EXTENDER),
    "featureGates": MapOf("bool"),
})


def decode(data: Any, trap_at: TrapLookup = lambda path: None) -> tuple[dict[str, Any], list[FieldProblem]]:
    """The versioned form of a v1alpha2 document (its apiVersion and kind already checked)."""
    out, problems = decode_spec(CONFIGURATION, data, trap_at)
    return out, problems
