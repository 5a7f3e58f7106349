"""``python -m kubesched bench``: run scheduler_perf workloads and print their figures.

Upstream: test/integration/scheduler_perf (BenchmarkPerfScheduling) in spirit; the command
itself has no upstream counterpart.

Per case: nodes, init pods, measured pods, then one row per tracing mode with pods/s
(wall clock; pods per CPU-second beside it, steadier on a shared machine), the per-pod scheduling-algorithm latency p50/p99 (ms), peak RSS (MiB) and trace records;
the output ends with one line per case ``NAME: X pods/s`` (tracing off when it ran).
When more than one run is asked for, each runs in a forked child process so its peak RSS
is its own.

``--compare``: per case, tracing off then on back to back in this one process (same warm
interpreter, same init objects; the peak RSS is started afresh before each run where Linux
allows), then ``on / off: time ×T (CPU ×C), peak RSS ×R`` — the cost of tracing, as ratios
of seconds per pod and of peak RSS.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from typing import Any, Optional, Sequence, TextIO

from kubesched.bench import runner
from kubesched.bench.workloads import DEFAULT_CASES, WORKLOADS, Workload, workload

TRACE_MODES = {"off": (False,), "on": (True,), "both": (False, True)}
HEADER = f"  {'trace':<6}{'pods/s':>9}{'pods/CPU-s':>11}{'p50 ms':>9}{'p99 ms':>9}{'peak RSS MiB':>14}{'records':>10}{'scheduled':>11}"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workload", default="all", metavar="NAME",
                        help=f"one of {', '.join(WORKLOADS)}, or 'all' (default): every upstream case")
    parser.add_argument("--nodes", type=int, help="number of nodes (default: the workload's first upstream size)")
    parser.add_argument("--init-pods", type=int, dest="init_pods", help="pods scheduled before measuring")
    parser.add_argument("--pods", type=int, help="measured pods")
    parser.add_argument("--trace", choices=sorted(TRACE_MODES), default="both",
                        help="tracing off, on, or both (default)")
    parser.add_argument("--compare", action="store_true",
                        help="tracing off then on in this one process per case, and their time and RSS ratios")


def cases(args: argparse.Namespace) -> list[Workload]:
    """The workloads the arguments name, sized."""
    if args.workload == "all":
        sized = [workload(name, nodes).resized(args.nodes, args.init_pods, args.pods) for name, nodes in DEFAULT_CASES]
        unique = {(w.label, w.init_pods, w.pods): w for w in sized}  # --nodes may make two cases the same
        return list(unique.values())
    return [workload(args.workload, args.nodes, args.init_pods, args.pods)]


def _child(conn: Any, case: Workload, trace: bool, init_objects: list[Any]) -> None:
    try:
        conn.send(runner.run(case, trace=trace, init_objects=init_objects))
    except BaseException as err:  # noqa: BLE001 - reported by the parent
        conn.send(err)
    finally:
        conn.close()


def _run_forked(case: Workload, trace: bool, init_objects: list[Any]) -> runner.Result:
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, case, trace, init_objects))
    proc.start()
    child.close()
    result = parent.recv()
    proc.join()
    if isinstance(result, BaseException):
        raise result
    return result


def run_case(case: Workload, modes: Sequence[bool], *, fork: bool) -> list[runner.Result]:
    init_objects = runner.place_init_pods(case)
    if not fork:
        return [runner.run(case, trace=t, init_objects=init_objects) for t in modes]
    return [_run_forked(case, t, init_objects) for t in modes]


def compare_case(case: Workload) -> list[runner.Result]:
    """Tracing off, then on, in this process, each with its own peak RSS (see the module docstring)."""
    init_objects = runner.place_init_pods(case)
    results = []
    for trace in (False, True):
        runner.reset_peak_rss()
        results.append(runner.run(case, trace=trace, init_objects=init_objects))
    return results


def ratio_line(off: runner.Result, on: runner.Result) -> str:
    """``on / off``: seconds per pod (wall and CPU) and peak RSS, tracing on over tracing off."""
    def per_pod(r: runner.Result, seconds: float) -> float:
        return seconds / r.scheduled if r.scheduled else 0.0

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}" if b > 0 else "-"

    return (f"  on / off: time ×{ratio(per_pod(on, on.seconds), per_pod(off, off.seconds))} "
            f"(CPU ×{ratio(per_pod(on, on.cpu_seconds), per_pod(off, off.cpu_seconds))}), "
            f"peak RSS ×{ratio(on.peak_rss_mib, off.peak_rss_mib)}")


def format_row(result: runner.Result) -> str:
    per_cpu = result.scheduled / result.cpu_seconds if result.cpu_seconds > 0 else 0.0
    return (f"  {'on' if result.trace else 'off':<6}{result.pods_per_second:>9.1f}{per_cpu:>11.1f}"
            f"{result.algorithm_p50_ms:>9.2f}"
            f"{result.algorithm_p99_ms:>9.2f}{result.peak_rss_mib:>14.1f}{result.records:>10}"
            f"{result.scheduled:>6}/{result.pods:<4}")


def summary_line(results: Sequence[runner.Result]) -> str:
    """``NAME: X pods/s`` from the tracing-off run when there is one."""
    chosen = next((r for r in results if not r.trace), results[0])
    return f"{chosen.workload}: {chosen.pods_per_second:.1f} pods/s"


HELP = "run scheduler_perf workloads (pods/s, algorithm latency, peak RSS; tracing on/off)"


def run_bench(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    try:
        selected = cases(args)
    except KeyError as err:
        print(f"error: {err.args[0]}", file=out)
        return 2
    modes = TRACE_MODES[args.trace]
    fork = len(selected) * len(modes) > 1 and "fork" in multiprocessing.get_all_start_methods()
    summaries = []
    for case in selected:
        print(f"{case.label}: nodes={case.nodes} init-pods={case.init_pods} pods={case.pods}", file=out)
        print(HEADER, file=out)
        results = compare_case(case) if getattr(args, "compare", False) else run_case(case, modes, fork=fork)
        for result in results:
            print(format_row(result), file=out)
        if getattr(args, "compare", False):
            print(ratio_line(*results), file=out)
        elif len(results) == 2 and results[1].pods_per_second > 0:
            print(f"  tracing on is {results[0].pods_per_second / results[1].pods_per_second:.2f}x slower", file=out)
        out.flush()
        summaries.append(summary_line(results))
    for line in summaries:
        print(line, file=out)
    return 0
