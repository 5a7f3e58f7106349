"""Wiring a scheduler from a configuration, and the default error func that re-queues pods.

Upstream: pkg/scheduler/scheduler.go @ v1.18.5 (New, defaultSchedulerOptions) and
pkg/scheduler/factory.go (Configurator, buildFramework, create, createFromProvider,
MakeDefaultErrorFunc, GetPodDisruptionBudgetLister, initialGetBackoff, maximalGetBackoff).

``new(api, loop, config, seed=...)`` builds, in upstream's order: the scheduler cache (30 s
TTL for assumed pods), the volume binder, the plugin registry (in-tree + out-of-tree), an
empty snapshot shared by all profiles and the generic scheduler, then ``create``: extenders
(ignorable ones last; resources an extender marks ``ignoredByScheduler`` become
NodeResourcesFit ``ignoredResources`` of every profile), the profiles (one Framework each),
one scheduling queue sorted by the first profile's QueueSort plugin, the generic scheduler,
the error func; finally the event handlers on the informers. ``Scheduler.run()`` starts it.

Deviations:
- ``MakeDefaultErrorFunc``'s goroutine runs at once: the pod is re-read and re-queued inside
  the error func, before the scheduler writes the pod's PodScheduled condition, so the
  requeue always precedes the informer echo of that write (upstream's usual order,
  reference §12.1). A failed GET other than NotFound retries on the loop after 200 ms,
  400 ms … up to 1 minute, as upstream's sleeps.
- The volume binder writes PVs/PVCs through the API server and also into the informer
  listers at once (upstream's BindPodVolumes polls until the informers catch up).
- A Policy algorithm source must have been read when the configuration was loaded
  (``SchedulerPolicySource.policy``); ``scheduler.New`` reads no file or ConfigMap.
- No metrics registration, cache debugger (SIGUSR2) or leader election here.
- ``config.feature_gates`` (not upstream: gates are a command-line flag) are applied while
  ``new`` builds the scheduler; plugins that read gates while scheduling see the gates of
  the running thread's context, so whoever drives the loop keeps ``features.override(...)``
  on around each step (the simulation engine, the bench and the conformance runner do).

Observer hooks used here (keyword-only, only when defined): ``requeue(pod,
scheduling_cycle)``; ``queue_move(pod, source, target, event)`` (the queue's ``on_move``);
``cache_event(event)`` (the cache's hooks); ``extension_point_start``/``extension_point_end``
(the observer becomes each framework's ``observer``). Log lines carry ``severity`` and ``site``
(see scheduler.py); ``log`` may also be a ``(verbosity, message)`` callable. The generic scheduler, the Scheduler and the recorders receive
the observer itself (their hooks are listed in their module docstrings).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable, Final, Mapping, Optional

from kubesched import features
from kubesched.api.core import Node, PersistentVolume, PersistentVolumeClaim
from kubesched.api.meta import ObjectMeta
from kubesched.cluster.errors import APIError, NotFound
from kubesched.controller.volume.scheduling.scheduler_binder import VolumeBinder
from kubesched.scheduler import events
from kubesched.scheduler.apis.config.legacy_types import Policy
from kubesched.scheduler.apis.config.types import SCHEDULER_DEFAULT_PROVIDER_NAME, KubeSchedulerConfiguration
from kubesched.scheduler.core.extender import new_http_extenders
from kubesched.scheduler.core.generic_scheduler import new_generic_scheduler
from kubesched.scheduler.eventhandlers import add_all_event_handlers
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.internal.cache.cache import SchedulerCache
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.scheduler.internal.queue.scheduling_queue import PriorityQueue, QueueError
from kubesched.scheduler.profile.frameworks import policy_translation, resolve_profiles
from kubesched.scheduler.profile.profile import new_map
from kubesched.scheduler.scheduler import (
    ERROR, EVENTHANDLERS_GO, INFO, WARNING, Log, LogSite, Scheduler, as_log, is_fit_error, is_no_nodes_available,
    no_log)
from kubesched.client.informers import InformerFactory

DURATION_TO_EXPIRE_ASSUMED_POD: Final = 30.0
INITIAL_GET_BACKOFF: Final = 0.1  # initialGetBackoff
MAXIMAL_GET_BACKOFF: Final = 60.0  # maximalGetBackoff
FACTORY_GO: Final = "pkg/scheduler/factory.go"
_ERROR_FUNC: Final[LogSite] = (FACTORY_GO, "MakeDefaultErrorFunc")
_CREATE_FROM_PROVIDER: Final[LogSite] = (FACTORY_GO, "Configurator.createFromProvider")
_CREATE_FROM_CONFIG: Final[LogSite] = (FACTORY_GO, "Configurator.createFromConfig")
_NEW_LEGACY_REGISTRY: Final[LogSite] = ("pkg/scheduler/framework/plugins/legacy_registry.go", "NewLegacyRegistry")
_EVENT_HANDLERS: Final[LogSite] = (EVENTHANDLERS_GO, "addAllEventHandlers")
_SKIP_POD_UPDATE: Final[LogSite] = (EVENTHANDLERS_GO, "Scheduler.skipPodUpdate")


class SchedulerCreateError(ValueError):
    """``scheduler.New`` failed; the text is upstream's error."""


