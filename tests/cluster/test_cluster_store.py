"""APIServer verbs: resourceVersion, create/get/list, errors, update vs update_status."""

from __future__ import annotations

import dataclasses
import re

import pytest

from cluster_fakes import FakeLoop, node, pod
from kubesched.api.coordination import Lease, LeaseSpec
from kubesched.api.core import Endpoints, PodStatus, Toleration
from kubesched.api.meta import ObjectMeta
from kubesched.cluster import APIServer, AlreadyExists, APIError, Conflict, Invalid, NotFound

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@pytest.fixture
def api() -> APIServer:
    return APIServer(FakeLoop(time=5.0))


def test_resource_version_increments_on_every_write(api):
    a = api.create(pod("a"))
    b = api.create(pod("b"))
    a2 = api.update(dataclasses.replace(a, metadata=dataclasses.replace(a.metadata, labels={"x": "1"})))
    s = api.update_status(dataclasses.replace(b, status=PodStatus(phase="Running")))
    gone = api.delete("Pod", "default", "a")  # unbound: MODIFIED then DELETED
    assert [a.metadata.resource_version, b.metadata.resource_version, a2.metadata.resource_version,
            s.metadata.resource_version, gone.metadata.resource_version] == ["1", "2", "3", "4", "6"]
    assert api.resource_version == "6"


def test_create_sets_system_fields(api):
    created = api.create(pod("web-1", namespace=""))
    meta = created.metadata
    assert (meta.namespace, meta.creation_timestamp, meta.generation, created.status.phase) == (
        "default", 5.0, 1, "Pending")
    assert UUID_RE.match(meta.uid)
    assert api.get("Pod", "default", "web-1") == created


def test_create_keeps_supplied_uid_timestamp_and_clears_namespace_of_cluster_kinds(api):
    n = node("n1")
    n = dataclasses.replace(n, metadata=dataclasses.replace(n.metadata, uid="u-1", namespace="x",
                                                            creation_timestamp=1.0))
    created = api.create(n)
    assert (created.metadata.uid, created.metadata.namespace, created.metadata.creation_timestamp) == (
        "u-1", "", 1.0)
    assert api.get("Node", "ignored", "n1") == created


def test_uids_are_deterministic_and_distinct():
    uids = []
    for _ in range(2):
        api = APIServer(FakeLoop())
        uids.append([api.create(pod(n)).metadata.uid for n in ("a", "b")])
    assert uids[0] == uids[1]
    assert uids[0][0] != uids[0][1]


def test_recreated_object_gets_new_uid(api):
    first = api.create(pod("a")).metadata.uid
    api.delete("Pod", "default", "a")
    assert api.create(pod("a")).metadata.uid != first


def test_list_orders_by_namespace_then_name_and_filters(api):
    for ns, name, app in [("b", "z", "web"), ("a", "y", "db"), ("b", "a", "web"), ("a", "z", "web")]:
        api.create(pod(name, namespace=ns, labels={"app": app}))
    api.create(node("n1"))
    names = lambda objs: [(o.metadata.namespace, o.metadata.name) for o in objs]
    assert names(api.list("Pod")) == [("a", "y"), ("a", "z"), ("b", "a"), ("b", "z")]
    assert names(api.list("Pod", namespace="b")) == [("b", "a"), ("b", "z")]
    assert names(api.list("Pod", label_selector={"app": "web"})) == [("a", "z"), ("b", "a"), ("b", "z")]
    assert names(api.list_all()) == [("", "n1"), ("a", "y"), ("a", "z"), ("b", "a"), ("b", "z")]
    snap = api.snapshot(kinds=["Node"])
    assert (snap.resource_version, names(snap.objects)) == ("5", [("", "n1")])


class _Selector:
    def matches(self, labels):
        return labels.get("app") != "web"


def test_list_accepts_selector_objects(api):
    api.create(pod("a", labels={"app": "web"}))
    api.create(pod("b", labels={"app": "db"}))
    assert [p.metadata.name for p in api.list("Pod", label_selector=_Selector())] == ["b"]


ERROR_CASES = [
    ("get missing pod", lambda api: api.get("Pod", "default", "web-1"), NotFound, 404,
     'pods "web-1" not found'),
    ("create twice", lambda api: [api.create(pod("web-1")), api.create(pod("web-1"))], AlreadyExists, 409,
     'pods "web-1" already exists'),
    ("update missing", lambda api: api.update(pod("web-1")), NotFound, 404, 'pods "web-1" not found'),
    ("delete missing node", lambda api: api.delete("Node", "", "n9"), NotFound, 404, 'nodes "n9" not found'),
    ("missing lease", lambda api: api.get("Lease", "kube-system", "kube-scheduler"), NotFound, 404,
     'leases.coordination.k8s.io "kube-scheduler" not found'),
    ("missing replicaset", lambda api: api.get("ReplicaSet", "default", "rs"), NotFound, 404,
     'replicasets.apps "rs" not found'),
    ("stale update", lambda api: _stale_update(api), Conflict, 409,
     'Operation cannot be fulfilled on pods "web-1": the object has been modified; '
     "please apply your changes to the latest version and try again"),
    ("no name", lambda api: api.create(pod("")), Invalid, 422,
     'Pod "" is invalid: metadata.name: Required value: name or generateName is required'),
    ("pod spec change", lambda api: _change_node_selector(api), Invalid, 422,
     'Pod "web-1" is invalid: spec: Forbidden: pod updates may not change fields other than '
     "`spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or "
     "`spec.tolerations` (only additions to existing tolerations)"),
]


