"""Pods parked at Permit: one timer per waiting plugin, Allow/Reject, and the signal slot.

Upstream: pkg/scheduler/framework/v1alpha1/waiting_pods_map.go (waitingPodsMap add/remove/
get/iterate, newWaitingPod, waitingPod.GetPod/GetPendingPlugins/Allow/Reject).

Upstream a waiting pod owns a status channel with a buffer of one and ``time.AfterFunc``
timers; the binding goroutine blocks on the channel in ``WaitOnPermit``. Here:

- a timer is ``loop.call_later(wait, ...)`` on the simulation loop; when it fires it calls
  ``reject("rejected due to timeout after waiting <d> at plugin <name>")`` (``<d>`` in Go's
  ``Duration.String`` form, e.g. ``10s``, ``15m0s``, ``500ms``);
- the channel is a one-slot buffer: ``allow`` (once no plugin is pending) and ``reject``
  try a non-blocking send; a send while the slot is full is dropped, as upstream;
- ``WaitOnPermit`` is ``subscribe(receiver)``: a status already in the slot is handed over at
  once; otherwise the next send hands it to the receiver through ``loop.call_later(0, ...)``,
  the way a blocked goroutine wakes up after the sender returns. ``signal()`` peeks at the slot
  for code that prefers to poll.

Deviation: the map and the pending plugins are Go maps upstream (random iteration order,
random order of timer creation for equal timeouts); here both keep insertion order.
"""

from __future__ import annotations

from typing import Callable, Iterator, Optional

from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.util.loop import Handle, Loop

TIMEOUT_PRIORITY = 0


Receiver = Callable[[Status], None]
_EMPTY = object()


class WaitingPod:
    """``waitingPod``: a pod that passed Permit with at least one ``Wait``."""

    def __init__(self, pod, plugins_max_wait_time: dict[str, float], loop: Loop) -> None:
        self._pod = pod
        self._loop = loop
        self._slot: object = _EMPTY
        self._receiver: Optional[Receiver] = None
        self.pending_plugins: dict[str, Handle] = {}
        for plugin, wait in plugins_max_wait_time.items():
            self.pending_plugins[plugin] = loop.call_later(
                wait, self._timeout_callback(plugin, wait), priority=TIMEOUT_PRIORITY,
                label=f"permit timeout {_pod_label(pod)} at {plugin}")

    def _timeout_callback(self, plugin: str, wait: float) -> Callable[[], None]:
        def fire() -> None:
            self.reject(f"rejected due to timeout after waiting {go_duration(wait)} at plugin {plugin}")
        return fire

    def get_pod(self):
        return self._pod

    def get_pending_plugins(self) -> list[str]:
        return list(self.pending_plugins)

    def allow(self, plugin_name: str) -> None:
        """``Allow``: that plugin's timer stops; the last one to allow sends Success."""
        timer = self.pending_plugins.pop(plugin_name, None)
        if timer is not None:
            timer.cancel()
        if not self.pending_plugins:
            self._send(Status(Code.SUCCESS, ("",)))

    def reject(self, msg: str) -> None:
        """``Reject``: stop every timer (they stay listed as pending) and send Unschedulable."""
        for timer in self.pending_plugins.values():
            timer.cancel()
        self._send(Status(Code.UNSCHEDULABLE, (msg,)))

    # -- the channel -----------------------------------------------------------
    def _send(self, status: Status) -> None:
        if self._receiver is not None:
            receiver, self._receiver = self._receiver, None
            self._loop.call_later(0, lambda: receiver(status), label=f"permit signal {_pod_label(self._pod)}")
        elif self._slot is _EMPTY:
            self._slot = status
        # else: the buffer is full, the non-blocking send is dropped

    def signal(self) -> Optional[Status]:
        """The status waiting in the slot, if any (not consumed)."""
        return None if self._slot is _EMPTY else self._slot  # type: ignore[return-value]

    def subscribe(self, receiver: Receiver) -> None:
        """Receive the next status: now if one is buffered, else from the loop after the send."""
        if self._slot is not _EMPTY:
            status, self._slot = self._slot, _EMPTY
            receiver(status)  # type: ignore[arg-type]
        else:
            self._receiver = receiver


class WaitingPodsMap:
    """``waitingPodsMap``: pod UID → WaitingPod."""

    def __init__(self) -> None:
        self._pods: dict[str, WaitingPod] = {}

    def add(self, wp: WaitingPod) -> None:
        self._pods[wp.get_pod().metadata.uid] = wp

    def remove(self, uid: str) -> None:
        self._pods.pop(uid, None)

    def get(self, uid: str) -> Optional[WaitingPod]:
        return self._pods.get(uid)

    def iterate(self, callback: Callable[[WaitingPod], object]) -> None:
        for wp in list(self._pods.values()):
            callback(wp)

    def __iter__(self) -> Iterator[WaitingPod]:
        return iter(list(self._pods.values()))

    def __len__(self) -> int:
        return len(self._pods)


def _pod_label(pod) -> str:
    meta = getattr(pod, "metadata", None)
    return f"{meta.namespace}/{meta.name}" if meta is not None else "<nil>"


# ----------------------------------------------------------------------------- Go durations

_SECOND_NS = 1_000_000_000


def go_duration(seconds: float) -> str:
    """``time.Duration.String`` of ``seconds`` (``0s``, ``500ms``, ``10s``, ``1m30s``, ``15m0s``, ``1h0m0s``)."""
    ns = round(seconds * _SECOND_NS)
    text = _unsigned_duration(abs(ns))
    return "-" + text if ns < 0 else text


def _unsigned_duration(u: int) -> str:
    if u < _SECOND_NS:
        if u == 0:
            return "0s"
        if u < 1_000:
            return f"{u}ns"
        if u < 1_000_000:
            return _frac(u, 3) + "µs"
        return _frac(u, 6) + "ms"
    whole, rem = divmod(u, _SECOND_NS)
    text = _frac(whole % 60 * _SECOND_NS + rem, 9) + "s"
    minutes = whole // 60
    if minutes:
        text = f"{minutes % 60}m{text}"
        if minutes // 60:
            text = f"{minutes // 60}h{text}"
    return text


def _frac(value: int, precision: int) -> str:
    integer, frac = divmod(value, 10 ** precision)
    digits = f"{frac:0{precision}d}".rstrip("0")
    return f"{integer}.{digits}" if digits else str(integer)