def _hook(observer: Any, name: str) -> Optional[Callable[..., Any]]:
    return getattr(observer, name, None) if observer is not None else None


# -- MakeDefaultErrorFunc ----------------------------------------------------------------
def make_default_error_func(client: Any, pod_queue: Any, scheduler_cache: Any, loop: Any, *,
                            log: Log = no_log, observer: Any = None) -> Callable[[PodInfo, BaseException], None]:
    """``MakeDefaultErrorFunc``: log by error kind, then re-queue the pod if it is still unbound.

    The scheduling cycle is read when the error func is called (not when the pod is re-read).
    """
    requeue_hook = _hook(observer, "requeue")
    log = as_log(log)

    def error_func(pod_info: PodInfo, err: BaseException) -> None:
        pod = pod_info.pod
        ns_name = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if is_no_nodes_available(err):
            log(2, f"Unable to schedule {ns_name}: no nodes are registered to the cluster; waiting", site=_ERROR_FUNC)
        elif is_fit_error(err):
            log(2, f"Unable to schedule {ns_name}: no fit: {err}; waiting", site=_ERROR_FUNC)
        elif isinstance(err, NotFound):
            log(2, f"Unable to schedule {ns_name}: possibly due to node not found: {err}; waiting", site=_ERROR_FUNC)
            _remove_missing_node(client, scheduler_cache, err, log)
        else:
            log(0, f"Error scheduling {ns_name}: {err}; retrying", severity=ERROR, site=_ERROR_FUNC)
        pod_scheduling_cycle = pod_queue.scheduling_cycle()
        retry(pod_info, pod.metadata.namespace, pod.metadata.name, pod_scheduling_cycle, INITIAL_GET_BACKOFF)

    def retry(pod_info: PodInfo, namespace: str, name: str, cycle: int, backoff: float) -> None:
        try:
            fresh = client.get("Pod", namespace, name)
        except NotFound:
            log(0, f"A pod {namespace}/{name} no longer exists", severity=WARNING, site=_ERROR_FUNC)
            return
        except APIError as get_err:
            log(0, f"Error getting pod {namespace}/{name} for retry: {get_err}; retrying...", severity=ERROR,
                site=_ERROR_FUNC)
            backoff = min(backoff * 2, MAXIMAL_GET_BACKOFF)
            loop.call_later(backoff, lambda: retry(pod_info, namespace, name, cycle, backoff),
                            label=f"error func retry {namespace}/{name}")
            return
        if fresh.spec.node_name:
            return
        pod_info.pod = fresh
        try:
            pod_queue.add_unschedulable_if_not_present(pod_info, cycle)
        except QueueError as queue_err:
            log(0, str(queue_err), severity=ERROR, site=_ERROR_FUNC)
            return
        if requeue_hook is not None:
            requeue_hook(pod=fresh, scheduling_cycle=cycle)

    return error_func


