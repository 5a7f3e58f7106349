"""The selector that spreading plugins deduce from a pod's Services and controllers.

Upstream: pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector,
GetPodServices) and the client-go lister expansions it calls
(ReplicationControllerLister.GetPodControllers, ReplicaSetLister.GetPodReplicaSets,
StatefulSetLister.GetPodStatefulSets).

Deviation: the object model cannot tell a nil Service / ReplicationController selector
from an empty one, so an empty ``spec.selector`` is treated as nil (matches nothing);
upstream lets an explicit empty Service selector match every pod. Listers return objects
in (namespace, name) order where upstream's order is an informer cache's.
"""

from __future__ import annotations

from typing import Iterable, Optional

from kubesched.api.core import Pod, Service
from kubesched.api.labels import (
    EQUALS, Requirement, Selector, SelectorError, label_selector_as_selector, selector_from_set,
)
from kubesched.api.meta import LabelSelector


def get_pod_services(listers, pod: Pod) -> list[Service]:
    """Services in the pod's namespace whose (non-nil) selector matches the pod's labels."""
    out = []
    for service in listers.services(pod.metadata.namespace):
        if not service.spec.selector:
            continue  # nil selector: matches nothing
        if selector_from_set(service.spec.selector).matches(pod.metadata.labels):
            out.append(service)
    return out


def get_pod_controllers(listers, pod: Pod) -> list:
    """ReplicationControllers of the pod's namespace selecting it (none when the pod has no labels)."""
    if not pod.metadata.labels:
        return []
    return [rc for rc in listers.replication_controllers(pod.metadata.namespace)
            if rc.spec.selector and selector_from_set(rc.spec.selector).matches(pod.metadata.labels)]


def _selecting(objects: Iterable, pod: Pod) -> list:
    """Objects whose LabelSelector is valid, non-empty and matches ``pod`` (GetPodReplicaSets …)."""
    if not pod.metadata.labels:
        return []
    out = []
    for obj in objects:
        if obj.metadata.namespace != pod.metadata.namespace:
            continue
        selector = _parse(obj.spec.selector)
        if selector is None or selector.empty() or not selector.matches(pod.metadata.labels):
            continue
        out.append(obj)
    return out


def _parse(selector: Optional[LabelSelector]) -> Optional[Selector]:
    try:
        return label_selector_as_selector(selector)
    except SelectorError:
        return None


def get_pod_replica_sets(listers, pod: Pod) -> list:
    return _selecting(listers.replica_sets(pod.metadata.namespace), pod)


def get_pod_stateful_sets(listers, pod: Pod) -> list:
    return _selecting(listers.stateful_sets(pod.metadata.namespace), pod)


def default_selector(pod: Pod, listers) -> Selector:
    """The AND of the selectors of every Service, RC, ReplicaSet and StatefulSet matching ``pod``."""
    label_set: dict[str, str] = {}
    for service in get_pod_services(listers, pod):
        label_set.update(service.spec.selector)
    for rc in get_pod_controllers(listers, pod):
        label_set.update(rc.spec.selector)
    requirements = [Requirement(k, EQUALS, (v,)) for k, v in label_set.items()]
    for owner in get_pod_replica_sets(listers, pod) + get_pod_stateful_sets(listers, pod):
        selector = _parse(owner.spec.selector)
        if selector is not None and not selector.nothing:
            requirements.extend(selector.requirements)
    return Selector(tuple(sorted(requirements, key=lambda r: r.key)))
