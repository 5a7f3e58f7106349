"""Why an answer is right or wrong, computed from the run: small keyed facts the page words.

Upstream: no counterpart; the facts are what v1.18.5 decided as the trace holds it —
findNodesThatPassFilters (a node's first failing Filter plugin and its reasons, the nodes the
walk never reached), prioritizeNodes / selectHost (totals, the tie set), pickOneNodeForPreemption
(the rounds of its rules), the queue's moves.

A ``Why`` is a key and its arguments (plain strings: node, plugin and pod names, upstream's
reason strings, numbers). The Lessons page renders ``lessons.why.<key>`` from the UI catalog in
the learner's language; ``KEYS`` lists every key with its arguments, and a test keeps the
catalog in step with it. The builders here take the decision payloads (``FilterRun``,
``ScoreRun``, ``Preemption``), never the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# key -> its arguments (the catalog entry lessons.why.<key> uses exactly these placeholders)
KEYS: dict[str, tuple[str, ...]] = {
    "passes": ("node",),
    "fails": ("node", "plugin", "reason"),
    "not_visited": ("node", "found"),
    "not_evaluated": ("node", "plugin", "first", "reason"),
    "plugin_passed": ("node", "plugin"),
    "scores_lower": ("node", "total", "winner", "best"),
    "tie": ("nodes", "total"),
    "no_tie": ("winner", "best", "runner", "second"),
    "only_feasible": ("node",),
    "unschedulable": ("pod", "message"),
    "queue": ("pod", "source", "target", "event", "time"),
    "not_queued": ("pod",),
    "evaluated": ("processed", "feasible", "failed", "found"),
    "to_find_all": ("all",),
    "to_find": ("all", "percent", "product", "found"),
    "leader": ("replica",),
    "order": ("order",),
    "preempt_pick": ("node", "criterion"),
    "preempt_dropped": ("node", "criterion"),
    "preempt_not_candidate": ("node",),
    "preempt_tie": ("nodes",),
    "rounds": ("rounds",),
    "victims": ("node", "victims"),
    "victim": ("pod", "node"),
    "reprieved": ("pod", "node"),
    "plugin_adds": ("plugin", "node", "value"),
    "total": ("node", "sum"),
    "attempts": ("pod", "count", "times"),
    "backoff": ("pod", "attempts", "seconds"),
    "profile": ("pod", "profile"),
    "claim": ("actual",),
}


@dataclass(frozen=True, slots=True)
class Why:
    key: str
    args: tuple[tuple[str, str], ...] = ()

    def arg(self, name: str) -> str:
        return dict(self.args).get(name, "")


def why(key: str, **args: Any) -> Why:
    """A ``Why``; ``KeyError`` for a key or argument set ``KEYS`` does not list."""
    if key not in KEYS or set(args) != set(KEYS[key]):
        raise KeyError(f"feedback {key!r} takes {KEYS.get(key)}, got {sorted(args)}")
    return Why(key, tuple((k, _text(v)) for k, v in args.items()))


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{round(value, 6):g}"
    if isinstance(value, (tuple, list)):
        return ", ".join(_text(v) for v in value)
    return str(value)


def short(pod: str) -> str:
    return pod.removeprefix("default/")


# -- Filter ----------------------------------------------------------------------------------------------
def node_filter(walk: Any, node: str) -> Why:
    """What findNodesThatPassFilters decided at ``node``: passes, fails (first plugin), not visited."""
    check = walk.check_of(node)
    if check is None:
        return why("not_visited", node=node, found=walk.num_nodes_to_find)
    failure = check.first_failure()
    if check.fits or failure is None:
        return why("passes", node=node)
    return why("fails", node=node, plugin=failure.plugin, reason="; ".join(failure.reasons))


def plugin_at(walk: Any, node: str, plugin: str) -> Why:
    """Why ``plugin`` is not the one reported at ``node``: it passed, or it never ran there."""
    check = walk.check_of(node)
    failure = check.first_failure() if check is not None else None
    if failure is None:
        return node_filter(walk, node)
    order = walk.plugins
    if plugin in order and failure.plugin in order and order.index(plugin) < order.index(failure.plugin):
        return why("plugin_passed", node=node, plugin=plugin)
    return why("not_evaluated", node=node, plugin=plugin, first=failure.plugin, reason="; ".join(failure.reasons))


# -- Score -----------------------------------------------------------------------------------------------
def totals(run: Any) -> dict[str, int]:
    return dict(zip(run.nodes, run.totals))


def pick(run: Any) -> Why:
    """Why selectHost picked what it did: a tie (a coin flip), or the highest total."""
    scores = totals(run)
    ties = run.ties()
    best = scores[ties[0]]
    if len(ties) > 1:
        return why("tie", nodes=ties, total=best)
    others = sorted(((s, n) for n, s in scores.items() if n != ties[0]), reverse=True)
    if not others:
        return why("only_feasible", node=ties[0])
    return why("no_tie", winner=ties[0], best=best, runner=others[0][1], second=others[0][0])


def node_score(run: Any, walk: Any, node: str) -> Why:
    """Why ``node`` did not win: it failed Filter, was never visited, or totals less than the best."""
    scores = totals(run) if run is not None else {}
    if node not in scores:
        return node_filter(walk, node) if walk is not None else why("not_visited", node=node, found=0)
    ties = run.ties()
    if node in ties:
        return pick(run)
    return why("scores_lower", node=node, total=scores[node], winner=ties[0], best=scores[ties[0]])


def breakdown(run: Any, node: str) -> Why:
    """A node's total as the sum prioritizeNodes made: each plugin's normalized score × weight."""
    i = run.nodes.index(node)
    parts = []
    for p, plugin in enumerate(run.plugins):
        _raw, norm, weight, weighted = run.cell(i, p)
        if weighted:
            parts.append(f"{plugin} {norm}×{weight}")
    extender = dict(run.extender_scores).get(node)
    if extender:
        parts.append(f"extenders {extender}×10")
    return why("total", node=node, sum=" + ".join(parts) + f" = {totals(run)[node]}")


# -- Preempt ---------------------------------------------------------------------------------------------
def coin_flip(pick_run: Any) -> tuple[str, ...]:
    """The nodes pickOneNodeForPreemption could have returned when its rules left a tie (upstream
    then takes the first of a list built from a Go map, in random order); () when decided."""
    rounds = pick_run.rounds
    if pick_run.criterion == "FirstRemaining" and len(rounds) >= 2:
        return tuple(rounds[-2][1])
    return ()


def rounds_text(pick_run: Any) -> str:
    return "; ".join(f"{rule} → [{', '.join(nodes)}]" for rule, nodes in pick_run.rounds)


def preempt_node(pick_run: Any, node: str) -> Why:
    """Why preemption did not choose ``node``: no candidate, or dropped by a rule."""
    candidates = [n.node for n in pick_run.nodes if n.fits]
    if node not in candidates:
        return why("preempt_not_candidate", node=node)
    for rule, left in pick_run.rounds:
        if node not in left:
            return why("preempt_dropped", node=node, criterion=rule)
    tied = coin_flip(pick_run)
    if tied:
        return why("preempt_tie", nodes=tied)
    return why("preempt_pick", node=pick_run.node, criterion=pick_run.criterion)


def names(items: Sequence[str]) -> str:
    return ", ".join(short(i) for i in items) or "—"


__all__ = ["KEYS", "Why", "breakdown", "coin_flip", "names", "node_filter", "node_score", "pick", "plugin_at",
           "preempt_node", "rounds_text", "short", "totals", "why"]
