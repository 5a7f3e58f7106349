"""Configurations checked and compared on the engine side: load a KubeSchedulerConfiguration or
Policy text as kube-scheduler would (the loader's and NewFramework's own messages), and run one
cluster with a given configuration to idle.

Upstream: cmd/kube-scheduler/app/options/configfile.go (loadConfigFromFile),
pkg/scheduler/profile/profile.go (NewMap → framework.NewFramework: updatePluginList, the weight
check), pkg/scheduler/factory.go (Configurator.createFromProvider / createFromConfig). The
Configuration page's figures (kubesched/ui/figures/configuration.py) stay pure and take what this
module returns; the names they need from the scheduler's configuration package are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubesched.api.load import LoadError
from kubesched.api.yaml_source import read_documents
from kubesched.scheduler.apis.config import ConfigError, KubeSchedulerConfiguration
from kubesched.scheduler.apis.config.go_format import go_quote
from kubesched.scheduler.apis.config.types import KubeSchedulerProfile, PluginSet
from kubesched.scheduler.apis.config.v1alpha2 import API_VERSION, KIND
from kubesched.scheduler.core.generic_scheduler import num_feasible_nodes_to_find
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.framework import (
    EXTENSION_POINTS as FRAMEWORK_POINTS,
)
from kubesched.scheduler.profile.frameworks import (
    AlgorithmProviderError,
    resolve_profiles,
)
from kubesched.scheduler.profile.profile import ProfileError
from kubesched.sim import config_source
from kubesched.sim.scenario import ScenarioError
from kubesched.sim.simulation import Simulation
from kubesched.sim.state import SimState

__all__ = ["API_VERSION", "EMPTY_CONFIG_TEXT", "KIND", "ConfigCheck", "KubeSchedulerConfiguration",
           "KubeSchedulerProfile", "PluginSet", "Run", "check_config", "is_policy_text",
           "num_feasible_nodes_to_find", "resolve_profiles", "run_to_idle"]

EMPTY_CONFIG_TEXT = f"apiVersion: {API_VERSION}\nkind: {KIND}\n"
COMPARE_ERRORS = (ConfigError, LoadError, ScenarioError, ProfileError, AlgorithmProviderError, ValueError)


def _set(plugins: Any, field: str) -> PluginSet:
    return (getattr(plugins, field, None) if plugins is not None else None) or PluginSet()


@dataclass(frozen=True, slots=True)
class ConfigCheck:
    config: KubeSchedulerConfiguration | None
    problems: tuple[str, ...]


def check_config(text: str, filename: str = "config.yaml", cluster_policy: Any = None) -> ConfigCheck:
    """Load a KubeSchedulerConfiguration (or Policy) text as a run of this cluster would: the
    configuration, or the loader's own problem lines. ``cluster_policy`` is the cluster file's
    Policy document, which a KubeSchedulerConfiguration text runs with."""
    try:
        if is_policy_text(text):
            config = config_source.resolve_config(policy=config_source.Located(text, filename))
        else:
            policy = config_source.Located(cluster_policy, "cluster") if cluster_policy is not None else None
            config = config_source.resolve_config(config_source.Located(text, filename), policy)
        profiles = resolve_profiles(config)
    except ConfigError as err:
        return ConfigCheck(None, tuple(str(p) for p in err.problems))
    except AlgorithmProviderError as err:
        return ConfigCheck(None, (f"{filename}: {err}",))
    problems = tuple(f"{filename}: initializing profiles: creating profile for scheduler name {p.scheduler_name}: "
                     f"{message}" for p in profiles for message in _framework_problems(p)[:1])
    return ConfigCheck(None if problems else config, problems)


def is_policy_text(text: str) -> bool:
    """Whether an editor's text is a Policy (kind: Policy) rather than a KubeSchedulerConfiguration."""
    documents, _ = read_documents(text)
    return any(isinstance(d.data, dict) and d.data.get("kind") == config_source.POLICY_KIND for d in documents)


def _framework_problems(profile: KubeSchedulerProfile) -> list[str]:
    """What NewFramework (updatePluginList, the weight check) rejects, in its words, without building it."""
    known = set(new_in_tree_registry())
    out = []
    for field, _proto, iface in FRAMEWORK_POINTS:
        for plugin in _set(profile.plugins, field).enabled:
            if plugin.name not in known:
                out.append(f"{iface} {go_quote(plugin.name)} does not exist")
    for plugin in _set(profile.plugins, "score").enabled:
        if plugin.name in known and plugin.weight == 0:
            out.append(f"score plugin {go_quote(plugin.name)} is not configured with weight")
    return out


@dataclass(frozen=True, slots=True)
class Run:
    """One run to idle of the cluster with one configuration (or the reason it could not start)."""

    config_text: str
    state: SimState | None
    error: str
    records: int
    stopped_reason: str | None


def run_to_idle(cluster_source: str, config_yaml: str, seed: int) -> Run:
    """Run ``cluster_source`` (cluster + scenario YAML) with ``config_yaml`` until idle or the horizon."""
    try:
        given = {"policy": config_yaml} if is_policy_text(config_yaml) else {"config": config_yaml}
        sim = Simulation.from_text(cluster_source, seed=seed, **given)
        sim.run_until_idle()
    except COMPARE_ERRORS as err:
        problems = getattr(err, "problems", None)
        return Run(config_yaml, None, "\n".join(map(str, problems)) if problems else str(err), 0, None)
    if not any(p.alive for p in sim.engine.processes):   # every replica exited during startup
        return Run(config_yaml, None, "\n".join(sim.exit_errors) or "kube-scheduler exited during startup",
                   len(sim.trace), sim.stopped_reason)
    return Run(config_yaml, sim.state(), "", len(sim.trace), sim.stopped_reason)
