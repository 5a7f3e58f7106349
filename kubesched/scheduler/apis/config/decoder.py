"""Strict decoding of a versioned document into plain data, by a spec of its Go structs.

Upstream: the strict JSON/YAML serializer of apimachinery (``serializer.EnableStrict``) as
pkg/scheduler/apis/config/scheme uses it, decoding into the Go structs of
staging/src/k8s.io/kube-scheduler/config/{v1,v1alpha1,v1alpha2}.

A spec is a ``Struct`` (JSON field name → spec), ``ListOf``, ``MapOf`` or a scalar name:
"string", "bool", "int32", "int64", "float32", "duration" (``metav1.Duration``, "15s"),
"nanoseconds" (``time.Duration`` as an integer), "object" (any mapping), "any". The result is a
``dict`` keyed by JSON names where an absent or ``null`` field is missing (Go's nil pointer).
Field names are case-sensitive unless the struct says otherwise (upstream's stdlib-decoded
``Extender``).

Deviations: messages are written for people (``profiles[0].plugins.score.enabled[1].weight:
must be an integer, not a string``) instead of the json-iterator texts, and every problem is
reported, not just the first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kubesched.scheduler.apis.config.go_format import DurationError, parse_duration

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


Spec = Struct | ListOf | MapOf | str

@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A decoding problem at a JSON field path (``profiles[0].plugins``)."""

    path: str
    message: str


TrapLookup = Callable[[str], Any | None]  # path → yaml_source.Trap (unquoted YAML scalar)


def decode(spec: Spec, data: Any, trap_at: TrapLookup = lambda path: None
           ) -> tuple[Any, list[FieldProblem]]:
    """The versioned form of ``data`` read by ``spec``, and every problem found."""
    decoder = _Decoder(trap_at)
    out = decoder.value(spec, data, "")
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
            self.error(path, "must be an integer number of nanoseconds (httpTimeout decodes as a "
                             f"Go time.Duration), not a string{hint}")
            return None
        return self.integer("int64", data, path)

    def wrong(self, path: str, expected: str, data: Any) -> None:
        trap = self.trap_at(path)
        if trap is not None and expected == "a string":
            self.error(path, trap.message())
        else:
            self.error(path, f"must be {expected}, not {describe(data)}")


_TYPE_NAMES: Final = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
                      list: "a list", dict: "an object"}


def describe(value: Any) -> str:
    if isinstance(value, Mapping):
        return "an object"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name