def _remove_missing_node(client: Any, scheduler_cache: Any, err: BaseException, log: Log) -> None:
    """A NotFound about a node: if the node is really gone, drop it from the cache."""
    details = getattr(err, "details", None)
    if details is None or getattr(details, "kind", "") != "node":
        return
    node_name = details.name
    try:
        client.get("Node", "", node_name)
        return
    except NotFound:
        pass
    try:
        scheduler_cache.remove_node(Node(metadata=ObjectMeta(name=node_name)))
    except ValueError:
        log(4, f'Node "{node_name}" is not found; failed to remove it from the cache.', site=_ERROR_FUNC)


# -- the volume binder's client ------------------------------------------------------------
class APIVolumeClient:
    """The binder's PV/PVC updates through the API server (spec, then status if it changed).

    Writes carry no resourceVersion precondition, and the result is put into the informer
    listers at once (see the module's Deviation).
    """

    def __init__(self, api: Any, listers: Any) -> None:
        self.api = api
        self.listers = listers

    def update_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume:
        return self._write(pv)

    def update_persistent_volume_claim(self, pvc: PersistentVolumeClaim) -> PersistentVolumeClaim:
        return self._write(pvc)

    def _write(self, obj: Any) -> Any:
        obj = dataclasses.replace(obj, metadata=dataclasses.replace(obj.metadata, resource_version=""))
        written = self.api.update(obj)
        if written.status != obj.status:
            written = self.api.update_status(dataclasses.replace(written, status=obj.status))
        self.listers.upsert(written)
        return written


