"""Quiz and prediction questions whose answers are computed from the trace.

Upstream: no counterpart.

``answer(question, sim)`` returns an ``Answer``: the options to show and the correct one(s),
all read from the run at the cursor (a lesson never hard-codes an answer). Options are built
deterministically (no randomness) and are distinct; single-choice questions have exactly one
correct option, or ``QuizError`` says why the question has no unique answer here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kubesched.lessons.claims import ClaimError, View, _queue_now, pod_key
from kubesched.lessons.format import Question
from kubesched.trace import PICK_CRITERIA, Kind, calls_of

FILTER_PLUGINS = ("NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity",
                  "TaintToleration", "InterPodAffinity", "PodTopologySpread")
QUEUE_CHOICES = ("activeQ", "podBackoffQ", "unschedulableQ", "none (bound)")
CRITERIA = PICK_CRITERIA  # the rule names preemption records, in pickOneNodeForPreemption order
MOVE_EVENTS = ("PodAdd", "NodeAdd", "AssignedPodAdd", "AssignedPodDelete", "UnschedulableTimeout",
               "BackoffComplete", "ScheduleAttemptFailure", "NodeSpecUnschedulableChange")


class QuizError(ValueError):
    """A question this run cannot answer uniquely (or an unknown ``ask``)."""


@dataclass(frozen=True, slots=True)
class Answer:
    options: tuple[str, ...]
    correct: frozenset[str]
    multi: bool = False

    def grade(self, chosen: Iterable[str] | str) -> bool:
        picked = frozenset([chosen]) if isinstance(chosen, str) else frozenset(chosen)
        return picked == self.correct


def _options(correct: str, pool: Iterable[str], size: int = 4) -> tuple[str, ...]:
    out = [correct]
    for item in pool:
        if len(out) >= size:
            break
        if item not in out:
            out.append(item)
    return tuple(sorted(out))


def _numbers(correct: int, hints: Iterable[int]) -> tuple[str, ...]:
    values = [correct]
    for v in list(hints) + [correct + 1, correct * 2, max(correct - 1, 0), correct + 3]:
        if v >= 0 and v not in values and len(values) < 4:
            values.append(v)
    return tuple(str(v) for v in sorted(values))


def _pod(q: Question) -> str:
    pod = q.arg("pod")
    if not pod:
        raise QuizError(f"{q.ask} needs pod")
    return pod_key(pod)


def _cycle(view: View, pod: str, kind: Kind) -> list[Any]:
    try:
        return [r for r in view.cycle_records(pod) if r.kind is kind]
    except ClaimError as err:
        raise QuizError(str(err)) from None


def _walk(view: View, pod: str) -> Any:
    walks = _cycle(view, pod, Kind.FILTER_RUN)
    if not walks:
        raise QuizError(f"no Filter walk for {pod}")
    return walks[0].data


def _node_names(view: View) -> list[str]:
    return sorted(n.name for n in view.state.nodes)


def _rejecting_plugin(view: View, q: Question) -> Answer:
    pod, node = _pod(q), q.arg("node")
    calls = [c for r in _cycle(view, pod, Kind.FILTER_RUN) for c in calls_of(r) if c.node == node
             and c.data.extension_point == "Filter" and c.data.code != "Success"]
    if not calls:
        raise QuizError(f"no filter rejected {node} for {pod}")
    return Answer(_options(calls[0].plugin, FILTER_PLUGINS), frozenset([calls[0].plugin]))


def _winner(view: View, q: Question) -> Answer:
    pod = _pod(q)
    results = _cycle(view, pod, Kind.SCHEDULE_RESULT)
    picks = [r for r in _cycle(view, pod, Kind.SCORE_RUN) if r.data.selected]
    if results:
        host = results[-1].data.suggested_host
    elif picks:
        host = picks[-1].data.selected
    else:
        raise QuizError(f"{pod} was not scheduled in its last cycle")
    return Answer(_options(host, _node_names(view), size=6), frozenset([host]))


def _feasible_nodes(view: View, q: Question) -> Answer:
    pod = _pod(q)
    walk = _walk(view, pod)
    options = tuple(sorted(set(walk.feasible()) | set(walk.failed())))
    return Answer(options, frozenset(walk.feasible()), multi=True)


def _evaluated(view: View, q: Question) -> Answer:
    pod = _pod(q)
    walk = _walk(view, pod)
    total = len(view.state.nodes)
    return Answer(_numbers(walk.processed, [total, len(walk.feasible()), 100]), frozenset([str(walk.processed)]))


def _feasible_count(view: View, q: Question) -> Answer:
    walk = _walk(view, _pod(q))
    n = len(walk.feasible())
    return Answer(_numbers(n, [walk.processed]), frozenset([str(n)]))


def _queue_of(view: View, q: Question) -> Answer:
    got = _queue_now(view, _pod(q)) or QUEUE_CHOICES[-1]
    return Answer(QUEUE_CHOICES, frozenset([got]))


def _first_of(view: View, q: Question) -> Answer:
    steps = tuple(s.strip() for s in q.arg("steps").split(","))
    seen = {}
    for r in view.records:
        if r.kind is Kind.STARTUP_STEP and r.data.step in steps and r.data.step not in seen:
            seen[r.data.step] = r.seq
    if len(seen) != len(steps):
        raise QuizError(f"startup steps not all done: {sorted(set(steps) - set(seen))}")
    first = min(seen, key=seen.__getitem__)
    return Answer(tuple(sorted(steps)), frozenset([first]))


def _leader(view: View, q: Question) -> Answer:
    hosts = sorted(r.hostname for r in view.state.replicas)
    leader = next((r.hostname for r in view.state.replicas if r.leading), None)
    if leader is None:
        raise QuizError("no replica leads")
    return Answer(tuple(hosts), frozenset([leader]))


def _last_pick(view: View, pod: str) -> Any:
    """The pod's last visible preemption that picked a node (None when preemption never picked for it)."""
    rec = view.last(Kind.PREEMPTION, lambda r: r.pod == pod and bool(r.data.criterion))
    return None if rec is None else rec.data


