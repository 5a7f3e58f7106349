"""kube-scheduler's startup as executed steps: main → NewSchedulerCommand → runCommand → Run.

Upstream: cmd/kube-scheduler/scheduler.go @ v1.18.5 (main) and cmd/kube-scheduler/app/
server.go (NewSchedulerCommand, runCommand, Run, getRecorderFactory, WithPlugin) with
pkg/scheduler/framework/v1alpha1/registry.go (Registry.Register);
pkg/scheduler/scheduler.go (Scheduler.Run) and internal/queue/scheduling_queue.go
(PriorityQueue.Run) for the last steps.

Every step runs for real on the process's loop and reports itself through
``env.step(step, message, details, file, func)`` (a recorder's ``startup_step``), in the order
of ``STARTUP_STEPS`` (reference upstream-engine.md §1.7):

``main`` → ``NewSchedulerCommand`` → ``NewOptions`` → ``runCommand`` → ``Options.Config`` →
``Config.Complete`` → ``Run`` → ``scheduler.New`` → ``EventBroadcaster.StartRecordingToSink`` →
``Setup healthz checks`` → ``InsecureServing.Serve`` (healthz + metrics, port 10251) →
``SecureServing.Serve`` (10259) → ``InformerFactory.Start`` → ``WaitForCacheSync`` →
``LeaderElector.Run`` → (when leading) ``sched.Run`` → ``SchedulingQueue.Run`` → ``scheduleOne``.

``WaitForCacheSync`` waits on the loop for the informers' initial List deliveries, then
reports what the caches hold. With leader election, ``OnStartedLeading`` is ``sched.Run``
and ``OnStoppedLeading`` is ``klog.Fatalf("leaderelection lost")``: the process exits (a
leader that cannot renew for ``renewDeadline``, 10 s by default, stops leading that way).
The elector retries acquiring with client-go's jitter (``wait.JitterUntil``, JitterFactor
1.2: every 2–4.4 s with the default 2 s retryPeriod).

Deviations: the jitter draws from a ``random.Random`` per process seeded from the run's seed
and the hostname (``election_rng``), not from math/rand's global source, which upstream shares
with selectHost: so the election never shifts selectHost's tie-breaks. No flags, sockets,
certificates, authn/authz, configz, metrics or pprof: the
servers are recorded with the address they would listen on. ``getRecorderFactory`` always
adapts the core/v1 recorder (the simulated API server serves core Events only). A separate
metrics server is started only when its address differs from the healthz one (as upstream,
where ``InsecureMetricsServing`` is then non-nil).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kubesched.client.leaderelection import LeaderCallbacks, LeaderElector
from kubesched.cmd.app.config import CompletedConfig
from kubesched.cmd.app.options import Options, new_options
from kubesched.scheduler import factory
from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.scheduler.framework.v1alpha1.registry import Registry, RegistryError
from kubesched.scheduler.profile.frameworks import effective_extenders, resolve_profiles

MAIN_GO: Final = "cmd/kube-scheduler/scheduler.go"
SERVER_GO: Final = "cmd/kube-scheduler/app/server.go"
OPTIONS_GO: Final = "cmd/kube-scheduler/app/options/options.go"
CONFIG_GO: Final = "cmd/kube-scheduler/app/config/config.go"
SCHEDULER_GO: Final = "pkg/scheduler/scheduler.go"
QUEUE_GO: Final = "pkg/scheduler/internal/queue/scheduling_queue.go"
LEADERELECTION_GO: Final = "staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go"
VERSION: Final = "v1.18.5"
SYNCED_POLL_PERIOD: Final = 0.1  # client-go cache.syncedPollPeriod

STARTUP_STEPS: Final = (
    "main", "NewSchedulerCommand", "NewOptions", "runCommand", "Options.Config", "Config.Complete", "Run",
    "scheduler.New", "EventBroadcaster.StartRecordingToSink", "Setup healthz checks", "InsecureServing.Serve",
    "SecureServing.Serve", "InformerFactory.Start", "WaitForCacheSync", "LeaderElector.Run", "sched.Run",
    "SchedulingQueue.Run", "scheduleOne")
"""Every step name in order (``InsecureMetricsServing.Serve`` follows ``InsecureServing.Serve``
only with a separate metrics address; the last three run only on the leader)."""

RegistryOption = Callable[[Registry], None]
Log = Callable[..., None]  # log(verbosity, message, *, severity="I", site=(file, func))


def _no_log(verbosity: int, message: str, **_: Any) -> None:
    return None


@dataclass
class ProcessEnv:
    """What the operating system gives one kube-scheduler process, and what it leaves behind.

    ``step`` reports a startup step; ``observer``/``log`` go to ``scheduler.New`` (``election_log``, if set, to the elector);
    ``on_informers(factory)`` runs before ``scheduler.New`` registers its handlers and
    ``on_scheduler(sched)`` after it; ``on_election(observation)`` sees every leader-election
    step; ``on_leading(bool)`` tells when ``sched.Run`` starts / the lease is lost;
    ``exit(code, message)`` ends the process (``os.Exit`` / ``klog.Fatalf``).
    """

    hostname: str
    loop: Any
    client: Any
    seed: int = 0
    identity_seed: str = ""
    step: Callable[..., None] = lambda **_: None
    observer: Any = None
    log: Log = _no_log
    election_log: Log | None = None
    on_informers: Callable[[Any], None] = lambda _factory: None
    on_scheduler: Callable[[Any], None] = lambda _sched: None
    on_election: Callable[[Any], None] | None = None
    on_leading: Callable[[bool], None] = lambda _leading: None
    exit: Callable[[int, str], None] = lambda _code, _message: None
    extender_policy: Any = None
    # what the process built (read by the simulation)
    config: CompletedConfig | None = None
    sched: Any = None
    elector: LeaderElector | None = None
    exited: tuple[int, str] | None = None
    registry_options: Sequence[RegistryOption] = field(default_factory=tuple)


def with_plugin(name: str, factory: Callable[..., Any]) -> RegistryOption:
    """``WithPlugin``: an option registering an out-of-tree plugin factory under ``name``."""
    def register(registry: Registry) -> None:
        registry.register(name, factory)
    return register


# -- main ---------------------------------------------------------------------------------------
def main(env: ProcessEnv, config_file: Any = None) -> None:
    """``main``: build the command and execute it; exit 1 on error."""
    env.step(step="main", message="rand.Seed(…); command := app.NewSchedulerCommand(); command.Execute()",
             details=(("hostname", env.hostname),), file=MAIN_GO, func="main")
    command = new_scheduler_command(env, *env.registry_options)
    command.execute(config_file)


@dataclass
class SchedulerCommand:
    """The cobra command ``kube-scheduler``: ``execute`` calls ``runCommand``."""

    env: ProcessEnv
    opts: Options
    registry_options: tuple[RegistryOption, ...]
    use: str = "kube-scheduler"

    def execute(self, config_file: Any = None) -> None:
        opts = self.opts if config_file is None else Options(**{**_fields(self.opts), "config_file": config_file})
        try:
            run_command(self.env, opts, *self.registry_options)
        except (ConfigError, RegistryError, ValueError) as err:
            # Run: fmt.Fprintf(os.Stderr, "%v\n", err); os.Exit(1)
            _exit(self.env, 1, str(err))


def _fields(opts: Options) -> dict[str, Any]:
    return {name: getattr(opts, name) for name in Options.__dataclass_fields__}


def new_scheduler_command(env: ProcessEnv, *registry_options: RegistryOption) -> SchedulerCommand:
    """``NewSchedulerCommand``: default options, the command and its flag sections."""
    env.step(step="NewSchedulerCommand", message="cobra.Command{Use: \"kube-scheduler\", Run: runCommand}; "
             "flag sections misc, secure serving, insecure serving, authentication, authorization, "
             "deprecated, leader election, feature gate, metrics, global",
             details=(("out-of-tree plugin options", len(registry_options)),), file=SERVER_GO,
             func="NewSchedulerCommand")
    opts = new_options()
    cc = opts.component_config
    le = cc.leader_election
    env.step(step="NewOptions", message="defaults of an empty kubescheduler.config.k8s.io/v1alpha2 "
             f"configuration; insecure serving {opts.insecure_bind_address}:{opts.insecure_bind_port}, "
             f"secure port {opts.secure_bind_port}",
             details=(("healthzBindAddress", cc.healthz_bind_address), ("metricsBindAddress", cc.metrics_bind_address),
                      ("secureServing.bindPort", opts.secure_bind_port), ("leaderElect", le.leader_elect),
                      ("resourceLock", le.resource_lock), ("bindTimeoutSeconds", cc.bind_timeout_seconds)),
             file=OPTIONS_GO, func="NewOptions")
    return SchedulerCommand(env, opts, tuple(registry_options))


# -- runCommand -------------------------------------------------------------------------------------
def run_command(env: ProcessEnv, opts: Options, *registry_options: RegistryOption) -> None:
    """``runCommand``: validate, ``Config()``, ``Complete()``, then ``Run``."""
    errs = opts.validate()
    env.step(step="runCommand", message="opts.Validate(): " + ("ok" if not errs else "; ".join(errs)),
             file=SERVER_GO, func="runCommand")
    if errs:
        raise ValueError("; ".join(errs))
    c = opts.config(env.client, env.loop, hostname=env.hostname, identity_seed=env.identity_seed)
    cfg = c.component_config
    source = "defaults (no --config)" if opts.config_file is None else "the --config file, decoded, defaulted, validated"
    le = cfg.leader_election
    env.step(step="Options.Config", message=f"component config from {source} (algorithm source: "
             f"{_algorithm_source(cfg)}); clients; event broadcaster; "
             + (f"leader election identity {c.identity}" if c.leader_election else "leader election disabled")
             + "; informer factory (resync 0)",
             details=(("profiles", ",".join(p.scheduler_name for p in cfg.profiles)),
                      ("percentageOfNodesToScore", cfg.percentage_of_nodes_to_score),
                      ("podInitialBackoffSeconds", cfg.pod_initial_backoff_seconds),
                      ("podMaxBackoffSeconds", cfg.pod_max_backoff_seconds),
                      ("disablePreemption", cfg.disable_preemption),
                      ("leaderElect", le.leader_elect), ("identity", c.identity)),
             file=OPTIONS_GO, func="Options.Config")
    cc = c.complete()
    env.config = cc
    env.step(step="Config.Complete", message="insecure servers named healthz/metrics",
             details=tuple((s.name, s.address) for s in (cc.insecure_serving, cc.insecure_metrics_serving) if s),
             file=CONFIG_GO, func="Config.Complete")
    run(cc, env, *registry_options)


# -- Run ------------------------------------------------------------------------------------------------
def run(cc: CompletedConfig, env: ProcessEnv, *out_of_tree_registry_options: RegistryOption) -> None:
    """``Run(ctx, cc, outOfTreeRegistryOptions...)`` up to ``InformerFactory.Start``; the rest follows
    on the loop once the caches have synced."""
    env.step(step="Run", message=f"Starting Kubernetes Scheduler version {VERSION}", file=SERVER_GO, func="Run")
    out_of_tree = Registry()
    for option in out_of_tree_registry_options:
        option(out_of_tree)
    cfg = cc.component_config
    env.on_informers(cc.informer_factory)
    sched = factory.new(cc.client, cc.loop, cfg, seed=env.seed, informer_factory=cc.informer_factory,
                        out_of_tree_registry=out_of_tree, observer=env.observer, log=env.log,
                        extender_policy=env.extender_policy)
    env.sched = sched
    env.on_scheduler(sched)
    env.step(step="scheduler.New", message=_new_message(cfg, out_of_tree),
             details=(("algorithmSource", _algorithm_source(cfg)),) + _profile_details(cfg)
             + (("out-of-tree plugins", ",".join(sorted(out_of_tree))), ("extenders", len(effective_extenders(cfg)))),
             file=SCHEDULER_GO, func="New")
    env.step(step="EventBroadcaster.StartRecordingToSink",
             message="events.k8s.io/v1beta1 is not served: a core/v1 recorder per profile "
                     f"(component {', '.join(p.scheduler_name for p in cfg.profiles)}) writes Events to the API server",
             file=SERVER_GO, func="Run")
    checks = ("leaderElection (watchdog, 20s tolerance)",) if cc.leader_election is not None else ()
    env.step(step="Setup healthz checks", message="checks: " + (", ".join(checks) if checks else "none"),
             details=tuple(("check", c) for c in checks), file=SERVER_GO, func="Run")
    _serve(cc, env)
    cc.informer_factory.start()
    kinds = cc.informer_factory.watched_kinds()
    env.step(step="InformerFactory.Start", message=f"list + watch {len(kinds)} kinds: {', '.join(kinds)}",
             details=(("kinds", ",".join(kinds)),), file=SERVER_GO, func="Run")
    cc.loop.call_later(0, lambda: _wait_for_cache_sync(cc, env, sched), label="WaitForCacheSync")


def _new_message(cfg: Any, out_of_tree: Mapping[str, Any]) -> str:
    names = ", ".join(p.scheduler_name for p in cfg.profiles)
    return (f"{len(cfg.profiles)} {_plural('profile', len(cfg.profiles))} ({names}); in-tree registry"
            + (f" + {len(out_of_tree)} out-of-tree {_plural('plugin', len(out_of_tree))}" if out_of_tree else "")
            + "; one framework per profile; cache (assumed-pod TTL 30s), volume binder, scheduling queue, "
              "event handlers")


def _algorithm_source(cfg: Any) -> str:
    """``provider DefaultProvider``, ``policy file policy.json`` or ``policy configMap kube-system/x``."""
    source = cfg.algorithm_source
    if source.provider is not None or source.policy is None:
        return f"provider {source.provider}"
    if source.policy.config_map is not None:
        return f"policy configMap {source.policy.config_map.namespace}/{source.policy.config_map.name}"
    return f"policy file {source.policy.file.path if source.policy.file else ''}"


def _profile_details(cfg: Any) -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = []
    try:
        profiles = resolve_profiles(cfg)
    except ValueError:
        profiles = cfg.profiles
    for prof in profiles:
        plugins = prof.plugins
        filters = [p.name for p in (plugins.filter.enabled if plugins and plugins.filter else ())]
        scores = [f"{p.name}={p.weight}" for p in (plugins.score.enabled if plugins and plugins.score else ())]
        out.append((f"profile {prof.scheduler_name} filter", ",".join(filters)))
        out.append((f"profile {prof.scheduler_name} score", ",".join(scores)))
    return tuple(out)


def _serve(cc: CompletedConfig, env: ProcessEnv) -> None:
    healthz, metrics, secure = cc.insecure_serving, cc.insecure_metrics_serving, cc.secure_serving
    if healthz is not None:
        served = "healthz" + ("" if metrics is not None else " and metrics")
        env.step(step="InsecureServing.Serve", message=f"{served} on {healthz.address} (modelled: no socket)",
                 details=(("address", healthz.address), ("port", healthz.port), ("serves", served)),
                 file=SERVER_GO, func="Run")
    if metrics is not None:
        env.step(step="InsecureMetricsServing.Serve", message=f"metrics on {metrics.address} (modelled: no socket)",
                 details=(("address", metrics.address), ("port", metrics.port)), file=SERVER_GO, func="Run")
    if secure is not None:
        env.step(step="SecureServing.Serve", message=f"healthz and metrics over HTTPS on {secure.address} "
                 "(modelled: no socket, self-signed certificate not generated)",
                 details=(("address", secure.address), ("port", secure.port)), file=SERVER_GO, func="Run")


def _wait_for_cache_sync(cc: CompletedConfig, env: ProcessEnv, sched: Any) -> None:
    """``InformerFactory.WaitForCacheSync``: poll until the initial List has been delivered."""
    informers = cc.informer_factory
    if not informers.has_synced():
        cc.loop.call_later(SYNCED_POLL_PERIOD, lambda: _wait_for_cache_sync(cc, env, sched),
                           label="WaitForCacheSync")
        return
    counts = synced_counts(informers)
    env.step(step="WaitForCacheSync", message="informers synced " + describe_counts(counts),
             details=tuple(counts), file=SERVER_GO, func="Run")
    if cc.leader_election is None:
        _sched_run(env, sched)
        return
    _run_leader_election(cc, env, sched)


def synced_counts(informers: Any) -> list[tuple[str, int]]:
    """(kind, objects in its informer) for every watched kind, nodes first and pods second."""
    kinds = informers.watched_kinds()
    ordered = [k for k in ("Node", "Pod") if k in kinds] + [k for k in kinds if k not in ("Node", "Pod")]
    return [(k, len(informers.informer(k).store)) for k in ordered]


def describe_counts(counts: Sequence[tuple[str, int]]) -> str:
    """``6 nodes, 15 pods`` (then every other kind with objects)."""
    parts = [f"{n} {_plural(k, n)}" for k, n in counts if k in ("Node", "Pod") or n]
    return ", ".join(parts)


def _plural(kind: str, n: int) -> str:
    word = kind.lower()
    if n == 1:
        return word
    return word + ("es" if word.endswith("s") else "s")


def _run_leader_election(cc: CompletedConfig, env: ProcessEnv, sched: Any) -> None:
    le_config = cc.leader_election
    assert le_config is not None
    callbacks = LeaderCallbacks(on_started_leading=lambda ctx: _sched_run(env, sched),
                                on_stopped_leading=lambda: _fatal(env, "leaderelection lost"))
    config = type(le_config)(**{**{n: getattr(le_config, n) for n in le_config.__dataclass_fields__},
                                "callbacks": callbacks})
    try:
        elector = LeaderElector(config, cc.loop, rng=election_rng(env), log=env.election_log or env.log,
                                observer=env.on_election)
    except ValueError as err:   # NewLeaderElector's checks (leaseDuration > renewDeadline …): Run returns it
        _exit(env, 1, f"couldn't create leader elector: {err}")
        return
    if config.watch_dog is not None:
        config.watch_dog.set_leader_election(elector)
    env.elector = elector
    le = cc.component_config.leader_election
    env.step(step="LeaderElector.Run",
             message=f"{cc.identity} tries to acquire lock {le.resource_lock} "
                     f"{le.resource_namespace}/{le.resource_name} (lease {config.lease_duration:g}s, "
                     f"renew deadline {config.renew_deadline:g}s, retry {config.retry_period:g}s); "
                     "OnStartedLeading: sched.Run, OnStoppedLeading: klog.Fatalf(\"leaderelection lost\")",
             details=(("identity", cc.identity), ("lock", le.resource_lock),
                      ("lockObject", f"{le.resource_namespace}/{le.resource_name}"),
                      ("leaseDuration", f"{config.lease_duration:g}s"),
                      ("renewDeadline", f"{config.renew_deadline:g}s"),
                      ("retryPeriod", f"{config.retry_period:g}s")),
             file=SERVER_GO, func="Run")
    elector.run()


def election_rng(env: ProcessEnv) -> random.Random:
    """The random source of the elector's ``wait.Jitter``: seeded from the run's seed and the hostname."""
    return random.Random(f"leaderelection/{env.hostname}/{env.seed}")


def _sched_run(env: ProcessEnv, sched: Any) -> None:
    """``sched.Run(ctx)``: wait for the pod informer, ``SchedulingQueue.Run``, the scheduleOne loop."""
    env.on_leading(True)
    env.step(step="sched.Run", message=f"{env.hostname} runs the scheduler: cache.WaitForCacheSync "
             "(scheduledPodsHasSynced) succeeded", file=SCHEDULER_GO, func="Scheduler.Run")
    sched.run()
    queue = sched.scheduling_queue
    env.step(step="SchedulingQueue.Run", message="flushBackoffQCompleted every 1s, "
             "flushUnschedulableQLeftover every 30s",
             details=(("activeQ", len(queue.active_q)), ("podBackoffQ", len(queue.pod_backoff_q)),
                      ("unschedulableQ", len(queue.unschedulable_q))),
             file=QUEUE_GO, func="PriorityQueue.Run")
    env.step(step="scheduleOne", message="wait.UntilWithContext(ctx, sched.scheduleOne, 0): one pod at a time",
             file=SCHEDULER_GO, func="Scheduler.scheduleOne")


def _fatal(env: ProcessEnv, message: str) -> None:
    """``klog.Fatalf``: log (severity F), then exit 255."""
    env.on_leading(False)
    env.log(0, message, severity="F", site=(SERVER_GO, "Run"))
    _exit(env, 255, message)


def _exit(env: ProcessEnv, code: int, message: str) -> None:
    env.exited = (code, message)
    env.exit(code, message)
