"""Which scheduler configuration a run uses: the KubeSchedulerConfiguration and Policy documents
of a cluster file, or the ``--config`` / ``--policy-config-file`` given beside it.

Upstream: cmd/kube-scheduler/app/options (Options.ApplyTo: ``--config`` wins; without it
DeprecatedOptions.ApplyTo turns ``--policy-config-file`` into a Policy file source),
pkg/scheduler/scheduler.go (New: initPolicyFromFile, initPolicyFromConfigMap reading key
``policy.cfg``, then createFromProvider / createFromConfig and their error texts).

``resolve_config`` returns the configuration with its Policy read, and raises one
``ConfigError`` for everything ``scheduler.New`` would refuse (a provider that is not
registered, a Policy that cannot be translated), so ``validate`` and ``run`` refuse the same
inputs. It is the entry point for any caller that checks a configuration.

Deviations (the simulated scheduler has no file system and no startup flags):
- A ``Policy`` document of the cluster file is the Policy file: it is what
  ``algorithmSource.policy.file`` of a v1alpha1 configuration reads (whatever its path), and
  without a configuration it acts as ``--policy-config-file``.
- ``algorithmSource.policy.configMap`` is read from a ConfigMap document of the cluster file.
- Where kube-scheduler silently ignores a Policy (``--config`` given together with
  ``--policy-config-file``, or a configuration whose source is a provider), the Policy is
  refused with a message saying why.
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubesched import features
from kubesched.api.yaml_source import Document
from kubesched.scheduler.apis.config.legacy_types import Policy
from kubesched.scheduler.apis.config.scheme import (
    ConfigError,
    ConfigProblem,
    default_config,
    load_config,
    load_policy,
    policy_file_config,
)
from kubesched.scheduler.apis.config.types import SCHEDULER_POLICY_CONFIG_MAP_KEY, KubeSchedulerConfiguration
from kubesched.scheduler.framework.plugins import legacy_registry as lr
from kubesched.scheduler.profile.frameworks import (
    AlgorithmProviderError,
    AlgorithmSourceError,
    PolicyTranslation,
    effective_extenders,
    policy_translation,
    resolve_profiles,
)
from kubesched.scheduler.profile.from_policy import TranslationRow, listed

CONFIG_KIND: Final = "KubeSchedulerConfiguration"
POLICY_KIND: Final = "Policy"


@dataclass(frozen=True, slots=True)
class Located:
    """A configuration or Policy as given: raw data (or a path, text, config object) and where."""

    source: Any
    file: str
    line: int | None = None


def resolve_config(config: Located | None = None, policy: Located | None = None, *,
                   cluster_documents: Sequence[Document] = (), cluster_file: str = "<string>",
                   base_dir: pathlib.Path | None = None) -> KubeSchedulerConfiguration:
    """The configuration a run uses, its Policy read; ``ConfigError`` for what v1.18.5 refuses.

    ``config``: a KubeSchedulerConfiguration (document, text, path or object) or None;
    ``policy``: a Policy document or ``--policy-config-file`` (or None); ``cluster_documents``:
    the cluster file's documents (for a ConfigMap source); ``base_dir``: where a relative
    ``algorithmSource.policy.file.path`` is looked up when no Policy is given.
    """
    parsed = _policy(policy) if policy is not None else None
    if config is None:
        # the file's name only: a run must not depend on where its files lie on disk
        cfg = policy_file_config(pathlib.PurePath(policy.file).name, parsed) if parsed is not None else default_config()
    elif isinstance(config.source, KubeSchedulerConfiguration):
        cfg = config.source
    else:
        cfg = load_config(config.source, filename=config.file, policy=parsed, base_dir=base_dir)
    cfg = _fill_config_map(cfg, cluster_documents, cluster_file)
    source = cfg.algorithm_source
    if parsed is not None and (source.provider is not None or source.policy is None or source.policy.file is None):
        raise ConfigError([ConfigProblem(policy.file, policy.line, "", _unused_policy(cfg))])
    _check_new(cfg, config, policy)
    return cfg


def translation(config: KubeSchedulerConfiguration) -> PolicyTranslation | None:
    """The Policy's predicates and priorities as plugins (None when a provider is the source)."""
    source = config.algorithm_source
    if source.provider is not None or source.policy is None or source.policy.policy is None:
        return None
    return policy_translation(config)


# -- pieces -------------------------------------------------------------------------------------------
def _policy(policy: Located) -> Policy:
    return load_policy(policy.source, filename=policy.file)


def _fill_config_map(cfg: KubeSchedulerConfiguration, documents: Sequence[Document],
                     cluster_file: str) -> KubeSchedulerConfiguration:
    """``initPolicyFromConfigMap`` over the cluster file's ConfigMap documents."""
    source = cfg.algorithm_source
    if source.provider is not None or source.policy is None or source.policy.config_map is None:
        return cfg
    ref = source.policy.config_map
    doc = next((d for d in documents if _is_config_map(d.data, ref.namespace, ref.name)), None)
    if doc is None:
        raise ConfigError([ConfigProblem(cluster_file, None, "algorithmSource.policy.configMap",
                                         f"couldn't get policy config map {ref.namespace}/{ref.name}: "
                                         f'configmaps "{ref.name}" not found')])
    data = doc.data.get("data") or {}
    text = data.get(SCHEDULER_POLICY_CONFIG_MAP_KEY) if isinstance(data, Mapping) else None
    if not isinstance(text, str):
        raise ConfigError([ConfigProblem(cluster_file, doc.line, "data",
                                         f'missing policy config map value at key "{SCHEDULER_POLICY_CONFIG_MAP_KEY}"')])
    where = f"{cluster_file} (ConfigMap {ref.namespace}/{ref.name}, key {SCHEDULER_POLICY_CONFIG_MAP_KEY})"
    policy = load_policy(text, filename=where)
    filled = dataclasses.replace(source.policy, policy=policy)
    return dataclasses.replace(cfg, algorithm_source=dataclasses.replace(source, policy=filled))


