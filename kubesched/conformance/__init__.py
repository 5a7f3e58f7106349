"""Conformance adapter: run upstream v1.18 unit-test vectors through the engine.

Upstream: the table-driven tests under pkg/scheduler (…_test.go), translated to data in
shared/conformance/. ``evaluate(case, doc)`` dispatches on the vector file's ``plugin`` to an
adapter registered by one of this package's modules and returns the outcome in the shape of
``case["expect"]``; :func:`compare` lists the keys that differ.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Callable

Adapter = Callable[[dict, dict], dict]
_ADAPTERS: dict[str, Adapter] = {}
_BROKEN: dict[str, str] = {}  # adapter module -> why it failed to import
_LOADED = False


def register(*plugins: str) -> Callable[[Adapter], Adapter]:
    """Register an adapter for the vector files whose top-level ``plugin`` is one of ``plugins``."""
    def wrap(fn: Adapter) -> Adapter:
        for name in plugins:
            _ADAPTERS[name] = fn
        return fn
    return wrap


def _load_adapters() -> None:
    global _LOADED
    if not _LOADED:
        for info in pkgutil.iter_modules(__path__):
            if not info.name.startswith("_"):
                try:
                    importlib.import_module(f"{__name__}.{info.name}")
                except ImportError as exc:  # one unfinished adapter must not hide the others
                    _BROKEN[info.name] = f"{type(exc).__name__}: {exc}"
        _LOADED = True


def adapter_for(doc: dict) -> Adapter | None:
    _load_adapters()
    return _ADAPTERS.get(doc.get("plugin", ""))


def evaluate(case: dict, doc: dict | None = None) -> dict:
    """Run one vector through the engine; return what happened, shaped like ``case['expect']``."""
    doc = doc or {}
    adapter = adapter_for(doc)
    if adapter is None:
        broken = "; ".join(f"{m}: {why}" for m, why in _BROKEN.items())
        raise LookupError(f"no conformance adapter for plugin {doc.get('plugin')!r}"
                          + (f" (adapter modules that failed to import: {broken})" if broken else ""))
    return adapter(case, doc)


def compare(expect: Any, got: Any) -> list[str]:
    """The differences between an expectation and an outcome, one line per key.

    A unit case's ``expect`` may be a plain value (a helper's return value): the adapter
    returns it as ``{"expect": value}`` (or bare), and that value is compared.
    """
    if not isinstance(expect, dict):
        if isinstance(got, dict) and set(got) == {"expect"}:
            got = got["expect"]
        return [] if got == expect else [f"expected {expect!r}, got {got!r}"]
    return [f"{key}: expected {expect[key]!r}, got {got.get(key, '<missing>')!r}"
            for key in expect if got.get(key, "<missing>") != expect[key]]


def case_id(case: dict) -> str:
    return f"{case['test']}/{case['name']}" if case.get("test") else str(case["name"])


def run_case(case: dict, doc: dict) -> list[str]:
    """Differences for one case (an exception counts as one difference)."""
    try:
        got = evaluate(case, doc)
    except Exception as exc:  # noqa: BLE001 - a crash is a failing case, reported as such
        return [f"raised {type(exc).__name__}: {exc}"]
    return compare(expected_outcome(case), got)


def expected_outcome(case: dict) -> Any:
    """``expect``; unit cases may instead carry ``expect_error`` or ``points``.

    Step-driven cases (queue.yaml) have none: their adapter raises at the first step
    that does not hold, so an empty expectation still fails on a wrong step.
    """
    if "expect" in case:
        return case["expect"]
    return {key: case[key] for key in ("expect_error", "points") if key in case}


__all__ = ["register", "evaluate", "compare", "run_case", "case_id", "adapter_for"]
