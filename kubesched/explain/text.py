"""Plain-text rendering of an ``Explanation``: one summary sentence, then the details.

Upstream: no counterpart; every quoted reason and message is v1.18.5's own text as the
trace holds it (Filter reasons, the FitError message, Event messages).

``sentence(e)`` answers "why is the pod where it is?" (or, with ``e.focus``, "why (not) on
this node?") in one sentence; ``render(e)`` adds the Filter verdict per node, the scores of the
feasible nodes, selectHost's pick, the bind and preemption. Returns strings; never prints.
"""

from __future__ import annotations

from collections.abc import Callable

from kubesched.explain.model import (
    NOT_VISITED,
    PASSED,
    REJECTED,
    Explanation,
    NodeScores,
    NodeVerdict,
    PreemptionInfo,
)

__all__ = ["PHRASES", "Phrase", "focus_phrase", "node_line", "render", "seconds", "sentence", "words"]


def seconds(t: float | None) -> str:
    """Simulated seconds, to the microsecond as the trace stores them: ``1.5s``."""
    if t is None:
        return "-"
    return f"{round(t, 6):g}s"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _reasons(v: NodeVerdict) -> str:
    return ", ".join(v.reasons) if v.reasons else v.code


# -- one sentence ------------------------------------------------------------------------------------
# A focus sentence is a ``Phrase``: a template key and its fields, where a field may itself be a
# Phrase. ``words`` fills it from a template table: ``PHRASES`` here (English, for the CLI), the
# dashboard's catalog for 中文 (kubesched/ui/i18n/explain.py, same keys).
Phrase = tuple[str, dict[str, object]]

PHRASES: dict[str, str] = {
    "not_in_cluster": "Pod {pod} is not in the cluster.",
    "summary": "{text}",
    "on": "On {node}: {why}.",
    "selected": "{node} selected; binding pending: {why}.",
    "bind_failed": "Not on {node}: selectHost picked it, but binding failed: {error}",
    "why.filters": "it passed all filters on {node}",
    "why.shortcut": "{node} was the only feasible node, so scoring was skipped",
    "why.tie": "it passed all filters on {node} and tied for the highest score {score} with {others}; "
               "selectHost picked {node}",
    "why.best": "it passed all filters on {node} and had the highest score, {score}",
    "score.split": "{total} ({diff} without the {common} common to all {count} scored nodes)",
    "not_in_snapshot": "{node} was not one of the nodes of cycle {cycle} (the scheduler's snapshot did not hold it).",
    "not_yet": "{node} is not evaluated yet: the Filter walk of cycle {cycle} has not run at the cursor.",
    "no_walk": "Not on {node}: cycle {cycle} ended before any node was filtered ({result}).",
    "rejected": "Not on {node}: {who} rejected it: {reasons}.",
    "who.plugin": "Filter plugin {plugin}",
    "who.extender": "extender {plugin}",
    "not_visited": "Not on {node}: it was not evaluated; the scheduler had found enough feasible nodes "
                   "(numFeasibleNodesToFind) before reaching it.",
    "scoring_pending": "{node} passed all filters; scoring has not happened yet at the cursor.",
    "not_placed": "{node} passed all filters, but the pod was not placed ({result}).",
    "tied": "Not on {node}: it passed all filters and tied for the highest score {score} with {others}; "
            "selectHost picked {winner}.",
    "lower": "Not on {node}: it passed all filters but scored {total}, lower than {winner}'s {best}.",
    "lower.split": "Not on {node}: it passed all filters but scored {total}, lower than {winner}'s {best} "
                   "(without the {common} common to all {count} scored nodes: {diff} vs {best_diff}).",
}


def words(phrase: Phrase, lookup: Callable[[str], str] = PHRASES.__getitem__) -> str:
    """``phrase`` as text: its template from ``lookup``, nested phrases filled in first."""
    key, fields = phrase
    return lookup(key).format(**{k: words(v, lookup) if isinstance(v, tuple) else v for k, v in fields.items()})


def _score(e: Explanation, total: int | None) -> Phrase | int | None:
    """A total, with the part that differs between the scored nodes when they share a part."""
    common = e.common_score()
    if not common or total is None or total == common:   # nothing differs: the plain total
        return total
    return ("score.split", {"total": total, "diff": total - common, "common": common, "count": len(e.scores)})


def _ties_without(e: Explanation, node: str) -> str:
    return ", ".join(n for n in e.pick.ties if n != node) if e.pick else ""


def _why_on(e: Explanation, node: str) -> Phrase:
    pick = e.pick
    if pick is None:
        return "why.filters", {"node": node}
    if pick.shortcut:
        return "why.shortcut", {"node": node}
    score = _score(e, pick.max_score)
    if len(pick.ties) > 1:
        return "why.tie", {"node": node, "score": score, "others": _ties_without(e, node)}
    return "why.best", {"node": node, "score": score}


