"""kube-scheduler's options: defaults, validation and ``Config()`` on the simulated cluster.

Upstream: cmd/kube-scheduler/app/options/options.go @ v1.18.5 (NewOptions, Options.Validate,
Options.ApplyTo, Options.Config, makeLeaderElectionConfig, newDefaultComponentConfig) and
app/options/insecure_serving.go (the ``--address``/``--port`` split of HealthzBindAddress).

``new_options()`` holds the component config of an empty v1alpha2 document plus the serving
options; ``Options.config(client, loop, hostname=...)`` is ``Config()``: the config file (if
any) replaces the component config (``ApplyTo``), then the clients, the event broadcaster, the
leader-election configuration (``makeLeaderElectionConfig``) and the informer factory.

Deviations: no flags are parsed (the simulation hands options over as values), deprecated
flags are not modelled, certificates, authentication and authorization are not modelled;
the API client is the in-memory API server; the leader-election identity is
``scheduler_identity(hostname, seed)`` (a uuid5, not a random UUID).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kubesched.client.leaderelection import (
    APIServerEventRecorder,
    LeaderElectionConfig,
    LockError,
    ResourceLockConfig,
    new_leader_healthz_adaptor,
    scheduler_identity,
)
from kubesched.client.leaderelection import new as new_resource_lock
from kubesched.client.leaderelection.healthzadaptor import KUBE_SCHEDULER_TIMEOUT
from kubesched.cmd.app.config import Config, ServingInfo
from kubesched.scheduler.apis.config.go_format import AddrError, split_host_port
from kubesched.scheduler.apis.config.scheme import default_config, load_config
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.client.informers import InformerFactory

INSECURE_SCHEDULER_PORT: Final = 10251  # ports.InsecureSchedulerPort
KUBE_SCHEDULER_PORT: Final = 10259      # ports.KubeSchedulerPort
LEADER_ELECTION_NAME: Final = "kube-scheduler"


@dataclass(frozen=True, slots=True)
class Options:
    """``Options``: the component config plus the serving options that are not part of it.

    ``config_file`` is what ``--config`` names: a path, YAML text, a parsed document or the
    cluster loader's ``RawDocument``; None means "no --config" (defaults are used).
    """

    component_config: KubeSchedulerConfiguration
    config_file: Any = None
    insecure_bind_address: str = "0.0.0.0"
    insecure_bind_port: int = INSECURE_SCHEDULER_PORT
    secure_bind_port: int = KUBE_SCHEDULER_PORT
    master: str = ""

    def validate(self) -> list[str]:
        """``Options.Validate``: the serving options (the component config is validated on load)."""
        errs: list[str] = []
        if not 0 <= self.insecure_bind_port <= 65535:
            errs.append(f"--port {self.insecure_bind_port} must be between 0 and 65535, inclusive. "
                        "0 for turning off insecure (HTTP) port.")
        if not 0 <= self.secure_bind_port <= 65535:
            errs.append(f"--secure-port {self.secure_bind_port} must be between 0 and 65535, inclusive. "
                        "0 for turning off secure port")
        return errs

    def apply_to(self) -> KubeSchedulerConfiguration:
        """``ApplyTo``'s component config: the ``--config`` file (loaded, validated) or the defaults."""
        if self.config_file is None:
            return self.component_config
        if isinstance(self.config_file, KubeSchedulerConfiguration):
            return self.config_file
        return load_config(self.config_file)

    def config(self, client: Any, loop: Any, *, hostname: str, identity_seed: str = "") -> Config:
        """``Options.Config``: component config, clients, broadcaster, leader election, informers."""
        component_config = self.apply_to()
        healthz = _serving(component_config.healthz_bind_address, self.insecure_bind_address,
                           self.insecure_bind_port, "healthz")
        metrics = _serving(component_config.metrics_bind_address, self.insecure_bind_address,
                           self.insecure_bind_port, "metrics")
        separate_metrics = metrics is not None and (healthz is None or metrics.address != healthz.address)
        le = component_config.leader_election
        leader_election: LeaderElectionConfig | None = None
        identity = ""
        if le.leader_elect:
            identity = scheduler_identity(hostname, identity_seed)
            component = component_config.profiles[0].scheduler_name
            try:
                lock = new_resource_lock(le.resource_lock, le.resource_namespace, le.resource_name, client,
                                         ResourceLockConfig(identity, APIServerEventRecorder(client, component,
                                                                                             hostname)))
            except LockError as err:   # makeLeaderElectionConfig; runCommand returns it: exit 1
                raise ValueError(f"couldn't create resource lock: {err}") from err
            leader_election = LeaderElectionConfig(
                lock=lock, lease_duration=le.lease_duration_ns / 1e9, renew_deadline=le.renew_deadline_ns / 1e9,
                retry_period=le.retry_period_ns / 1e9,
                watch_dog=new_leader_healthz_adaptor(KUBE_SCHEDULER_TIMEOUT), name=LEADER_ELECTION_NAME)
        return Config(
            component_config=component_config, client=client, loop=loop, hostname=hostname, identity=identity,
            insecure_serving=healthz, insecure_metrics_serving=metrics if separate_metrics else None,
            secure_serving=ServingInfo("secure", "0.0.0.0", self.secure_bind_port) if self.secure_bind_port else None,
            informer_factory=InformerFactory(client, loop), leader_election=leader_election)


def new_options(config_file: Any = None) -> Options:
    """``NewOptions``: an empty v1alpha2 config's defaults; insecure serving from its address."""
    component_config = default_config()
    host, port = _split(component_config.healthz_bind_address)
    return Options(component_config=component_config, config_file=config_file, insecure_bind_address=host,
                   insecure_bind_port=port)


def _split(address: str) -> tuple[str, int]:
    try:
        host, port = split_host_port(address)
        return host, int(port)
    except (AddrError, ValueError):
        return "0.0.0.0", INSECURE_SCHEDULER_PORT


def _serving(address: str, flag_host: str, flag_port: int, name: str) -> ServingInfo | None:
    """The insecure server for ``address`` (``--address``/``--port`` only matter without --config)."""
    if not address:
        return None
    host, port = _split(address)
    if port == 0:
        return None
    return ServingInfo(name, host, port)
