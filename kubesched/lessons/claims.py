"""Machine-checkable lesson claims: a small parser over a fixed grammar, evaluated against a
``Simulation`` at its cursor.

Upstream: no counterpart. What a claim reads is the trace (kubesched.trace.records) and the
state at the cursor (kubesched.sim.state), i.e. what the v1.18.5 scheduler did.

Names: a pod is ``ns/name`` or ``name`` (namespace ``default``). "The cycle of P" is the last
scheduling cycle of P started at or before the cursor. ``GRAMMAR`` lists every form;
``parse`` raises ``ClaimError`` for anything else, ``check`` returns a ``Verdict`` whose
``actual`` says what the engine shows when the claim does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kubesched.trace import Kind, Record
from kubesched.trace.calls import calls_of

QUEUES = ("activeQ", "podBackoffQ", "unschedulableQ")
PHASES = ("Pending", "Bound", "Running", "Deleted")


class ClaimError(ValueError):
    """A claim that does not follow the grammar, or names a cycle that has not happened."""


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    form: str
    args: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    claim: Claim
    holds: bool
    actual: str


# -- helpers over the visible trace -----------------------------------------------------------------
def pod_key(name: str) -> str:
    return name if "/" in name else f"default/{name}"


def items(text: str) -> tuple[str, ...]:
    """The items of a claim's ``[a, b]`` list."""
    inner = text.strip()[1:-1].strip()
    return tuple(x.strip() for x in inner.split(",")) if inner else ()


def _short(key: str) -> str:
    return key.removeprefix("default/")


class View:
    """The records and state visible at a Simulation's cursor (computed once, on demand)."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.records: Sequence[Record] = sim.trace[:sim.cursor]
        self._state: Any = None

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = self.sim.state()
        return self._state

    def last(self, kind: Kind, pred: Callable[[Record], bool] = lambda r: True) -> Record | None:
        for record in reversed(self.records):
            if record.kind is kind and pred(record):
                return record
        return None

    def cycle_of(self, pod: str | None) -> int:
        if pod is None:
            current = self.sim.current_pod
            rec = self.last(Kind.CYCLE_START, lambda r: current is None or r.pod == current)
        else:
            rec = self.last(Kind.CYCLE_START, lambda r: r.pod == pod)
        if rec is None or rec.cycle is None:
            raise ClaimError(f"no scheduling cycle of {pod or 'any pod'} before the cursor")
        return rec.cycle

    def cycle_records(self, pod: str | None) -> list[Record]:
        cycle = self.cycle_of(pod)
        return [r for r in self.sim.trace.for_cycle(cycle) if r.seq < self.sim.cursor]

    def node_state(self, name: str) -> Any:
        found = self.state.node(name)
        if found is None:
            raise ClaimError(f"no node {name}")
        return found

    def pod_state(self, pod: str) -> Any:
        ns, name = pod.split("/", 1)
        found = self.state.pod(ns, name)
        if found is None:
            raise ClaimError(f"no pod {pod} in the cluster")
        return found


def _in_cycle(view: View, pod: str | None, kind: Kind, pred: Callable[[Record], bool] = lambda r: True) -> list[Record]:
    return [r for r in view.cycle_records(pod) if r.kind is kind and pred(r)]


def _schedule_filter_calls(view: View, pod: str | None) -> list[Record]:
    """The Filter calls of the cycle's Filter walk (derived from its FILTER_RUN)."""
    return [c for r in _in_cycle(view, pod, Kind.FILTER_RUN) for c in calls_of(r) if c.data.extension_point == "Filter"]


def _filter_calls(view: View, pod: str | None, node: str) -> list[Record]:
    return [c for c in _schedule_filter_calls(view, pod) if c.node == node]


def _walk(view: View, pod: str | None) -> Any:
    walks = _in_cycle(view, pod, Kind.FILTER_RUN)
    if not walks:
        raise ClaimError(f"no Filter walk in the cycle of {pod or 'the current pod'}")
    return walks[0].data


def _pod(arg: str | None) -> str | None:
    return pod_key(arg) if arg else None


# -- the forms ------------------------------------------------------------------------------------
Handler = Callable[[View, tuple[str, ...]], tuple[bool, str]]
P = r"([a-z0-9][-a-z0-9./]*)"
N = r"([a-z0-9][-a-z0-9.]*)"
FOR = r"(?: for ([a-z0-9][-a-z0-9./]*))?"
Q = r'"((?:[^"\\]|\\.)*)"'
LIST = r"(\[[^\]]*\])"
NUM = r"(-?\d+(?:\.\d+)?)"


