"""Trace digests of every sample cluster and of every bench workload at a small size (a fidelity guard).

Run it before and after a change that must not change behaviour (a speed-up) and compare:

    .venv/bin/python benchmarks/trace_digests.py > /tmp/before.json
    ... change ...
    .venv/bin/python benchmarks/trace_digests.py > /tmp/after.json && diff /tmp/before.json /tmp/after.json

Each entry is (records, sha256 of the trace). Takes about a minute; not part of the test suite.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kubesched import features  # noqa: E402
from kubesched.bench import runner  # noqa: E402
from kubesched.bench.workloads import TEST_NAMESPACE, WORKLOADS, pod_objects, workload  # noqa: E402
from kubesched.cluster import APIServer  # noqa: E402
from kubesched.scheduler import factory  # noqa: E402
from kubesched.client.informers import InformerFactory  # noqa: E402
from kubesched.util.loop import EventLoop  # noqa: E402
from kubesched.sim.simulation import Simulation  # noqa: E402
from kubesched.trace import TraceRecorder, digest  # noqa: E402


def sample_digests() -> dict[str, tuple[int, str]]:
    """Every file of sample_clusters/ and sample_clusters/lessons/, run to idle with seed 0."""
    out = {}
    for path in sorted((ROOT / "sample_clusters").glob("*.yaml")) + sorted(
            (ROOT / "sample_clusters" / "lessons").glob("*.yaml")):
        sim = Simulation.from_path(path, seed=0)
        sim.run_until_idle()
        out[str(path.relative_to(ROOT / "sample_clusters"))] = (len(sim.trace), sim.digest())
    return out


def workload_digest(name: str, nodes: int = 120, init_pods: int = 60, pods: int = 40) -> tuple[int, str]:
    """One bench workload, traced: init pods placed, then the measured pods scheduled until bound."""
    w = workload(name, nodes=nodes, init_pods=init_pods, pods=pods)
    loop = EventLoop()
    api = APIServer(loop)
    for obj in runner.place_init_pods(w):
        api.create(obj)
    with features.override(w.feature_gates):
        rec = TraceRecorder(clock=loop, enabled=True)
        informers = InformerFactory(api, loop)
        rec.attach_informers(informers)
        rec.attach_apiserver(api)
        sched = factory.new(api, loop, None, seed=0, informer_factory=informers, observer=rec.observer, log=rec.log)
        sched.run()
        loop.run(until=loop.now())
        for obj in pod_objects(w.pod_strategy, TEST_NAMESPACE, w.pods):
            api.create(obj)
        runner._run_until_bound(loop, api, TEST_NAMESPACE, w.pods, 600.0)
        sched.stop()
    return len(rec.trace), digest(rec.trace)


def main() -> None:
    result = {"samples": sample_digests(), "workloads": {name: workload_digest(name) for name in WORKLOADS}}
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
