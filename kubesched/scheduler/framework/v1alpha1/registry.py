"""The plugin registry: plugin name → factory.

Upstream: pkg/scheduler/framework/v1alpha1/registry.go (PluginFactory, Registry.Register,
Registry.Unregister, Registry.Merge).

A factory is ``new(args, handle) -> plugin``: ``args`` is the plugin's entry of
``pluginConfig`` (a mapping, ``RawArgs`` or ``None``), ``handle`` the framework. Upstream's
factories return an error; here they raise (``ValueError`` with upstream's message).

Deviation: ``Merge`` ranges over a Go map upstream, so which duplicate it reports first is
random; here it is ``in``'s insertion order.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

PluginFactory = Callable[[Any, Any], Any]


class RegistryError(ValueError):
    """Register of a name twice, or Unregister of a name never registered."""


class Registry(dict[str, PluginFactory]):
    """``framework.Registry``: an ordered ``dict`` of factories with upstream's checks."""

    def __init__(self, entries: Mapping[str, PluginFactory] | Iterable[tuple[str, PluginFactory]] = ()) -> None:
        super().__init__(entries)

    def register(self, name: str, factory: PluginFactory) -> None:
        if name in self:
            raise RegistryError(f"a plugin named {name} already exists")
        self[name] = factory

    def unregister(self, name: str) -> None:
        if name not in self:
            raise RegistryError(f"no plugin named {name} exists")
        del self[name]

    def merge(self, other: Mapping[str, PluginFactory]) -> None:
        """Register every entry of ``other``; stops at the first duplicate (earlier ones stay)."""
        for name, factory in other.items():
            self.register(name, factory)