def _stale_update(api):
    first = api.create(pod("web-1"))
    api.update(dataclasses.replace(first, metadata=dataclasses.replace(first.metadata, labels={"a": "b"})))
    api.update(dataclasses.replace(first, metadata=dataclasses.replace(first.metadata, labels={"a": "c"})))


def _change_node_selector(api):
    created = api.create(pod("web-1"))
    api.update(dataclasses.replace(created, spec=dataclasses.replace(created.spec, node_selector={"a": "b"})))


@pytest.mark.parametrize("name,call,cls,code,message", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_are_worded_as_the_api_server(api, name, call, cls, code, message):
    with pytest.raises(cls) as info:
        call(api)
    assert isinstance(info.value, APIError)
    assert (info.value.reason, info.value.code, str(info.value)) == (cls.reason, code, message)
    assert info.value.reason == cls.__name__


def test_update_changes_spec_and_metadata_but_not_status(api):
    created = api.create(pod("web-1"))
    wanted = dataclasses.replace(
        created,
        metadata=dataclasses.replace(created.metadata, labels={"tier": "fe"}, uid="forged",
                                     creation_timestamp=99.0),
        spec=dataclasses.replace(created.spec, tolerations=(Toleration(key="k", operator="Exists"),)),
        status=PodStatus(phase="Running"))
    updated = api.update(wanted)
    assert updated.metadata.labels == {"tier": "fe"}
    assert updated.spec.tolerations == (Toleration(key="k", operator="Exists"),)
    assert (updated.status.phase, updated.metadata.uid, updated.metadata.creation_timestamp) == (
        "Pending", created.metadata.uid, 5.0)
    assert updated.metadata.generation == 2


def test_update_status_changes_status_only(api):
    created = api.create(pod("web-1"))
    wanted = dataclasses.replace(
        created, metadata=dataclasses.replace(created.metadata, labels={"tier": "fe"}),
        spec=dataclasses.replace(created.spec, node_name="n1"),
        status=PodStatus(phase="Pending", nominated_node_name="n2"))
    updated = api.update_status(wanted)
    assert (updated.status.nominated_node_name, updated.spec.node_name, dict(updated.metadata.labels)) == (
        "n2", "", {})
    assert updated.metadata.generation == 1


def test_update_that_changes_nothing_is_not_written(api):
    created = api.create(pod("web-1"))
    events = []
    api.watch(events.append)
    assert api.update(created) == created
    assert api.update_status(created) == created
    assert (events, api.resource_version) == ([], "1")


def test_update_without_resource_version_is_unconditional(api):
    api.create(pod("web-1", labels={"v": "1"}))
    api.create(pod("other"))
    updated = api.update(pod("web-1", labels={"v": "2"}))
    assert (updated.metadata.labels, updated.metadata.resource_version) == ({"v": "2"}, "3")


@pytest.mark.parametrize("obj", [
    Lease(metadata=ObjectMeta(name="kube-scheduler", namespace="kube-system"),
          spec=LeaseSpec(holder_identity="a", lease_duration_seconds=15)),
    Endpoints(metadata=ObjectMeta(name="kube-scheduler", namespace="kube-system")),
], ids=["Lease", "Endpoints"])
def test_lease_and_endpoints_are_ordinary_kinds_with_conflict(api, obj):
    created = api.create(obj)
    annotated = dataclasses.replace(created, metadata=dataclasses.replace(
        created.metadata, annotations={"holder": "b"}))
    updated = api.update(annotated)
    assert api.get(type(obj).KIND, "kube-system", "kube-scheduler") == updated
    with pytest.raises(Conflict) as info:
        api.update(annotated)  # carries the old resourceVersion
    resource = "leases.coordination.k8s.io" if type(obj).KIND == "Lease" else "endpoints"
    assert str(info.value).startswith(f'Operation cannot be fulfilled on {resource} "kube-scheduler"')


def test_generate_name_is_deterministic(api):
    obj = pod("")
    obj = dataclasses.replace(obj, metadata=dataclasses.replace(obj.metadata, generate_name="web-"))
    first = api.create(obj).metadata.name
    second = api.create(obj).metadata.name
    other = APIServer(FakeLoop())
    assert [other.create(obj).metadata.name, other.create(obj).metadata.name] == [first, second]
    assert re.match(r"^web-[bcdfghjklmnpqrstvwxz2456789]{5}$", first) and first != second


def test_unknown_kind_is_refused(api):
    with pytest.raises(NotFound):
        api.list("Widget")
