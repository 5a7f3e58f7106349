"""Shared harness for the leader-election tests: replicas on one loop and API server."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kubesched.client.leaderelection import resourcelock as rl
from kubesched.client.leaderelection.leader_election import (
    ElectionObservation,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
)
from kubesched.cluster.apiserver import APIServer
from kubesched.util.loop import EventLoop

NAMESPACE = "kube-system"
NAME = "kube-scheduler"

# fail(verb, kind, now) -> exception to raise, or None
FailRule = Callable[[str, str, float], Exception | None]


class FlakyClient:
    """The API server as one replica sees it; ``fail`` injects errors per call."""

    def __init__(self, server: APIServer, fail: FailRule | None = None) -> None:
        self.server = server
        self.fail = fail

    def _check(self, verb: str, kind: str) -> None:
        if self.fail is not None:
            err = self.fail(verb, kind, self.server.loop.now())
            if err is not None:
                raise err

    def get(self, kind: str, namespace: str, name: str) -> Any:
        self._check("get", kind)
        return self.server.get(kind, namespace, name)

    def create(self, obj: Any) -> Any:
        self._check("create", type(obj).KIND)
        return self.server.create(obj)

    def update(self, obj: Any) -> Any:
        self._check("update", type(obj).KIND)
        return self.server.update(obj)


@dataclass
class Replica:
    """One kube-scheduler process: its elector and what its callbacks saw."""

    identity: str
    elector: LeaderElector
    calls: list[tuple[float, str]] = field(default_factory=list)
    observations: list[ElectionObservation] = field(default_factory=list)

    def times(self, transition: str, succeeded: bool | None = None) -> list[float]:
        return [o.time for o in self.observations if o.transition.value == transition
                and (succeeded is None or o.succeeded == succeeded)]


def make_replica(loop: EventLoop, server: APIServer, identity: str, *, lock_type: str = "endpointsleases",
                 fail: FailRule | None = None, release_on_cancel: bool = False,
                 rng: random.Random | None = None, lease_duration: float = 15.0) -> Replica:
    client = FlakyClient(server, fail)
    lock = rl.new(lock_type, NAMESPACE, NAME, client,
                  rl.ResourceLockConfig(identity, rl.APIServerEventRecorder(server)))
    calls: list[tuple[float, str]] = []
    callbacks = LeaderCallbacks(
        on_started_leading=lambda ctx: calls.append((loop.now(), "started")),
        on_stopped_leading=lambda: calls.append((loop.now(), "stopped")),
        on_new_leader=lambda who: calls.append((loop.now(), f"new-leader {who}")))
    config = LeaderElectionConfig(lock=lock, callbacks=callbacks, release_on_cancel=release_on_cancel,
                                  name=NAME, lease_duration=lease_duration)
    replica = Replica(identity, None, calls)  # type: ignore[arg-type]
    replica.elector = LeaderElector(config, loop, rng=rng, observer=replica.observations.append)
    return replica


def endpoints_record(server: APIServer) -> rl.LeaderElectionRecord:
    endpoints = server.get("Endpoints", NAMESPACE, NAME)
    return rl.LeaderElectionRecord.from_json(endpoints.metadata.annotations[rl.LEADER_ELECTION_RECORD_ANNOTATION_KEY])


def lease_record(server: APIServer) -> rl.LeaderElectionRecord:
    return rl.lease_spec_to_leader_election_record(server.get("Lease", NAMESPACE, NAME).spec)


def new_cluster() -> tuple[EventLoop, APIServer]:
    loop = EventLoop()
    return loop, APIServer(loop)
