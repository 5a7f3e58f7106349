"""NodeLabel: filter on the presence/absence of node label keys; score preferred ones.

Upstream: pkg/scheduler/framework/plugins/nodelabel/node_label.go
(Args, validateNoConflict, New, NodeLabel.Name, Filter, Score, ScoreExtensions).

Deviation: with both preference lists empty upstream Score divides by zero (a Go runtime
panic); here the score is 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, FilterPlugin, ScorePlugin, Status)
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "NodeLabel"
ERR_REASON_PRESENCE_VIOLATED: Final = "node(s) didn't have the requested labels"


@dataclass(frozen=True, slots=True)
class Args:
    """``nodelabel.Args`` (JSON keys presentLabels, absentLabels, …Preference)."""

    present_labels: tuple[str, ...] = ()
    absent_labels: tuple[str, ...] = ()
    present_labels_preference: tuple[str, ...] = ()
    absent_labels_preference: tuple[str, ...] = ()


class NodeLabel:
    """Filter + Score plugin over node label keys (values are ignored)."""

    def __init__(self, node_infos: object, args: Args) -> None:
        self.node_infos = node_infos
        self.args = args

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*NodeLabel).Filter."""
        if node_info is None or node_info.node is None:
            return Status(Code.ERROR, ("node not found",))
        labels = node_info.node.metadata.labels
        if (all(k in labels for k in self.args.present_labels)
                and not any(k in labels for k in self.args.absent_labels)):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON_PRESENCE_VIOLATED,))

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*NodeLabel).Score. Average over preferences of 100 per satisfied one."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None or node_info.node is None:
            return 0, Status(Code.ERROR, (
                lookup_error(self.node_infos, node_name, node_is_nil=True),))
        labels = node_info.node.metadata.labels
        present, absent = self.args.present_labels_preference, self.args.absent_labels_preference
        score = (sum(MAX_NODE_SCORE for k in present if k in labels)
                 + sum(MAX_NODE_SCORE for k in absent if k not in labels))
        total = len(present) + len(absent)
        return (score // total if total else 0), None

    def score_extensions(self) -> None:
        return None


def validate_no_conflict(present_labels: tuple[str, ...], absent_labels: tuple[str, ...]) -> None:
    """Upstream: validateNoConflict. Raises ValueError naming the first absent label also present."""
    present = set(present_labels)
    for label in absent_labels:
        if label in present:
            raise ValueError(
                f'detecting at least one label (e.g., "{label}") that exist in both the '
                f"present({_go_list(present_labels)}) and absent({_go_list(absent_labels)}) label list")


def _go_list(items: tuple[str, ...]) -> str:
    """Go's ``%+v`` of a []string: ``[a b]``."""
    return "[" + " ".join(items) + "]"


def _string_list(args: dict | None, key: str) -> tuple[str, ...]:
    """One JSON field of the args, matched case-insensitively as Go's encoding/json does."""
    args = args or {}
    value = args.get(key, next((v for k, v in args.items() if k.lower() == key.lower()), None))
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"json: cannot unmarshal {type(value).__name__} into Go struct field Args.{key} "
                         "of type []string")
    return tuple(value)


def new(args: dict | None, handle: object) -> NodeLabel:
    """Upstream: New. Raises ValueError on conflicting present/absent lists."""
    parsed = Args(*(_string_list(args, key) for key in (
        "presentLabels", "absentLabels", "presentLabelsPreference", "absentLabelsPreference")))
    validate_no_conflict(parsed.present_labels, parsed.absent_labels)
    validate_no_conflict(parsed.present_labels_preference, parsed.absent_labels_preference)
    return NodeLabel(node_infos_of(handle), parsed)


_f: FilterPlugin = NodeLabel(None, Args())
_s: ScorePlugin = NodeLabel(None, Args())
