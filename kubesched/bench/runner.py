"""Run one workload: place the init pods, then time the scheduler on the measured pods.

Upstream: test/integration/scheduler_perf/scheduler_perf_test.go (perfScheduling: nodes,
init pods scheduled and waited for, then the timer runs while the measured pods are
created and scheduled) and the ``scheduler_scheduling_algorithm_duration_seconds`` metric
(pkg/scheduler/metrics, observed around ``sched.Algorithm.Schedule`` in scheduleOne).

The engine stays clock-free: wall-clock time is read only here, around the generic
scheduler's ``schedule`` (see ``ScheduleTimer``).

Steps of ``run(workload, trace=...)``:

1. ``place_init_pods`` (once per workload, shared by trace on and off): a tracing-off
   scheduler schedules the init pods; the cluster's objects with the init pods bound are kept.
2. A fresh API server gets those objects; a scheduler (``factory.new`` with a
   ``TraceRecorder(enabled=trace)``) starts and its informers and cache sync. Not timed.
3. The measured objects (RC / PVs / PVCs / pods) are written to the API server (not timed,
   as creating thousands of objects is setup), then the timer runs while the loop delivers
   them to the scheduler's informers and schedules and binds every measured pod.

Before the timer starts, the objects made during setup (cluster, informers, cache, init pods)
are collected once and frozen (``gc.freeze``), and unfrozen after the run: Python's cyclic
collector would otherwise walk those tens of thousands of long-lived objects again in every
full collection during the timed span, a cost of the harness's setup, not of the scheduler.
Garbage made while scheduling is collected as usual.

Deviation: upstream times pod creation through the API server too; here only the
scheduler's side (informer handlers, queue, scheduleOne, binding) is timed.
"""

from __future__ import annotations

import gc
import re
import resource
import time
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from kubesched import features
from kubesched.bench.workloads import SETUP_NAMESPACE, TEST_NAMESPACE, Workload, make_nodes, pod_objects
from kubesched.cluster import APIServer
from kubesched.scheduler import factory
from kubesched.client.informers import InformerFactory
from kubesched.util.loop import EventLoop
from kubesched.trace import TraceRecorder

HORIZON = 600.0  # simulated seconds to wait for the pods to be bound


@dataclass(frozen=True, slots=True)
class Result:
    """The figures of one run."""

    workload: str
    nodes: int
    init_pods: int
    pods: int
    trace: bool
    scheduled: int
    seconds: float
    cpu_seconds: float  # this process's CPU time over the same span (less sensitive to a busy machine)
    pods_per_second: float
    algorithm_p50_ms: float
    algorithm_p99_ms: float
    peak_rss_mib: float
    records: int
    setup_seconds: float


class ScheduleTimer:
    """Wall-clock time of every ``Algorithm.Schedule`` call for a pod of ``namespace``.

    Wraps the generic scheduler's ``schedule`` on the instance (upstream observes
    ``scheduling_algorithm_duration_seconds`` around the same call), so the engine gets the
    recorder's observer unchanged, or none at all when tracing is off.
    """

    def __init__(self, algorithm: Any, namespace: str = TEST_NAMESPACE) -> None:
        self.durations: list[float] = []
        schedule = algorithm.schedule

        def timed(prof: Any, state: Any, pod: Any) -> Any:
            start = time.perf_counter()
            try:
                return schedule(prof, state, pod)
            finally:
                if pod.metadata.namespace == namespace:
                    self.durations.append(time.perf_counter() - start)

        algorithm.schedule = timed


def percentile(values: Iterable[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


_STATUS, _CLEAR_REFS = "/proc/self/status", "/proc/self/clear_refs"


def peak_rss_mib() -> float:
    """This process's peak resident set in MiB: ``VmHWM`` (Linux; ``reset_peak_rss`` starts it afresh),
    else ``ru_maxrss``."""
    try:
        with open(_STATUS, encoding="ascii") as status:
            found = re.search(r"^VmHWM:\s+(\d+) kB", status.read(), re.MULTILINE)
    except OSError:
        found = None
    if found is not None:
        return int(found.group(1)) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def reset_peak_rss() -> bool:
    """Start the peak resident set afresh from the current one (Linux ``clear_refs`` 5); False if it cannot."""
    gc.collect()
    try:
        with open(_CLEAR_REFS, "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        return False
    return True


def _bound(api: APIServer, namespace: str) -> int:
    return sum(1 for p in api.list("Pod", namespace) if p.spec.node_name)


def _run_until_bound(loop: EventLoop, api: APIServer, namespace: str, want: int, horizon: float) -> int:
    """Run the loop one simulated second at a time until ``want`` pods are bound (or the horizon)."""
    end = loop.now() + horizon
    loop.run(until=loop.now())
    bound = _bound(api, namespace)
    while bound < want and loop.now() < end:
        loop.run(until=loop.now() + 1.0)
        bound = _bound(api, namespace)
    return bound


def place_init_pods(workload: Workload) -> list[Any]:
    """Nodes plus the init objects with every init pod bound by a tracing-off scheduler."""
    loop = EventLoop()
    api = APIServer(loop)
    for obj in make_nodes(workload.nodes, workload.node_strategy):
        api.create(obj)
    for obj in pod_objects(workload.init_strategy, SETUP_NAMESPACE, workload.init_pods):
        api.create(obj)
    with features.override(workload.feature_gates):
        sched = factory.new(api, loop, None, seed=0)
        sched.run()
        bound = _run_until_bound(loop, api, SETUP_NAMESPACE, workload.init_pods, HORIZON)
        sched.stop()
    if bound < workload.init_pods:
        raise RuntimeError(f"{workload.label}: only {bound} of {workload.init_pods} init pods were scheduled")
    return [o for o in api.list_all() if type(o).KIND != "Event"]


def run(workload: Workload, *, trace: bool, init_objects: Optional[list[Any]] = None) -> Result:
    """Time the scheduler on ``workload``'s measured pods (see the module docstring)."""
    setup_start = time.perf_counter()
    if init_objects is None:
        init_objects = place_init_pods(workload)
    loop = EventLoop()
    api = APIServer(loop)
    for obj in init_objects:
        api.create(obj)
    with features.override(workload.feature_gates):
        rec = TraceRecorder(clock=loop, enabled=trace)
        informers = InformerFactory(api, loop)
        rec.attach_informers(informers)
        rec.attach_apiserver(api)
        sched = factory.new(api, loop, None, seed=0, informer_factory=informers, observer=rec.observer,
                            log=rec.log)
        timer = ScheduleTimer(sched.algorithm)
        sched.run()
        loop.run(until=loop.now())
        for obj in pod_objects(workload.pod_strategy, TEST_NAMESPACE, workload.pods):
            api.create(obj)
        setup_seconds = time.perf_counter() - setup_start
        gc.collect()
        gc.freeze()
        try:
            start, cpu_start = time.perf_counter(), time.process_time()
            scheduled = _run_until_bound(loop, api, TEST_NAMESPACE, workload.pods, HORIZON)
            seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
        finally:
            gc.unfreeze()
        sched.stop()
    return Result(workload=workload.label, nodes=workload.nodes, init_pods=workload.init_pods,
                  pods=workload.pods, trace=trace, scheduled=scheduled, seconds=seconds, cpu_seconds=cpu_seconds,
                  pods_per_second=scheduled / seconds if seconds > 0 else 0.0,
                  algorithm_p50_ms=percentile(timer.durations, 50) * 1000,
                  algorithm_p99_ms=percentile(timer.durations, 99) * 1000,
                  peak_rss_mib=peak_rss_mib(), records=len(rec.trace), setup_seconds=setup_seconds)
