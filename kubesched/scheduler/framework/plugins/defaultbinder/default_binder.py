"""DefaultBinder: binds a pod by creating its ``pods/binding`` subresource.

Upstream: pkg/scheduler/framework/plugins/defaultbinder/default_binder.go @ v1.18.5
(DefaultBinder.Name, DefaultBinder.Bind, New).

Deviation: upstream posts a ``v1.Binding`` carrying the pod's UID as a precondition; the
in-memory API server's ``bind(namespace, name, node_name)`` takes no UID.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from kubesched.scheduler.framework.v1alpha1.interface import BindPlugin, Code, Status

NAME: Final = "DefaultBinder"


class DefaultBinder:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def name(self) -> str:
        return NAME

    def bind(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        """Upstream: DefaultBinder.Bind; an API error becomes an Error status with its text."""
        try:
            self.handle.client_set().bind(pod.metadata.namespace, pod.metadata.name, node_name)
        except Exception as exc:  # noqa: BLE001 - any client error is the Bind's error
            return Status(Code.ERROR, (str(exc),))
        return None


def new(args: dict | None, handle: Any) -> DefaultBinder:
    return DefaultBinder(handle)


_: BindPlugin = DefaultBinder(None)
