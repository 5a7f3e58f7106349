"""The engine's names a view needs, re-exported so views import ``kubesched.sim`` only.

Upstream: pkg/scheduler/internal/queue/events.go (the queue's event names),
pkg/scheduler/apis/config/scheme (the configuration loader's error), pkg/scheduler/scheduler.go
(``durationToExpireAssumedPod``). Views (``kubesched.ui``) read the trace and ``kubesched.sim``,
never ``kubesched.scheduler``: this module is the one door between them.
"""

from __future__ import annotations

from kubesched.api.load import LoadError
from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.scheduler.factory import (
    DURATION_TO_EXPIRE_ASSUMED_POD as ASSUMED_POD_TTL,
)
from kubesched.scheduler.internal.queue import events as queue_events
from kubesched.sim.inputs import INPUT_ERRORS
from kubesched.sim.scenario import ScenarioError

# INPUT_ERRORS: what loading a cluster, configuration or scenario raises (kubesched.sim.inputs)
__all__ = ["ASSUMED_POD_TTL", "INPUT_ERRORS", "ConfigError", "LoadError", "ScenarioError", "queue_events"]
