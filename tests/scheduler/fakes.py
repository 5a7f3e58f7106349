"""Fakes for scheduleOne unit tests: a scripted algorithm, test plugins, a volume binder.

The API server, loop, queue, cache and framework runtime are the real ones; only the
generic scheduler (its Schedule/Preempt answers), the plugins and the volume binder are
scripted, so each test drives exactly one branch of scheduleOne / the binding cycle.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.meta import ObjectMeta
from kubesched.cluster import APIServer
from kubesched.scheduler.core.generic_scheduler import ScheduleResult
from kubesched.scheduler.events import EventRecorder
from kubesched.scheduler.factory import make_default_error_func
from kubesched.scheduler.framework.plugins.defaultbinder import default_binder
from kubesched.scheduler.framework.plugins.queuesort import priority_sort
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.framework.v1alpha1.registry import Registry
from kubesched.scheduler.internal.cache.cache import SchedulerCache
from kubesched.scheduler.internal.queue.scheduling_queue import PriorityQueue
from kubesched.scheduler.scheduler import Scheduler
from kubesched.util.loop import EventLoop
from tests.testing.wrappers import make_pod as make_pod_wrapper

PROFILE = "default-scheduler"


def make_pod(name: str, *, priority: int = 0, node: str = "", scheduler: str = PROFILE) -> Pod:
    return (make_pod_wrapper().name(name).namespace("default").container("c", image="img").priority(priority)
            .node(node).scheduler_name(scheduler).obj())


class Recorded:
    """A plugin that records its calls into a shared journal and answers as scripted."""

    def __init__(self, name: str, journal: list, answers: dict) -> None:
        self._name, self.journal, self.answers = name, journal, answers

    def name(self) -> str:
        return self._name

    def _answer(self, point: str, pod: Pod, node: str) -> Any:
        self.journal.append((point, self._name, pod.metadata.name, node))
        return self.answers.get(point)

    def reserve(self, state, pod, node_name):
        return self._answer("Reserve", pod, node_name)

    def unreserve(self, state, pod, node_name):
        self._answer("Unreserve", pod, node_name)

    def permit(self, state, pod, node_name):
        answer = self._answer("Permit", pod, node_name)
        return answer if answer is not None else (None, 0.0)

    def pre_bind(self, state, pod, node_name):
        return self._answer("PreBind", pod, node_name)

    def bind(self, state, pod, node_name):
        return self._answer("Bind", pod, node_name)

    def post_bind(self, state, pod, node_name):
        self._answer("PostBind", pod, node_name)


class ScriptedAlgorithm:
    """``core.ScheduleAlgorithm``: Schedule returns ``host`` or raises ``error``."""

    def __init__(self, host: str = "n1", error: Optional[BaseException] = None,
                 preempt_result: tuple = (None, [], []), extenders: tuple = (), during_schedule=None) -> None:
        self.host, self.error, self.preempt_result, self.extenders = host, error, preempt_result, list(extenders)
        self.during_schedule = during_schedule
        self.preempt_calls: list[Pod] = []

    def schedule(self, prof, state, pod):
        if self.during_schedule is not None:
            self.during_schedule()
        if self.error is not None:
            raise self.error
        return ScheduleResult(self.host, 3, 2)

    def preempt(self, prof, state, pod, schedule_err):
        self.preempt_calls.append(pod)
        return self.preempt_result

    def get_extenders(self):
        return self.extenders


class FakeVolumeBinder:
    def __init__(self, all_bound: bool = True, assume_error: Optional[str] = None,
                 bind_error: Optional[str] = None) -> None:
        self.all_bound, self.assume_error, self.bind_error = all_bound, assume_error, bind_error
        self.bound: list[str] = []

    def assume_pod_volumes(self, pod, node_name):
        if self.assume_error:
            raise RuntimeError(self.assume_error)
        return self.all_bound

    def bind_pod_volumes(self, pod, done):
        if self.bind_error:
            done(RuntimeError(self.bind_error))
            return
        self.bound.append(pod.metadata.name)
        done(None)

    def delete_pod_bindings(self, pod):
        return None


TEST_PLUGIN = "Test"


def plugins_with(points: tuple[str, ...], bind_default: bool = True) -> Plugins:
    """Plugins: PrioritySort, the Test plugin at ``points``, then DefaultBinder for Bind."""
    sets: dict[str, PluginSet] = {"queue_sort": PluginSet(enabled=(Plugin(priority_sort.NAME),))}
    for point in points:
        sets[point] = PluginSet(enabled=(Plugin(TEST_PLUGIN),))
    binders = sets.get("bind", PluginSet()).enabled + ((Plugin(default_binder.NAME),) if bind_default else ())
    sets["bind"] = PluginSet(enabled=binders)
    return Plugins(**sets)


class World:
    """Real loop, API server, queue, cache and framework around a scripted algorithm."""

    def __init__(self, algorithm: ScriptedAlgorithm, *, points: tuple[str, ...] = (), answers: Optional[dict] = None,
                 volume_binder: Optional[FakeVolumeBinder] = None, disable_preemption: bool = True,
                 nodes: tuple[str, ...] = ("n1", "n2"), bind_default: bool = True) -> None:
        self.loop = EventLoop()
        self.api = APIServer(self.loop)
        for name in nodes:
            self.api.create(Node(metadata=ObjectMeta(name=name)))
        self.journal: list = []
        self.plugin = Recorded(TEST_PLUGIN, self.journal, answers or {})
        registry = Registry({priority_sort.NAME: priority_sort.new, default_binder.NAME: default_binder.new,
                             TEST_PLUGIN: lambda args, handle: self.plugin})
        self.framework = Framework(registry, plugins_with(points, bind_default), client_set=self.api, loop=self.loop)
        self.cache = SchedulerCache(30.0, clock=self.loop)
        self.queue = PriorityQueue(self.framework.queue_sort_func(), clock=self.loop)
        self.logs: list[tuple[int, str]] = []
        self.profile = SimpleNamespace(framework=self.framework, recorder=EventRecorder(self.api, PROFILE))
        self.algorithm = algorithm
        self.volume_binder = volume_binder or FakeVolumeBinder()
        self.sched = Scheduler(
            scheduler_cache=self.cache, algorithm=algorithm, profiles={PROFILE: self.profile},
            scheduling_queue=self.queue,
            error=make_default_error_func(self.api, self.queue, self.cache, self.loop, log=self.log),
            volume_binder=self.volume_binder, client=self.api, loop=self.loop,
            disable_preemption=disable_preemption, log=self.log)

    def log(self, verbosity: int, message: str) -> None:
        self.logs.append((verbosity, message))

    def add_pod(self, pod: Pod) -> Pod:
        created = self.api.create(pod)
        self.queue.add(created)
        return created

    def pod(self, name: str) -> Pod:
        return self.api.get("Pod", "default", name)

    def events(self, name: str) -> list[tuple[str, str, str]]:
        return [(e.type, e.reason, e.message) for e in self.api.events_for(self.pod(name))]

    def where(self, name: str) -> str:
        return self.queue._where(self.pod(name))

    def condition(self, name: str) -> Optional[tuple[str, str, str]]:
        for c in self.pod(name).status.conditions:
            if c.type == "PodScheduled":
                return (c.status, c.reason, c.message)
        return None


def wait_status(timeout: float) -> tuple[Status, float]:
    return Status(Code.WAIT, ("",)), timeout


def with_node(pod: Pod, node: str) -> Pod:
    return dataclasses.replace(pod, spec=dataclasses.replace(pod.spec, node_name=node))
