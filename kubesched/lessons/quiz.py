"""Quiz and prediction questions whose answers — and the reasons — are computed from a run.

Upstream: no counterpart.

``answer(question, sim, lesson=…, variants=…)`` returns an ``Answer``: the options to show, the
correct one(s), ``because`` (why the answer is what it is) and ``why`` (per option, why it is
or is not the answer), all read from the run at the cursor — or, for a what-if question, from a
variant of the lesson's cluster that the engine runs (whatif.py). A lesson never hard-codes an
answer. Options are built deterministically and are distinct.

No question grades a seeded coin flip: where v1.18.5 draws at random (selectHost among equal
totals; pickOneNodeForPreemption's last fallback, a Go map's order), the answer is the token
``TIE`` ("any of them: it is random"), and ``could_pick`` asks for the tie set itself.

Tokens (options the page words in the learner's language): ``TIE``, ``NONE`` ("no node" /
"none of them": a multi-select question whose correct set is empty has NONE as its answer, so
choosing nothing is never an answer), ``YES``/``NO`` (``true_false``).

``ASKS`` maps each ``ask`` to its function ``(View, Question) -> Answer``; format.py's
docstring lists them with their arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import dataclass, replace
from typing import Any

from kubesched.lessons import feedback as fb
from kubesched.lessons import whatif
from kubesched.lessons.claims import ClaimError, View, _queue_now, pod_key
from kubesched.lessons.claims import check as check_claim
from kubesched.lessons.feedback import Why, why
from kubesched.lessons.format import Lesson, LessonError, Question
from kubesched.trace import PICK_CRITERIA, Kind

TIE, NONE, YES, NO = "~tie", "~none", "~yes", "~no"
TOKENS = (TIE, NONE, YES, NO)
QUEUE_CHOICES = ("activeQ", "podBackoffQ", "unschedulableQ", "~none")  # NONE: in no queue (popped or bound)
CRITERIA = PICK_CRITERIA  # the rule names preemption records, in pickOneNodeForPreemption order
MOVE_EVENTS = ("PodAdd", "NodeAdd", "AssignedPodAdd", "AssignedPodDelete", "UnschedulableTimeout",
               "BackoffComplete", "ScheduleAttemptFailure", "NodeSpecUnschedulableChange", "AssignedPodUpdate",
               "NodeAllocatableChange", "NodeLabelChange", "NodeTaintChange", "NodeConditionChange")


class QuizError(ValueError):
    """A question this run cannot answer uniquely (or an unknown ``ask``)."""


@dataclass(frozen=True, slots=True)
class Answer:
    options: tuple[str, ...]
    correct: frozenset[str]
    multi: bool = False
    because: tuple[Why, ...] = ()
    why: tuple[tuple[str, Why], ...] = ()      # option -> why it is (not) the answer
    variant: bool = False                      # computed on a what-if variant run

    def grade(self, chosen: Iterable[str] | str) -> bool:
        picked = frozenset([chosen]) if isinstance(chosen, str) else frozenset(chosen)
        return picked == self.correct

    def feedback(self, chosen: Iterable[str] | str) -> tuple[Why, ...]:
        """Why ``chosen`` is wrong (each wrong pick and each missed option), then ``because``."""
        picked = frozenset([chosen]) if isinstance(chosen, str) else frozenset(chosen)
        reasons = dict(self.why)
        wrong = sorted((picked - self.correct) | ((self.correct - picked) if self.multi else frozenset()))
        out = [reasons[o] for o in wrong if o in reasons]
        return tuple(dict.fromkeys(out + [b for b in self.because if b not in out]))


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


def _score_run(view: View, pod: str) -> Any:
    runs = [r for r in _cycle(view, pod, Kind.SCORE_RUN) if not r.data.error]
    return runs[-1].data if runs else None


def _node_names(view: View) -> list[str]:
    return sorted(n.name for n in view.state.nodes)


# -- Filter ----------------------------------------------------------------------------------------------
def _rejecting_plugin(view: View, q: Question) -> Answer:
    pod, node = _pod(q), q.arg("node")
    walk = _walk(view, pod)
    check = walk.check_of(node)
    failure = check.first_failure() if check is not None else None
    if failure is None:
        raise QuizError(f"no filter rejected {node} for {pod}")
    plugins = walk.plugins
    at = plugins.index(failure.plugin) if failure.plugin in plugins else 0
    nearby = sorted(plugins, key=lambda p: (abs(plugins.index(p) - at), plugins.index(p)))
    options = _options(failure.plugin, nearby, size=5)
    return Answer(options, frozenset([failure.plugin]), because=(fb.node_filter(walk, node),),
                  why=tuple((p, fb.plugin_at(walk, node, p)) for p in options if p != failure.plugin))


def _feasible_nodes(view: View, q: Question) -> Answer:
    walk = _walk(view, _pod(q))
    nodes = tuple(sorted(set(walk.nodes)))[:12]
    feasible = frozenset(walk.feasible())
    reasons = tuple((n, fb.node_filter(walk, n)) for n in nodes)
    if not feasible:
        because = (why("unschedulable", pod=fb.short(_pod(q)), message=_fit_message(view, _pod(q))),)
        return Answer(nodes + (NONE,), frozenset([NONE]), multi=True, because=because, why=reasons)
    first = sorted(feasible)[0]
    return Answer(nodes + (NONE,), feasible, multi=True, why=reasons + ((NONE, fb.node_filter(walk, first)),))


def _fit_message(view: View, pod: str) -> str:
    ends = _cycle(view, pod, Kind.CYCLE_END)
    return ends[-1].data.message if ends else ""


def _walk_counts(walk: Any) -> Why:
    return why("evaluated", processed=walk.processed, feasible=len(walk.feasible()), failed=len(walk.failed()),
               found=walk.num_nodes_to_find)


def _evaluated(view: View, q: Question) -> Answer:
    walk = _walk(view, _pod(q))
    return Answer(_numbers(walk.processed, [walk.num_all_nodes, len(walk.feasible()), 100]),
                  frozenset([str(walk.processed)]), because=(_walk_counts(walk),))


def _feasible_count(view: View, q: Question) -> Answer:
    walk = _walk(view, _pod(q))
    n = len(walk.feasible())
    return Answer(_numbers(n, [walk.processed]), frozenset([str(n)]), because=(_walk_counts(walk),))


def _numfind(view: View, q: Question) -> Answer:
    """numFeasibleNodesToFind: all nodes below 100 (or at 100 %); else the percentage (unset:
    50 − n/125, at least 5) of the nodes, at least minFeasibleNodesToFind = 100."""
    walk = _walk(view, _pod(q))
    n, total = walk.num_nodes_to_find, walk.num_all_nodes
    if total < 100 or walk.percentage >= 100:
        because = why("to_find_all", all=total)
    else:
        percent = walk.percentage if walk.percentage > 0 else max(50 - total // 125, 5)
        because = why("to_find", all=total, percent=percent, product=total * percent // 100, found=n)
    return Answer(_numbers(n, [total, 100, n // 2]), frozenset([str(n)]), because=(because,))


# -- Score and selectHost ----------------------------------------------------------------------------------
def _winner(view: View, q: Question) -> Answer:
    """Where the pod's last cycle put it: the node, TIE when selectHost drew among equal totals,
    NONE when the cycle found no node."""
    pod = _pod(q)
    walk = _walk(view, pod)
    run = _score_run(view, pod)
    results = _cycle(view, pod, Kind.SCHEDULE_RESULT)
    nodes = _node_names(view)[:6]
    options = tuple(sorted(set(nodes) | set(walk.feasible()[:6]))) + (TIE, NONE)
    reasons = [(n, fb.node_score(run, walk, n)) for n in options if n not in TOKENS]
    host = results[-1].data.suggested_host if results else (run.selected if run is not None else "")
    if not host:
        ends = _cycle(view, pod, Kind.CYCLE_END)
        if not ends:
            raise QuizError(f"the cycle of {pod} has not decided yet at the cursor")
        message = ends[-1].data.message
        return Answer(options, frozenset([NONE]), because=(why("unschedulable", pod=fb.short(pod), message=message),),
                      why=tuple(reasons))
    if run is None:                             # one feasible node: Score is skipped
        return Answer(options, frozenset([host]), because=(why("only_feasible", node=host),),
                      why=tuple(reasons + [(TIE, why("only_feasible", node=host))]))
    picked = fb.pick(run)
    if len(run.ties()) > 1:
        return Answer(options, frozenset([TIE]), because=(picked,), why=tuple(reasons))
    return Answer(options, frozenset([host]), because=(picked,), why=tuple(reasons + [(TIE, picked)]))


def _could_pick(view: View, q: Question) -> Answer:
    """The tie set: every node selectHost could have returned (multi-select)."""
    pod = _pod(q)
    walk = _walk(view, pod)
    run = _score_run(view, pod)
    if run is None:
        raise QuizError(f"no Score for {pod} (one feasible node or none): ask winner")
    options = tuple(sorted(set(run.nodes) | set(walk.nodes)))[:12]
    return Answer(options, frozenset(run.ties()), multi=True, because=(fb.pick(run),),
                  why=tuple((n, fb.node_score(run, walk, n)) for n in options))


def _scored(view: View, q: Question) -> Any:
    run = _score_run(view, _pod(q))
    if run is None:
        raise QuizError(f"no Score for {_pod(q)}")
    return run


def _top_plugin(view: View, q: Question) -> Answer:
    run, node = _scored(view, q), q.arg("node")
    if node not in run.nodes:
        raise QuizError(f"{node} was not scored")
    i = run.nodes.index(node)
    rows = {plugin: run.cell(i, p)[3] for p, plugin in enumerate(run.plugins) if run.cell(i, p)[3] is not None}
    best = max(rows.values())
    top = [plugin for plugin, w in rows.items() if w == best]
    if len(top) != 1:
        raise QuizError(f"{len(top)} plugins tie at {best} on {node}: {top}")
    options = _options(top[0], sorted(rows, key=lambda p: -rows[p]))
    return Answer(options, frozenset(top), because=(fb.breakdown(run, node),),
                  why=tuple((p, why("plugin_adds", plugin=p, node=node, value=rows[p])) for p in options))


def _total(view: View, q: Question) -> Answer:
    run, node = _scored(view, q), q.arg("node")
    scores = fb.totals(run)
    if node not in scores:
        raise QuizError(f"{node} was not scored")
    value = scores[node]
    return Answer(_numbers(value, sorted(set(scores.values()) - {value})), frozenset([str(value)]),
                  because=(fb.breakdown(run, node),))


# -- queue and attempts ------------------------------------------------------------------------------------
def _last_move(view: View, pod: str, pops: bool = True) -> Why:
    rec = view.last(Kind.QUEUE_MOVE, lambda r: r.pod == pod and (pops or r.data.event != "Pop"))
    if rec is None:
        return why("not_queued", pod=fb.short(pod))
    d = rec.data
    return why("queue", pod=fb.short(pod), source=d.source or "—", target=d.target or "—", event=d.event,
               time=rec.time)


def _queue_of(view: View, q: Question) -> Answer:
    pod = _pod(q)
    got = _queue_now(view, pod) or NONE
    return Answer(QUEUE_CHOICES, frozenset([got]), because=(_last_move(view, pod),))


def _move_event(view: View, q: Question) -> Answer:
    pod = _pod(q)
    moves = [r for r in view.records if r.kind is Kind.QUEUE_MOVE and r.pod == pod and r.data.event != "Pop"]
    if not moves:
        raise QuizError(f"no queue move for {pod}")
    event = moves[-1].data.event
    return Answer(_options(event, _kindred_events(event), size=5), frozenset([event]),
                  because=(_last_move(view, pod, pops=False),))


def _kindred_events(event: str) -> list[str]:
    """MOVE_EVENTS, those of the answer's family first (a node update among node updates, an
    assigned-pod event among assigned-pod events), so the wrong options are plausible ones."""
    def family(name: str) -> str:
        return next((f for f in ("AssignedPod", "Node") if name.startswith(f)), "")
    return sorted(MOVE_EVENTS, key=lambda e: family(e) != family(event))


def _attempts(view: View, q: Question) -> Answer:
    pod = _pod(q)
    n = view.pod_state(pod).attempts
    times = [r.time for r in view.records if r.kind is Kind.CYCLE_START and r.pod == pod]
    return Answer(_numbers(n, []), frozenset([str(n)]),
                  because=(why("attempts", pod=fb.short(pod), count=n, times=" s, ".join(f"{x:g}" for x in times)
                               + " s" if times else "—"),))


def _backoff(view: View, q: Question) -> Answer:
    pod = _pod(q)
    queued = view.state.queues.find(pod)
    if queued is None or queued.queue != "podBackoffQ":
        raise QuizError(f"{pod} is not in podBackoffQ")
    seconds = round(queued.backoff_expiry - queued.timestamp)
    return Answer(tuple(str(s) for s in (1, 2, 4, 8, 10, 16)), frozenset([str(seconds)]),
                  because=(why("backoff", pod=fb.short(pod), attempts=queued.attempts, seconds=seconds),))


def _first_popped(view: View, q: Question) -> Answer:
    pods = tuple(pod_key(p.strip()) for p in q.arg("pods").split(","))
    popped = [r.pod for r in view.records if r.kind is Kind.POD_POPPED and r.pod in pods]
    if not popped:
        raise QuizError(f"none of {pods} was popped")
    order = list(dict.fromkeys(popped))
    return Answer(tuple(sorted(fb.short(p) for p in pods)), frozenset([fb.short(order[0])]),
                  because=(why("order", order=" → ".join(fb.short(p) for p in order)),))


# -- startup, leader election, profiles ------------------------------------------------------------------
def _first_of(view: View, q: Question) -> Answer:
    steps = tuple(s.strip() for s in q.arg("steps").split(","))
    seen = {}
    for r in view.records:
        if r.kind is Kind.STARTUP_STEP and r.data.step in steps and r.data.step not in seen:
            seen[r.data.step] = r.seq
    if len(seen) != len(steps):
        raise QuizError(f"startup steps not all done: {sorted(set(steps) - set(seen))}")
    order = sorted(seen, key=seen.__getitem__)
    return Answer(tuple(sorted(steps)), frozenset([order[0]]), because=(why("order", order=" → ".join(order)),))


def _leader(view: View, q: Question) -> Answer:
    hosts = sorted(r.hostname for r in view.state.replicas)
    leader = next((r.hostname for r in view.state.replicas if r.leading), None)
    if leader is None:
        raise QuizError("no replica leads")
    return Answer(tuple(hosts), frozenset([leader]), because=(why("leader", replica=leader),))


def _profile(view: View, q: Question) -> Answer:
    pod = _pod(q)
    starts = _cycle(view, pod, Kind.CYCLE_START)
    profiles = sorted({r.profile for r in view.records if r.kind is Kind.CYCLE_START and r.profile})
    got = starts[-1].profile
    return Answer(_options(got, profiles + ["default-scheduler"]), frozenset([got]),
                  because=(why("profile", pod=fb.short(pod), profile=got),))


# -- preemption --------------------------------------------------------------------------------------------
def _last_pick(view: View, pod: str) -> Any:
    """The pod's last visible preemption that picked a node (None when preemption never picked for it)."""
    rec = view.last(Kind.PREEMPTION, lambda r: r.pod == pod and bool(r.data.criterion))
    return None if rec is None else rec.data


