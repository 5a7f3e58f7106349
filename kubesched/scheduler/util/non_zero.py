"""Default requests that scoring assumes for containers that state none.

Upstream: pkg/scheduler/util/non_zero.go (DefaultMilliCPURequest, DefaultMemoryRequest,
GetNonzeroRequests, GetNonzeroRequestForResource).
"""

from __future__ import annotations

from typing import Mapping

from kubesched import features
from kubesched.api import v1helper
from kubesched.api.quantity import Quantity

DEFAULT_MILLI_CPU_REQUEST = 100  # 0.1 core
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024  # "200 MB" upstream; really 200 MiB


def get_nonzero_requests(requests: Mapping[str, Quantity]) -> tuple[int, int]:
    """(milli-cpu, memory bytes) with the defaults for an absent key (an explicit 0 stays 0)."""
    return (get_nonzero_request_for_resource(v1helper.RESOURCE_CPU, requests),
            get_nonzero_request_for_resource(v1helper.RESOURCE_MEMORY, requests))


def get_nonzero_request_for_resource(resource: str, requests: Mapping[str, Quantity]) -> int:
    if resource == v1helper.RESOURCE_CPU:
        q = requests.get(resource)
        return DEFAULT_MILLI_CPU_REQUEST if q is None else q.milli_value()
    if resource == v1helper.RESOURCE_MEMORY:
        q = requests.get(resource)
        return DEFAULT_MEMORY_REQUEST if q is None else q.value()
    if resource == v1helper.RESOURCE_EPHEMERAL_STORAGE:
        if not features.enabled("LocalStorageCapacityIsolation"):
            return 0
        q = requests.get(resource)
        return 0 if q is None else q.value()
    if v1helper.is_scalar_resource_name(resource):
        q = requests.get(resource)
        return 0 if q is None else q.value()
    return 0
