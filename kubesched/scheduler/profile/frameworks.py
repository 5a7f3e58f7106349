"""From a configuration to one framework per profile (the provider merge and the profile map).

Upstream: pkg/scheduler/factory.go @ v1.18.5 — Configurator.createFromProvider (provider
defaults ``Append``-ed, then the profile's plugins ``Apply``-ed) or createFromConfig (a legacy
Policy, ``from_policy``), the part of
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
from kubesched.scheduler.apis.config.legacy_types import Policy
from kubesched.scheduler.apis.config.types import (
    Extender,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    PluginConfig,
    Plugins,
)
from kubesched.scheduler.framework.plugins.legacy_registry import LegacyPolicyError
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.profile.from_policy import (
    PolicyTranslation,
    profiles_from_policy,
    translate_policy,
)
from kubesched.scheduler.profile.profile import (
    Map,
    ProfileError,
    RecorderFactory,
    new_map,
)
from kubesched.util.strconv import go_quote

NODE_RESOURCES_FIT = "NodeResourcesFit"  # noderesources.FitName


class AlgorithmProviderError(ValueError):
    """The configuration names a provider that is not registered."""


class AlgorithmSourceError(ValueError):
    """The configuration's Policy cannot be used; the text is what ``scheduler.New`` returns."""


def resolve_profiles(config: KubeSchedulerConfiguration) -> tuple[KubeSchedulerProfile, ...]:
    """Every profile with its effective plugins and plugin configs: ``createFromProvider`` or
    ``createFromConfig`` (a Policy), plus the extenders' ignored resources of ``create``."""
    source = config.algorithm_source
    with features.override(config.feature_gates):
        if source.provider is not None:
            profiles = _from_provider(config, source.provider or algorithmprovider.SCHEDULER_DEFAULT_PROVIDER_NAME)
        elif source.policy is not None:
            try:
                profiles = profiles_from_policy(config.profiles, policy_translation(config))
            except LegacyPolicyError as err:
                raise AlgorithmSourceError(str(err)) from err
        else:
            raise AlgorithmSourceError(f"unsupported algorithm source: {source}")
    ignored = [r.name for e in effective_extenders(config) for r in e.managed_resources if r.ignored_by_scheduler]
    extra = (PluginConfig(NODE_RESOURCES_FIT, {"ignoredResources": ignored}),) if ignored else ()
    return tuple(dataclasses.replace(p, plugin_config=p.plugin_config + extra) for p in profiles)


def _from_provider(config: KubeSchedulerConfiguration, provider: str) -> tuple[KubeSchedulerProfile, ...]:
    providers = algorithmprovider.new_registry()
    if provider not in providers:
        raise AlgorithmProviderError(f"algorithm provider {go_quote(provider)} is not registered")
    defaults = providers[provider]
    return tuple(dataclasses.replace(p, plugins=Plugins().append(defaults).apply(p.plugins)) for p in config.profiles)


def policy_of(config: KubeSchedulerConfiguration) -> Policy | None:
    """The Policy the configuration runs (None for a provider)."""
    source = config.algorithm_source
    return source.policy.policy if source.provider is None and source.policy is not None else None


def policy_translation(config: KubeSchedulerConfiguration) -> PolicyTranslation:
    """The Policy's translation to plugins (feature gates of the configuration applied);
    ``AlgorithmSourceError`` when there is no readable Policy or it cannot run."""
    policy = policy_of(config)
    if policy is None:
        raise AlgorithmSourceError(f"the policy of {config.algorithm_source.policy} was not read")
    try:
        with features.override(config.feature_gates):
            return translate_policy(policy)
    except LegacyPolicyError as err:
        raise AlgorithmSourceError(str(err)) from err


def effective_extenders(config: KubeSchedulerConfiguration) -> tuple[Extender, ...]:
    """The extenders ``create`` builds: the Policy's when a Policy is the source (upstream sets
    ``configurator.extenders = policy.Extenders``), else the configuration's."""
    policy = policy_of(config)
    return tuple(policy.extenders) if policy is not None else tuple(config.extenders)


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