def _preemption_node(view: View, q: Question) -> Answer:
    pod = _pod(q)
    pick = _last_pick(view, pod)
    if pick is None or not pick.node:
        raise QuizError(f"no preemption node for {pod}")
    options = _options(pick.node, _node_names(view), size=6) + (TIE,)
    reasons = tuple((n, fb.preempt_node(pick, n)) for n in options if n != TIE)
    tied = fb.coin_flip(pick)
    if tied:
        return Answer(options, frozenset([TIE]), because=(why("preempt_tie", nodes=tied),), why=reasons)
    decided = why("preempt_pick", node=pick.node, criterion=pick.criterion)
    return Answer(options, frozenset([pick.node]), because=(decided, why("rounds", rounds=fb.rounds_text(pick))),
                  why=reasons + ((TIE, decided),))


def _criterion(view: View, q: Question) -> Answer:
    pick = _last_pick(view, _pod(q))
    if pick is None:
        raise QuizError(f"no preemption pick for {_pod(q)}")
    if fb.coin_flip(pick):
        raise QuizError(f"preemption for {_pod(q)} ended in a tie (FirstRemaining): a coin flip")
    return Answer(CRITERIA, frozenset([pick.criterion]), because=(why("rounds", rounds=fb.rounds_text(pick)),))


