"""Validation of a pod spec: containers, resources, ports, volumes, spreading.

Upstream: pkg/apis/core/validation/validation.go @ v1.18.5 (ValidatePodSpec: hostname and
subdomain too; validateContainers, checkHostPortConflicts / AccumulateUniqueHostPorts,
validateInitContainers' names, validateContainerPorts, ValidateResourceRequirements,
ValidateNonnegativeQuantity, validateVolumes, validateTopologySpreadConstraints,
ValidateMaxSkew, ValidateTopologyKey, ValidateWhenUnsatisfiable,
ValidateSpreadConstraintNotRepeat, ValidatePreemptionPolicy).

Deviation: runs before defaulting, so an empty ``protocol`` (defaulted to TCP),
``restartPolicy`` (Always) or ``hostPort`` under hostNetwork (the containerPort) is accepted.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from kubesched.api import core, scheduling
from kubesched.api import field_errors as fe
from kubesched.api.decode import Problem
from kubesched.api.quantity import Quantity
from kubesched.api.validate_selectors import (validate_affinity, validate_label_selector,
                                              validate_tolerations)

WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
PREEMPTION_POLICIES = (scheduling.PREEMPT_LOWER_PRIORITY, scheduling.PREEMPT_NEVER)
PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")  # sets.String.List() order upstream
RESTART_POLICIES = ("Always", "OnFailure", "Never")

Problems = list[Problem]


def validate_nonnegative(quantities: Mapping[str, Quantity], path: str) -> Problems:
    """``ValidateNonnegativeQuantity`` for each entry of a resource list."""
    return [fe.invalid(f"{path}.{name}", str(q), "must be greater than or equal to 0")
            for name, q in quantities.items() if q.amount < 0]


def validate_resource_requirements(res: core.ResourceRequirements, path: str) -> Problems:
    """``ValidateResourceRequirements``: non-negative, and each request ≤ its limit."""
    out = validate_nonnegative(res.limits, f"{path}.limits")
    out += validate_nonnegative(res.requests, f"{path}.requests")
    for name, request in res.requests.items():
        limit = res.limits.get(name)
        if limit is not None and request > limit:
            out.append(fe.invalid(f"{path}.requests.{name}", str(request),
                                  f"must be less than or equal to {name} limit"))
    return out


def validate_container_ports(ports: Iterable[core.ContainerPort], path: str) -> Problems:
    out: Problems = []
    names: set[str] = set()
    for i, port in enumerate(ports):
        p = f"{path}[{i}]"
        if port.name:
            if port.name in names:
                out.append(fe.duplicate(f"{p}.name", port.name))
            names.add(port.name)
        if port.container_port == 0:
            out.append(fe.required(f"{p}.containerPort"))
        else:
            out += [fe.invalid(f"{p}.containerPort", port.container_port, m)
                    for m in fe.is_valid_port_num(port.container_port)]
        if port.host_port != 0:
            out += [fe.invalid(f"{p}.hostPort", port.host_port, m)
                    for m in fe.is_valid_port_num(port.host_port)]
        if port.protocol and port.protocol not in PORT_PROTOCOLS:
            out.append(fe.not_supported(f"{p}.protocol", port.protocol, PORT_PROTOCOLS))
    return out


def validate_containers(containers: Iterable[core.Container], path: str) -> Problems:
    out: Problems = []
    names: set[str] = set()
    for i, c in enumerate(containers):
        p = f"{path}[{i}]"
        if not c.name:
            out.append(fe.required(f"{p}.name"))
        else:
            out += [fe.invalid(f"{p}.name", c.name, m) for m in fe.is_dns1123_label(c.name)]
            if c.name in names:
                out.append(fe.duplicate(f"{p}.name", c.name))
            names.add(c.name)
        if not c.image:
            out.append(fe.required(f"{p}.image"))
        out += validate_container_ports(c.ports, f"{p}.ports")
        out += validate_resource_requirements(c.resources, f"{p}.resources")
    return out + _host_port_conflicts(containers, path)


def _host_port_conflicts(containers: Iterable[core.Container], path: str) -> Problems:
    """``checkHostPortConflicts``: one hostIP/protocol/hostPort per pod (protocol defaults to TCP)."""
    out: Problems = []
    seen: set[str] = set()
    for i, c in enumerate(containers):
        for j, port in enumerate(c.ports):
            if not port.host_port:
                continue
            key = f"{port.host_ip}/{port.protocol or 'TCP'}/{port.host_port}"
            if key in seen:
                out.append(fe.duplicate(f"{path}[{i}].ports[{j}].hostPort", key))
            seen.add(key)
    return out


def validate_host_network(spec: core.PodSpec, path: str) -> Problems:
    """``validateHostNetwork``: under hostNetwork a set hostPort equals its containerPort."""
    if not spec.host_network:
        return []
    return [fe.invalid(f"{path}.containers[{i}].ports[{j}].containerPort", port.container_port,
                       "must match `hostPort` when `hostNetwork` is true")
            for i, c in enumerate(spec.containers) for j, port in enumerate(c.ports)
            if port.host_port and port.host_port != port.container_port]


def validate_restart_policy(policy: str, path: str, supported: tuple[str, ...] = RESTART_POLICIES) -> Problems:
    """``validateRestartPolicy``, or a workload's narrower set (``Always`` for ReplicaSets, …)."""
    effective = policy or "Always"
    if effective in supported:
        return []
    return [fe.not_supported(path, effective, supported)]


