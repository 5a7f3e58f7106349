"""The scheduler server's configuration (``Config``) and its completed form.

Upstream: cmd/kube-scheduler/app/config/config.go @ v1.18.5 (Config, completedConfig,
CompletedConfig, Config.Complete).

Deviation: the API client, the core and events clients are all the in-memory API server;
serving configurations are plain records of what would listen where (no sockets are
opened); ``loop`` is carried so that ``Run`` can schedule its goroutines; the pod informer
is the informer factory's (its pod informer already drops terminal pods).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from kubesched.client.leaderelection import LeaderElectionConfig
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.client.informers import InformerFactory


@dataclass(frozen=True, slots=True)
class ServingInfo:
    """Where a server would listen: ``name`` is ``healthz``, ``metrics`` or ``secure``."""

    name: str
    host: str
    port: int

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Config:
    """``Config``: everything ``Run`` needs."""

    component_config: KubeSchedulerConfiguration
    client: Any
    loop: Any
    hostname: str
    identity: str
    insecure_serving: ServingInfo | None
    insecure_metrics_serving: ServingInfo | None
    secure_serving: ServingInfo | None
    informer_factory: InformerFactory
    leader_election: LeaderElectionConfig | None

    def complete(self) -> CompletedConfig:
        """``Complete``: name the insecure servers ``healthz`` / ``metrics``."""
        healthz = self.insecure_serving
        metrics = self.insecure_metrics_serving
        return CompletedConfig(dataclasses.replace(
            self,
            insecure_serving=dataclasses.replace(healthz, name="healthz") if healthz else None,
            insecure_metrics_serving=dataclasses.replace(metrics, name="metrics") if metrics else None))


@dataclass(frozen=True)
class CompletedConfig:
    """``CompletedConfig``: a ``Config`` that went through ``Complete``."""

    config: Config

    def __getattr__(self, name: str) -> Any:
        return getattr(self.config, name)
