"""Builders for the cache tests (ports of cache_test.go's makeBasePod & co)."""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import (Affinity, Container, ContainerImage, ContainerPort, Node, NodeSpec,
                                NodeStatus, Pod, PodAffinity, PodSpec, ResourceRequirements, Taint)
from kubesched.api.meta import ObjectMeta
from kubesched.api.quantity import Quantity
from kubesched.util.clock import FakeClock
from kubesched.scheduler.internal.cache.cache import SchedulerCache

ZONE = "failure-domain.beta.kubernetes.io/zone"
REGION = "failure-domain.beta.kubernetes.io/region"
ZONE_STABLE = "topology.kubernetes.io/zone"
REGION_STABLE = "topology.kubernetes.io/region"


def make_base_pod(node_name: str, name: str, cpu: str = "", mem: str = "", extended: str = "",
                  ports: tuple[ContainerPort, ...] = (), affinity: Optional[Affinity] = None) -> Pod:
    """``makeBasePod``: uid = name, namespace node_info_cache_test."""
    requests: dict[str, Quantity] = {}
    if cpu:
        requests = {"cpu": Quantity.parse(cpu), "memory": Quantity.parse(mem)}
        if extended:
            res, amount = extended.split(":")
            requests[res] = Quantity.parse(amount)
    container = Container(name="c", resources=ResourceRequirements(requests=requests), ports=ports)
    return Pod(metadata=ObjectMeta(name=name, namespace="node_info_cache_test", uid=name),
               spec=PodSpec(containers=(container,), node_name=node_name, affinity=affinity))


def host_port(port: int, ip: str = "127.0.0.1", protocol: str = "TCP") -> ContainerPort:
    return ContainerPort(container_port=port, host_port=port, host_ip=ip, protocol=protocol)


def make_node(name: str, labels: Optional[dict[str, str]] = None, cpu: str = "1000m", mem: str = "100m",
              images: tuple[ContainerImage, ...] = (), taints: tuple[Taint, ...] = ()) -> Node:
    return Node(metadata=ObjectMeta(name=name, labels=labels or {}),
                spec=NodeSpec(taints=taints),
                status=NodeStatus(allocatable={"cpu": Quantity.parse(cpu), "memory": Quantity.parse(mem)},
                                  images=images))


def zoned_node(name: str, region: str = "", zone: str = "") -> Node:
    labels = {}
    if region:
        labels[REGION] = region
    if zone:
        labels[ZONE] = zone
    return make_node(name, labels)


def with_pod_affinity() -> Affinity:
    return Affinity(pod_affinity=PodAffinity())


def new_cache(ttl: float = 10.0, start: float = 0.0, **options: bool) -> tuple[SchedulerCache, FakeClock]:
    clock = FakeClock(start)
    return SchedulerCache(ttl, 1.0, clock=clock, **options), clock


def requested(cache: SchedulerCache, node_name: str) -> Optional[tuple]:
    """(milli_cpu, memory, scalars, non0 cpu, non0 mem, pod names, used ports) of one NodeInfo."""
    item = cache.nodes.get(node_name)
    if item is None:
        return None
    info = item.info
    ports = sorted((ip, proto, port) for ip, by_proto in info.used_ports.items()
                   for proto, port in _pairs(by_proto))
    return (info.requested_resource.milli_cpu, info.requested_resource.memory,
            dict(info.requested_resource.scalar_resources), info.non_zero_request.milli_cpu,
            info.non_zero_request.memory, [p.metadata.name for p in info.pods], ports)


def _pairs(by_proto) -> list[tuple[str, int]]:
    return [(proto, port) for (proto, port) in by_proto]
