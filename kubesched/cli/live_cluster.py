"""Reading a live cluster, read-only: the objects kube-scheduler watches, listed with the official client.

Upstream: the informers of pkg/scheduler/eventhandlers.go and factory.go list and watch Nodes,
Pods, PVs, PVCs, StorageClasses, CSINodes, Services, ReplicationControllers, ReplicaSets,
StatefulSets, PodDisruptionBudgets (and the workload controllers the issue asks for:
DaemonSets, Deployments); ``kubectl get -o json`` makes the same GETs. Every request is a GET
through the ``kubernetes`` Python client (its kubeconfig loading, authentication and TLS).

``read_cluster`` returns the raw list responses (JSON as the server wrote them), the server's
``/version`` and the HTTP ``Date`` of the first answer (when the state was read, by the
cluster's clock), plus notes for what could not be listed. A resource the server does not
serve at its first API version (404) is asked at the next one (``policy/v1`` then
``policy/v1beta1``); one it does not serve at all, or that RBAC forbids, is left out with a note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

# (kind, namespaced, resource, API paths to try in order)
RESOURCES: Final = (
    ("Node", False, "nodes", ("/api/v1",)),
    ("Pod", True, "pods", ("/api/v1",)),
    ("PersistentVolume", False, "persistentvolumes", ("/api/v1",)),
    ("PersistentVolumeClaim", True, "persistentvolumeclaims", ("/api/v1",)),
    ("StorageClass", False, "storageclasses", ("/apis/storage.k8s.io/v1", "/apis/storage.k8s.io/v1beta1")),
    ("CSINode", False, "csinodes", ("/apis/storage.k8s.io/v1", "/apis/storage.k8s.io/v1beta1")),
    ("PodDisruptionBudget", True, "poddisruptionbudgets", ("/apis/policy/v1", "/apis/policy/v1beta1")),
    ("PriorityClass", False, "priorityclasses", ("/apis/scheduling.k8s.io/v1", "/apis/scheduling.k8s.io/v1beta1")),
    ("Service", True, "services", ("/api/v1",)),
    ("ReplicationController", True, "replicationcontrollers", ("/api/v1",)),
    ("ReplicaSet", True, "replicasets", ("/apis/apps/v1",)),
    ("StatefulSet", True, "statefulsets", ("/apis/apps/v1",)),
    ("DaemonSet", True, "daemonsets", ("/apis/apps/v1",)),
    ("Deployment", True, "deployments", ("/apis/apps/v1",)),
)


class ClusterReadError(Exception):
    """The cluster could not be read at all (kubeconfig, connection, authentication)."""


@dataclass
class ClusterState:
    """What one read of the cluster returned."""

    server: str
    context: str
    namespace: str | None                      # None: all namespaces
    version: str = ""                           # /version gitVersion
    date: str = ""                              # the first answer's HTTP Date header
    lists: dict[str, dict[str, Any]] = field(default_factory=dict)   # kind → the List response
    notes: list[str] = field(default_factory=list)


def new_api_client(kubeconfig: str | None, context: str | None) -> tuple[Any, str, str, str]:
    """The client for a kubeconfig context: (ApiClient, server, context name, the context's namespace)."""
    from kubernetes import config
    from kubernetes.config.config_exception import ConfigException
    try:
        contexts, current = config.list_kube_config_contexts(config_file=kubeconfig)
        chosen = next((c for c in contexts if c["name"] == context), None) if context else current
        if chosen is None:
            raise ClusterReadError(f"context {context!r} not found in the kubeconfig")
        client = config.new_client_from_config(config_file=kubeconfig, context=chosen["name"], persist_config=False)
    except (ConfigException, OSError, ValueError, KeyError, TypeError) as err:
        raise ClusterReadError(f"cannot use the kubeconfig: {err}") from None
    namespace = (chosen.get("context") or {}).get("namespace") or "default"
    return client, client.configuration.host, chosen["name"], namespace


def read_cluster(api_client: Any, *, server: str, context: str, namespace: str | None) -> ClusterState:
    """List every resource of ``RESOURCES`` (namespaced ones in ``namespace``, or all when None).

    With a namespace, Pods are still listed in every namespace and those bound to a node are
    kept, so that the nodes are as full as they are.
    """
    state = ClusterState(server, context, namespace)
    version, date, status = _get(api_client, "/version")
    if version is None:
        raise ClusterReadError(f"{server}/version: {_failure(status).removesuffix(': left out')}")
    state.version, state.date = version.get("gitVersion", ""), date
    for kind, namespaced, resource, bases in RESOURCES:
        scoped = namespaced and namespace is not None and kind != "Pod"
        listed = _list(api_client, bases, resource, namespace if scoped else None, state)
        if listed is not None:
            if kind == "Pod" and namespace is not None:
                listed["items"] = [p for p in listed.get("items", []) if _keep_pod(p, namespace)]
            state.lists[kind] = listed
    return state


def _keep_pod(pod: dict[str, Any], namespace: str) -> bool:
    meta, spec = pod.get("metadata") or {}, pod.get("spec") or {}
    return meta.get("namespace") == namespace or bool(spec.get("nodeName"))


def _list(api_client: Any, bases: tuple[str, ...], resource: str, namespace: str | None,
          state: ClusterState) -> dict[str, Any] | None:
    for base in bases:
        path = f"{base}/namespaces/{namespace}/{resource}" if namespace else f"{base}/{resource}"
        found, _, status = _get(api_client, path)
        if found is not None:
            return found
        if status != 404:
            state.notes.append(f"{path}: {_failure(status)}")
            return None
    state.notes.append(f"{resource}: not served by this cluster ({', '.join(bases)})")
    return None


def _get(api_client: Any, path: str) -> tuple[dict[str, Any] | None, str, int | str]:
    """GET ``path`` as JSON: (the answer, its Date header, the HTTP status or the error text)."""
    from kubernetes.client.exceptions import ApiException
    try:
        method, url, headers, _, _ = api_client.param_serialize(
            method="GET", resource_path=path, header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"])
        response = api_client.call_api(method, url, header_params=headers, _request_timeout=30)
        body = response.read()
    except ApiException as err:
        return None, "", err.status or str(err)
    except Exception as err:  # noqa: BLE001 - urllib3 and the client raise many kinds; reported as text
        return None, "", f"{type(err).__name__}: {err}"
    if response.status != 200:
        return None, "", response.status
    try:
        return json.loads(body), response.getheader("Date") or "", 200
    except ValueError:
        return None, "", "the answer is not JSON"


def _failure(status: int | str) -> str:
    if status == 403:
        return "forbidden (RBAC): left out"
    return f"HTTP {status}: left out" if isinstance(status, int) else f"{status}: left out"
