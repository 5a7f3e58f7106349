"""``python -m kubesched``: argparse front end with one module per subcommand.

Upstream: cmd/kube-scheduler/app/server.go (NewSchedulerCommand) in spirit;
the commands themselves have no upstream counterpart.

Adding a command is one module defining ``COMMAND = Command(name, help, configure, run)``
(``kubesched.cli.commands``) and one entry in ``COMMANDS`` below. The bench command lives
in ``kubesched.bench.cli`` and knows nothing of this module.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Final

from kubesched.bench import cli as bench_cli
from kubesched.cli import explain, importer, run, validate
from kubesched.cli.commands import Command

_BENCH = Command("bench", bench_cli.HELP, bench_cli.configure, bench_cli.run_bench)
COMMANDS: Final[dict[str, Command]] = {
    cmd.name: cmd for cmd in (validate.COMMAND, run.COMMAND, explain.COMMAND, importer.COMMAND, _BENCH)}
run_validate = validate.run_validate


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m kubesched",
        description="kubesched: the Kubernetes v1.18.5 scheduler, re-implemented for teaching.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for cmd in COMMANDS.values():
        cmd.configure(sub.add_parser(cmd.name, help=cmd.help, description=cmd.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return COMMANDS[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
