"""klog-style text for LOG records: ``I1201 00:00:05.000000       1 scheduler.go] message``.

Upstream: vendor/k8s.io/klog (v1.0.0, as kube-scheduler v1.18.5 links it): the header
``Lmmdd hh:mm:ss.uuuuuu threadid file:line] `` written by ``loggingT.formatHeader``, and
``-v`` verbosity gating of ``klog.V(n)`` lines.

Conventions here:
- time is simulated: seconds since ``EPOCH`` (1 December, 00:00:00 UTC; the year is not
  printed), rounded to microseconds;
- the thread id is always 1 (one event loop);
- the file is the upstream file's base name from the record's ``file``; the line number
  is omitted (``scheduler.go]``) because a Python call site has no faithful Go line —
  pass ``line_numbers`` to print fixed ones per (file, func) if a view wants them;
- severity: ``I``/``W``/``E`` from the LOG record (info lines gated by ``-v``; warnings and
  errors always print, as klog does).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Final

from kubesched.trace.records import Kind, LogLine, Record

__all__ = ["EPOCH", "THREAD_ID", "format_lines", "format_record", "header", "visible"]

EPOCH: Final = datetime(2020, 12, 1, tzinfo=UTC)
THREAD_ID: Final = 1


def header(severity: str, time: float, file: str, line: int | None = None) -> str:
    """``Lmmdd hh:mm:ss.uuuuuu threadid file[:line]] ``."""
    micros = round(time * 1_000_000)
    stamp = EPOCH + timedelta(microseconds=micros)
    base = file.rsplit("/", 1)[-1] if file else "???"
    where = f"{base}:{line}" if line is not None else base
    return (f"{severity}{stamp.month:02d}{stamp.day:02d} {stamp.hour:02d}:{stamp.minute:02d}:{stamp.second:02d}"
            f".{stamp.microsecond:06d} {THREAD_ID:7d} {where}] ")


def visible(record: Record, verbosity: int) -> bool:
    """Whether ``-v=verbosity`` prints this LOG record."""
    data = record.data
    if record.kind is not Kind.LOG or not isinstance(data, LogLine):
        return False
    return data.severity != "I" or data.verbosity <= verbosity


def format_record(record: Record, line_numbers: Mapping[tuple[str, str], int] | None = None) -> str:
    """One klog line for a LOG record."""
    data = record.data
    if not isinstance(data, LogLine):
        raise TypeError(f"not a LOG record: {record.kind}")
    line = line_numbers.get((record.file, record.func)) if line_numbers else None
    return header(data.severity, record.time, record.file, line) + data.message


def format_lines(records: Iterable[Record], verbosity: int = 2,
                 line_numbers: Mapping[tuple[str, str], int] | None = None) -> list[str]:
    """klog lines of every LOG record ``-v=verbosity`` shows, in trace order."""
    return [format_record(r, line_numbers) for r in records if visible(r, verbosity)]
