"""Encoding of typed objects back into Kubernetes JSON (camelCase manifest form).

Upstream: the JSON encoding of staging/src/k8s.io/api types (``json:"name,omitempty"``
struct tags, ``resource.Quantity.MarshalJSON``, ``metav1.Time.MarshalJSON``).

:func:`to_manifest` is the inverse of :mod:`kubesched.api.decode`:
``decode_strict(to_manifest(obj)) == obj`` for every supported kind. The rules
mirror Go's encoder on the k8s types:

* a scalar, list or map equal to its field default is dropped (``omitempty``),
  unless the field is required (``containers``, ``name`` of a container …);
* an ``Optional`` field holding ``None`` is dropped (a nil pointer);
* a nested object that is not ``Optional`` is always written, even when empty
  (Go never omits a struct value: ``"resources": {}``);
* quantities are written in canonical form (``"1500m"``, ``"1Gi"``);
* times are RFC 3339 UTC text (``"1970-01-01T00:00:10Z"``).

Deviation: ``metav1.Time`` keeps whole seconds; a simulated time with a
fraction is written with its fraction (microseconds) so the round trip is
exact, and a time finer than a microsecond is written as a number (which the
decoder accepts).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import typing
from typing import Any

from kubesched.api.decode import _hints
from kubesched.api.fields import json_name
from kubesched.api.meta import Time
from kubesched.api.quantity import Quantity

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


def to_manifest(obj: Any, *, type_meta: bool = True) -> dict[str, Any]:
    """The manifest dictionary of a model object (``apiVersion``/``kind`` first
    when the class has them and ``type_meta`` is true)."""
    out: dict[str, Any] = {}
    if type_meta and hasattr(type(obj), "KIND"):
        out["apiVersion"] = type(obj).API_VERSION
        out["kind"] = type(obj).KIND
    out.update(_object(obj))
    return out


def encode_time(seconds: float) -> str | float:
    """RFC 3339 text for a simulated time (see the module's Deviation)."""
    stamp = _EPOCH + _dt.timedelta(seconds=seconds)
    if (stamp - _EPOCH).total_seconds() != seconds:
        return seconds
    text = stamp.strftime("%Y-%m-%dT%H:%M:%S")
    if stamp.microsecond:
        text += f".{stamp.microsecond:06d}".rstrip("0")
    return text + "Z"


def _object(obj: Any) -> dict[str, Any]:
    hints = _hints(type(obj))
    out: dict[str, Any] = {}
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        hint = hints[field.name]
        if _omitted(field, hint, value):
            continue
        out[json_name(field)] = _value(hint, value)
    return out


def _omitted(field: dataclasses.Field, hint: Any, value: Any) -> bool:
    if field.metadata.get("required"):
        return False
    if value is None:
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, Quantity):
        return False
    if field.default is not dataclasses.MISSING:
        return value == field.default and type(value) is type(field.default)
    if field.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return value == field.default_factory()  # type: ignore[misc]
    return False


def _value(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, Quantity):
        return str(value)
    if dataclasses.is_dataclass(value):
        return _object(value)
    if _is_time(hint):
        return encode_time(value)
    if isinstance(value, (tuple, list)):
        item = _item_hint(hint, 0)
        return [_value(item, v) for v in value]
    if isinstance(value, typing.Mapping):
        item = _item_hint(hint, 1)
        return {str(k): _value(item, v) for k, v in value.items()}
    return value


def _is_time(hint: Any) -> bool:
    if hint is Time:
        return True
    return any(arg is Time for arg in typing.get_args(hint))


def _item_hint(hint: Any, position: int) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if len(args) == 1 and typing.get_args(args[0]):
        args = list(typing.get_args(args[0]))
    return args[position] if len(args) > position else Any
