"""``kube-scheduler`` against a simulated cluster: start the replicas, print what startup did.

Upstream: cmd/kube-scheduler/scheduler.go @ v1.18.5 (main). In the simulation every replica's
``main`` runs on the event loop (``kubesched.cmd.app.server.main``); this entry point loads a
cluster file, runs it to idle and prints each replica's startup steps, its leader-election
records and where the pods went.

Usage: ``python -m kubesched.cli.kube_scheduler CLUSTER.yaml [--config FILE] [--seed N]``.
Exit status 1 with the loader's message on a bad input, as ``main`` exits 1 on an error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from collections.abc import Sequence
from typing import TextIO

from kubesched.api.load import LoadError
from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.sim.scenario import ScenarioError
from kubesched.sim.simulation import Simulation
from kubesched.trace import Kind


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kube-scheduler", description="Start simulated kube-scheduler replicas "
                                     "on a cluster file and show their startup.")
    parser.add_argument("cluster", help="cluster YAML (may hold a KubeSchedulerConfiguration and a Scenario)")
    parser.add_argument("--config", help="KubeSchedulerConfiguration file (--config)")
    parser.add_argument("--seed", type=int, default=None)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    args = _parser().parse_args(argv)
    try:
        sim = Simulation.from_path(Path(args.cluster), config=Path(args.config) if args.config else None, seed=args.seed)
    except (LoadError, ConfigError, ScenarioError) as error:
        print(error, file=err)
        return 1
    sim.run_until_idle()
    for record in sim.trace:
        if record.kind is Kind.STARTUP_STEP:
            replica = dict(record.data.details).get("replica", "")
            print(f"{record.time:8.3f}s {replica:12} {record.data.step:38} {record.data.message}", file=out)
        elif record.kind is Kind.LEADER_ELECTION:
            host = record.data.identity.split("_")[0]
            print(f"{record.time:8.3f}s {host:12} leader election: {record.data.transition} "
                  f"{record.data.message}", file=out)
    if sim.exit_errors:
        print("\n".join(sim.exit_errors), file=err)
        return 1
    state = sim.state()
    print(f"stopped: {sim.stopped_reason} at {sim.time:g}s; leader {state.leader or '(none)'}", file=out)
    for pod in state.pods:
        print(f"  {pod.key:40} {pod.phase:8} {pod.node or '-'}", file=out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