def _is_config_map(data: Any, namespace: str, name: str) -> bool:
    if not isinstance(data, Mapping) or data.get("kind") != "ConfigMap" or data.get("apiVersion") != "v1":
        return False
    meta = data.get("metadata") or {}
    return isinstance(meta, Mapping) and meta.get("name") == name and (meta.get("namespace") or "default") == namespace


def _unused_policy(cfg: KubeSchedulerConfiguration) -> str:
    source = cfg.algorithm_source
    if source.provider is not None:
        return (f"the Policy is not used: the configuration's algorithm source is the provider "
                f'"{source.provider}" (kube-scheduler v1.18.5 ignores --policy-config-file when --config is '
                "given); name the Policy in algorithmSource.policy.file of a "
                "kubescheduler.config.k8s.io/v1alpha1 configuration")
    if source.policy is None or source.policy.config_map is None:
        return "the Policy is not used: the configuration has no algorithm source"
    ref = source.policy.config_map
    return f"the Policy is not used: algorithmSource.policy names ConfigMap {ref.namespace}/{ref.name}"


def _check_new(cfg: KubeSchedulerConfiguration, config: Located | None, policy: Located | None) -> None:
    """What ``scheduler.New`` refuses before any pod is scheduled, in its words."""
    source = cfg.algorithm_source
    try:
        with features.override(cfg.feature_gates):
            resolve_profiles(cfg)
    except AlgorithmProviderError as err:
        where = config or Located(None, "<config>")
        raise ConfigError([ConfigProblem(where.file, where.line, "algorithmSource.provider",
                                         f'couldn\'t create scheduler using provider "{source.provider}": {err}')])
    except AlgorithmSourceError as err:
        where = policy or config or Located(None, "<config>")
        raise ConfigError([ConfigProblem(where.file, where.line, "", f"couldn't create scheduler from policy: {err}")])


# -- the dashboard's bridge from predicates/priorities to plugins ---------------------------------------
def extenders(config: KubeSchedulerConfiguration) -> tuple[Any, ...]:
    """The extenders the scheduler builds (a Policy's own when a Policy is the source)."""
    return effective_extenders(config)


def legacy_names(config: KubeSchedulerConfiguration) -> tuple[TranslationRow, ...]:
    """Every predicate and priority name v1.18 accepts in a Policy (feature gates of ``config``),
    and the plugins each becomes; custom-argument entries are named by their argument."""
    with features.override(config.feature_gates):
        registry = lr.new_legacy_registry()
    rows = []
    predicates = [k for k in lr.predicate_ordering() if k in registry.predicate_to_config_producer]
    for key in predicates:
        names = {lr.POD_FITS_HOST_PORTS_PRED: (key, lr.POD_FITS_PORTS),
                 lr.CHECK_SERVICE_AFFINITY_PRED: (key, "argument.serviceAffinity"),
                 lr.CHECK_NODE_LABEL_PRESENCE_PRED: (key, "argument.labelsPresence")}.get(key, (key,))
        args = lr.ConfigProducerArgs()
        rows.append(TranslationRow("predicate", key, names, "reference", _plugins(registry.predicate_to_config_producer
                                                                                  [key], args)))
    custom = {lr.SERVICE_AFFINITY: ("argument.serviceAntiAffinity",),
              lr.NODE_LABEL: ("argument.labelPreference",),
              lr.REQUESTED_TO_CAPACITY_RATIO: (lr.REQUESTED_TO_CAPACITY_RATIO_PRIORITY + " + argument."
                                               "requestedToCapacityRatioArguments",),
              lr.SELECTOR_SPREAD_PRIORITY: (lr.SELECTOR_SPREAD_PRIORITY, lr.SERVICE_SPREADING_PRIORITY)}
    one_label = lr.ConfigProducerArgs(weight=1, node_label_args={"presentLabelsPreference": ["l"]},
                                      service_affinity_args={"antiAffinityLabelsPreference": ["l"]})
    for key in sorted(registry.priority_to_config_producer):
        rows.append(TranslationRow("priority", key, custom.get(key, (key,)), "reference",
                                   _plugins(registry.priority_to_config_producer[key], one_label), 1))
    rows.append(TranslationRow("priority", lr.EQUAL_PRIORITY, (lr.EQUAL_PRIORITY,), "skipped", ()))
    return tuple(rows)


def _plugins(producer: lr.Producer, args: lr.ConfigProducerArgs) -> tuple[tuple[str, str, int], ...]:
    return listed(producer.produce(args)[0])
