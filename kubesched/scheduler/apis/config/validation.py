"""Validation of the internal ``KubeSchedulerConfiguration`` with v1.18.5's messages.

Upstream: pkg/scheduler/apis/config/validation/validation.go @ v1.18.5
(ValidateKubeSchedulerConfiguration, validateKubeSchedulerProfile, validateCommonQueueSort,
validateKubeSchedulerLeaderElectionConfiguration, validateExtenders,
validateExtendedResourceName), component-base config/validation
(ValidateClientConnectionConfiguration, ValidateLeaderElectionConfiguration) and
apimachinery field.Error (``<path>: Invalid value: <value>: <detail>``).

Each finding is a ``kubesched.api.decode.Problem`` whose ``path: message`` is upstream's
error text; ``errors_text`` joins them as ``ErrorList.ToAggregate`` does.

Deviations:
- A duplicate scheduler name reads ``profiles[1].schedulerName: Duplicate value: "x"``;
  upstream passes the earlier profile's ``*field.Path`` as the value and prints it with
  ``%#v`` (a Go struct with a pointer address).
- Unknown ``featureGates`` names are reported (``unrecognized feature gate: X``, the flag's
  message); the field itself is not upstream's.
- ``bindTimeoutSeconds`` is not validated, as in v1.18.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched import features
from kubesched.api.decode import Problem
from kubesched.api.field_errors import is_qualified_name
from kubesched.api.v1helper import is_extended_resource_name
from kubesched.scheduler.apis.config import types as t
from kubesched.scheduler.apis.config.go_format import (
    format_duration,
    go_quote,
    is_valid_socket_addr,
)


def _invalid(path: str, shown: str, detail: str) -> Problem:
    return Problem(path, f"Invalid value: {shown}: {detail}")


def _required(path: str) -> Problem:
    return Problem(path, "Required value")


def validate_kube_scheduler_configuration(cc: t.KubeSchedulerConfiguration) -> list[Problem]:
    """``ValidateKubeSchedulerConfiguration``: every problem, in upstream's order."""
    errs = validate_client_connection(cc.client_connection, "clientConnection")
    errs += validate_leader_election(cc.leader_election, "leaderElection")
    if not cc.profiles:
        errs.append(_required("profiles"))
    else:
        existing: dict[str, int] = {}
        for i, profile in enumerate(cc.profiles):
            path = f"profiles[{i}]"
            if not profile.scheduler_name:
                errs.append(_required(f"{path}.schedulerName"))
            if profile.scheduler_name in existing:
                errs.append(Problem(f"{path}.schedulerName", f"Duplicate value: {go_quote(profile.scheduler_name)}"))
            existing[profile.scheduler_name] = i
        errs += validate_common_queue_sort("profiles", cc.profiles)
    for name, address in (("healthzBindAddress", cc.healthz_bind_address),
                          ("metricsBindAddress", cc.metrics_bind_address)):
        errs += [_invalid(name, go_quote(address), msg) for msg in is_valid_socket_addr(address)]
    if not 0 <= cc.percentage_of_nodes_to_score <= 100:
        errs.append(_invalid("percentageOfNodesToScore", str(cc.percentage_of_nodes_to_score),
                             "not in valid range [0-100]"))
    if cc.pod_initial_backoff_seconds <= 0:
        errs.append(_invalid("podInitialBackoffSeconds", str(cc.pod_initial_backoff_seconds),
                             "must be greater than 0"))
    if cc.pod_max_backoff_seconds < cc.pod_initial_backoff_seconds:
        errs.append(_invalid("podMaxBackoffSeconds", str(cc.pod_max_backoff_seconds),
                             "must be greater than or equal to PodInitialBackoffSeconds"))
    errs += validate_extenders("extenders", cc.extenders)
    errs += validate_feature_gates("featureGates", cc.feature_gates)
    return errs


def validate_client_connection(cc: t.ClientConnectionConfiguration, path: str) -> list[Problem]:
    """``ValidateClientConnectionConfiguration``."""
    return [_invalid(f"{path}.burst", str(cc.burst), "must be non-negative")] if cc.burst < 0 else []


def validate_leader_election(le: t.LeaderElectionConfiguration, path: str) -> list[Problem]:
    """``validateKubeSchedulerLeaderElectionConfiguration``: checked only when leaderElect."""
    if not le.leader_elect:
        return []
    errs = []
    for field, value in (("leaseDuration", le.lease_duration_ns), ("renewDeadline", le.renew_deadline_ns),
                         ("retryPeriod", le.retry_period_ns)):
        if value <= 0:
            errs.append(_invalid(f"{path}.{field}", format_duration(value), "must be greater than zero"))
    if le.lease_duration_ns < le.renew_deadline_ns:
        errs.append(_invalid(f"{path}.leaseDuration", format_duration(le.renew_deadline_ns),
                             "LeaseDuration must be greater than RenewDeadline"))
    for field, value in (("resourceLock", le.resource_lock), ("resourceNamespace", le.resource_namespace),
                         ("resourceName", le.resource_name)):
        if not value:
            errs.append(_invalid(f"{path}.{field}", go_quote(value), f"{field} is required"))
    return errs


