"""One kube-scheduler process of the simulated cluster: its own loop view, informers, cache,
queue, frameworks and leader elector, against the shared API server.

Upstream: cmd/kube-scheduler (one process per replica); the process is started by
``kubesched.cmd.app.server.main`` at simulated time 0.

A process schedules every callback through a ``ProcessLoop``: when the process dies
(``kill()``: ``KillLeader``, or ``klog.Fatalf("leaderelection lost")``) its pending callbacks do
nothing and its recurring timers stop, as the goroutines of a dead process do. Nothing is
released: the lease stays until it expires (kube-scheduler 1.18 has ReleaseOnCancel false).

Partitions (``Partition`` edits): a process reaches the API server through its own
``ReplicaClient``; once cut, its requests raise ``Unreachable`` and its watches deliver
nothing, so its informers, cache and queue stop hearing of the cluster; a watch-only cut
(``stallWatch``) stalls the watches alone. The cut lasts to the end of the run.
Deviations: a cut request fails at once with Go's "connection refused" text (``request_url``) (upstream's
request may instead hang until the client's timeout, which for the leader-election client
is renewDeadline: either way a renew body fails at its deadline); the Events a cut process
emits are dropped (upstream's broadcaster retries each a few times, then drops it); a cut
watch never comes back (upstream's reflector would relist once its watch times out).

Tracing with several replicas: every replica runs the same informers, cache and queue, so
only one replica's engine records are kept, the *traced* one: the leader, or (while nobody
leads) the first replica still alive. Startup steps, leader-election records and fatal log
lines are kept for every replica (their ``details``/identity name the replica).

Deviations: hostnames are ``scheduler-a``, ``scheduler-b`` …; identities are
``<hostname>_<uuid5(hostname/seed)>``; the acquire retries' jitter is drawn from each
replica's own seeded random source (``kubesched.cmd.app.server.election_rng``); of the
elector's observations only ``attempt`` changes (a different outcome or
message than the replica's previous attempt), ``new-leader``, ``acquired``, ``lost``,
``released`` and ``stopped`` are recorded (not every 2 s renewal); the elector's log lines
are kept up to verbosity 2.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from kubesched.cluster import resources
from kubesched.cluster.errors import APIError
from kubesched.cmd.app.server import LEADERELECTION_GO, ProcessEnv, main
from kubesched.util.loop import Handle

ELECTION_LOG_VERBOSITY = 2


def hostname(index: int) -> str:
    """``scheduler-a``, ``scheduler-b`` … ``scheduler-z``, then ``scheduler-27`` …"""
    letters = string.ascii_lowercase
    return f"scheduler-{letters[index]}" if index < len(letters) else f"scheduler-{index + 1}"


class ProcessLoop:
    """The shared EventLoop as one process sees it: everything it schedules dies with it."""

    def __init__(self, loop: Any) -> None:
        self._loop = loop
        self.alive = True
        self._recurring: list[Handle] = []

    def now(self) -> float:
        return self._loop.now()

    def _guard(self, callback: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            return callback() if self.alive else None
        return run

    def call_at(self, when: float, callback: Callable[[], object], *, priority: int = 0, label: str = "") -> Handle:
        return self._loop.call_at(when, self._guard(callback), priority=priority, label=label)

    def call_later(self, delay: float, callback: Callable[[], object], *, priority: int = 0,
                   label: str = "") -> Handle:
        return self._loop.call_later(delay, self._guard(callback), priority=priority, label=label)

    def every(self, period: float, callback: Callable[[], object], *, priority: int = 0, label: str = "",
              idle: Callable[[], bool] | None = None) -> Handle:
        handle = self._loop.every(period, self._guard(callback), priority=priority, label=label, idle=idle)
        self._recurring.append(handle)
        return handle

    def kill(self) -> None:
        self.alive = False
        for handle in self._recurring:
            handle.cancel()
        self._recurring.clear()


class Unreachable(APIError):
    """A request of a partitioned replica: it never reached the API server."""

    reason = ""
    code = 0


API_ADDRESS = "10.96.0.1:443"
"""Where a replica dials kube-apiserver (the ``kubernetes`` Service's usual ClusterIP), for the error text."""


_METHODS = {"get": "Get", "list": "Get", "list_all": "Get", "snapshot": "Get", "create": "Post", "bind": "Post",
            "update": "Put", "update_status": "Put", "delete": "Delete"}
_VERSIONS = {"": "v1", "policy": "v1beta1", "batch": "v1"}


def request_url(verb: str, args: tuple[Any, ...]) -> str:
    """The URL a client-go request for ``APIServer.<verb>(*args)`` goes to (for the error text)."""
    kind, namespace, name, sub = "", "", "", ""
    if verb in ("get", "delete"):
        kind, namespace, name = args[:3]
    elif verb == "list":
        kind, namespace = args[0], (args[1] if len(args) > 1 else "") or ""
    elif verb in ("create", "update", "update_status") and args:
        meta = args[0].metadata
        kind, namespace = type(args[0]).KIND, meta.namespace
        name = "" if verb == "create" else meta.name
        sub = "/status" if verb == "update_status" else ""
    elif verb == "bind":
        kind, namespace, name, sub = "Pod", args[0], args[1], "/binding"
    if not kind or not resources.known(kind):
        return f"https://{API_ADDRESS}/api"
    grp = resources.group(kind)
    root = f"/apis/{grp}/{_VERSIONS.get(grp, 'v1')}" if grp else "/api/v1"
    path = root + (f"/namespaces/{namespace}" if namespace else "") + f"/{resources.resource(kind)}"
    return f"https://{API_ADDRESS}{path}" + (f"/{name}" if name else "") + sub


class ReplicaClient:
    """The API server as one scheduler process reaches it (see the module docstring: partitions)."""

    def __init__(self, api: Any) -> None:
        self._api = api
        self.requests_cut = False
        self.watch_cut = False

    def cut(self, *, watch_only: bool) -> None:
        self.watch_cut = True
        self.requests_cut = self.requests_cut or not watch_only

    def watch(self, handler: Callable[[Any], None], kinds: Any = None) -> Callable[[], None]:
        def delivered(event: Any) -> None:
            if not self.watch_cut:
                handler(event)
        return self._api.watch(delivered, kinds)

    def record_event(self, *args: Any, **kwargs: Any) -> Any:
        return None if self.requests_cut else self._api.record_event(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._api, name)
        if name.startswith("_") or not callable(target):
            return target

        def request(*args: Any, **kwargs: Any) -> Any:
            if self.requests_cut:
                raise Unreachable(f"{_METHODS.get(name, 'Get')} {request_url(name, args)}: "
                                  f"dial tcp {API_ADDRESS}: connect: connection refused")
            return target(*args, **kwargs)
        return request


class _Gated:
    """The recorder as one replica's engine sees it: hooks pass only while ``gate()`` is true."""

    def __init__(self, recorder: Any, gate: Callable[[], bool]) -> None:
        self._recorder = recorder
        self._gate = gate
        self._hooks: dict[str, Callable[..., Any]] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        hook = self._hooks.get(name)
        if hook is None:
            target = getattr(self._recorder, name)
            gate = self._gate

            def hook(*args: Any, **kwargs: Any) -> Any:
                return target(*args, **kwargs) if gate() else None
            self._hooks[name] = hook
            setattr(self, name, hook)  # later lookups skip __getattr__
        return hook


class PodAttempts:
    """Remembers each pod's scheduling attempts as ``NextPod`` pops it (for ``SimState``).

    It wraps the scheduler's ``next_pod`` (``MakeNextPodFunc``) so that it works with tracing
    off too, where the engine gets no observer at all.
    """

    def __init__(self) -> None:
        self.attempts: dict[str, int] = {}

    def wrap(self, sched: Any) -> None:
        next_pod = sched.next_pod

        def counted_next_pod() -> Any:
            info = next_pod()
            if info is not None and info.pod is not None:
                meta = info.pod.metadata
                self.attempts[f"{meta.namespace}/{meta.name}"] = info.attempts
            return info
        sched.next_pod = counted_next_pod


class SchedulerProcess:
    """One replica: started by ``start()`` (``main`` at t=0), stopped by ``kill()``."""

    def __init__(self, index: int, *, api: Any, loop: Any, config: Any, seed: int, recorder: Any,
                 is_traced: Callable[[SchedulerProcess], bool], attempts: PodAttempts,
                 on_change: Callable[[], None] = lambda: None,
                 registry_options: tuple[Any, ...] = (), extender_policy: Any = None) -> None:
        self.index = index
        self.hostname = hostname(index)
        self.loop = ProcessLoop(loop)
        self.config = config
        self.recorder = recorder if recorder is not None and recorder.enabled else None
        self.client = ReplicaClient(api)
        self.leading = False
        self._last_attempt: tuple[bool, str] | None = None

        def gate() -> bool:
            return is_traced(self)
        self._gate = gate
        self._attempts = attempts
        self._on_change = on_change  # leading / alive changed
        self.env = ProcessEnv(
            hostname=self.hostname, loop=self.loop, client=self.client, seed=seed, identity_seed=str(seed),
            step=self._step, observer=_Gated(self.recorder, gate) if self.recorder is not None else None,
            log=self._log, election_log=self._election_log, on_informers=self._on_informers, on_scheduler=self._on_scheduler,
            on_election=self._on_election, on_leading=self._on_leading, exit=self._exit,
            extender_policy=extender_policy, registry_options=registry_options)

    # -- queries -------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.loop.alive

    @property
    def identity(self) -> str:
        cc = self.env.config
        return cc.identity if cc is not None else ""

    @property
    def sched(self) -> Any:
        return self.env.sched

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        """The process starts at simulated time 0: ``main`` runs as the first callback."""
        self.loop.call_at(0.0, lambda: main(self.env, self.config), label=f"{self.hostname} main")

    def kill(self) -> None:
        """The process dies: no release, no callback; its timers and pending work vanish."""
        if not self.alive:
            return
        self.leading = False
        if self.env.elector is not None:
            self.env.elector.kill()
        if self.env.sched is not None:
            self.env.sched.running = False
        if self.env.config is not None:
            self.env.config.informer_factory.stop()
        self.loop.kill()
        self._on_change()

    # -- env callbacks ----------------------------------------------------------------------------
    def _step(self, *, step: str, message: str = "", details: Any = (), file: str = "", func: str = "") -> None:
        if self.recorder is not None:
            self.recorder.startup_step(step=step, message=message,
                                       details=(("replica", self.hostname),) + tuple(details), file=file,
                                       func=func)

    def _log(self, verbosity: int, message: str, *, severity: str = "I", site: Any = None) -> None:
        if self.recorder is not None and (self._gate() or severity == "F"):
            self.recorder.log(verbosity, message, severity=severity, site=site)

    def _election_log(self, verbosity: int, message: str) -> None:
        if self.recorder is not None and verbosity <= ELECTION_LOG_VERBOSITY:
            severity, func = election_log_site(message)
            self.recorder.log(verbosity, message, severity=severity, site=(LEADERELECTION_GO, func))

    def _on_informers(self, factory: Any) -> None:
        if self.recorder is not None:
            self.recorder.attach_informers(factory, gate=self._gate)

    def _on_scheduler(self, sched: Any) -> None:
        self._attempts.wrap(sched)

    def _on_election(self, observation: Any) -> None:
        if self.recorder is None:
            return
        transition = observation.transition.value
        if transition == "renewed":
            return
        if transition == "attempt":
            outcome = (observation.succeeded, observation.message)
            if outcome == self._last_attempt:
                return
            self._last_attempt = outcome
            transition = "attempt succeeded" if observation.succeeded else "attempt failed"
        self.recorder.leader_election(identity=observation.identity, transition=transition,
                                      holder=observation.holder, lock=observation.lock,
                                      message=observation.message or _election_message(observation))

    def _on_leading(self, leading: bool) -> None:
        self.leading = leading
        self._on_change()

    def _exit(self, code: int, message: str) -> None:
        """The process exits; runCommand's error (exit 1, printed to stderr upstream) is kept
        in the trace as an error line so a learner sees why the scheduler never started."""
        if code == 1 and self.recorder is not None:
            self.recorder.log(0, message, severity="E",
                              site=("cmd/kube-scheduler/app/server.go", "NewSchedulerCommand"))
        self.kill()


_ELECTION_LOG_SITES = (
    # (message prefix, severity, function) of leaderelection.go's klog calls
    ("attempting to acquire leader lease", "I", "LeaderElector.acquire"),
    ("successfully acquired lease", "I", "LeaderElector.acquire"),
    ("failed to acquire lease", "I", "LeaderElector.acquire"),
    ("failed to renew lease", "I", "LeaderElector.renew"),
    ("successfully renewed lease", "I", "LeaderElector.renew"),
    ("Failed to release lock", "E", "LeaderElector.release"),
    ("error retrieving resource lock", "E", "LeaderElector.tryAcquireOrRenew"),
    ("error initially creating leader election record", "E", "LeaderElector.tryAcquireOrRenew"),
    ("Failed to update lock", "E", "LeaderElector.tryAcquireOrRenew"),
)


def election_log_site(message: str) -> tuple[str, str]:
    """(severity, function in leaderelection.go) of one of the elector's log lines."""
    for prefix, severity, func in _ELECTION_LOG_SITES:
        if message.startswith(prefix):
            return severity, func
    return "I", "LeaderElector.tryAcquireOrRenew"


def _election_message(observation: Any) -> str:
    transition = observation.transition.value
    if transition == "acquired":
        return f"lease acquired by {observation.identity}"
    if transition == "new-leader":
        return f"new leader elected: {observation.holder}"
    if transition == "stopped":
        return f"{observation.identity} stopped leading"
    if transition == "released":
        return f"{observation.identity} released the lease"
    return ""
