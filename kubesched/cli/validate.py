"""``python -m kubesched validate``: check cluster manifests, one line per problem.

Upstream: no counterpart (``kubectl apply --dry-run=server`` is the nearest); the messages follow the
API server's field errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from kubesched.api.load import LoadError, load_files
from kubesched.cli.commands import Command


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", metavar="FILE", nargs="+",
                        help="YAML manifests (multi-document; List documents allowed); each file is "
                             "one cluster unless --together")
    parser.add_argument("--together", action="store_true",
                        help="load all files as one cluster (references may cross files)")


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


COMMAND = Command("validate", "check cluster manifests; print one line per problem (exit 1 on errors)",
                  _configure_validate, run_validate)