def _preemption_node(view: View, q: Question) -> Answer:
    pod = _pod(q)
    pick = _last_pick(view, pod)
    if pick is None or not pick.node:
        raise QuizError(f"no preemption node for {pod}")
    return Answer(_options(pick.node, _node_names(view), size=6), frozenset([pick.node]))


def _criterion(view: View, q: Question) -> Answer:
    pod = _pod(q)
    pick = _last_pick(view, pod)
    if pick is None:
        raise QuizError(f"no preemption pick for {pod}")
    return Answer(CRITERIA, frozenset([pick.criterion]))


def _victims(view: View, q: Question) -> Answer:
    pod = _pod(q)
    result = view.last(Kind.PREEMPTION, lambda r: r.pod == pod and r.data.done)
    if result is None:
        raise QuizError(f"no preemption result for {pod}")
    node = result.node
    victims = frozenset(result.data.victims)
    on_node = set()
    for n in view.state.nodes:
        if n.name == node:
            on_node = set(n.pods)
    options = tuple(sorted(on_node | victims))
    return Answer(options, victims, multi=True)


def _score_run(view: View, pod: str) -> Any:
    runs = [r for r in _cycle(view, pod, Kind.SCORE_RUN) if not r.data.error]
    if not runs:
        raise QuizError(f"no Score for {pod}")
    return runs[-1].data


def _top_plugin(view: View, q: Question) -> Answer:
    pod, node = _pod(q), q.arg("node")
    run = _score_run(view, pod)
    weighted = {}
    if node in run.nodes:
        i = run.nodes.index(node)
        weighted = {plugin: run.cell(i, p)[3] for p, plugin in enumerate(run.plugins)}
    rows = {plugin: w for plugin, w in weighted.items() if w is not None}
    best = max(rows.values())
    top = [plugin for plugin, w in rows.items() if w == best]
    if len(top) != 1:
        raise QuizError(f"{len(top)} plugins tie at {best} on {node}: {top}")
    return Answer(_options(top[0], list(rows)), frozenset(top))


