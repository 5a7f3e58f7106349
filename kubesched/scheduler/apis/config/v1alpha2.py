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

Deviations:
- Messages are written for people (``profiles[0].plugins.score.enabled[1].weight: must be
  an integer, not a string``) instead of the json-iterator texts, and every problem is
  reported, not just the first.
- Unknown fields inside ``extenders[]`` are errors here; upstream's lenient extender
  decoding ignores them.
- ``featureGates`` (name → bool) is accepted at the top level (upstream: a flag).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubesched.scheduler.apis.config.go_format import DurationError, parse_duration

GROUP_NAME: Final = "kubescheduler.config.k8s.io"
API_VERSION: Final = f"{GROUP_NAME}/v1alpha2"
KIND: Final = "KubeSchedulerConfiguration"

_INT_RANGES: Final = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}


@dataclass(frozen=True, slots=True)
class Struct:
    """A Go struct: JSON field name → spec."""

    type_name: str
    fields: Mapping[str, Spec]
    case_insensitive: bool = False


@dataclass(frozen=True, slots=True)
class ListOf:
    item: Spec


@dataclass(frozen=True, slots=True)
class MapOf:
    item: Spec


# Scalars: "string", "bool", "int32", "int64", "float32", "duration", "nanoseconds",
# "object" (any mapping), "any".
Spec = Struct | ListOf | MapOf | str

_PLUGIN: Final = Struct("Plugin", {"name": "string", "weight": "int32"})
_PLUGIN_SET: Final = Struct("PluginSet", {"enabled": ListOf(_PLUGIN), "disabled": ListOf(_PLUGIN)})
PLUGINS_JSON: Final = {  # JSON name → internal Plugins field
    "queueSort": "queue_sort", "preFilter": "pre_filter", "filter": "filter", "preScore": "pre_score",
    "score": "score", "reserve": "reserve", "permit": "permit", "preBind": "pre_bind", "bind": "bind",
    "postBind": "post_bind", "unreserve": "unreserve",
}
_PLUGINS: Final = Struct("Plugins", {name: _PLUGIN_SET for name in PLUGINS_JSON})
_PLUGIN_CONFIG: Final = Struct("PluginConfig", {"name": "string", "args": "any"})
_PROFILE: Final = Struct("KubeSchedulerProfile", {
    "schedulerName": "string", "plugins": _PLUGINS, "pluginConfig": ListOf(_PLUGIN_CONFIG)})
_LEADER_ELECTION: Final = Struct("KubeSchedulerLeaderElectionConfiguration", {
    "leaderElect": "bool", "leaseDuration": "duration", "renewDeadline": "duration",
    "retryPeriod": "duration", "resourceLock": "string", "resourceName": "string",
    "resourceNamespace": "string"})
_CLIENT_CONNECTION: Final = Struct("ClientConnectionConfiguration", {
    "kubeconfig": "string", "acceptContentTypes": "string", "contentType": "string",
    "qps": "float32", "burst": "int32"})
_MANAGED_RESOURCE: Final = Struct("ExtenderManagedResource", {
    "name": "string", "ignoredByScheduler": "bool"}, case_insensitive=True)
_EXTENDER: Final = Struct("Extender", {
    "urlPrefix": "string", "filterVerb": "string", "preemptVerb": "string",
    "prioritizeVerb": "string", "weight": "int64", "bindVerb": "string", "enableHttps": "bool",
    "tlsConfig": "object", "httpTimeout": "nanoseconds", "nodeCacheCapable": "bool",
    "managedResources": ListOf(_MANAGED_RESOURCE), "ignorable": "bool"}, case_insensitive=True)
