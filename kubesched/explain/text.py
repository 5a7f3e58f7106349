"""Plain-text rendering of an ``Explanation``: one summary sentence, then the details.

Upstream: no counterpart; every quoted reason and message is v1.18.5's own text as the
trace holds it (Filter reasons, the FitError message, Event messages).

``sentence(e)`` answers "why is the pod where it is?" (or, with ``e.focus``, "why (not) on
this node?") in one sentence; ``render(e)`` adds the Filter verdict per node, the scores of the
feasible nodes, selectHost's pick, the bind and preemption. Returns strings; never prints.
"""

from __future__ import annotations

from kubesched.explain.model import (
    NOT_VISITED,
    PASSED,
    REJECTED,
    Explanation,
    NodeScores,
    NodeVerdict,
    PreemptionInfo,
)

__all__ = ["node_line", "render", "seconds", "sentence"]


def seconds(t: float | None) -> str:
    """Simulated seconds, to the microsecond as the trace stores them: ``1.5s``."""
    if t is None:
        return "-"
    return f"{round(t, 6):g}s"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _reasons(v: NodeVerdict) -> str:
    return ", ".join(v.reasons) if v.reasons else v.code


def _who(v: NodeVerdict) -> str:
    return f"extender {v.plugin}" if v.extender else f"Filter plugin {v.plugin}"


# -- one sentence ------------------------------------------------------------------------------------
def _winner(e: Explanation) -> tuple[str, int | None]:
    if e.pick is None:
        return "", None
    return e.pick.selected, e.pick.max_score


def _why_on(e: Explanation, node: str) -> str:
    pick = e.pick
    if pick is None:
        return f"it passed all filters on {node}"
    if pick.shortcut:
        return f"{node} was the only feasible node, so scoring was skipped"
    if len(pick.ties) > 1:
        others = ", ".join(n for n in pick.ties if n != node)
        return (f"it passed all filters on {node} and tied for the highest score {pick.max_score} with "
                f"{others}; selectHost picked {node}")
    return f"it passed all filters on {node} and had the highest score ({pick.max_score})"


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
        return f"Pod {e.pod} is bound to node {s.node} at {seconds(e.bind.time)}: {_why_on(e, s.node)}."
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


def _why_not_passed(e: Explanation, node: str) -> str:
    scores = e.scores_of(node)
    winner, best = _winner(e)
    total = scores.total if scores is not None else None
    if not winner:
        return f"{node} passed all filters, but the pod was not placed ({e.result or 'no result'})."
    if e.pick is not None and node in e.pick.ties:
        return (f"Not on {node}: it passed all filters and tied for the highest score {best} with {winner}; "
                f"selectHost picked {winner}.")
    return (f"Not on {node}: it passed all filters but scored {total}, lower than {winner}'s {best}.")


def _focus(e: Explanation, node: str) -> str:
    s = e.status
    if not e.found or s is None:
        return f"Pod {e.pod} is not in the cluster."
    if s.node == node and e.bind is not None and e.bind.node == node:
        return f"On {node}: {_why_on(e, node)}."
    if e.cycle is None:
        return _summary(e)
    v = e.verdict(node)
    if v is None:
        return f"{node} was not one of the nodes of cycle {e.cycle} (the scheduler's snapshot did not hold it)."
    if v.verdict == REJECTED:
        return f"Not on {node}: {_who(v)} rejected it: {_reasons(v)}."
    if v.verdict == NOT_VISITED:
        return (f"Not on {node}: it was not evaluated; the scheduler had found enough feasible nodes "
                f"(numFeasibleNodesToFind) before reaching it.")
    return _why_not_passed(e, node)


def sentence(e: Explanation) -> str:
    """The one-sentence answer (for ``e.focus``, about that node)."""
    return _focus(e, e.focus) if e.focus else _summary(e)


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
    winner, _ = _winner(e)
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
