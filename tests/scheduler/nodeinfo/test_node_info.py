"""NodeInfo accounting (nodeinfo/node_info.go) and HostPortInfo (host_ports.go)."""

import pytest

from kubesched import features
from kubesched.conformance._harness import as_object
from kubesched.scheduler.nodeinfo.host_ports import HostPortInfo
from kubesched.scheduler.nodeinfo.node_info import NodeInfo, PodKeyError, calculate_resource
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.listers.listers import NodeInfoNotFoundError


def pod(name, *, containers=(), init=(), overhead=None, node="", uid=None, ports=(), affinity=None):
    spec = {"nodeName": node,
            "containers": [{"name": f"c{i}", "resources": {"requests": r}} for i, r in enumerate(containers)],
            "initContainers": [{"name": f"i{i}", "resources": {"requests": r}} for i, r in enumerate(init)]}
    if ports:
        spec["containers"] = spec["containers"] or [{"name": "c0"}]
        spec["containers"][0]["ports"] = [dict(containerPort=p[2], hostPort=p[2], protocol=p[1], hostIP=p[0])
                                          for p in ports]
    if overhead:
        spec["overhead"] = overhead
    if affinity:
        spec["affinity"] = affinity
    return as_object({"metadata": {"name": name, "uid": uid if uid is not None else name}, "spec": spec})


def node(name, allocatable=None, images=()):
    return as_object({"kind": "Node", "metadata": {"name": name},
                      "status": {"allocatable": allocatable or {},
                                 "images": [{"names": list(n), "sizeBytes": s} for n, s in images]}})


@pytest.mark.parametrize("p, gates, want", [
    # (milli_cpu, memory, non0 cpu, non0 mem)
    (pod("a"), {}, (0, 0, 0, 0)),
    (pod("a", containers=[{}]), {}, (0, 0, 100, 209715200)),
    (pod("a", containers=[{"cpu": "0"}]), {}, (0, 0, 0, 209715200)),
    (pod("a", containers=[{"cpu": "1", "memory": "1Gi"}, {"cpu": "250m"}]), {},
     (1250, 1073741824, 1250, 1073741824 + 209715200)),
    (pod("a", containers=[{"cpu": "1"}], init=[{"cpu": "2", "memory": "1"}]), {},
     (2000, 1, 2000, 209715200)),
    (pod("a", containers=[{"cpu": "1"}], overhead={"cpu": "100m", "memory": "10"}), {},
     (1100, 10, 1100, 209715210)),
    (pod("a", containers=[{"cpu": "1"}], overhead={"cpu": "100m"}), {"PodOverhead": False},
     (1000, 0, 1000, 209715200)),
])
def test_calculate_resource(p, gates, want):
    with features.override(gates):
        res, cpu, mem = calculate_resource(p)
    assert (res.milli_cpu, res.memory, cpu, mem) == want


def test_add_and_remove_pod_restores_totals_and_swaps_order():
    info = NodeInfo(pod("a", containers=[{"cpu": "1"}]), pod("b", containers=[{"cpu": "2"}]),
                    pod("c", containers=[{"cpu": "3"}]))
    gen = info.generation
    info.remove_pod(pod("a", containers=[{"cpu": "1"}]))
    assert [p.metadata.name for p in info.pods] == ["c", "b"]  # last pod takes the slot, as upstream
    assert info.requested_resource.milli_cpu == 5000
    assert info.generation > gen


def test_remove_pod_errors():
    info = NodeInfo(pod("a"))
    info.set_node(node("n1"))
    with pytest.raises(LookupError, match="no corresponding pod x in pods of node n1"):
        info.remove_pod(pod("x"))
    with pytest.raises(PodKeyError, match="Cannot get cache key for pod with empty UID"):
        info.remove_pod(pod("a", uid=""))


def test_set_node_allocatable_and_scalar_resources():
    info = NodeInfo()
    info.set_node(node("n1", {"cpu": "4", "memory": "8Gi", "pods": "110", "example.com/gpu": "2",
                              "hugepages-2Mi": "1Gi", "unknown": "5"}))
    a = info.allocatable_resource
    assert (a.milli_cpu, a.memory, a.allowed_pod_number) == (4000, 8 * 2**30, 110)
    assert a.scalar_resources == {"example.com/gpu": 2, "hugepages-2Mi": 2**30}


def test_pods_with_affinity_tracked():
    aff = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "zone"}]}}
    info = NodeInfo(pod("a", affinity=aff), pod("b"))
    assert [p.metadata.name for p in info.pods_with_affinity] == ["a"]
    info.remove_pod(pod("a", affinity=aff))
    assert info.pods_with_affinity == []


def test_clone_is_independent():
    info = NodeInfo(pod("a", containers=[{"cpu": "1"}], ports=[("", "TCP", 80)]))
    copy = info.clone()
    copy.add_pod(pod("b", containers=[{"cpu": "1"}], ports=[("", "TCP", 81)]))
    assert info.requested_resource.milli_cpu == 1000 and len(info.pods) == 1
    assert info.used_ports == {"0.0.0.0": {("TCP", 80)}}


@pytest.mark.parametrize("used, check, want", [
    ([("", "", 80)], ("", "TCP", 80), True),
    ([("", "TCP", 80)], ("127.0.0.1", "TCP", 80), True),
    ([("127.0.0.1", "TCP", 80)], ("0.0.0.0", "TCP", 80), True),
    ([("127.0.0.1", "TCP", 80)], ("127.0.0.2", "TCP", 80), False),
    ([("127.0.0.1", "TCP", 80)], ("127.0.0.1", "UDP", 80), False),
    ([("", "TCP", 0)], ("", "TCP", 0), False),
])
def test_host_port_conflicts(used, check, want):
    ports = HostPortInfo()
    for ip, proto, port in used:
        ports.add(ip, proto, port)
    assert ports.check_conflict(*check) is want


def test_snapshot_from_pods_and_nodes():
    nodes = [node("n2", images=[(["nginx:1"], 100)]), node("n1", images=[(["nginx:1", "redis"], 50)])]
    pods = [pod("a", node="n1"), pod("b", node="ghost")]
    snap = Snapshot.new(pods, nodes)
    assert [i.node_name() for i in snap.node_infos().list()] == ["n2", "n1", ""]
    assert snap.get("n1").image_states["nginx:1"].num_nodes == 2
    assert snap.get("n1").image_states["redis"].size == 50
    assert snap.get("ghost").node is None
    assert snap.num_nodes() == 3
    with pytest.raises(NodeInfoNotFoundError, match='nodeinfo not found for node name "zz"'):
        snap.get("zz")