# -- Configurator ------------------------------------------------------------------------------
class Configurator:
    """``Configurator``: what ``create`` needs to build a Scheduler."""

    def __init__(self, *, client: Any, loop: Any, recorder_factory: Callable[[str], Any],
                 informer_factory: InformerFactory, volume_binder: Any, scheduler_cache: Any,
                 config: KubeSchedulerConfiguration, registry: Mapping[str, Any], node_info_snapshot: Snapshot,
                 seed: int, log: Log, observer: Any, extender_policy: Any = None) -> None:
        self.client = client
        self.loop = loop
        self.recorder_factory = recorder_factory
        self.informer_factory = informer_factory
        self.volume_binder = volume_binder
        self.scheduler_cache = scheduler_cache
        self.disable_preemption = config.disable_preemption
        self.always_check_all_predicates = False
        self.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score
        self.pod_initial_backoff_seconds = config.pod_initial_backoff_seconds
        self.pod_max_backoff_seconds = config.pod_max_backoff_seconds
        self.enable_non_preempting = features.enabled("NonPreemptingPriority")
        self.config = config
        self.profiles = list(config.profiles)
        self.registry = registry
        self.node_info_snapshot = node_info_snapshot
        self.extenders = list(config.extenders)
        self.extender_policy = extender_policy
        self.seed = seed
        self.log = log
        self.observer = observer

    def build_framework(self, profile: Any) -> Framework:
        """``buildFramework``."""
        return Framework(self.registry, profile.plugins, profile.plugin_config, client_set=self.client,
                         listers=self.informer_factory.listers, snapshot_shared_lister=self.node_info_snapshot,
                         volume_binder=self.volume_binder, informer_factory=self.informer_factory,
                         run_all_filters=self.always_check_all_predicates, loop=self.loop,
                         observer=self.observer if _hook(self.observer, "extension_point_start") else None,
                         profile_name=profile.scheduler_name)

    def create_from_provider(self, provider_name: str) -> Scheduler:
        """``createFromProvider``: every profile's plugins = provider defaults ⊕ its own.

        The merge (and ``create``'s NodeResourcesFit ``ignoredResources``) is
        ``profile.frameworks.resolve_profiles``.
        """
        self.log(2, f"Creating scheduler from algorithm provider '{provider_name}'", site=_CREATE_FROM_PROVIDER)
        self.profiles = list(resolve_profiles(self.config))
        return self.create()

    def create_from_config(self, policy: Policy) -> Scheduler:
        """``createFromConfig``: the Policy's predicates and priorities as every profile's plugins
        (``profile.from_policy``), its extenders and ``alwaysCheckAllPredicates``."""
        if features.enabled("EvenPodsSpread"):
            self.log(0, "Registering EvenPodsSpread predicate and priority function", site=_NEW_LEGACY_REGISTRY)
        if features.enabled("ResourceLimitsPriorityFunction"):
            self.log(0, "Registering resourcelimits priority function", site=_NEW_LEGACY_REGISTRY)
        self.profiles = list(resolve_profiles(self.config))
        translation = policy_translation(self.config)
        for line in _policy_log_lines(policy, translation):
            self.log(2, line, site=_CREATE_FROM_CONFIG)
        self.extenders = list(policy.extenders)
        self.always_check_all_predicates = policy.always_check_all_predicates
        return self.create()

    def create(self) -> Scheduler:
        """``create``: extenders, profiles, queue, generic scheduler, error func."""
        extenders = new_http_extenders(self.extenders, self.extender_policy) if self.extenders else []
        try:
            profiles = new_map(self.profiles, self.build_framework, self.recorder_factory)
        except ValueError as err:
            raise SchedulerCreateError(f"initializing profiles: {err}") from err
        if not profiles:
            raise SchedulerCreateError("at least one profile is required")
        less = profiles[self.profiles[0].scheduler_name].framework.queue_sort_func()
        queue = PriorityQueue(less, clock=self.loop,
                              pod_initial_backoff_duration=float(self.pod_initial_backoff_seconds),
                              pod_max_backoff_duration=float(self.pod_max_backoff_seconds),
                              on_move=_queue_move_hook(self.observer))
        algorithm = new_generic_scheduler(
            self.scheduler_cache, queue, self.node_info_snapshot, extenders, self.informer_factory.listers,
            self.disable_preemption, self.percentage_of_nodes_to_score, self.enable_non_preempting,
            random.Random(self.seed), self.observer)
        return Scheduler(scheduler_cache=self.scheduler_cache, algorithm=algorithm, profiles=profiles,
                         scheduling_queue=queue,
                         error=make_default_error_func(self.client, queue, self.scheduler_cache, self.loop,
                                                       log=self.log, observer=self.observer),
                         volume_binder=self.volume_binder, client=self.client, loop=self.loop,
                         disable_preemption=self.disable_preemption, informer_factory=self.informer_factory,
                         log=self.log, observer=self.observer)


def _policy_log_lines(policy: Policy, translation: Any) -> list[str]:
    """createFromConfig's V(2) lines: what was registered, then the predicate and priority keys
    as Go prints a ``sets.String`` and a ``map[string]int64`` (sorted keys)."""
    lines = []
    if policy.predicates is None:
        lines.append(f"Using predicates from algorithm provider '{SCHEDULER_DEFAULT_PROVIDER_NAME}'")
    else:
        lines += [f"Registering predicate: {p.name}" for p in policy.predicates]
    if policy.priorities is None:
        lines.append("Using default priorities")
    else:
        lines += [f"Skip registering priority: {p.name}" if p.name == "EqualPriority" else f"Registering priority: {p.name}"
                  for p in policy.priorities]
    predicates = sorted(r.key for r in translation.rows if r.kind == "predicate" and r.origin != "mandatory")
    priorities = sorted((r.key, r.weight) for r in translation.rows if r.kind == "priority" and r.weight is not None)
    lines.append("Creating scheduler with fit predicates 'map[" + " ".join(f"{k}:{{}}" for k in predicates)
                 + "]' and priority functions 'map[" + " ".join(f"{k}:{w}" for k, w in priorities) + "]'")
    return lines


