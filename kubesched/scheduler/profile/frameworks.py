"""From a configuration to one framework per profile (the provider merge and the profile map).

Upstream: pkg/scheduler/factory.go @ v1.18.5 — Configurator.createFromProvider (provider
defaults ``Append``-ed, then the profile's plugins ``Apply``-ed), the part of
Configurator.create that appends a ``NodeResourcesFit`` PluginConfig with the extenders'
ignored resources to every profile, then ``profile.NewMap`` with ``buildFramework``
(errors ``initializing profiles: …``, ``at least one profile is required``).

The scheduler's factory calls ``build_frameworks``; ``resolve_profiles`` alone gives the
effective plugin lists (the dashboard shows them).

Deviation: the config's ``featureGates`` are applied while the provider defaults are
computed (upstream reads the process-wide gates set by ``--feature-gates``); whoever runs
the scheduler keeps them on with ``features.override(config.feature_gates)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from kubesched import features
from kubesched.scheduler.algorithmprovider import registry as algorithmprovider
from kubesched.scheduler.apis.config.go_format import go_quote
from kubesched.scheduler.apis.config.types import (
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    PluginConfig,
    Plugins,
)
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.profile.profile import (
    Map,
    ProfileError,
    RecorderFactory,
    new_map,
)

NODE_RESOURCES_FIT = "NodeResourcesFit"  # noderesources.FitName


class AlgorithmProviderError(ValueError):
    """The configuration names a provider that is not registered."""


def resolve_profiles(config: KubeSchedulerConfiguration) -> tuple[KubeSchedulerProfile, ...]:
    """Every profile with its effective plugins and plugin configs (``createFromProvider``
    plus the extenders' ignored resources of ``create``)."""
    provider = config.algorithm_source.provider or algorithmprovider.SCHEDULER_DEFAULT_PROVIDER_NAME
    with features.override(config.feature_gates):
        providers = algorithmprovider.new_registry()
    if provider not in providers:
        raise AlgorithmProviderError(f"algorithm provider {go_quote(provider)} is not registered")
    defaults = providers[provider]
    ignored = [r.name for e in config.extenders for r in e.managed_resources if r.ignored_by_scheduler]
    extra = (PluginConfig(NODE_RESOURCES_FIT, {"ignoredResources": ignored}),) if ignored else ()
    return tuple(dataclasses.replace(p, plugins=Plugins().append(defaults).apply(p.plugins),
                                     plugin_config=p.plugin_config + extra)
                 for p in config.profiles)


def build_frameworks(config: KubeSchedulerConfiguration, registry: Mapping[str, Callable[[Any, Any], Any]],
                     recorder_factory: RecorderFactory | None = None, **framework_options: Any) -> Map:
    """One ``Framework`` per profile, as a ``profile.Map``.

    ``framework_options`` are the ``Framework`` keywords (``client_set``, ``listers``,
    ``snapshot_shared_lister``, ``volume_binder``, ``informer_factory``, ``run_all_filters``,
    ``loop``, ``observer``). Raises ``ProfileError`` (``initializing profiles: …``) or
    ``AlgorithmProviderError``.
    """
    profiles = resolve_profiles(config)

    def build_framework(p: KubeSchedulerProfile) -> Framework:
        return Framework(registry, p.plugins, p.plugin_config, **framework_options)

    try:
        with features.override(config.feature_gates):
            m = new_map(profiles, build_framework, recorder_factory or (lambda name: None))
    except ProfileError as err:
        raise ProfileError(f"initializing profiles: {err}") from err
    if not m:
        raise ProfileError("at least one profile is required")
    return m
