"""``kubescheduler.config.k8s.io/v1alpha1``: decoding, defaulting and conversion to one profile.

Upstream: staging/src/k8s.io/kube-scheduler/config/v1alpha1/types.go @ v1.18.5 (the fields),
pkg/scheduler/apis/config/v1alpha1/defaults.go (SetDefaults_KubeSchedulerConfiguration),
pkg/scheduler/apis/config/v1alpha1/conversion.go
(Convert_v1alpha1_KubeSchedulerConfiguration_To_config_KubeSchedulerConfiguration,
Convert_v1alpha1_KubeSchedulerLeaderElectionConfiguration_To_config_…,
Convert_v1alpha1_Plugins_To_config_Plugins) and zz_generated.conversion.go (the field copies).

v1alpha1 is the 1.16–1.17 format: one scheduler (``schedulerName``, ``plugins``,
``pluginConfig`` at the top level become the single profile), an ``algorithmSource`` (a
provider name or a Policy file / ConfigMap), ``hardPodAffinitySymmetricWeight`` (becomes an
``InterPodAffinity`` plugin config), the deprecated ``lockObjectNamespace``/``lockObjectName``
(merged into ``resourceNamespace``/``resourceName``), ``plugins.postFilter`` (becomes
``preScore``) and no ``extenders`` (they come from a Policy).

Deviation: ``featureGates`` (name → bool) is accepted at the top level, as in v1alpha2.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping
from typing import Any, Final

from kubesched.scheduler.apis.config import defaults
from kubesched.scheduler.apis.config import types as t
from kubesched.scheduler.apis.config.decoder import (
    FieldProblem,
    ListOf,
    MapOf,
    Struct,
    TrapLookup,
)
from kubesched.scheduler.apis.config.decoder import decode as decode_spec
from kubesched.scheduler.apis.config.v1alpha2 import (
    CLIENT_CONNECTION,
    GROUP_NAME,
    KIND,
    LEADER_ELECTION,
    PLUGIN_CONFIG,
    PLUGIN_SET,
    PLUGINS_JSON,
)

API_VERSION: Final = f"{GROUP_NAME}/v1alpha1"
INTER_POD_AFFINITY: Final = "InterPodAffinity"  # interpodaffinity.Name
_POST_FILTER: Final = "postFilter"

_PLUGINS: Final = Struct("Plugins", {
    (_POST_FILTER if name == "preScore" else name): PLUGIN_SET for name in PLUGINS_JSON})
_POLICY_SOURCE: Final = Struct("SchedulerPolicySource", {
    "file": Struct("SchedulerPolicyFileSource", {"path": "string"}),
    "configMap": Struct("SchedulerPolicyConfigMapSource", {"namespace": "string", "name": "string"})})
_ALGORITHM_SOURCE: Final = Struct("SchedulerAlgorithmSource", {"policy": _POLICY_SOURCE, "provider": "string"})
_LEADER_ELECTION: Final = Struct(LEADER_ELECTION.type_name, {
    **LEADER_ELECTION.fields, "lockObjectNamespace": "string", "lockObjectName": "string"})
CONFIGURATION: Final = Struct(KIND, {
    "apiVersion": "string", "kind": "string",
    "schedulerName": "string", "algorithmSource": _ALGORITHM_SOURCE, "hardPodAffinitySymmetricWeight": "int32",
    "leaderElection": _LEADER_ELECTION, "clientConnection": CLIENT_CONNECTION,
    "healthzBindAddress": "string", "metricsBindAddress": "string",
    "enableProfiling": "bool", "enableContentionProfiling": "bool",
    "disablePreemption": "bool", "percentageOfNodesToScore": "int32",
    "bindTimeoutSeconds": "int64", "podInitialBackoffSeconds": "int64", "podMaxBackoffSeconds": "int64",
    "plugins": _PLUGINS, "pluginConfig": ListOf(PLUGIN_CONFIG),
    "featureGates": MapOf("bool"),
})


class ConversionError(ValueError):
    """The conversion to the internal type failed; ``problem`` is upstream's error at a field."""

    def __init__(self, problem: FieldProblem) -> None:
        self.problem = problem
        super().__init__(problem.message)


def decode(data: Any, trap_at: TrapLookup = lambda path: None) -> tuple[dict[str, Any], list[FieldProblem]]:
    """The versioned form of a v1alpha1 document (its apiVersion and kind already checked)."""
    out, problems = decode_spec(CONFIGURATION, data, trap_at)
    return out, problems


