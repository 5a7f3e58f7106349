"""The in-memory API server the simulated scheduler talks to.

Upstream: kube-apiserver + etcd (pkg/registry, staging/src/k8s.io/apiserver), with
a minimal kubelet and the workload controllers (ReplicaSet, StatefulSet, DaemonSet, Job
in their own modules; kubesched.controller.manager starts them with the PV controller).
Public surface: ``APIServer(loop)`` (create, get, list, update, update_status, delete,
bind, watch, snapshot, list_all, record_event, events_for), ``WatchEvent``, the
``APIError`` family, ``Kubelet(api)`` and ``ReplicaSetController(api)``.
"""

from __future__ import annotations

from kubesched.cluster.apiserver import APIServer, Snapshot
from kubesched.cluster.errors import AlreadyExists, APIError, Conflict, Invalid, NotFound
from kubesched.cluster.kubelet import Kubelet
from kubesched.cluster.replicaset_controller import ReplicaSetController
from kubesched.cluster.watch import ADDED, DELETED, MODIFIED, WatchEvent

__all__ = ["APIServer", "Snapshot", "APIError", "NotFound", "AlreadyExists",
           "Conflict", "Invalid", "Kubelet", "ReplicaSetController", "WatchEvent", "ADDED",
           "MODIFIED", "DELETED"]
