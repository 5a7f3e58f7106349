"""DefaultNormalizeScore: scale a score list to [0, max_priority], optionally reversed.

Upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go @ v1.18.5
(DefaultNormalizeScore).
"""

from __future__ import annotations

from typing import Optional

from kubesched.scheduler.framework.v1alpha1.interface import NodeScoreList, Status


def default_normalize_score(max_priority: int, reverse: bool, scores: NodeScoreList) -> Optional[Status]:
    """Each score s becomes ``max_priority * s // max``; with ``reverse``, ``max_priority`` minus that.

    When every score is 0 (or negative), the list is left unchanged, or all set to
    ``max_priority`` if ``reverse``. Edits ``scores`` in place; always succeeds.
    """
    max_count = max([0] + [s.score for s in scores])
    if max_count == 0:
        if reverse:
            for s in scores:
                s.score = max_priority
        return None
    for s in scores:
        score = _go_div(max_priority * s.score, max_count)
        s.score = max_priority - score if reverse else score
    return None


def _go_div(a: int, b: int) -> int:
    """Go's integer division truncates toward zero (Python's ``//`` floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q
