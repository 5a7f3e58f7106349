"""``python -m kubesched explain FILE --pod NS/NAME [--node NODE]``: why the pod is where it is.

Upstream: no counterpart; the words are v1.18.5's (Filter reasons, the FitError message), read
from the trace by ``kubesched.explain.explain_pod``. The run always records a trace and goes
to idle (or the horizon) before explaining. Exit 0 when the pod was found, 1 for input errors
or an unknown pod.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from kubesched.cli.commands import Command
from kubesched.cli.run import add_simulation_arguments, load_simulation
from kubesched.explain import explain_pod, render, sentence

__all__ = ["pod_key", "run_explain"]


def pod_key(text: str) -> str:
    """``NS/NAME`` (``NAME`` alone means namespace ``default``)."""
    namespace, sep, name = text.partition("/")
    if not sep:
        namespace, name = "default", text
    if not namespace or not name or "/" in name:
        raise argparse.ArgumentTypeError(f"expected NAMESPACE/NAME, got {text!r}")
    return f"{namespace}/{name}"


def _configure(parser: argparse.ArgumentParser) -> None:
    add_simulation_arguments(parser)
    parser.add_argument("--pod", type=pod_key, required=True, metavar="NS/NAME", help="the pod to explain")
    parser.add_argument("--node", metavar="NODE", help="explain only this node: why (not) here?")


def run_explain(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    sim = load_simulation(args, trace=True, err=err)
    if sim is None:
        return 1
    sim.run_until_idle()
    explanation = explain_pod(sim.trace[: sim.cursor], sim.state(), args.pod, node=args.node)
    if not explanation.found:
        print(sentence(explanation), file=err)
        return 1
    out.write(render(explanation))
    return 0


COMMAND = Command("explain", "run to idle and explain why a pod is on its node or still pending", _configure, run_explain)