def _queue_now(view: View, pod: str) -> str:
    """The sub-queue the pod's last visible QUEUE_MOVE put it in ("" when popped or never queued)."""
    rec = view.last(Kind.QUEUE_MOVE, lambda r: r.pod == pod)
    return rec.data.target if rec is not None else ""


def _queue(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    got = _queue_now(view, pod_key(a[0]))
    return got == a[1], got or "in no queue"


def _no_queue(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    got = _queue_now(view, pod_key(a[0]))
    return got == "", got or "in no queue"


def _phase(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    ps = view.pod_state(pod_key(a[0]))
    return ps.phase == a[1], ps.phase


def _bound(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    ps = view.pod_state(pod_key(a[0]))
    ok = ps.node == a[1] and ps.phase in ("Bound", "Running")
    if a[2]:
        ok = ok and ps.bound_at is not None and abs(ps.bound_at - float(a[2])) < 1e-9
    return ok, f"node {ps.node or '-'} ({ps.phase}) at t={ps.bound_at}"


def _fails(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, plugin, reason, pod = a
    calls = [r for r in _filter_calls(view, _pod(pod), node) if r.data.code != "Success"]
    if not calls:
        return False, f"{node} failed no filter"
    first = calls[0]
    return (first.plugin == plugin and reason in first.data.reasons,
            f"{first.plugin} with {', '.join(repr(x) for x in first.data.reasons)}")


def _passes(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    feasible = _walk(view, _pod(a[1])).feasible()
    return a[0] in feasible, f"feasible: {list(feasible)}"


def _not_evaluated(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, plugin, pod = a
    calls = _filter_calls(view, _pod(pod), node)
    called = [r.plugin for r in calls]
    return bool(calls) and plugin not in called, f"called on {node}: {called}"


def _not_visited(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    not_visited = _walk(view, _pod(a[1])).not_visited()
    return a[0] in not_visited, f"not visited: {len(not_visited)} nodes"


def _feasible_set(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    feasible = _walk(view, _pod(a[0])).feasible()
    return sorted(feasible) == sorted(items(a[1])), f"{list(feasible)}"


def _filter_order(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    order = list(dict.fromkeys(r.node for r in _schedule_filter_calls(view, _pod(a[0]))))
    return tuple(order) == items(a[1]), str(order)


def _counted(field: str) -> Handler:
    def handler(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
        pod = _pod(a[0])
        walk = _walk(view, pod)
        if field == "numFeasibleNodesToFind":
            value = walk.num_nodes_to_find
        else:
            value = walk.processed if field == "evaluated" else len(walk.feasible())
        return value == int(a[1]), str(value)
    return handler


def _score_run(view: View, pod: str | None) -> Any:
    runs = _in_cycle(view, pod, Kind.SCORE_RUN, lambda r: not r.data.error)
    if not runs:
        raise ClaimError(f"no Score in the cycle of {pod or 'the current pod'} (one feasible node skips it)")
    return runs[-1].data


def _plugin_score(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    plugin, node, pod, pairs = a
    run = _score_run(view, _pod(pod))
    if node not in run.nodes or plugin not in run.plugins:
        return False, f"no {plugin} score for {node}"
    raw, norm, weight, weighted = run.cell(run.nodes.index(node), run.plugins.index(plugin))
    names = {"raw": raw, "normalized": norm, "weight": weight, "weighted": weighted}
    ok = True
    for pair in pairs.split():
        key, _, value = pair.partition("=")
        if key not in names:
            raise ClaimError(f"unknown score field {key!r} (raw, normalized, weight, weighted)")
        ok = ok and names[key] == int(value)
    return ok, " ".join(f"{k}={v}" for k, v in names.items())


def _total(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, pod, value = a
    run = _score_run(view, _pod(pod))
    totals = dict(zip(run.nodes, run.totals))
    return totals.get(node) == int(value), str(totals.get(node))


def _select(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    pod, node, ties = a
    recs = _in_cycle(view, _pod(pod), Kind.SCORE_RUN, lambda r: not r.data.error)
    if not recs:
        return False, "no selectHost (scoring skipped)"
    run = recs[-1].data
    return (run.selected == node and sorted(run.ties()) == sorted(items(ties)),
            f"{run.selected} among {list(run.ties())}")


def _suggested(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _in_cycle(view, _pod(a[0]), Kind.SCHEDULE_RESULT)
    host = recs[-1].data.suggested_host if recs else None
    return host == a[1], str(host)


def _victims_on(view: View, node: str) -> Any:
    """selectVictimsOnNode's result on ``node`` in the last visible preemption that looked at it."""
    rec = view.last(Kind.PREEMPTION, lambda r: any(v.node == node for v in r.data.nodes))
    return None if rec is None else next(v for v in rec.data.nodes if v.node == node)


def _victims(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, wanted = a
    victims = _victims_on(view, node)
    if victims is None:
        return False, f"no victims computed on {node}"
    got = sorted(_short(v) for v in victims.victims)
    return got == sorted(_short(pod_key(v)) for v in items(wanted)), str(got)


def _pick(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    pod, node, criterion = a
    recs = _in_cycle(view, _pod(pod), Kind.PREEMPTION, lambda r: bool(r.data.criterion))
    if not recs:
        return False, "no preemption pick"
    run = recs[-1].data
    return run.node == node and run.criterion == criterion, f"{run.node or None} by {run.criterion}"


def _pdb(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, count = a
    victims = _victims_on(view, node)
    got = victims.num_pdb_violations if victims else None
    return got == int(count), str(got)


def _nominated(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    ps = view.pod_state(pod_key(a[0]))
    want = "" if a[1] == "none" else a[1]
    return ps.nominated_node == want, ps.nominated_node or "none"


def _attempts(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    ps = view.pod_state(pod_key(a[0]))
    return ps.attempts == int(a[1]), str(ps.attempts)


def _event(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    reason, pod, message = a
    obj = f"Pod {pod_key(pod)}"
    rec = view.last(Kind.EVENT, lambda r: r.data.reason == reason and r.data.object == obj)
    if rec is None:
        return False, f"no {reason} event on {obj}"
    return rec.data.message == message.replace('\\"', '"'), rec.data.message


def _last_move(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    pod, src, dst, event = a
    rec = view.last(Kind.QUEUE_MOVE, lambda r: r.pod == pod_key(pod))
    if rec is None:
        return False, "no queue move"
    d = rec.data
    got = (d.source or "-", d.target or "-", d.event)
    return got == (src, dst, event), f"{got[0]} -> {got[1]} on {got[2]}"


def _backoff(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    queued = view.state.queues.find(pod_key(a[0]))
    got = queued.backoff_expiry if queued is not None else None
    return got is not None and abs(got - float(a[1])) < 1e-9, str(got)


def _time(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    return abs(view.sim.time - float(a[0])) < 1e-9, f"{view.sim.time:g}"


def _queues(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    q = view.state.queues
    got = (len(q.active_q), len(q.pod_backoff_q), len(q.unschedulable_q))
    return got == tuple(int(x) for x in a), "activeQ={} podBackoffQ={} unschedulableQ={}".format(*got)


def _phase_end(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    phase, pod, code = a
    recs = _in_cycle(view, _pod(pod), Kind.PHASE_END, lambda r: r.data.phase == phase)
    got = recs[-1].data.code if recs else "not run"
    return got == code, got


def _startup(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    rec = view.last(Kind.STARTUP_STEP, lambda r: r.data.step == a[0])
    return rec is not None, "done" if rec else "not yet"


def _startup_detail(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    step, key, value = a
    rec = view.last(Kind.STARTUP_STEP, lambda r: r.data.step == step)
    if rec is None:
        return False, "not yet"
    got = dict(rec.data.details).get(key)
    return got == value, str(got)


def _leader(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    leader = view.state.leader
    want = "" if a[0] == "none" else a[0]
    return leader.split("_", 1)[0] == want or leader == want, leader or "none"


def _lease_holder(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    rec = view.last(Kind.LEADER_ELECTION, lambda r: r.data.transition == a[1])
    if rec is None:
        return False, f"no '{a[1]}' transition"
    who = rec.data.identity.split("_", 1)[0]
    return who == a[0], who


def _terminating(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    ps = view.pod_state(pod_key(a[0]))
    return ps.terminating, f"{ps.phase}{' (Terminating)' if ps.terminating else ''}"


def _preemptions(view: View, pod: str) -> list[Record]:
    return _in_cycle(view, pod_key(pod), Kind.PREEMPTION)


def _no_preemption(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _preemptions(view, a[0])
    return not recs, f"{len(recs)} PREEMPTION records"


def _not_eligible(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _preemptions(view, a[0])
    if not recs:
        return False, "preemption did not run"
    d = recs[-1].data
    return not d.eligible and d.reason == a[1], "eligible" if d.eligible else f"not eligible: {d.reason}"


def _unresolvable(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node, pod = a
    recs = _preemptions(view, pod)
    if not recs:
        return False, "preemption did not run"
    got = recs[-1].data.unresolvable_nodes
    return node in got, f"unresolvable: {list(got)}"


def _potential(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _preemptions(view, a[0])
    got = recs[-1].data.potential_nodes if recs else None
    return got is not None and sorted(got) == sorted(items(a[1])), str(list(got) if got is not None else None)


def _expired(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    rec = view.last(Kind.EXPIRE, lambda r: r.pod == pod_key(a[0]))
    return rec is not None, f"expired at t={rec.time:g}s" if rec else "not expired"


def _cycle(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    return view.sim.cycle == int(a[0]), str(view.sim.cycle)


def _profile(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _in_cycle(view, pod_key(a[0]), Kind.CYCLE_START)
    got = recs[-1].profile if recs else None
    return got == a[1], str(got)


def _binding(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    recs = _in_cycle(view, pod_key(a[0]), Kind.BINDING_CYCLE_END)
    got = recs[-1].data.result if recs else "not ended"
    return got == a[1], got


def _holds(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node = view.node_state(a[0])
    return pod_key(a[1]) in node.pods, str(list(node.pods))


def _requests(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    node = view.node_state(a[0])
    return node.requested_of(a[1]) == a[2], node.requested_of(a[1])


def _record(kind: Kind) -> Handler:
    def handler(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
        recs = _in_cycle(view, pod_key(a[0]), kind)
        return bool(recs), f"{len(recs)} {kind.value} record{'s' if len(recs) != 1 else ''} in its last cycle"
    return handler


def _log(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    rec = view.last(Kind.LOG, lambda r: a[0] in r.data.message)
    return rec is not None, rec.data.message if rec else "no such line"


def _extender(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    name, verb, pod, outcome = a
    recs = _in_cycle(view, pod_key(pod), Kind.EXTENDER_CALL, lambda r: r.data.verb == verb and r.data.extender == name)
    if not recs:
        return False, f"no {verb} call to {name}"
    d = recs[-1].data
    got = "ignored" if d.ignored else ("error" if d.error else "ok")
    return got == outcome, got + (f" ({d.error})" if d.error else "")


def _pop_order(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    """The pods' first pops, in order (Pop takes activeQ's head: the QueueSort order)."""
    popped = list(dict.fromkeys(r.pod for r in view.records if r.kind is Kind.POD_POPPED))
    return [_short(p) for p in popped] == [_short(pod_key(p)) for p in items(a[0])], str([_short(p) for p in popped])


def _calls_at(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    """Calls of a plugin at one extension point in the pod's cycle, outside the preemption simulation."""
    plugin, point, pod, count = a
    got = sum(1 for r in view.cycle_records(_pod(pod)) for c in calls_of(r)
              if c.plugin == plugin and c.data.extension_point == point and c.data.phase != "Preempt")
    return got == int(count), str(got)


def _node_check(view: View, node: str, pod: str | None) -> Any:
    check = _walk(view, pod).check_of(node)
    if check is None:
        raise ClaimError(f"the Filter walk of {pod or 'the current pod'} did not visit {node}")
    return check


def _nominated_added(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    """addNominatedPods at a node: the equal/higher-priority nominated pods pass 0 ran with."""
    added = _node_check(view, a[0], _pod(a[1])).nominated_pods
    got = [_short(p) for p in added or ()]
    return added is not None and got == [_short(pod_key(p)) for p in items(a[2])], (
        "no pod nominated to the node" if added is None else str(got))


def _filter_passes(view: View, a: tuple[str, ...]) -> tuple[bool, str]:
    """podPassesFiltersOnNode's passes at a node (2: with the nominated pods, then without them)."""
    got = len(_node_check(view, a[0], _pod(a[1])).passes)
    return got == int(a[2]), str(got)


# (form name, pattern, handler, grammar line)
FORMS: tuple[tuple[str, str, Handler, str], ...] = (
    ("queue", rf"pod {P} is in ({'|'.join(QUEUES)})", _queue, "pod P is in activeQ|podBackoffQ|unschedulableQ"),
    ("no-queue", rf"pod {P} is in no queue", _no_queue, "pod P is in no queue"),
    ("phase", rf"pod {P} is ({'|'.join(PHASES)})", _phase, "pod P is Pending|Bound|Running|Deleted"),
    ("bound", rf"pod {P} is bound to {N}(?: at t=({NUM[1:-1]})s)?", _bound, "pod P is bound to NODE [at t=Ss]"),
    ("fails", rf'node {N} fails ([A-Za-z]+) with {Q}{FOR}', _fails, 'node N fails Plugin with "reason" [for P]'),
    ("passes", rf"node {N} passes all filters{FOR}", _passes, "node N passes all filters [for P]"),
    ("not-evaluated", rf"node {N} is not evaluated by ([A-Za-z]+){FOR}", _not_evaluated,
     "node N is not evaluated by Plugin [for P]"),
    ("not-visited", rf"node {N} is not visited{FOR}", _not_visited, "node N is not visited [for P]"),
    ("feasible-set", rf"feasible nodes{FOR} are {LIST}", _feasible_set, "feasible nodes [for P] are [a, b]"),
    ("filter-order", rf"filter order{FOR} is {LIST}", _filter_order, "filter order [for P] is [a, b, c]"),
    ("evaluated", rf"evaluated nodes{FOR} == (\d+)", _counted("evaluated"), "evaluated nodes [for P] == N"),
    ("feasible", rf"feasible nodes{FOR} == (\d+)", _counted("feasible"), "feasible nodes [for P] == N"),
    ("to-find", rf"numFeasibleNodesToFind{FOR} == (\d+)", _counted("numFeasibleNodesToFind"),
     "numFeasibleNodesToFind [for P] == N"),
    ("score", rf"([A-Za-z]+) scores {N}{FOR} ((?:[a-z]+=-?\d+ ?)+)", _plugin_score,
     "Plugin scores NODE [for P] raw=R normalized=N weight=W weighted=X (any of them)"),
    ("total", rf"total score of {N}{FOR} is (-?\d+)", _total, "total score of NODE [for P] is N"),
    ("select", rf"selectHost{FOR} picks {N} among {LIST}", _select, "selectHost [for P] picks NODE among [a, b]"),
    ("suggested", rf"schedule result{FOR} is {N}", _suggested, "schedule result [for P] is NODE"),
    ("victims", rf"victims on {N} are {LIST}", _victims, "victims on NODE are [a, b]"),
    ("pick", rf"preemption{FOR} picks {N} by ([A-Za-z]+)", _pick, "preemption [for P] picks NODE by Criterion"),
    ("pdb", rf"PDB violations on {N} == (\d+)", _pdb, "PDB violations on NODE == N"),
    ("nominated", rf"nominated node of {P} is {N}", _nominated, "nominated node of P is NODE|none"),
    ("attempts", rf"{P} attempts == (\d+)", _attempts, "P attempts == N"),
    ("event", rf'event ([A-Za-z]+) on {P} says {Q}', _event, 'event Reason on P says "message"'),
    ("last-move", rf"last move of {P} is ([A-Za-z-]+) -> ([A-Za-z-]+) on ([A-Za-z]+)", _last_move,
     "last move of P is SRC -> DST on Event   (- for outside the queue)"),
    ("terminating", rf"pod {P} is Terminating", _terminating,
     "pod P is Terminating   (deleted, its grace period still running)"),
    ("no-preemption", rf"preemption did not run for {P}", _no_preemption, "preemption did not run for P"),
    ("not-eligible", rf"preemption for {P} is not eligible because ([A-Za-z]+)", _not_eligible,
     "preemption for P is not eligible because Reason   (podEligibleToPreemptOthers)"),
    ("unresolvable", rf"node {N} is unresolvable for preemption of {P}", _unresolvable,
     "node N is unresolvable for preemption of P   (UnschedulableAndUnresolvable: dropped)"),
    ("potential", rf"potential nodes for preemption of {P} are {LIST}", _potential,
     "potential nodes for preemption of P are [a, b]"),
    ("expired", rf"{P} expired from the cache", _expired, "P expired from the cache   (cleanupAssumedPods)"),
    ("backoff", rf"backoff of {P} expires at t={NUM}s", _backoff, "backoff of P expires at t=Ss"),
    ("time", rf"time is {NUM}s", _time, "time is Ss"),
    ("queues", r"queues are activeQ=(\d+) podBackoffQ=(\d+) unschedulableQ=(\d+)", _queues,
     "queues are activeQ=a podBackoffQ=b unschedulableQ=c"),
    ("phase-end", rf"phase ([A-Za-z]+){FOR} ends with ([A-Za-z]+)", _phase_end, "phase Phase [for P] ends with Code"),
    ("startup", r"startup step ([A-Za-z.]+(?: [A-Za-z.]+)*) is done", _startup, "startup step Step is done"),
    ("startup-detail", rf"startup step ([A-Za-z.]+) has ([-A-Za-z0-9. ]+?) = {Q}", _startup_detail,
     'startup step Step has key = "value"'),
    ("leader", r"leader is ([a-z0-9-]+)", _leader, "leader is REPLICA|none"),
    ("lease", r"([a-z0-9-]+) made the last '([a-z -]+)' transition", _lease_holder,
     "REPLICA made the last 'transition' transition"),
    ("cycle", r"cycle == (\d+)", _cycle, "cycle == N"),
    ("profile", rf"profile of {P} is ([a-z0-9-]+)", _profile, "profile of P is NAME"),
    ("binding", rf"binding cycle of {P} ends (bound|failed)", _binding, "binding cycle of P ends bound|failed"),
    ("holds", rf"node {N} holds {P}", _holds, "node N holds P   (the cache's view, assumed pods included)"),
    ("requests", rf"node {N} requests ([a-z.-/]+) = ([0-9A-Za-z.]+)", _requests, "node N requests RESOURCE = QUANTITY"),
    ("assumed", rf"{P} was assumed", _record(Kind.ASSUME), "P was assumed   (in its last cycle)"),
    ("forgotten", rf"{P} was forgotten", _record(Kind.FORGET), "P was forgotten   (in its last cycle)"),
    ("permit-wait", rf"{P} waited on Permit", _record(Kind.PERMIT_WAIT), "P waited on Permit"),
    ("log", rf"a log line says {Q}", _log, 'a log line says "substring"'),
    ("pop-order", rf"pop order is {LIST}", _pop_order, "pop order is [a, b, c]   (each pod's first Pop)"),
    ("calls-at", rf"([A-Za-z]+) calls at ([A-Za-z]+){FOR} == (\d+)", _calls_at,
     "Plugin calls at ExtensionPoint [for P] == N   (scheduling, not the preemption simulation)"),
    ("nominated-added", rf"nominated pods added on {N}{FOR} are {LIST}", _nominated_added,
     "nominated pods added on NODE [for P] are [a, b]   (addNominatedPods, pass 0)"),
    ("filter-passes", rf"filter passes on {N}{FOR} == (\d+)", _filter_passes,
     "filter passes on NODE [for P] == N   (podPassesFiltersOnNode: 1 or 2)"),
    ("extender", rf"extender (\S+) ([A-Za-z]+) for {P} was (ok|error|ignored)", _extender,
     "extender NAME Verb for P was ok|error|ignored   (NAME: the urlPrefix, as Name() returns it)"),
)
_COMPILED = tuple((name, re.compile(pattern + r"\Z"), handler) for name, pattern, handler, _ in FORMS)
GRAMMAR: tuple[str, ...] = tuple(line for *_, line in FORMS)
_HANDLERS = {name: handler for name, _, handler in _COMPILED}


def parse(text: str) -> Claim:
    """Parse one claim; ``ClaimError`` lists the grammar when nothing matches."""
    source = " ".join(text.split())
    for name, pattern, _ in _COMPILED:
        m = pattern.match(source)
        if m:
            return Claim(source, name, tuple(g or "" for g in m.groups()))
    raise ClaimError(f"not a claim: {source!r}; a claim is one of:\n  " + "\n  ".join(GRAMMAR))


def check(claim: Claim | str, sim: Any, view: View | None = None) -> Verdict:
    """Evaluate ``claim`` at the cursor of ``sim`` (pass ``view`` to share one across claims)."""
    parsed = parse(claim) if isinstance(claim, str) else claim
    view = view or View(sim)
    holds, actual = _HANDLERS[parsed.form](view, parsed.args)
    return Verdict(parsed, bool(holds), actual)


def check_all(claims: Sequence[str], sim: Any) -> tuple[Verdict, ...]:
    view = View(sim)
    return tuple(check(c, sim, view) for c in claims)


__all__ = ["GRAMMAR", "Claim", "ClaimError", "Verdict", "View", "check", "check_all", "items", "parse", "pod_key"]