def _queue_move_hook(observer: Any) -> Optional[Callable[[Any, str, str, str], None]]:
    hook = _hook(observer, "queue_move")
    if hook is None:
        return None

    def on_move(pod: Any, source: str, target: str, event: str) -> None:
        hook(pod=pod, source=source, target=target, event=event)
    return on_move


# -- New ------------------------------------------------------------------------------------------
def new(api: Any, loop: Any, config: Optional[KubeSchedulerConfiguration] = None, *, seed: int = 0,
        informer_factory: Optional[InformerFactory] = None,
        out_of_tree_registry: Optional[Mapping[str, Any]] = None, observer: Any = None,
        log: Log = no_log, extender_policy: Any = None) -> Scheduler:
    """``scheduler.New`` with the options a ``KubeSchedulerConfiguration`` gives.

    ``config`` None is an empty v1alpha2 document's configuration (one ``default-scheduler``
    profile with the DefaultProvider plugins). ``seed`` seeds the generic scheduler's
    ``random.Random`` (selectHost ties). ``extender_policy`` is the server's allow-list for
    extender URLs (default: loopback only).
    """
    config = config if config is not None else KubeSchedulerConfiguration()
    log = as_log(log)
    with features.override(config.feature_gates):
        return _new(api, loop, config, seed, informer_factory, out_of_tree_registry, observer, log, extender_policy)


def _new(api: Any, loop: Any, config: KubeSchedulerConfiguration, seed: int,
         informer_factory: Optional[InformerFactory], out_of_tree_registry: Optional[Mapping[str, Any]],
         observer: Any, log: Log, extender_policy: Any) -> Scheduler:
    informers = informer_factory if informer_factory is not None else InformerFactory(api, loop)
    scheduler_cache = SchedulerCache(DURATION_TO_EXPIRE_ASSUMED_POD, clock=loop)
    if observer is not None and _hook(observer, "cache_event") is not None:
        scheduler_cache.hooks.append(lambda event: observer.cache_event(event=event))
    volume_binder = VolumeBinder(informers.listers, APIVolumeClient(api, informers.listers),
                                 bind_timeout=float(config.bind_timeout_seconds), loop=loop)
    registry = new_in_tree_registry()
    try:
        registry.merge(out_of_tree_registry or {})
    except ValueError as err:
        raise SchedulerCreateError(str(err)) from err
    configurator = Configurator(
        client=api, loop=loop, recorder_factory=events.new_recorder_factory(api, observer=observer),
        informer_factory=informers, volume_binder=volume_binder, scheduler_cache=scheduler_cache, config=config,
        registry=registry, node_info_snapshot=Snapshot(), seed=seed, log=log, observer=observer,
        extender_policy=extender_policy)
    source = config.algorithm_source
    if source.provider is not None:
        try:
            sched = configurator.create_from_provider(source.provider)
        except ValueError as err:
            raise SchedulerCreateError(f'couldn\'t create scheduler using provider "{source.provider}": {err}') from err
    elif source.policy is not None and source.policy.policy is not None:
        try:
            sched = configurator.create_from_config(source.policy.policy)
        except ValueError as err:
            raise SchedulerCreateError(f"couldn't create scheduler from policy: {err}") from err
    else:
        raise SchedulerCreateError(f"unsupported algorithm source: {source}")
    sched.event_handlers = add_all_event_handlers(sched, informers, log=_event_handlers_log(log))
    return sched


def _event_handlers_log(log: Log) -> Callable[[str, str], None]:
    """eventhandlers.go's ``(level, message)`` lines: errors at V(0) ``E``, infos at V(4) ``I``.

    Its only info line is skipPodUpdate's; its error lines come from the handlers (the
    skipPodUpdate one, rare, is attributed to them too).
    """
    def handlers_log(level: str, message: str) -> None:
        if level == "error":
            log(0, message, severity=ERROR, site=_EVENT_HANDLERS)
        else:
            log(4, message, severity=INFO, site=_SKIP_POD_UPDATE)
    return handlers_log