def _summary(e: Explanation) -> str:
    s = e.status
    if not e.found or s is None:
        return f"Pod {e.pod} is not in the cluster."
    if s.phase == "Deleted":
        if e.preempted_by:
            by = "; ".join(f"by {pod} on node {node} at {seconds(t)}" for pod, node, t in e.preempted_by)
            return f"Pod {e.pod} was deleted: it was preempted {by}."
        return f"Pod {e.pod} was deleted."
    if e.cycle is None:
        if s.node:
            return (f"Pod {e.pod} is {s.phase} on node {s.node}: it was created with spec.nodeName set, "
                    f"so the scheduler never scheduled it.")
        return f"Pod {e.pod} is {s.phase}: no scheduling cycle ever started for it."
    if s.node and e.bind is not None and e.bind.node == s.node and e.bind.error is None:
        return f"Pod {e.pod} is bound to node {s.node} at {seconds(e.bind.time)}: {words(_why_on(e, s.node))}."
    if s.node:
        return f"Pod {e.pod} is {s.phase} on node {s.node}."
    text = f"Pod {e.pod} is {s.phase}"
    if e.result == "scheduled" and e.pick is not None:
        text += f": assumed on node {e.pick.selected}, binding not finished"
    elif e.message:
        text += f": {e.message}"
    if not text.endswith("."):
        text += "."
    if s.nominated_node:
        text += f" Preemption nominated node {s.nominated_node}."
    return text


def _passed(e: Explanation, node: str) -> Phrase:
    """A node that passed every filter: still to be scored, picked, tied, or scored lower."""
    pick = e.pick
    if pick is None or not pick.selected:
        key = "not_placed" if e.cycle_ended else "scoring_pending"
        return key, {"node": node, "result": e.result or "no result"}
    if node == pick.selected:
        if e.bind is not None and e.bind.node == node and e.bind.error is not None:
            return "bind_failed", {"node": node, "error": e.bind.error}
        return "selected", {"node": node, "why": _why_on(e, node)}
    winner, best = pick.selected, pick.max_score
    if node in pick.ties and len(pick.ties) > 1:
        return "tied", {"node": node, "score": _score(e, best), "others": _ties_without(e, node), "winner": winner}
    scores = e.scores_of(node)
    total = scores.total if scores is not None else None
    common = e.common_score()
    if common and total is not None and best is not None:
        return "lower.split", {"node": node, "total": total, "winner": winner, "best": best, "common": common,
                               "count": len(e.scores), "diff": total - common, "best_diff": best - common}
    return "lower", {"node": node, "total": total, "winner": winner, "best": best}


def _unlisted(e: Explanation, node: str) -> Phrase:
    """A node without a verdict: the walk has not run yet, never ran, or the snapshot lacked it."""
    if e.num_all_nodes is not None:
        return "not_in_snapshot", {"node": node, "cycle": e.cycle}
    if e.cycle_ended:
        return "no_walk", {"node": node, "cycle": e.cycle, "result": e.message or e.result}
    return "not_yet", {"node": node, "cycle": e.cycle}


def _bound(e: Explanation, node: str) -> bool:
    """The trace read ends after the pod's successful bind to ``node`` (the state may lag inside the callback)."""
    b, s = e.bind, e.status
    return b is not None and b.error is None and b.node == node and s is not None and s.node in ("", node)


def focus_phrase(e: Explanation, node: str) -> Phrase:
    """Why (not) on ``node``, as true at the end of the trace read: a node counts as "on" only
    once the pod is bound there; the node selectHost just picked is "selected; binding pending"."""
    s = e.status
    if not e.found or s is None:
        return "not_in_cluster", {"pod": e.pod}
    if _bound(e, node):
        return "on", {"node": node, "why": _why_on(e, node)}
    if e.cycle is None:
        return "summary", {"text": _summary(e)}
    v = e.verdict(node)
    if v is None:
        return _unlisted(e, node)
    if v.verdict == REJECTED:
        who = ("who.extender" if v.extender else "who.plugin", {"plugin": v.plugin})
        return "rejected", {"node": node, "who": who, "reasons": _reasons(v)}
    if v.verdict == NOT_VISITED:
        return "not_visited", {"node": node}
    return _passed(e, node)


def sentence(e: Explanation) -> str:
    """The one-sentence answer (for ``e.focus``, about that node)."""
    return words(focus_phrase(e, e.focus)) if e.focus else _summary(e)


# -- details ---------------------------------------------------------------------------------------
def node_line(v: NodeVerdict, width: int = 0) -> str:
    """``zone-a-1  rejected by NodeResourcesFit: Insufficient cpu`` (or passed / not visited)."""
    if v.verdict == REJECTED:
        text = f"rejected by {'extender ' if v.extender else ''}{v.plugin}: {_reasons(v)}"
        if v.nominated_pods:
            text += f" (with nominated pods {', '.join(v.nominated_pods)} added)"
    elif v.verdict == PASSED:
        text = "passed all filters"
    elif v.verdict == NOT_VISITED:
        text = "not visited (numFeasibleNodesToFind reached)"
    else:
        text = v.verdict
    return f"{v.node:<{width}}  {text}"