def _victims(view: View, q: Question) -> Answer:
    """The victims on the node preemption chose, among the lower-priority pods selectVictimsOnNode
    removed there (the reprieved ones are the wrong answers)."""
    pod = _pod(q)
    result = view.last(Kind.PREEMPTION, lambda r: r.pod == pod and r.data.done)
    if result is None:
        raise QuizError(f"no preemption result for {pod}")
    node = result.data.node
    victims = frozenset(fb.short(v) for v in result.data.victims)
    chosen = next((n for n in result.data.nodes if n.node == node), None)
    removed = {fb.short(step[1]) for step in (chosen.steps if chosen is not None else ())
               if isinstance(step, tuple) and step[0] == "PreFilterExtensionRemovePod"}
    options = tuple(sorted(removed | victims)) + (NONE,)
    reasons = tuple((p, why("victim" if p in victims else "reprieved", pod=p, node=node)) for p in options[:-1])
    reasons += tuple((NONE, dict(reasons)[v]) for v in sorted(victims)[:1])
    return Answer(options, victims or frozenset([NONE]), multi=True,
                  because=(why("victims", node=node, victims=fb.names(sorted(victims))),), why=reasons)


# -- any claim, as a yes/no question ------------------------------------------------------------------------
def _true_false(view: View, q: Question) -> Answer:
    """Is the claim (claims.py grammar) true at the cursor? The engine's actual value says why."""
    text = q.arg("claim")
    if not text:
        raise QuizError("true_false needs claim")
    verdict = check_claim(text, view.sim, view)
    return Answer((YES, NO), frozenset([YES if verdict.holds else NO]),
                  because=(why("claim", actual=verdict.actual),))


