"""The PodTopologySpread plugin: name, reason, args (defaultConstraints), validation, factory.

Upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go
(ErrReasonConstraintsNotMatch, supportedScheduleActions, Args, PodTopologySpread, Name,
BuildArgs, New, setListers, validateArgs, validateTopologyKey, validateWhenUnsatisfiable,
validateConstraintNotRepeat).

In v1.18.5 the plugin is only registered while the ``EvenPodsSpread`` feature gate is on
(the registry's business). A node missing a constraint's topology key fails Filter with the
plain reason and code Unschedulable (the "(missing required label)" variant is 1.19+).
Go spreads the methods over several files; filtering.py and scoring.py hold them as mixins
combined here. The name and reason constants live in common.py (re-exported here) so that those
modules need not import this one.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubesched.api.core import TopologySpreadConstraint
from kubesched.scheduler.framework.plugins.podtopologyspread.common import (
    DO_NOT_SCHEDULE,
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    NAME,
    SCHEDULE_ANYWAY,
    SUPPORTED_SCHEDULE_ACTIONS,
)
from kubesched.scheduler.framework.plugins.podtopologyspread.filtering import Filtering
from kubesched.scheduler.framework.plugins.podtopologyspread.scoring import Scoring
from kubesched.scheduler.framework.v1alpha1.plugin_args import decode_into

__all__ = ["DO_NOT_SCHEDULE", "ERR_REASON_CONSTRAINTS_NOT_MATCH", "NAME", "SCHEDULE_ANYWAY",
           "SUPPORTED_SCHEDULE_ACTIONS", "Args", "PodTopologySpread", "new", "validate_args",
           "validate_constraint_not_repeat", "validate_topology_key", "validate_when_unsatisfiable"]

_LABEL_NAME_PART = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"


@dataclass(frozen=True, slots=True)
class Args:
    """``Args``: constraints for pods that define none (their selectors are deduced per pod)."""

    default_constraints: tuple[TopologySpreadConstraint, ...] = ()


class PodTopologySpread(Filtering, Scoring):
    """Ensures a pod's topologySpreadConstraints (or the configured defaults) are honoured."""

    def __init__(self, shared_lister, default_constraints: tuple[TopologySpreadConstraint, ...] = (),
                 listers=None) -> None:
        self.shared_lister = shared_lister
        self.default_constraints = default_constraints
        self.listers = listers

    def name(self) -> str:
        return NAME

    def build_args(self) -> dict:
        return {"defaultConstraints": [_constraint_dict(c) for c in self.default_constraints]}


def _constraint_dict(c: TopologySpreadConstraint) -> dict:
    return {"maxSkew": c.max_skew, "topologyKey": c.topology_key, "whenUnsatisfiable": c.when_unsatisfiable}


def validate_args(constraints: tuple[TopologySpreadConstraint, ...]) -> None:
    """Raise ValueError with every problem (an aggregate, joined as Go's ``[a, b]``)."""
    errors: list[str] = []
    for i, c in enumerate(constraints):
        path = f"defaultConstraints[{i}]"
        if c.max_skew <= 0:
            errors.append(f"{path}.maxSkew: Invalid value: {c.max_skew}: must be greater than zero")
        errors += validate_topology_key(f"{path}.topologyKey", c.topology_key)
        errors += validate_when_unsatisfiable(f"{path}.whenUnsatisfiable", c.when_unsatisfiable)
        if c.label_selector is not None:
            errors.append(f"{path}.labelSelector: Forbidden: constraint must not define a selector, "
                          "as they deduced for each pod")
        errors += validate_constraint_not_repeat(constraints, i)
    if len(errors) == 1:
        raise ValueError(errors[0])
    if errors:
        raise ValueError("[" + ", ".join(errors) + "]")


def validate_topology_key(path: str, key: str) -> list[str]:
    if not key:
        return [f"{path}: Required value: can not be empty"]
    return [f'{path}: Invalid value: "{key}": {msg}' for msg in _label_name_errors(key)]


def _label_name_errors(key: str) -> list[str]:
    """``ValidateLabelName`` (IsQualifiedName) messages."""
    import re
    name_msg = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
    parts = key.split("/")
    if len(parts) == 1:
        prefix, name = "", parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            return ["prefix part must be non-empty"]
    else:
        return ["a qualified name " + name_msg.replace("name part ", "", 1)
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    errors = []
    if prefix:
        dns = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
        if len(prefix) > 253:
            errors.append("prefix part must be no more than 253 characters")
        if not re.fullmatch(dns, prefix):
            errors.append("prefix part a DNS-1123 subdomain must consist of lower case alphanumeric characters, "
                          "'-' or '.', and must start and end with an alphanumeric character (e.g. "
                          "'example.com', regex used for validation is '" + dns + "')")
    if not name:
        errors.append("name part must be non-empty")
    else:
        if len(name) > 63:
            errors.append("name part must be no more than 63 characters")
        if not re.fullmatch(_LABEL_NAME_PART, name):
            errors.append(name_msg)
    return errors


def validate_when_unsatisfiable(path: str, action: str) -> list[str]:
    if not action:
        return [f"{path}: Required value: can not be empty"]
    if action not in SUPPORTED_SCHEDULE_ACTIONS:
        supported = ", ".join(f'"{a}"' for a in SUPPORTED_SCHEDULE_ACTIONS)
        return [f'{path}: Unsupported value: "{action}": supported values: {supported}']
    return []


def validate_constraint_not_repeat(constraints: tuple[TopologySpreadConstraint, ...], idx: int) -> list[str]:
    c = constraints[idx]
    for other in constraints[:idx]:
        if c.topology_key == other.topology_key and c.when_unsatisfiable == other.when_unsatisfiable:
            return [f'defaultConstraints[{idx}]: Duplicate value: "{{{c.topology_key}, {c.when_unsatisfiable}}}"']
    return []


def new(args, handle) -> PodTopologySpread:
    """``New``: decode and validate defaultConstraints; defaults need the informer listers."""
    shared_lister = handle.snapshot_shared_lister()
    if shared_lister is None:
        raise ValueError("SnapshotSharedlister is nil")
    constraints = decode_into(args, Args).default_constraints
    validate_args(constraints)
    listers = None
    if constraints:
        listers = handle.listers()
        if listers is None:
            raise ValueError("SharedInformerFactory is nil")
    return PodTopologySpread(shared_lister, constraints, listers)
