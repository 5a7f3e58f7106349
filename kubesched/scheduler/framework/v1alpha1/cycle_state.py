"""Per-cycle plugin state: a key/value store that plugins share within one scheduling cycle.

Upstream: pkg/scheduler/framework/v1alpha1/cycle_state.go (CycleState, StateData, Read,
Write, Delete, Clone). Like upstream, all plugins are trusted: any plugin may read or
overwrite any key.
"""

from __future__ import annotations

from typing import Protocol


class StateData(Protocol):
    def clone(self) -> "StateData": ...


class StateNotFoundError(KeyError):
    """``Read`` of a key never written; its text is upstream's ``not found``."""

    def __str__(self) -> str:
        return "not found"


class CycleState:
    """``CycleState``; ``record_plugin_metrics`` is kept for parity and unused."""

    __slots__ = ("_storage", "record_plugin_metrics")

    def __init__(self) -> None:
        self._storage: dict[str, StateData] = {}
        self.record_plugin_metrics = False

    def read(self, key: str) -> StateData:
        try:
            return self._storage[key]
        except KeyError:
            raise StateNotFoundError(key) from None

    def write(self, key: str, value: StateData) -> None:
        self._storage[key] = value

    def delete(self, key: str) -> None:
        self._storage.pop(key, None)

    def clone(self) -> "CycleState":
        copy = CycleState()
        copy._storage = {k: v.clone() for k, v in self._storage.items()}
        copy.record_plugin_metrics = self.record_plugin_metrics
        return copy

    def keys(self) -> list[str]:
        return list(self._storage)
