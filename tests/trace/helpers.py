"""Small builders shared by the trace tests."""

from __future__ import annotations

from kubesched.api.core import Pod, PodSpec
from kubesched.api.meta import ObjectMeta


def mkpod(name: str, namespace: str = "default", scheduler: str = "default-scheduler", node: str = "") -> Pod:
    return Pod(metadata=ObjectMeta(name=name, namespace=namespace),
               spec=PodSpec(scheduler_name=scheduler, node_name=node))


class Clock:
    """A settable clock for the recorder."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t
