"""Generic decoding of manifest dictionaries into the typed object model.

Upstream: the JSON decoding the API server does before validation
(apimachinery's strict decoder: wrong types are errors). ``decode`` of a bare
model reports fields the model lacks as unknown (warnings).

The decoder walks each dataclass's type hints, so adding a field to a model
is all it takes to read it. Problems carry a field path such as
``spec.containers[0].resources.requests.cpu``; kubesched.api.load adds file,
line and object to them.

A whole manifest (``decode_object``, ``decode_manifest``) is first checked against its
v1.18 OpenAPI schema (kubesched.api.openapi.check): that check, not the model, says which
fields exist, so a field the simulator does not model is no finding at all. A kind v1.18
serves but the simulator does not model decodes (``decode_manifest``) to an
:class:`~kubesched.api.inert.InertObject`.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime as _dt
import functools
import types
import typing
from dataclasses import dataclass
from typing import Any

from kubesched.api.fields import json_name
from kubesched.api.inert import InertObject
from kubesched.api.kinds import KINDS, Resolved, resolve
from kubesched.api.meta import ObjectMeta, Time
from kubesched.api.openapi.check import check
from kubesched.api.quantity import Quantity, parse_manifest_value


@dataclass(frozen=True, slots=True)
class Problem:
    """One decoding or validation finding at a field path."""

    path: str
    message: str
    warning: bool = False
    value: Any = None
    code: str = ""


class DecodeError(ValueError):
    """Raised by :func:`decode_strict` when a manifest has errors."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems if not p.warning))


_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
               list: "a list", dict: "an object", type(None): "null"}


def _describe(value: Any) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _parse_time(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, _dt.datetime):
        return value.replace(tzinfo=value.tzinfo or _dt.timezone.utc).timestamp()
    if isinstance(value, str):
        text = value.replace("Z", "+00:00")
        return _dt.datetime.fromisoformat(text).replace(
            tzinfo=_dt.datetime.fromisoformat(text).tzinfo or _dt.timezone.utc).timestamp()
    raise ValueError


class _Decoder:
    def __init__(self, report_unknown: bool = True) -> None:
        self.problems: list[Problem] = []
        self.report_unknown = report_unknown

    def error(self, path: str, message: str, value: Any = None) -> None:
        self.problems.append(Problem(path, message, False, value))

    def value(self, hint: Any, data: Any, path: str) -> Any:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            return self.union(args, data, path)
        if dataclasses.is_dataclass(hint) and hint is not Quantity:
            return self.dataclass(hint, data, path)
        if origin is tuple:
            return self.sequence(args[0], data, path)
        if origin in (dict, collections.abc.Mapping):
            return self.mapping(args[1], data, path)
        return self.scalar(hint, data, path)

    def union(self, args: tuple, data: Any, path: str) -> Any:
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if set(options) == {int, str}:
            if isinstance(data, bool) or not isinstance(data, (int, str)):
                self.error(path, f"must be an integer or a string, not {_describe(data)}", data)
                return None
            return data
        return self.value(options[0], data, path)

    def dataclass(self, cls: type, data: Any, path: str, skip: frozenset = frozenset()) -> Any:
        if not isinstance(data, dict):
            self.error(path or "(document)", f"must be an object, not {_describe(data)}", data)
            return cls()
        hints = _hints(cls)
        known: set[str] = set(skip)
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            name = json_name(field)
            known.add(name)
            if name not in data or data[name] is None:
                if field.metadata.get("required") and name not in data:
                    self.error(_join(path, name), "Required value")
                continue
            values[field.name] = self.value(hints[field.name], data[name], _join(path, name))
        for key in data if self.report_unknown else ():
            if key not in known:
                self.problems.append(Problem(_join(path, str(key)), "unknown field", True))
        return cls(**values)

    def sequence(self, item: Any, data: Any, path: str) -> tuple:
        if not isinstance(data, list):
            self.error(path, f"must be a list, not {_describe(data)}", data)
            return ()
        return tuple(self.value(item, x, f"{path}[{i}]") for i, x in enumerate(data))

    def mapping(self, item: Any, data: Any, path: str) -> dict:
        if not isinstance(data, dict):
            self.error(path, f"must be an object, not {_describe(data)}", data)
            return {}
        out = {}
        for key, value in data.items():
            if not isinstance(key, str):
                self.error(_join(path, str(key)), f"key must be a string, not {_describe(key)}", key)
                continue
            out[key] = self.value(item, value, _join(path, key))
        return out

    def scalar(self, hint: Any, data: Any, path: str) -> Any:
        if hint is Any or hint is object:
            return data
        if hint is Quantity:
            try:
                return parse_manifest_value(data)
            except (ValueError, ArithmeticError):
                self.error(path, f"{_show(data)} is not a valid quantity", data)
                return Quantity.parse("0")
        if hint is Time or hint is float:
            try:
                return _parse_time(data)
            except (ValueError, TypeError, OverflowError):
                self.error(path, f"{_show(data)} is not a valid time", data)
                return 0.0
        if hint is bool:
            if not isinstance(data, bool):
                self.error(path, f"must be a boolean, not {_describe(data)}", data)
                return False
            return data
        if hint is int:
            if isinstance(data, bool) or not isinstance(data, int):
                self.error(path, f"must be an integer, not {_describe(data)}", data)
                return 0
            return data
        if hint is str:
            if not isinstance(data, str):
                self.error(path, f"must be a string, not {_describe(data)}", data)
                return str(data)
            return data
        raise TypeError(f"no decoder for {hint!r}")


