"""Simulations running at once in threads (one per dashboard session) give the traces they give alone.

Feature gates live in a ContextVar (each thread its own) and the plugins' memos on the plugin
instances, so nothing one run does reaches another. The switch interval is made tiny so that
threads interleave inside engine steps.
"""

from __future__ import annotations

import pathlib
import sys
import threading
from typing import Any, Callable

import pytest

from kubesched.sim import Simulation

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "sample_clusters"
CLUSTERS = sorted(SAMPLES.glob("*.yaml")) + sorted((SAMPLES / "lessons").glob("*.yaml"))
GATED = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration",
         "featureGates": {"EvenPodsSpread": False, "NonPreemptingPriority": True, "PodOverhead": False}}


@pytest.fixture
def fast_switching(request: pytest.FixtureRequest):
    saved = sys.getswitchinterval()
    sys.setswitchinterval(request.param)
    yield
    sys.setswitchinterval(saved)


def digest(path: pathlib.Path, config: dict | None = None) -> str:
    sim = Simulation.from_yaml(path, config=config, seed=0)
    sim.run_until_idle()
    return sim.digest()


def run_at_once(*jobs: Callable[[], Any]) -> list[Any]:
    """Each job in its own thread, started together; a job's exception is its result."""
    results: list[Any] = [None] * len(jobs)
    start = threading.Barrier(len(jobs))

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = jobs[i]()
        except Exception as err:  # noqa: BLE001 - reported as the job's result
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_an_override_in_one_thread_is_not_seen_in_another():
    from kubesched import features
    inside, checked = threading.Event(), threading.Event()
    seen = {}

    def holder() -> None:
        with features.override({"EvenPodsSpread": False, "NonPreemptingPriority": True}):
            seen["holder"] = (features.enabled("EvenPodsSpread"), features.enabled("NonPreemptingPriority"))
            inside.set()
            checked.wait(10)

    def other() -> None:
        inside.wait(10)
        seen["other"] = (features.enabled("EvenPodsSpread"), features.enabled("NonPreemptingPriority"))
        checked.set()

    run_at_once(holder, other)
    assert seen == {"holder": (False, True), "other": (True, False)}


@pytest.mark.parametrize("fast_switching", [1e-6], indirect=True)
def test_two_simulations_in_two_threads_give_the_serial_digests(fast_switching):
    """A config with gates beside one without, each pair started together, a few rounds."""
    spread, preemption = SAMPLES / "spread.yaml", SAMPLES / "preemption.yaml"
    jobs = [lambda: digest(spread), lambda: digest(preemption, GATED),
            lambda: digest(spread, GATED), lambda: digest(preemption)]
    serial = [job() for job in jobs]
    for _ in range(3):
        assert run_at_once(*jobs[:2]) == serial[:2]
        assert run_at_once(*jobs[2:]) == serial[2:]


@pytest.mark.slow
@pytest.mark.parametrize("fast_switching", [5e-6], indirect=True)
def test_every_sample_and_lesson_cluster_twice_at_once(fast_switching):
    """Each round runs every cluster twice, each time in a pair with another cluster started
    together (round r pairs cluster i with cluster i + 1 + r)."""
    serial = {path: digest(path) for path in CLUSTERS}
    for r in range(4):
        for i, a in enumerate(CLUSTERS):
            b = CLUSTERS[(i + 1 + r) % len(CLUSTERS)]
            got = run_at_once(lambda: digest(a), lambda: digest(b))
            assert got == [serial[a], serial[b]], (r, a.name, b.name)
