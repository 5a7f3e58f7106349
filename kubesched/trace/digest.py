"""A canonical, byte-stable serialization of a trace (JSON lines) and its sha256 digest.

Upstream: no counterpart.

One line per record: ``json.dumps`` with sorted keys, compact separators and
``ensure_ascii=False``, UTF-8, ``\\n`` after every line. Floats (times, timeouts) are
rounded to microseconds (``round(x, 6)``), and a float that is integral is written as
such (``5.0``), so the same run gives the same bytes on every machine. The envelope's
``kind`` is the Kind's value; ``data`` is ``{"@type": <payload class>, <fields>…}`` or null;
tuples become lists. ``loads``/``record_from_dict`` invert it exactly for traces whose
floats are already whole microseconds (simulated times are). A packed score column of ``bytes``
(deflated or not) is the list of its ints (a ScoreRun packs it again when loaded).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import fields, is_dataclass
from typing import Any

from kubesched.trace.decisions import unpack
from kubesched.trace.records import PAYLOAD_TYPES, Kind, Record, Trace

__all__ = ["digest", "dumps", "loads", "record_from_dict", "record_to_dict", "to_jsonable"]

TAG = "@type"  # the payload class; "type" is a field of EventData
_ENVELOPE = ("seq", "time", "kind", "cycle", "pod", "profile", "node", "plugin", "file", "func")


def to_jsonable(value: Any) -> Any:
    """Plain JSON values for a payload value (dataclass → tagged dict, tuple → list, float rounded)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, bytes):  # a packed score column (a Deflated one inflated)
        return list(unpack(value, 0))
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {TAG: type(value).__name__}
        for f in fields(value):
            out[f.name] = to_jsonable(getattr(value, f.name))
        return out
    raise TypeError(f"not a trace value: {type(value).__name__}")


def _from_jsonable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
    if isinstance(value, dict):
        cls = PAYLOAD_TYPES[value[TAG]]
        return cls(**{k: _from_jsonable(v) for k, v in value.items() if k != TAG})
    return value


def record_to_dict(record: Record) -> dict[str, Any]:
    out = {name: to_jsonable(getattr(record, name)) for name in _ENVELOPE if name != "kind"}
    out["kind"] = record.kind.value
    out["data"] = to_jsonable(record.data)
    return out


def record_from_dict(data: dict[str, Any]) -> Record:
    values = {name: data.get(name) for name in _ENVELOPE}
    values["kind"] = Kind(data["kind"])
    values["time"] = float(data["time"])
    values["file"] = data.get("file") or ""
    values["func"] = data.get("func") or ""
    return Record(**values, data=_from_jsonable(data.get("data")))


def _line(record: Record) -> str:
    return json.dumps(record_to_dict(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def dumps(records: Iterable[Record]) -> str:
    """The JSON-lines text of a trace (every line ends with ``\\n``)."""
    return "".join(_line(r) + "\n" for r in records)


def loads(text: str) -> Trace:
    return Trace(record_from_dict(json.loads(line)) for line in text.splitlines() if line.strip())


def digest(records: Iterable[Record]) -> str:
    """sha256 hex digest of ``dumps(records)`` encoded as UTF-8, computed line by line."""
    h = hashlib.sha256()
    for record in records:
        h.update(_line(record).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()