def validate_common_queue_sort(path: str, profiles: Sequence[t.KubeSchedulerProfile]) -> list[Problem]:
    """``validateCommonQueueSort``: every profile's own queueSort set equals the first's."""
    def queue_sort(p: t.KubeSchedulerProfile) -> t.PluginSet | None:
        return p.plugins.queue_sort if p.plugins is not None else None
    canon = queue_sort(profiles[0])
    return [_invalid(f"{path}[{i}].plugins.queueSort", go_plugin_set(queue_sort(p)), "has to match for all profiles")
            for i, p in enumerate(profiles) if i > 0 and queue_sort(p) != canon]


def validate_extenders(path: str, extenders: Sequence[t.Extender]) -> list[Problem]:
    """``validateExtenders``: positive weights for prioritizers, valid and unique managed
    resource names, at most one binder."""
    errs: list[Problem] = []
    binders = 0
    managed: set[str] = set()
    for i, ext in enumerate(extenders):
        if ext.prioritize_verb and ext.weight <= 0:
            errs.append(_invalid(f"{path}[{i}].weight", str(ext.weight), "must have a positive weight applied to it"))
        if ext.bind_verb:
            binders += 1
        for j, resource in enumerate(ext.managed_resources):
            rpath = f"{path}[{i}].managedResources[{j}].name"
            errs += [_invalid(rpath, go_quote(resource.name), msg)
                     for msg in validate_extended_resource_name(resource.name)]
            if resource.name in managed:
                errs.append(_invalid(rpath, go_quote(resource.name), "duplicate extender managed resource name"))
            managed.add(resource.name)
    if binders > 1:
        errs.append(_invalid(path, go_quote(f"found {binders} extenders implementing bind"),
                             "only one extender can implement bind"))
    return errs


def validate_extended_resource_name(name: str) -> list[str]:
    """``validateExtendedResourceName``: a qualified name that is an extended resource."""
    errs = is_qualified_name(name)
    if errs:
        return errs
    return [] if is_extended_resource_name(name) else [f"{name} is an invalid extended resource name"]


def validate_feature_gates(path: str, gates: Any) -> list[Problem]:
    """Deviation (see module docstring): only known gates may be set."""
    known = features.DEFAULTS
    return [Problem(f"{path}.{name}", f"unrecognized feature gate: {name}") for name in gates if name not in known]


def go_plugin_set(ps: t.PluginSet | None) -> str:
    """``%#v`` of a ``*config.PluginSet`` as ``field.Invalid`` prints it (``null`` for nil)."""
    if ps is None:
        return "null"
    return f"config.PluginSet{{Enabled:{_go_plugins(ps.enabled)}, Disabled:{_go_plugins(ps.disabled)}}}"


def _go_plugins(plugins: Sequence[t.Plugin]) -> str:
    if not plugins:
        return "[]config.Plugin(nil)"
    inner = ", ".join(f"config.Plugin{{Name:{go_quote(p.name)}, Weight:{p.weight}}}" for p in plugins)
    return f"[]config.Plugin{{{inner}}}"


def errors_text(problems: Sequence[Problem]) -> str:
    """``ErrorList.ToAggregate().Error()``: duplicates dropped, one error bare, several in ``[a, b]``."""
    seen: list[str] = []
    for p in problems:
        text = f"{p.path}: {p.message}" if p.path else p.message
        if text not in seen:
            seen.append(text)
    if len(seen) == 1:
        return seen[0]
    return "[" + ", ".join(seen) + "]"


# ----------------------------------------------------------------------------- legacy Policy


def validate_policy(policy: Any) -> list[Problem]:
    """``ValidatePolicy``: priority weights, custom priorities, extenders, the hard pod affinity
    weight; every problem, in upstream's order (``path`` locates it, ``message`` is upstream's)."""
    errs: list[Problem] = []
    declared: dict[str, Any] = {}
    for i, priority in enumerate(policy.priorities or ()):
        if priority.weight <= 0 or priority.weight >= t.MAX_WEIGHT:
            errs.append(Problem(f"priorities[{i}].weight", f"Priority {priority.name} should have a positive "
                                                           "weight applied to it or it has overflown"))
        message = _custom_priority_error(declared, priority)
        if message:
            errs.append(Problem(f"priorities[{i}]", message))
    errs += validate_extenders("extenders", policy.extenders)
    weight = policy.hard_pod_affinity_symmetric_weight
    if not 0 <= weight <= 100:
        errs.append(_invalid("hardPodAffinitySymmetricWeight", str(weight), "not in valid range [0-100]"))
    return errs


def _custom_priority_error(declared: dict[str, Any], priority: Any) -> str:
    """``validateCustomPriorities``: one RequestedToCapacityRatio; LabelPreference and
    ServiceAntiAffinity may repeat but with one weight."""
    arg = priority.argument
    if arg is None:
        return ""
    if arg.label_preference is not None:
        kind, redeclare = "LabelPreference", False
    elif arg.service_anti_affinity is not None:
        kind, redeclare = "ServiceAntiAffinity", False
    elif arg.requested_to_capacity_ratio_arguments is not None:
        kind, redeclare = "RequestedToCapacityRatio", True
    else:
        return f"No priority arguments set for priority {priority.name}"
    existing = declared.get(kind)
    if existing is not None:
        if redeclare:
            return f"Priority {go_quote(priority.name)} redeclares custom priority {go_quote(kind)}, " \
                   f"from:{go_quote(existing.name)}"
        if existing.weight != priority.weight:
            return f"{kind}  priority {go_quote(priority.name)} has a different weight with {go_quote(existing.name)}"
    declared[kind] = priority
    return ""
