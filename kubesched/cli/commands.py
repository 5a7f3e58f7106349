"""One subcommand of ``python -m kubesched``: its name, help, arguments and entry function.

Upstream: none (cobra commands in cmd/kube-scheduler are the nearest). Each command module
defines ``COMMAND``; ``kubesched.cli.main`` lists them, so no module registers into shared state.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    help: str
    configure: Configure
    run: Run
