"""Compact rows for the lesson player's side view: the current cycle's Filter outcome and total
score per node, and where each pod is.

Upstream: pkg/scheduler/core/generic_scheduler.go (findNodesThatFitPod, prioritizeNodes),
pkg/scheduler/internal/queue/scheduling_queue.go. Pure: records/state in, rows out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched.explain.cycles import cycle_records
from kubesched.lessons.feedback import Why
from kubesched.lessons.quiz import TOKENS
from kubesched.trace import Kind, Record
from kubesched.ui.i18n import t
from kubesched.ui.theme import FILTER_OUTCOMES  # noqa: F401  (glyphs are shared with the filter matrix)

PASS, FAIL, SKIPPED = "✓", "✗", "·"


def last_cycle(records: Sequence[Record]) -> int | None:
    for record in reversed(records):
        if record.kind is Kind.CYCLE_START:
            return record.cycle
    return None


def node_rows(records: Sequence[Record]) -> list[dict[str, Any]]:
    """One row per node visited in the last cycle: first failing filter (or ✓) and total score."""
    cycle = last_cycle(records)
    if cycle is None:
        return []
    mine = cycle_records(records, cycle)
    outcome: dict[str, str] = {}
    walk = next((r.data for r in mine if r.kind is Kind.FILTER_RUN), None)
    if walk is not None:
        for node, check in walk.outcomes() if walk.plugins else ():
            failure = check.first_failure()
            if failure is not None and not outcome.get(node, "").startswith(FAIL):
                outcome[node] = f"{FAIL} {failure.plugin}: {'; '.join(failure.reasons)}"
            elif check.passes:
                outcome.setdefault(node, PASS)
        for node in walk.not_visited():
            outcome[node] = f"{SKIPPED} not visited"
    totals: dict[str, int] = {}
    for r in mine:
        if r.kind is Kind.SCORE_RUN and not r.data.error:
            totals = dict(zip(r.data.nodes, r.data.totals))
    return [{"node": node, "filter": text, "total": totals.get(node)} for node, text in outcome.items()][:60]


def option_label(option: str, lang: str) -> str:
    """An option as the learner reads it: a token (quiz.TIE, NONE, YES, NO) in their language."""
    return t(f"lessons.opt.{option[1:]}", lang) if option in TOKENS else option


def answer_text(answer: object, lang: str = "en") -> str:
    """A guess or an answer as the player prints it: options joined by commas, tokens worded."""
    items = sorted(answer) if isinstance(answer, (tuple, list, frozenset, set)) else [str(answer)]
    return ", ".join(option_label(str(item), lang) for item in items)


def why_text(why: Why, lang: str) -> str:
    """One feedback fact (kubesched.lessons.feedback) in the learner's language."""
    return t(f"lessons.why.{why.key}", lang, **dict(why.args))


def pod_rows(state: Any, records: Sequence[Record]) -> list[dict[str, Any]]:
    """Every pod: its queue (from the last visible move), phase and node."""
    where: dict[str, str] = {}
    for r in records:
        if r.kind is Kind.QUEUE_MOVE and r.pod:
            where[r.pod] = r.data.target
    return [{"pod": p.key, "queue": where.get(p.key, ""), "phase": p.phase, "node": p.node or p.nominated_node}
            for p in state.pods][:60]


__all__ = ["answer_text", "node_rows", "option_label", "pod_rows", "why_text"]