def _score_lines(s: NodeScores) -> list[str]:
    lines = [f"  {s.node}: total {s.total if s.total is not None else '-'}"]
    width = max((len(p.plugin) for p in s.plugins), default=0)
    for p in s.plugins:
        lines.append(f"    {p.plugin:<{width}}  {_n(p.raw)} -> {_n(p.normalized)} x {_n(p.weight)} = {_n(p.weighted)}")
    if s.extender is not None:
        lines.append(f"    {'extenders':<{width}}  {s.extender}")
    return lines


def _n(v: int | None) -> str:
    return "-" if v is None else str(v)


def _cycle_lines(e: Explanation) -> list[str]:
    s = e.status
    lines = []
    if s is not None:
        where = s.node or "-"
        nominated = f", nominated node {s.nominated_node}" if s.nominated_node else ""
        lines.append(f"Status: {s.phase}, node {where}{nominated}, {_plural(s.attempts, 'attempt')}.")
    if e.cycle is not None:
        nodes = f", {e.num_all_nodes} nodes" if e.num_all_nodes is not None else ""
        lines.append(f"Last scheduling cycle: {e.cycle} at {seconds(e.cycle_time)} "
                     f"(profile {e.profile}{nodes}): {e.result}.")
        if e.message:
            lines.append(f"  {e.message}")
    return lines


def _filter_lines(e: Explanation, only: str | None) -> list[str]:
    verdicts = [v for v in e.nodes if only is None or v.node == only]
    if not verdicts:
        return []
    width = max(len(v.node) for v in verdicts)
    lines = ["Filter (v1.18 stops at a node's first failing filter):"]
    lines += ["  " + node_line(v, width) for v in verdicts]
    return lines


def _score_section(e: Explanation, only: str | None) -> list[str]:
    if not e.scores:
        return []
    winner = e.pick.selected if e.pick is not None else ""
    chosen = [s for s in e.scores if only is None or s.node in (only, winner)]
    lines = ["Scores (raw -> normalized x weight = weighted):"]
    for s in chosen:
        lines += _score_lines(s)
    return lines


def _pick_lines(e: Explanation) -> list[str]:
    p = e.pick
    if p is None:
        return []
    if p.shortcut:
        return [f"Pick: {p.selected} (the only feasible node; scoring skipped)."]
    ties = f"tie between {', '.join(p.ties)}" if len(p.ties) > 1 else "no tie"
    return [f"Pick: highest score {p.max_score} ({ties}) -> {p.selected}."]


def _bind_lines(e: Explanation) -> list[str]:
    b = e.bind
    if b is None:
        return []
    if b.error is not None:
        return [f"Bind: to {b.node} failed at {seconds(b.time)}: {b.error}"]
    return [f"Bind: {b.node} at {seconds(b.time)} (binder {b.binder or 'framework'})."]


def _preemption_lines(p: PreemptionInfo | None, cycle: int | None) -> list[str]:
    if p is None:
        return []
    title = f"Preemption (cycle {cycle}):" if cycle is not None else "Preemption:"
    if not p.eligible:
        return [f"{title} not eligible: {p.ineligible_reason}"]
    lines = [title]
    if p.unresolvable_nodes:
        lines.append(f"  unresolvable nodes (removing pods would not help): {', '.join(p.unresolvable_nodes)}")
    for c in p.candidates:
        if c.fits:
            victims = ", ".join(c.victims) or "none"
            lines.append(f"  {c.node}: fits after removing {victims} ({c.pdb_violations} PDB violation(s))")
        else:
            lines.append(f"  {c.node}: does not fit even without lower-priority pods")
    if p.nominated_node:
        rule = f" (decided by {p.criterion})" if p.criterion else ""
        lines.append(f"  nominated node {p.nominated_node}{rule}; victims: {', '.join(p.victims) or 'none'}")
    else:
        lines.append("  no node found where preemption would help")
    return lines


def _event_lines(e: Explanation) -> list[str]:
    if not e.events:
        return []
    lines = ["Events:"]
    for time, type_, reason, message in e.events[-5:]:
        lines.append(f"  {seconds(time)}  {type_}  {reason}  {message}")
    return lines


def render(e: Explanation) -> str:
    """The full explanation: sentence, status, Filter verdicts, scores, pick, bind, preemption, Events."""
    only = e.focus
    sections = [[sentence(e)], _cycle_lines(e), _filter_lines(e, only), _score_section(e, only),
                _pick_lines(e), _bind_lines(e), [] if only else _preemption_lines(e.preemption, e.preemption_cycle),
                [] if only else _event_lines(e)]
    return "\n".join(line for section in sections for line in section) + "\n"
