"""Plugin configuration: which plugins run where (``Plugins``), their args (``PluginConfig``), args decoding.

Upstream: pkg/scheduler/framework/v1alpha1/registry.go (DecodeInto) and
pkg/scheduler/apis/config/types.go (Plugins, PluginSet, Plugin, PluginConfig).

Args are what a KubeSchedulerConfiguration's ``pluginConfig[].args`` decodes to: a plain
mapping (already parsed YAML/JSON), ``None`` (no config: plugin defaults), or ``RawArgs``
(bytes plus a content type, as ``runtime.Unknown``). ``decode_into`` fills a dataclass the
way Go's ``encoding/json`` fills a struct: unknown keys are ignored, a key matches a field's
JSON name exactly or else case-insensitively, a later key overwrites an earlier one.

The config types (``Plugins`` …) live in ``kubesched.scheduler.apis.config.types`` and are
re-exported here; the framework only relies on their shape (``<point>.enabled`` → items
with ``name`` and ``weight``). Type errors
say ``json: cannot unmarshal <json type> into Go struct field <Type>.<field> of type <py type>``
with the Python type name instead of Go's.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, Mapping, Optional, TypeVar, Union

import yaml

from kubesched.api.fields import json_name
from kubesched.scheduler.apis.config.types import Plugin, PluginConfig, Plugins, PluginSet, RawArgs

__all__ = ["Args", "ArgsDecodeError", "CONTENT_TYPE_JSON", "CONTENT_TYPE_YAML", "Plugin", "PluginConfig",
           "Plugins", "PluginSet", "RawArgs", "decode_into", "lookup", "raw_to_mapping"]

CONTENT_TYPE_JSON = "application/json"
CONTENT_TYPE_YAML = "application/yaml"

T = TypeVar("T")


# ----------------------------------------------------------------------------- config types
# Plugin, PluginSet, Plugins, PluginConfig and RawArgs live in apis/config/types.py (upstream's home);
# they are re-exported here for the framework and the plugins.


Args = Union[Mapping[str, Any], RawArgs, None]


# ----------------------------------------------------------------------------- decoding


class ArgsDecodeError(ValueError):
    """Args that cannot be decoded (bad content type, bad JSON/YAML, wrong value type)."""


def raw_to_mapping(args: Args) -> Optional[Mapping[str, Any]]:
    """The args as a mapping; ``None`` when absent (``DecodeInto`` leaves defaults)."""
    if args is None or isinstance(args, Mapping):
        return args
    if args.raw is None:
        return None
    text = args.raw.decode() if isinstance(args.raw, bytes) else args.raw
    if args.content_type in ("", CONTENT_TYPE_JSON):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ArgsDecodeError(str(exc)) from None
    elif args.content_type == CONTENT_TYPE_YAML:
        value = yaml.safe_load(text)
    else:
        raise ArgsDecodeError(f"not supported content type {args.content_type}")
    if value is not None and not isinstance(value, Mapping):
        raise ArgsDecodeError(f"json: cannot unmarshal {_json_type(value)} into Go value of type object")
    return value


def lookup(args: Optional[Mapping[str, Any]], key: str, default: Any = None) -> Any:
    """The value of ``key`` in decoded args, Go-style: exact key first, else case-insensitive.

    Among several case-insensitive matches the last one wins, as a later JSON key
    overwrites the field an earlier one set.
    """
    if not args:
        return default
    if key in args:
        return args[key]
    folded = key.casefold()
    found = default
    for k, v in args.items():
        if isinstance(k, str) and k.casefold() == folded:
            found = v
    return found


def decode_into(args: Args, cls: type[T]) -> T:
    """``DecodeInto``: a ``cls`` dataclass filled from ``args``; defaults where keys are absent."""
    data = raw_to_mapping(args)
    return _decode_struct(cls, data or {})


def _decode_struct(cls: type[T], data: Mapping[str, Any]) -> T:
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    hints = typing.get_type_hints(cls)
    by_json = {json_name(f): f.name for f in fields.values()}
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = by_json.get(key) or _fold_match(by_json, key)
        if name is None or value is None:  # unknown key ignored; JSON null leaves the zero value
            continue
        values[name] = _decode_value(hints[name], value, f"{cls.__name__}.{json_name(fields[name])}")
    return cls(**values)


def _fold_match(by_json: Mapping[str, str], key: str) -> Optional[str]:
    folded = key.casefold() if isinstance(key, str) else None
    return next((name for j, name in by_json.items() if j.casefold() == folded), None)


def _decode_value(tp: Any, value: Any, where: str) -> Any:
    origin, params = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        inner = [p for p in params if p is not type(None)]
        return _decode_value(inner[0], value, where) if len(inner) == 1 else value
    if dataclasses.is_dataclass(tp):
        _expect(isinstance(value, Mapping), value, where, tp.__name__)
        return _decode_struct(tp, value)
    if origin in (list, tuple, typing.Sequence) or tp in (list, tuple):
        _expect(isinstance(value, list), value, where, "array")
        item = params[0] if params else Any
        items = [_decode_value(item, v, where) for v in value]
        return tuple(items) if (origin is tuple or tp is tuple) else items
    if origin in (dict, typing.Mapping) or tp is dict:
        _expect(isinstance(value, Mapping), value, where, "map")
        item = params[1] if len(params) == 2 else Any
        return {k: _decode_value(item, v, where) for k, v in value.items()}
    return _decode_scalar(tp, value, where)


def _decode_scalar(tp: Any, value: Any, where: str) -> Any:
    if tp is bool:
        _expect(isinstance(value, bool), value, where, "bool")
    elif tp is int:
        _expect(isinstance(value, int) and not isinstance(value, bool)
                or isinstance(value, float) and value.is_integer(), value, where, "int")
        return int(value)
    elif tp is float:
        _expect(isinstance(value, (int, float)) and not isinstance(value, bool), value, where, "float")
        return float(value)
    elif tp is str:
        _expect(isinstance(value, str), value, where, "string")
    return value


def _expect(ok: bool, value: Any, where: str, type_name: str) -> None:
    if not ok:
        raise ArgsDecodeError(
            f"json: cannot unmarshal {_json_type(value)} into Go struct field {where} of type {type_name}")


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
