"""Field helpers shared by every object model module.

Upstream: the ``json:"..."`` struct tags of staging/src/k8s.io/api.

Python fields are snake_case; their manifest name is the camelCase form unless
``json=`` overrides it (``host_ip`` is ``hostIP``). ``required=True`` marks the
fields the loader insists on.
"""

from __future__ import annotations

import dataclasses
from typing import Any

EMPTY: dict = {}


def fld(default: Any = dataclasses.MISSING, *, json: str | None = None, required: bool = False,
         factory: Any = dataclasses.MISSING) -> Any:
    """Declare a manifest field (default, json name, required)."""
    meta = {"json": json, "required": required}
    if factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def mapping(*, json: str | None = None, required: bool = False) -> Any:
    """A ``map[string]T`` field that defaults to an empty dict."""
    return fld(json=json, required=required, factory=dict)


def json_name(field: dataclasses.Field) -> str:
    explicit = field.metadata.get("json")
    if explicit:
        return explicit
    head, *rest = field.name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def model(cls):
    """Decorator: a frozen, slotted dataclass (every API type uses it)."""
    return dataclasses.dataclass(frozen=True, slots=True)(cls)
