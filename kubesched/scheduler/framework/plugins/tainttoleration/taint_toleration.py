"""TaintToleration: filter out nodes with untolerated NoSchedule/NoExecute taints; prefer
nodes with fewer untolerated PreferNoSchedule taints.

Upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
(TaintToleration.Name, Filter, getAllTolerationPreferNoSchedule, PreScore, getPreScoreState,
countIntolerableTaintsPreferNoSchedule, Score, NormalizeScore, ScoreExtensions, New).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Optional

from kubesched.api import v1helper
from kubesched.api.core import Node, Pod, Taint, Toleration
from kubesched.scheduler.framework.plugins.helper.normalize_score import default_normalize_score
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, FilterPlugin, PreFilterSkip, NodeScoreList, PreScorePlugin, ScorePlugin, PreScoreSkip,
    Status)
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "TaintToleration"
PRE_SCORE_STATE_KEY: Final = "PreScore" + NAME
# Kept as upstream keeps it; Filter reports the offending taint instead (see ``filter``).
ERR_REASON_NOT_MATCH: Final = "node(s) had taints that the pod didn't tolerate"


@dataclass(frozen=True, slots=True)
class PreScoreState:
    """The pod's tolerations with effect PreferNoSchedule or empty (``preScoreState``)."""

    tolerations_prefer_no_schedule: tuple[Toleration, ...]

    def clone(self) -> "PreScoreState":
        return self


class TaintToleration:
    """Filter, PreScore, Score and NormalizeScore plugin over node taints."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*TaintToleration).Filter. The first untolerated hard taint, in node order."""
        if node_info is None or node_info.node is None:
            return Status(Code.ERROR, ("invalid nodeInfo",))
        taints = node_info.node.spec.taints
        if not taints:
            return None
        taint, untolerated = v1helper.find_matching_untolerated_taint(taints, pod.spec.tolerations, _is_hard_taint)
        if not untolerated:
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (err_reason_untolerated(taint),))

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): keyless Exists tolerations cover both hard effects, so
        every NoSchedule and NoExecute taint is tolerated."""
        tolerations = pod.spec.tolerations
        return bool(tolerations) and all(
            _tolerates_every_taint(tolerations, effect) for effect in _HARD_TAINT_EFFECTS)

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[Status]:
        """Upstream: (*TaintToleration).PreScore. No nodes: nothing is written."""
        if not nodes:
            return None
        state.write(PRE_SCORE_STATE_KEY,
                    PreScoreState(get_all_toleration_prefer_no_schedule(pod.spec.tolerations)))
        return None

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*TaintToleration).Score. Raw score = untolerated PreferNoSchedule taints."""
        node_info = get_node_info(self.node_infos, node_name)
        node = node_info.node if node_info is not None else None
        if node is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except KeyError as err:
            return 0, Status(Code.ERROR, (f'Error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}',))
        if not isinstance(s, PreScoreState):
            return 0, Status(Code.ERROR, (f"{s!r} convert to tainttoleration.preScoreState error",))
        taints = node.spec.taints
        if not taints:
            return 0, None
        return count_intolerable_taints_prefer_no_schedule(taints, s.tolerations_prefer_no_schedule), None

    def constant_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): the count every node shares (0 when no node has a taint,
        the usual case); None when counts differ or the state is missing (Score errs)."""
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except KeyError:
            return None
        if not isinstance(s, PreScoreState):
            return None
        tolerations = s.tolerations_prefer_no_schedule
        constant: Optional[int] = None
        for node in nodes:
            taints = node.spec.taints
            count = count_intolerable_taints_prefer_no_schedule(taints, tolerations) if taints else 0
            if constant is None:
                constant = count
            elif count != constant:
                return None
        return constant

    def normalize_score(self, state: CycleState, pod: Pod, scores: NodeScoreList) -> Optional[Status]:
        """Upstream: (*TaintToleration).NormalizeScore — reversed: fewer taints, higher score."""
        return default_normalize_score(MAX_NODE_SCORE, True, scores)

    def score_extensions(self) -> "TaintToleration":
        return self


def err_reason_untolerated(taint: Taint) -> str:
    """The Filter reason naming the taint (kubernetes#87250, in v1.18.0)."""
    return f"node(s) had taint {{{taint.key}: {taint.value}}}, that the pod didn't tolerate"


_HARD_TAINT_EFFECTS: Final = (v1helper.TAINT_EFFECT_NO_SCHEDULE, v1helper.TAINT_EFFECT_NO_EXECUTE)


def _is_hard_taint(taint: Taint) -> bool:
    return taint.effect in _HARD_TAINT_EFFECTS


def _tolerates_every_taint(tolerations: tuple[Toleration, ...], effect: str) -> bool:
    """Some toleration matches any taint of ``effect``: no key, operator Exists, that effect or none."""
    return any(not t.key and t.operator == v1helper.TOLERATION_OP_EXISTS and (not t.effect or t.effect == effect)
               for t in tolerations)


def get_all_toleration_prefer_no_schedule(tolerations: tuple[Toleration, ...]) -> tuple[Toleration, ...]:
    """Upstream: getAllTolerationPreferNoSchedule (an empty effect means every effect)."""
    return tuple(t for t in tolerations
                 if not t.effect or t.effect == v1helper.TAINT_EFFECT_PREFER_NO_SCHEDULE)


def count_intolerable_taints_prefer_no_schedule(taints: tuple[Taint, ...],
                                                tolerations: tuple[Toleration, ...]) -> int:
    """Upstream: countIntolerableTaintsPreferNoSchedule."""
    count = 0
    for taint in taints:
        if taint.effect == v1helper.TAINT_EFFECT_PREFER_NO_SCHEDULE and not (
                tolerations and v1helper.tolerations_tolerate_taint(tolerations, taint)):
            count += 1
    return count


def new(args: dict | None, handle: object) -> TaintToleration:
    """Upstream: New (no args)."""
    return TaintToleration(node_infos_of(handle))


_f: FilterPlugin = TaintToleration(None)
_p: PreScorePlugin = TaintToleration(None)
_s: ScorePlugin = TaintToleration(None)
_fs: PreFilterSkip = TaintToleration(None)
_ss: PreScoreSkip = TaintToleration(None)
