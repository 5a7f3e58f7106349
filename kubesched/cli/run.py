"""``python -m kubesched run FILE``: run the Simulation and print klog lines and placements (or JSON).

Upstream: no counterpart (kube-scheduler prints klog lines; ``kubectl get pods -o wide`` and
``kubectl get events`` show the rest). The klog lines are ``kubesched.trace.klog``'s.

JSON (``--format json``) is exactly::

    {"pods": [{"namespace", "name", "node", "nominatedNode", "phase", "boundAt", "attempts"}],
     "cycles": [{"cycle", "time", "pod", "profile", "result", "node", "evaluatedNodes",
                 "feasibleNodes", "message", "replica", "identity"}],
     "events": [{"time", "type", "reason", "object", "message", "count"}],
     "actionErrors": [{"index", "time", "action", "error"}],
     "end_time", "trace_digest"}

Times are simulated seconds. ``pods`` are sorted by namespace/name; ``phase`` is ``Pending``,
``Bound``, ``Succeeded`` (a Job's pod that ran to completion) or ``Deleted`` (a pod the kubelet
runs is ``Bound``); ``node``/``nominatedNode``/``boundAt`` are null when unset; ``boundAt`` of a
pod already bound in the input file is 0, the time the run started. ``cycles`` come from the
trace (``kubesched.explain.cycles``): every replica's, each row with the replica (hostname) and
its leader-election identity; each replica counts its cycles from 1. ``actionErrors`` are the
Scenario actions the API server refused (``index`` in ``spec.actions``, null for an edit; the
run went on without them); each is also printed to stderr, and ``--strict`` then makes the exit
code 1.
``events`` are the stored core/v1 Events of the final state, in the state's order; ``time``
is the Event's lastTimestamp. With ``--no-trace`` the engine runs without a recorder:
``pods``/``events``/``end_time`` are identical to the traced run, ``cycles`` is ``[]`` (there
is no trace to derive it from) and ``trace_digest`` is null; text output then has no klog lines.
Input errors (cluster, configuration, Scenario) print the loaders' one-line problems and exit 1;
so does a kube-scheduler that exits 1 at startup (an unknown plugin, a refused extender URL), with
its error as kube-scheduler prints it.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from kubesched.api.load import one_line
from kubesched.cli.commands import Command
from kubesched.explain.cycles import cycle_summaries
from kubesched.trace.digest import digest
from kubesched.trace.klog import format_lines

__all__ = ["add_simulation_arguments", "cycles_json", "events_json", "input_errors", "load_simulation",
           "open_simulation", "placement_table", "pods_json", "problem_lines", "report", "run_run"]

DEFAULT_VERBOSITY = 2          # the -v kube-scheduler deployments commonly run with
_PHASES = {"Running": "Bound"}  # JSON phases are Pending | Bound | Succeeded | Deleted


# -- arguments shared with ``explain`` -----------------------------------------------------------------
def add_simulation_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="cluster YAML (may hold a KubeSchedulerConfiguration "
                                                      "and a kubesched/v1alpha1 Scenario document)")
    parser.add_argument("--config", metavar="FILE", help="KubeSchedulerConfiguration file (v1alpha1 or v1alpha2)")
    parser.add_argument("--policy-config-file", metavar="FILE", dest="policy_config_file",
                        help="legacy scheduler Policy (kind: Policy, apiVersion: v1), as kube-scheduler's flag")
    parser.add_argument("--seed", type=int, default=None, help="seed of selectHost's tie-breaking "
                                                                "(default: the Scenario's, else 0)")


def input_errors() -> tuple[type[BaseException], ...]:
    from kubesched.api.load import LoadError
    from kubesched.scheduler.apis.config.scheme import ConfigError
    errors: list[type[BaseException]] = [LoadError, ConfigError, OSError]
    try:
        from kubesched.sim import simulation
    except ImportError:  # pragma: no cover - the Simulation is not there yet
        return tuple(errors)
    for name in ("LoadError", "ConfigError", "ScenarioError"):
        cls = getattr(simulation, name, None)
        if isinstance(cls, type) and issubclass(cls, BaseException) and cls not in errors:
            errors.append(cls)
    return tuple(errors)


def problem_lines(err: BaseException) -> list[str]:
    """One line per problem of a loader error (its message when it has no ``problems``)."""
    problems = getattr(err, "problems", None)
    if problems:
        return [one_line(str(p)) for p in problems]
    if isinstance(err, OSError) and err.filename:
        return [one_line(f"{err.filename}: {err.strerror or err}")]
    return [one_line(line) for line in str(err).splitlines()] or [type(err).__name__]


def open_simulation(file: str, config: str | None, seed: int | None, *, trace: bool,
                    policy: str | None = None) -> Any:
    """``Simulation.from_path`` as ``run`` calls it (the CLI's limits); raises the loaders' errors
    (``input_errors()``)."""
    from kubesched.sim import limits
    from kubesched.sim.simulation import Simulation
    for path in (file, config, policy):
        if path is not None and not pathlib.Path(path).is_file():
            raise FileNotFoundError(2, "no such file", path)
    cfg = pathlib.Path(config) if config else None
    policy_path = pathlib.Path(policy) if policy else None
    return Simulation.from_path(pathlib.Path(file), config=cfg, policy=policy_path, seed=seed, trace=trace,
                                limits=limits.CLI)


def load_simulation(args: argparse.Namespace, *, trace: bool, err: TextIO) -> Any | None:
    """``open_simulation`` for the parsed arguments; None (problems printed) on input errors."""
    try:
        return open_simulation(args.file, args.config, args.seed, trace=trace,
                               policy=getattr(args, "policy_config_file", None))
    except input_errors() as error:
        for line in problem_lines(error):
            print(line, file=err)
        return None


def _until(text: str) -> str | float:
    if text == "idle":
        return text
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'idle' or simulated seconds, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"simulated seconds must be >= 0, got {text}")
    return value


def run_to(sim: Any, until: str | float) -> None:
    """Run to idle (or the horizon), or to the given simulated time."""
    if until == "idle":
        sim.run_until_idle()
    else:
        sim.advance(max(0.0, float(until) - float(sim.time)))


# -- the report (pure) -------------------------------------------------------------------------------------
def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return default


def _time(value: Any) -> float | None:
    return None if value is None else round(float(value), 6)


def _pods(state: Any) -> list[Any]:
    pods = getattr(state, "pods", ()) or ()
    return list(pods.values()) if isinstance(pods, dict) else list(pods)


def pods_json(state: Any) -> list[dict[str, Any]]:
    """``pods[]`` of the JSON report, sorted by namespace/name."""
    rows = []
    for p in _pods(state):
        phase = str(_get(p, "phase", default="Pending"))
        rows.append({
            "namespace": p.namespace,
            "name": p.name,
            "node": _get(p, "node", "node_name") or None,
            "nominatedNode": _get(p, "nominated_node", "nominated_node_name") or None,
            "phase": _PHASES.get(phase, phase),
            "boundAt": _time(_get(p, "bound_at")),
            "attempts": int(_get(p, "attempts", default=0)),
        })
    return sorted(rows, key=lambda r: (r["namespace"], r["name"]))


def _event_object(e: Any) -> str:
    obj = _get(e, "object", "involved_object")
    if isinstance(obj, str):
        return obj
    if obj is None:
        return ""
    name = f"{obj.namespace}/{obj.name}" if getattr(obj, "namespace", "") else obj.name
    return f"{obj.kind} {name}"


def events_json(state: Any) -> list[dict[str, Any]]:
    """``events[]``: the stored Events of the state (``kubectl get events``), in the state's order."""
    return [{
        "time": _time(_get(e, "time", "last_timestamp", "last_seen", "first_timestamp")),
        "type": e.type,
        "reason": e.reason,
        "object": _event_object(e),
        "message": e.message,
        "count": int(_get(e, "count", default=1)),
    } for e in (getattr(state, "events", ()) or ())]


def cycles_json(records: Iterable[Any]) -> list[dict[str, Any]]:
    """``cycles[]``: one per scheduling cycle of the trace (``kubesched.explain.cycle_summaries``)."""
    return [{
        "cycle": c.cycle, "time": _time(c.time), "pod": c.pod, "profile": c.profile, "result": c.result,
        "node": c.node or None, "evaluatedNodes": c.evaluated_nodes, "feasibleNodes": c.feasible_nodes,
        "message": c.message, "replica": c.replica, "identity": c.identity,
    } for c in cycle_summaries(records)]


def report(sim: Any, *, traced: bool = True) -> dict[str, Any]:
    """The whole JSON report of a run at its cursor."""
    state = sim.state()
    records = sim.trace[: sim.cursor] if traced else ()
    return {
        "pods": pods_json(state),
        "cycles": cycles_json(records) if traced else [],
        "events": events_json(state),
        "actionErrors": [e.to_json() for e in getattr(sim, "action_errors", ())],
        "end_time": _time(sim.time),
        "trace_digest": digest(records) if traced else None,
    }


def placement_table(pods: Sequence[dict[str, Any]]) -> list[str]:
    """The text table: POD, NODE (or -), PHASE, ATTEMPTS, BOUND AT (from ``pods_json`` rows)."""
    header = ("POD", "NODE", "PHASE", "ATTEMPTS", "BOUND AT")
    rows = [(f"{p['namespace']}/{p['name']}", p["node"] or "-", p["phase"], str(p["attempts"]),
             "-" if p["boundAt"] is None else f"{p['boundAt']:g}s") for p in pods]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in (header, *rows)]