def validate_volumes(volumes: Iterable[core.Volume], path: str) -> Problems:
    out: Problems = []
    names: set[str] = set()
    for i, vol in enumerate(volumes):
        p = f"{path}[{i}]"
        if not vol.name:
            out.append(fe.required(f"{p}.name"))
        else:
            out += [fe.invalid(f"{p}.name", vol.name, m) for m in fe.is_dns1123_label(vol.name)]
            if vol.name in names:
                out.append(fe.duplicate(f"{p}.name", vol.name))
            names.add(vol.name)
        claim = vol.persistent_volume_claim
        if claim is not None and not claim.claim_name:
            out.append(fe.required(f"{p}.persistentVolumeClaim.claimName"))
    return out


def validate_topology_spread_constraints(constraints: tuple[core.TopologySpreadConstraint, ...],
                                         path: str) -> Problems:
    out: Problems = []
    for i, c in enumerate(constraints):
        p = f"{path}[{i}]"
        if c.max_skew <= 0:
            out.append(fe.invalid(f"{p}.maxSkew", c.max_skew, "must be greater than zero"))
        if not c.topology_key:
            out.append(fe.required(f"{p}.topologyKey", "can not be empty"))
        if c.when_unsatisfiable not in WHEN_UNSATISFIABLE:
            out.append(fe.not_supported(f"{p}.whenUnsatisfiable", c.when_unsatisfiable,
                                        WHEN_UNSATISFIABLE))
        if any((c.topology_key, c.when_unsatisfiable) == (d.topology_key, d.when_unsatisfiable)
               for d in constraints[i + 1:]):
            out.append(fe.duplicate(f"{p}.{{topologyKey, whenUnsatisfiable}}",
                                    f"{{{c.topology_key}, {c.when_unsatisfiable}}}"))
    return out


def validate_preemption_policy(policy: str | None, path: str) -> Problems:
    """``ValidatePreemptionPolicy``."""
    if policy is None or policy in PREEMPTION_POLICIES:
        return []
    if policy == "":
        return [fe.required(path)]
    return [fe.not_supported(path, policy, PREEMPTION_POLICIES)]


def validate_pod_spec(spec: core.PodSpec, path: str = "spec") -> Problems:
    """``ValidatePodSpec``: the parts the scheduler and this simulator read."""
    out: Problems = []
    if not spec.containers:
        out.append(fe.required(f"{path}.containers"))
    out += validate_volumes(spec.volumes, f"{path}.volumes")
    out += validate_containers(spec.containers, f"{path}.containers")
    out += validate_containers(spec.init_containers, f"{path}.initContainers")
    names = {c.name for c in spec.containers}
    out += [fe.duplicate(f"{path}.initContainers[{i}].name", c.name)
            for i, c in enumerate(spec.init_containers) if c.name and c.name in names]
    out += validate_nonnegative(spec.overhead, f"{path}.overhead")
    out += fe.validate_labels(spec.node_selector, f"{path}.nodeSelector")
    if spec.node_name:
        out += [fe.invalid(f"{path}.nodeName", spec.node_name, m)
                for m in fe.is_dns1123_subdomain(spec.node_name)]
    out += validate_affinity(spec.affinity, f"{path}.affinity")
    out += validate_tolerations(spec.tolerations, f"{path}.tolerations")
    out += validate_topology_spread_constraints(spec.topology_spread_constraints,
                                                f"{path}.topologySpreadConstraints")
    out += validate_preemption_policy(spec.preemption_policy, f"{path}.preemptionPolicy")
    out += validate_restart_policy(spec.restart_policy, f"{path}.restartPolicy")
    out += validate_host_network(spec, path)
    for field, value in (("hostname", spec.hostname), ("subdomain", spec.subdomain)):
        out += [fe.invalid(f"{path}.{field}", value, m) for m in (fe.is_dns1123_label(value) if value else ())]
    if spec.priority_class_name:
        out += [fe.invalid(f"{path}.priorityClassName", spec.priority_class_name, m)
                for m in fe.is_dns1123_subdomain(spec.priority_class_name)]
    return out
