"""``python -m kubesched``: argparse front end with one function per subcommand.

Upstream: cmd/kube-scheduler/app/server.go (NewSchedulerCommand) in spirit;
the commands themselves have no upstream counterpart.

Adding a command is one function: decorate ``def run_x(args) -> int`` with
``@command("x", "help text", configure)`` where ``configure`` adds its
arguments to the subparser.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from kubesched.api.load import LoadError, load_files

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    help: str
    configure: Configure
    run: Run


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, configure: Configure) -> Callable[[Run], Run]:
    """Register ``run`` as subcommand ``name``."""
    def register(run: Run) -> Run:
        COMMANDS[name] = Command(name, help, configure, run)
        return run
    return register


# ---------------------------------------------------------------- validate


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", metavar="FILE", nargs="+",
                        help="YAML manifests (multi-document; List documents allowed); each file is "
                             "one cluster unless --together")
    parser.add_argument("--together", action="store_true",
                        help="load all files as one cluster (references may cross files)")


@command("validate", "check cluster manifests; print one line per problem (exit 1 on errors)",
         _configure_validate)
def run_validate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    groups = [args.files] if args.together else [[f] for f in args.files]
    failed = False
    for files in groups:
        try:
            cluster = load_files(files)
        except LoadError as err:
            failed = True
            for problem in err.problems:
                print(problem, file=out)
            continue
        for warning in cluster.warnings:
            print(warning, file=out)
    return 1 if failed else 0


# ---------------------------------------------------------------- entry point

import kubesched.cli.explain  # registers "explain"
import kubesched.cli.run  # noqa: F401  (registers "run")
import kubesched.bench.cli  # noqa: E402,F401  (registers "bench")


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