def stop_note(sim: Any, pods: Sequence[dict[str, Any]]) -> str | None:
    """A note when the run stopped for another reason than going idle (``pods``: ``pods_json`` rows)."""
    reason = getattr(sim, "stopped_reason", None)
    pending = [f"{p['namespace']}/{p['name']}" for p in pods if p["phase"] == "Pending"]
    still = f"; still pending: {', '.join(pending)}" if pending else ""
    if reason == "horizon":
        horizon = getattr(sim, "horizon", None)
        after = f", {horizon:g}s after the last change" if horizon is not None else ""
        return f"stopped at the horizon (t={sim.time:g}s{after}){still}"
    if reason == "max_events":
        return f"stopped at the event cap (t={sim.time:g}s){still}"
    return None


# -- the command ------------------------------------------------------------------------------------------
def _configure(parser: argparse.ArgumentParser) -> None:
    add_simulation_arguments(parser)
    parser.add_argument("--until", type=_until, default="idle", metavar="idle|SECONDS",
                        help="run until idle (default) or until this simulated time")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--no-trace", action="store_true",
                        help="run without recording a trace (same placements and Events; no klog lines, "
                             "JSON cycles [] and trace_digest null)")
    parser.add_argument("-v", dest="verbosity", type=int, default=DEFAULT_VERBOSITY, metavar="N",
                        help=f"klog verbosity of the printed lines (default {DEFAULT_VERBOSITY})")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when the API server refused a Scenario action (they are printed to stderr)")


def run_run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    traced = not args.no_trace
    sim = load_simulation(args, trace=traced, err=err)
    if sim is None:
        return 1
    run_to(sim, args.until)
    if sim.exit_errors:  # kube-scheduler's runCommand error: fmt.Fprintf(os.Stderr, "%v\n", err); os.Exit(1)
        print("\n".join(sim.exit_errors), file=err)
        return 1
    data = report(sim, traced=traced)
    note = stop_note(sim, data["pods"])
    if note:
        print(f"note: {note}", file=err)
    for refused in sim.action_errors:
        print(f"refused: {refused}", file=err)
    code = 1 if args.strict and sim.action_errors else 0
    if args.format == "json":
        json.dump(data, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return code
    if traced:
        for line in format_lines(sim.trace[: sim.cursor], args.verbosity):
            print(line, file=out)
        print(file=out)
    for line in placement_table(data["pods"]):
        print(line, file=out)
    return code


COMMAND = Command("run", "run the scheduler on a cluster file; print klog lines and placements (or JSON)", _configure, run_run)
