"""coordination.k8s.io/v1 Lease, the second half of the ``endpointsleases`` lock.

Upstream: staging/src/k8s.io/api/coordination/v1/types.go (Lease, LeaseSpec);
client-go/tools/leaderelection/resourcelock.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from kubesched.api.fields import fld, model
from kubesched.api.meta import ObjectMeta, Time


@model
class LeaseSpec:
    holder_identity: Optional[str] = None
    lease_duration_seconds: Optional[int] = None
    acquire_time: Optional[Time] = None
    renew_time: Optional[Time] = None
    lease_transitions: Optional[int] = None


@model
class Lease:
    API_VERSION: ClassVar[str] = "coordination.k8s.io/v1"
    KIND: ClassVar[str] = "Lease"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: LeaseSpec = fld(factory=LeaseSpec)
