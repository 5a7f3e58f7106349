"""Leader election (client-go tools/leaderelection) on the simulated event loop.

Upstream: staging/src/k8s.io/client-go/tools/leaderelection (leaderelection.go,
healthzadaptor.go, resourcelock/). See leader_election.py for the timing model.
"""

from kubesched.client.leaderelection.healthzadaptor import (
    HealthzAdaptor,
    new_leader_healthz_adaptor,
)
from kubesched.client.leaderelection.leader_election import (
    JITTER_FACTOR,
    Context,
    ElectionObservation,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    Transition,
    run_or_die,
    scheduler_identity,
    validate,
)
from kubesched.client.leaderelection.resourcelock import (
    ENDPOINTS_LEASES_RESOURCE_LOCK,
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    UNKNOWN_LEADER,
    APIServerEventRecorder,
    ConfigMapLock,
    EndpointsLock,
    Interface,
    LeaderElectionRecord,
    LeaseLock,
    LockError,
    MultiLock,
    ResourceLockConfig,
    new,
)

__all__ = [
    "ENDPOINTS_LEASES_RESOURCE_LOCK",
    "JITTER_FACTOR",
    "LEADER_ELECTION_RECORD_ANNOTATION_KEY",
    "UNKNOWN_LEADER",
    "APIServerEventRecorder",
    "ConfigMapLock",
    "Context",
    "ElectionObservation",
    "EndpointsLock",
    "HealthzAdaptor",
    "Interface",
    "LeaderCallbacks",
    "LeaderElectionConfig",
    "LeaderElectionRecord",
    "LeaderElector",
    "LeaseLock",
    "LockError",
    "MultiLock",
    "ResourceLockConfig",
    "Transition",
    "new",
    "new_leader_healthz_adaptor",
    "run_or_die",
    "scheduler_identity",
    "validate",
]