CONFIGURATION: Final = Struct(KIND, {
    "apiVersion": "string", "kind": "string",
    "leaderElection": _LEADER_ELECTION, "clientConnection": _CLIENT_CONNECTION,
    "healthzBindAddress": "string", "metricsBindAddress": "string",
    "enableProfiling": "bool", "enableContentionProfiling": "bool",
    "disablePreemption": "bool", "percentageOfNodesToScore": "int32",
    "bindTimeoutSeconds": "int64", "podInitialBackoffSeconds": "int64", "podMaxBackoffSeconds": "int64",
    "profiles": ListOf(_PROFILE), "extenders": ListOf(_EXTENDER),
    "featureGates": MapOf("bool"),
})


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A decoding problem at a JSON field path (``profiles[0].plugins``)."""

    path: str
    message: str


TrapLookup = Callable[[str], Any | None]  # path → yaml_source.Trap (unquoted YAML scalar)


def check_type_meta(data: Any) -> list[FieldProblem]:
    """``apiVersion`` and ``kind`` must name a v1alpha2 KubeSchedulerConfiguration."""
    if not isinstance(data, Mapping):
        return [FieldProblem("", f"the configuration must be an object, not {_describe(data)}")]
    problems = []
    kind, version = data.get("kind"), data.get("apiVersion")
    if kind is None or kind == "":
        problems.append(FieldProblem("kind", f'Required value: must be "{KIND}"'))
    elif kind != KIND:
        problems.append(FieldProblem("kind", f'Unsupported value: {_show(kind)}: supported values: "{KIND}"'))
    if version is None or version == "":
        problems.append(FieldProblem("apiVersion", f'Required value: must be "{API_VERSION}"'))
    elif version != API_VERSION:
        hint = (" (kubesched reads only v1alpha2, the version v1.18 writes)"
                if isinstance(version, str) and version.startswith(GROUP_NAME + "/") else "")
        problems.append(FieldProblem("apiVersion", f"Unsupported value: {_show(version)}: "
                                                   f'supported values: "{API_VERSION}"{hint}'))
    return problems


def decode(data: Any, trap_at: TrapLookup = lambda path: None) -> tuple[dict[str, Any], list[FieldProblem]]:
    """The versioned form of a v1alpha2 document, and every problem found."""
    decoder = _Decoder(trap_at)
    problems = check_type_meta(data)
    if problems:
        return {}, problems
    out = decoder.value(CONFIGURATION, data, "")
    return out, decoder.problems


@dataclass
class _Decoder:
    trap_at: TrapLookup
    problems: list[FieldProblem] = field(default_factory=list)

    def error(self, path: str, message: str) -> None:
        self.problems.append(FieldProblem(path, message))

    def value(self, spec: Spec, data: Any, path: str) -> Any:
        if isinstance(spec, Struct):
            return self.struct(spec, data, path)
        if isinstance(spec, ListOf):
            if not isinstance(data, list):
                return self.wrong(path, "a list", data)
            return [v for v in (self.value(spec.item, x, f"{path}[{i}]") for i, x in enumerate(data))]
        if isinstance(spec, MapOf):
            if not isinstance(data, Mapping):
                return self.wrong(path, "an object", data)
            return {str(k): self.value(spec.item, v, _join(path, str(k))) for k, v in data.items()}
        return self.scalar(spec, data, path)

    def struct(self, spec: Struct, data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            self.wrong(path, "an object", data)
            return {}
        folded = {name.casefold(): name for name in spec.fields}
        out: dict[str, Any] = {}
        for key, value in data.items():
            name = key if key in spec.fields else (folded.get(str(key).casefold()) if spec.case_insensitive else None)
            sub = _join(path, str(key))
            if name is None:
                self.unknown(spec, str(key), sub, folded)
                continue
            if value is None:  # JSON null: a nil pointer / zero value, as if absent
                out.pop(name, None)
                continue
            out[name] = self.value(spec.fields[name], value, sub)
        return out

    def unknown(self, spec: Struct, key: str, path: str, folded: Mapping[str, str]) -> None:
        near = folded.get(key.casefold())
        hint = f' (did you mean "{near}"?)' if near else ""
        self.error(path, f'unknown field "{key}" in {spec.type_name}{hint}')

    def scalar(self, kind: str, data: Any, path: str) -> Any:
        if kind == "any":
            return data
        if kind == "object":
            return dict(data) if isinstance(data, Mapping) else self.wrong(path, "an object", data)
        if kind == "string":
            return data if isinstance(data, str) else self.wrong(path, "a string", data)
        if kind == "bool":
            return data if isinstance(data, bool) else self.wrong(path, "a boolean (true or false)", data)
        if kind in _INT_RANGES:
            return self.integer(kind, data, path)
        if kind == "float32":
            ok = isinstance(data, (int, float)) and not isinstance(data, bool)
            return float(data) if ok else self.wrong(path, "a number", data)
        if kind == "duration":
            return self.duration(data, path)
        if kind == "nanoseconds":
            return self.nanoseconds(data, path)
        raise TypeError(f"unknown scalar kind {kind!r}")

    def integer(self, kind: str, data: Any, path: str) -> int | None:
        if isinstance(data, bool) or not isinstance(data, int):
            return self.wrong(path, "an integer", data)
        low, high = _INT_RANGES[kind]
        if not low <= data <= high:
            self.error(path, f"{data} does not fit in {kind} (between {low} and {high})")
            return None
        return data

    def duration(self, data: Any, path: str) -> int | None:
        if not isinstance(data, str):
            return self.wrong(path, 'a duration string such as "15s" or "1m30s"', data)
        try:
            return parse_duration(data)
        except DurationError as err:
            self.error(path, str(err))
            return None

    def nanoseconds(self, data: Any, path: str) -> int | None:
        if isinstance(data, str):
            try:
                ns = parse_duration(data)
            except DurationError:
                ns = None
            hint = f"; {data} is {ns}" if ns is not None else ""
            self.error(path, "must be an integer number of nanoseconds (v1alpha2 decodes httpTimeout as a "
                             f"Go time.Duration), not a string{hint}")
            return None
        return self.integer("int64", data, path)

    def wrong(self, path: str, expected: str, data: Any) -> None:
        trap = self.trap_at(path)
        if trap is not None and expected == "a string":
            self.error(path, trap.message())
        else:
            self.error(path, f"must be {expected}, not {_describe(data)}")


_TYPE_NAMES: Final = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
                      list: "a list", dict: "an object"}


def _describe(value: Any) -> str:
    if isinstance(value, Mapping):
        return "an object"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name