def set_defaults(versioned: Mapping[str, Any]) -> dict[str, Any]:
    """``SetDefaults_KubeSchedulerConfiguration`` (v1alpha1) on a copy of the versioned form."""
    obj = copy.deepcopy(dict(versioned))
    obj.setdefault("schedulerName", t.DEFAULT_SCHEDULER_NAME)
    source = obj.setdefault("algorithmSource", {})
    if "policy" not in source and not source.get("provider"):
        source["provider"] = t.SCHEDULER_DEFAULT_PROVIDER_NAME
    config_map = source.get("policy", {}).get("configMap")
    if config_map is not None and not config_map.get("namespace"):
        config_map["namespace"] = t.SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE  # api.NamespaceSystem
    le = obj.setdefault("leaderElection", {})
    if not le.get("resourceLock"):
        le["resourceLock"] = "endpointsleases"
    for lock_key, resource_key, value in (
            ("lockObjectNamespace", "resourceNamespace", t.SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE),
            ("lockObjectName", "resourceName", t.SCHEDULER_DEFAULT_LOCK_OBJECT_NAME)):
        if not le.get(lock_key) and not le.get(resource_key):
            le[lock_key] = value
    defaults.set_shared_defaults(obj)
    return obj


def convert(obj: Mapping[str, Any]) -> t.KubeSchedulerConfiguration:
    """The internal configuration of a defaulted v1alpha1 form: one profile; ``ConversionError``
    when ``lockObject*`` and ``resource*`` disagree."""
    v1alpha2_form = {key: value for key, value in obj.items()
                     if key not in ("schedulerName", "algorithmSource", "hardPodAffinitySymmetricWeight",
                                    "plugins", "pluginConfig")}
    v1alpha2_form["leaderElection"] = convert_leader_election(obj.get("leaderElection", {}))
    profile: dict[str, Any] = {"schedulerName": obj.get("schedulerName", "")}
    if "plugins" in obj:
        profile["plugins"] = {("preScore" if key == _POST_FILTER else key): value
                              for key, value in obj["plugins"].items()}
    if "pluginConfig" in obj:
        profile["pluginConfig"] = obj["pluginConfig"]
    v1alpha2_form["profiles"] = [profile]
    config = defaults.convert(v1alpha2_form)
    weight = obj.get("hardPodAffinitySymmetricWeight")
    if weight is not None:
        extra = t.PluginConfig(INTER_POD_AFFINITY, t.RawArgs(json.dumps({"hardPodAffinityWeight": weight},
                                                                        separators=(",", ":"))))
        only = config.profiles[0]
        config = dataclasses.replace(config, profiles=(
            dataclasses.replace(only, plugin_config=only.plugin_config + (extra,)),))
    return dataclasses.replace(config, algorithm_source=_algorithm_source(obj.get("algorithmSource", {})))


def convert_leader_election(le: Mapping[str, Any]) -> dict[str, Any]:
    """The v1alpha2 form of a v1alpha1 leader election: ``lockObject*`` merged into ``resource*``."""
    out = {key: value for key, value in le.items() if key not in ("lockObjectNamespace", "lockObjectName")}
    for lock_key, resource_key, go_field, go_lock in (
            ("lockObjectNamespace", "resourceNamespace", "ResourceNamespace", "LockObjectNamespace"),
            ("lockObjectName", "resourceName", "ResourceName", "LockObjectName")):
        resource, lock = le.get(resource_key, ""), le.get(lock_key, "")
        if resource and lock and resource != lock:
            raise ConversionError(FieldProblem(
                f"leaderElection.{lock_key}", f"{go_field} and {go_lock} are both set and do not match, "
                f"{go_field}: {resource}, {go_lock}: {lock}"))
        out[resource_key] = resource or lock
    return out


def _algorithm_source(source: Mapping[str, Any]) -> t.SchedulerAlgorithmSource:
    policy = source.get("policy")
    policy_source = None
    if policy is not None:
        file, config_map = policy.get("file"), policy.get("configMap")
        policy_source = t.SchedulerPolicySource(
            file=None if file is None else t.SchedulerPolicyFileSource(file.get("path", "")),
            config_map=None if config_map is None else t.SchedulerPolicyConfigMapSource(
                config_map.get("namespace", ""), config_map.get("name", "")))
    return t.SchedulerAlgorithmSource(provider=source.get("provider"), policy=policy_source)