ASKS: dict[str, Callable[[View, Question], Answer]] = {
    "rejecting_plugin": _rejecting_plugin, "winner": _winner, "could_pick": _could_pick,
    "feasible_nodes": _feasible_nodes, "evaluated_nodes": _evaluated, "feasible_count": _feasible_count,
    "num_feasible_nodes_to_find": _numfind, "top_plugin": _top_plugin, "total_score": _total,
    "queue_of": _queue_of, "move_event": _move_event, "attempts": _attempts, "backoff_seconds": _backoff,
    "first_popped": _first_popped, "first_startup_step": _first_of, "leader": _leader, "profile": _profile,
    "preemption_node": _preemption_node, "preemption_criterion": _criterion, "victims": _victims,
    "true_false": _true_false,
}


def variant(question: Question, lesson: Lesson | None,
            variants: MutableMapping[Any, Any] | None = None, seed: int | None = None) -> Any:
    """The what-if run of ``question`` with ``seed`` (cached in ``variants`` by its changes, stop and seed)."""
    if lesson is None:
        raise QuizError(f"{question.ask}: a what-if question needs its lesson")
    key = (lesson.id, question.what_if, question.at, seed)
    if variants is not None and key in variants:
        return variants[key]
    try:
        sim = whatif.run(lesson, question, seed=seed)
    except LessonError as err:
        raise QuizError(str(err)) from None
    if variants is not None:
        variants[key] = sim
    return sim


def answer(question: Question, sim: Any, view: View | None = None, *, lesson: Lesson | None = None,
           variants: MutableMapping[Any, Any] | None = None) -> Answer:
    """The options, correct answer(s) and reasons of ``question``: at the cursor of ``sim``, or on
    its what-if variant (which needs ``lesson``; it runs with ``sim``'s seed; ``variants`` caches those runs)."""
    fn = ASKS.get(question.ask)
    if fn is None:
        raise QuizError(f"unknown question {question.ask!r} (one of {', '.join(sorted(ASKS))})")
    if question.what_if:
        view = View(variant(question, lesson, variants, seed=sim.inputs.seed))
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
    return replace(result, variant=bool(question.what_if))


__all__ = ["ASKS", "NO", "NONE", "TIE", "TOKENS", "YES", "Answer", "QuizError", "answer", "variant"]
