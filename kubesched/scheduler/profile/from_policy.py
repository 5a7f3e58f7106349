"""From a legacy Policy to the plugins and plugin configs of every profile (``createFromConfig``).

Upstream: pkg/scheduler/factory.go @ v1.18.5 (Configurator.createFromConfig,
getPredicateConfigs, getPriorityConfigs, mergePluginConfigsFromPolicy) over
pkg/scheduler/framework/plugins/legacy_registry.go (kubesched's ``legacy_registry``).

``translate_policy`` returns the plugins (PrioritySort and DefaultBinder, then the predicates'
plugins in ``PredicateOrdering``, then the priorities' in name order), the merged plugin configs,
``alwaysCheckAllPredicates`` and one ``TranslationRow`` per predicate / priority key — the
bridge from the 预选/优选 (predicates/priorities) of kube-scheduler ≤ 1.17 to Filter/Score that
the dashboard shows. ``profiles_from_policy`` gives every profile those plugins.

Deviations: ``mergePluginConfigsFromPolicy`` returns Go map order (random); the configs are
sorted by plugin name here. Predicate keys outside ``PredicateOrdering`` (none in v1.18) would
be appended in name order (upstream: map order).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from kubesched.scheduler.apis.config.legacy_types import Policy
from kubesched.scheduler.apis.config.types import (
    KubeSchedulerProfile,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
)
from kubesched.scheduler.apis.config.validation import errors_text, validate_policy
from kubesched.scheduler.framework.plugins import legacy_registry as lr

QUEUE_SORT, BINDER = "PrioritySort", "DefaultBinder"


@dataclass(frozen=True, slots=True)
class TranslationRow:
    """One predicate or priority key and the plugins it became.

    ``names`` are the Policy entries that map to the key (``TestLabelsPresence`` →
    ``CheckNodeLabelPresence``); ``origin`` is ``policy``, ``mandatory`` (always added),
    ``default`` (the Policy omitted the list) or ``skipped`` (EqualPriority);
    ``plugins`` are (extension point, plugin, weight) with weight 0 outside Score.
    """

    kind: str
    key: str
    names: tuple[str, ...]
    origin: str
    plugins: tuple[tuple[str, str, int], ...]
    weight: int | None = None


@dataclass(frozen=True, slots=True)
class PolicyTranslation:
    plugins: Plugins
    plugin_config: tuple[PluginConfig, ...]
    always_check_all_predicates: bool
    rows: tuple[TranslationRow, ...]


def translate_policy(policy: Policy) -> PolicyTranslation:
    """``createFromConfig`` up to the profiles; ``LegacyPolicyError`` (upstream's text) when the
    Policy cannot run."""
    problems = validate_policy(policy)
    if problems:
        raise lr.LegacyPolicyError(errors_text(problems))
    registry = lr.new_legacy_registry()
    args = lr.ConfigProducerArgs()
    predicates = _predicate_keys(policy, registry, args)
    priorities, priority_names = _priority_keys(policy, registry, args)
    if policy.hard_pod_affinity_symmetric_weight != 0:
        args.inter_pod_affinity_args = {"hardPodAffinityWeight": policy.hard_pod_affinity_symmetric_weight}
    rows: list[TranslationRow] = []
    pred_plugins, pred_configs = _predicate_configs(predicates, registry, args, rows)
    prio_plugins, prio_configs = _priority_configs(priorities, priority_names, registry, args, rows)
    if policy.priorities is not None and any(p.name == lr.EQUAL_PRIORITY for p in policy.priorities):
        rows.append(TranslationRow("priority", lr.EQUAL_PRIORITY, (lr.EQUAL_PRIORITY,), "skipped", ()))
    plugins = Plugins().append(Plugins(queue_sort=PluginSet(enabled=(Plugin(QUEUE_SORT),)),
                                       bind=PluginSet(enabled=(Plugin(BINDER),))))
    plugins = plugins.append(pred_plugins).append(prio_plugins)
    return PolicyTranslation(plugins, merge_plugin_configs(pred_configs, prio_configs),
                             policy.always_check_all_predicates, tuple(rows))


def profiles_from_policy(profiles: Sequence[KubeSchedulerProfile], translation: PolicyTranslation
                         ) -> tuple[KubeSchedulerProfile, ...]:
    """Every profile gets the Policy's plugins and configs; none may set its own."""
    out = []
    for prof in profiles:
        if prof.plugins is not None:
            raise lr.LegacyPolicyError("using Plugins and Policy simultaneously is not supported")
        if prof.plugin_config:
            raise lr.LegacyPolicyError("using PluginConfig and Policy simultaneously is not supported")
        out.append(dataclasses.replace(prof, plugins=Plugins().append(translation.plugins),
                                       plugin_config=translation.plugin_config))
    return tuple(out)


# -- keys -------------------------------------------------------------------------------------------
def _predicate_keys(policy: Policy, registry: lr.LegacyRegistry, args: lr.ConfigProducerArgs
                    ) -> dict[str, list[str]]:
    """Predicate key → the Policy names that chose it (empty for the defaults)."""
    if policy.predicates is None:
        return {key: [] for key in sorted(registry.default_predicates)}
    keys: dict[str, list[str]] = {}
    for predicate in policy.predicates:
        keys.setdefault(registry.process_predicate_policy(predicate, args), []).append(predicate.name)
    return keys


def _priority_keys(policy: Policy, registry: lr.LegacyRegistry, args: lr.ConfigProducerArgs
                   ) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Priority key → weight (a later entry overwrites), and key → the Policy names."""
    if policy.priorities is None:
        return dict(registry.default_priorities), {}
    weights: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    for priority in policy.priorities:
        if priority.name == lr.EQUAL_PRIORITY:
            continue
        key = registry.process_priority_policy(priority, args)
        weights[key] = priority.weight
        names.setdefault(key, []).append(priority.name)
    return weights, names


# -- producers --------------------------------------------------------------------------------------
def _predicate_configs(keys: dict[str, list[str]], registry: lr.LegacyRegistry, args: lr.ConfigProducerArgs,
                       rows: list[TranslationRow]) -> tuple[Plugins, list[PluginConfig]]:
    """``getPredicateConfigs``: the chosen and mandatory predicates, in ``PredicateOrdering``."""
    remaining = set(keys) | registry.mandatory_predicates
    ordered = [k for k in lr.predicate_ordering() if k in remaining]
    ordered += sorted(remaining - set(ordered))
    plugins, configs = Plugins(), []
    for key in ordered:
        producer = registry.predicate_to_config_producer.get(key)
        if producer is None:
            raise lr.LegacyPolicyError(f'no framework config producer registered for "{key}"')
        produced, produced_configs = producer.produce(args)
        plugins = plugins.append(produced)
        configs += produced_configs
        origin = "policy" if keys.get(key) else ("default" if key in keys else "mandatory")
        rows.append(TranslationRow("predicate", key, tuple(keys.get(key, ())), origin, listed(produced)))
    return plugins, configs


def _priority_configs(weights: dict[str, int], names: dict[str, list[str]], registry: lr.LegacyRegistry,
                      args: lr.ConfigProducerArgs, rows: list[TranslationRow]) -> tuple[Plugins, list[PluginConfig]]:
    """``getPriorityConfigs``: every priority in name order, with its weight."""
    plugins, configs = Plugins(), []
    for key in sorted(weights):
        producer = registry.priority_to_config_producer.get(key)
        if producer is None:
            raise lr.LegacyPolicyError(f'no config producer registered for "{key}"')
        produced, produced_configs = producer.produce(dataclasses.replace(args, weight=lr.int32(weights[key])))
        plugins = plugins.append(produced)
        configs += produced_configs
        rows.append(TranslationRow("priority", key, tuple(names.get(key, ())), "policy" if names else "default",
                                   listed(produced), weights[key]))
    return plugins, configs


def merge_plugin_configs(first: Sequence[PluginConfig], second: Sequence[PluginConfig]) -> tuple[PluginConfig, ...]:
    """``mergePluginConfigsFromPolicy``: one config per plugin; equal args when repeated."""
    merged: dict[str, PluginConfig] = {}
    for config in first:
        merged[config.name] = config
    for config in second:
        if config.name in merged and merged[config.name].args != config.args:
            raise lr.LegacyPolicyError(f"inconsistent configuration produced for plugin {config.name}")
        merged[config.name] = config
    return tuple(merged[name] for name in sorted(merged))


def listed(plugins: Plugins) -> tuple[tuple[str, str, int], ...]:
    """(extension point, plugin, weight) of the points a Policy fills, in run order."""
    return tuple((point, p.name, p.weight) for point in ("pre_filter", "filter", "pre_score", "score")
                 for p in (getattr(plugins, point) or PluginSet()).enabled)