def _total(view: View, q: Question) -> Answer:
    pod, node = _pod(q), q.arg("node")
    run = _score_run(view, pod)
    totals = dict(zip(run.nodes, run.totals))
    if node not in totals:
        raise QuizError(f"{node} was not scored")
    value = totals[node]
    return Answer(_numbers(value, sorted(set(totals.values()) - {value})), frozenset([str(value)]))


def _attempts(view: View, q: Question) -> Answer:
    n = view.pod_state(_pod(q)).attempts
    return Answer(_numbers(n, []), frozenset([str(n)]))


def _backoff(view: View, q: Question) -> Answer:
    queued = view.state.queues.find(_pod(q))
    if queued is None or queued.queue != "podBackoffQ":
        raise QuizError(f"{_pod(q)} is not in podBackoffQ")
    seconds = round(queued.backoff_expiry - queued.timestamp)
    return Answer(tuple(str(s) for s in (1, 2, 4, 8, 10, 16)), frozenset([str(seconds)]))


def _move_event(view: View, q: Question) -> Answer:
    pod = _pod(q)
    moves = [r for r in view.records if r.kind is Kind.QUEUE_MOVE and r.pod == pod and r.data.event != "Pop"]
    if not moves:
        raise QuizError(f"no queue move for {pod}")
    event = moves[-1].data.event
    return Answer(_options(event, MOVE_EVENTS, size=5), frozenset([event]))


def _profile(view: View, q: Question) -> Answer:
    pod = _pod(q)
    starts = _cycle(view, pod, Kind.CYCLE_START)
    profiles = sorted({r.profile for r in view.records if r.kind is Kind.CYCLE_START and r.profile})
    got = starts[-1].profile
    return Answer(_options(got, profiles + ["default-scheduler"]), frozenset([got]))


def _numfind(view: View, q: Question) -> Answer:
    recs = _cycle(view, _pod(q), Kind.FILTER_RUN)
    if not recs:
        raise QuizError("no numFeasibleNodesToFind")
    n = recs[0].data.num_nodes_to_find
    return Answer(_numbers(n, [recs[0].data.num_all_nodes, 100, n // 2]), frozenset([str(n)]))


ASKS = {
    "rejecting_plugin": _rejecting_plugin, "winner": _winner, "feasible_nodes": _feasible_nodes,
    "evaluated_nodes": _evaluated, "feasible_count": _feasible_count, "queue_of": _queue_of,
    "first_startup_step": _first_of, "leader": _leader, "preemption_node": _preemption_node,
    "preemption_criterion": _criterion, "victims": _victims, "top_plugin": _top_plugin,
    "total_score": _total, "attempts": _attempts, "backoff_seconds": _backoff, "move_event": _move_event,
    "profile": _profile, "num_feasible_nodes_to_find": _numfind,
}


def answer(question: Question, sim: Any, view: View | None = None) -> Answer:
    """The options and correct answer(s) of ``question`` at the cursor of ``sim``."""
    fn = ASKS.get(question.ask)
    if fn is None:
        raise QuizError(f"unknown question {question.ask!r} (one of {', '.join(sorted(ASKS))})")
    try:
        result = fn(view or View(sim), question)
    except ClaimError as err:
        raise QuizError(str(err)) from None
    if len(set(result.options)) != len(result.options):
        raise QuizError(f"{question.ask}: duplicate options {result.options}")
    if not result.correct <= set(result.options):
        raise QuizError(f"{question.ask}: the answer {sorted(result.correct)} is not among the options")
    if not result.multi and len(result.correct) != 1:
        raise QuizError(f"{question.ask}: no unique answer")
    return result


__all__ = ["ASKS", "Answer", "QuizError", "answer"]
