"""Small builders shared by the trace tests."""

from __future__ import annotations

from kubesched.api.core import Pod
from tests.testing.wrappers import make_pod


def mkpod(name: str, namespace: str = "default", scheduler: str = "default-scheduler", node: str = "") -> Pod:
    return make_pod().name(name).namespace(namespace).scheduler_name(scheduler).node(node).obj()


class Clock:
    """A settable clock for the recorder."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t