def _show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def decode(cls: type, data: Any, path: str = "") -> tuple[Any, list[Problem]]:
    """Decode ``data`` into ``cls``; return the object and every problem found."""
    decoder = _Decoder()
    obj = decoder.dataclass(cls, data, path)
    return obj, decoder.problems


def resolve_kind(doc: Any) -> tuple[Resolved | None, list[Problem]]:
    """What a manifest's ``apiVersion``/``kind`` names, or the problems with them."""
    if not isinstance(doc, dict):
        return None, [Problem("(document)", f"must be an object, not {_describe(doc)}")]
    kind, version = doc.get("kind"), doc.get("apiVersion")
    if not isinstance(kind, str) or not kind:
        return None, [Problem("kind", "Required value")]
    if not isinstance(version, str) or not version:
        return None, [Problem("apiVersion", "Required value")]
    resolved = resolve(version, kind)
    if resolved.error:
        return None, [Problem(resolved.field, resolved.error)]
    return resolved, []


def _schema_problems(doc: dict, definition: str) -> list[Problem]:
    return [Problem(path, message, warning, code=code) for path, message, warning, code
            in check(doc, definition)]


def _merge(first: list[Problem], second: list[Problem]) -> list[Problem]:
    seen = {(p.path, p.message) for p in first}
    return first + [p for p in second if (p.path, p.message) not in seen]


def _decode_model(resolved: Resolved, doc: dict) -> tuple[Any, list[Problem]]:
    decoder = _Decoder(report_unknown=False)
    obj = decoder.dataclass(resolved.model, doc, "", skip=frozenset({"apiVersion", "kind"}))
    return obj, _merge(_schema_problems(doc, resolved.definition), decoder.problems)


def _decode_inert(resolved: Resolved, doc: dict) -> tuple[Any, list[Problem]]:
    decoder = _Decoder(report_unknown=False)
    meta = doc.get("metadata")
    metadata = decoder.dataclass(ObjectMeta, meta, "metadata") if meta is not None else ObjectMeta()
    body = {k: v for k, v in doc.items() if k not in ("apiVersion", "kind", "metadata")}
    obj = InertObject(api_version=doc["apiVersion"], kind=doc["kind"], metadata=metadata, body=body,
                      custom=resolved.custom)
    found = [] if resolved.custom else _schema_problems(doc, resolved.definition)
    return obj, _merge(found, decoder.problems)


def decode_object(doc: Any) -> tuple[Any, list[Problem]]:
    """Decode one manifest of a modelled kind; ``None`` (and the problem) for any other kind."""
    resolved, problems = resolve_kind(doc)
    if resolved is None:
        return None, problems
    if resolved.model is None:
        return None, [Problem("kind", f'unsupported kind "{doc["kind"]}" (supported: '
                                      f'{", ".join(sorted(KINDS))})')]
    return _decode_model(resolved, doc)


def decode_manifest(doc: Any) -> tuple[Any, list[Problem]]:
    """Decode one manifest of any kind: a typed object, an InertObject, or ``None`` and why."""
    resolved, problems = resolve_kind(doc)
    if resolved is None:
        return None, problems
    if resolved.model is None:
        return _decode_inert(resolved, doc)
    return _decode_model(resolved, doc)


def decode_strict(doc: Any) -> Any:
    """Decode one manifest or raise :class:`DecodeError` (tests and fixtures)."""
    obj, problems = decode_object(doc)
    if obj is None or any(not p.warning for p in problems):
        raise DecodeError(problems)
    return obj
