"""``python -m kubesched import``: a live cluster's scheduling state as a kubesched cluster file, read-only.

Upstream: no counterpart (``kubectl get nodes,pods,… -A -o yaml`` is the nearest). The objects
kube-scheduler watches are listed (``live_cluster``), stripped of what only the API server
keeps (managedFields, resourceVersion, creationTimestamp, selfLink, generation, the
last-applied annotation, the status of workloads and Services, the Pod and Node status fields
the scheduler does not read) and written as one multi-document YAML file, with a header saying
where and when (the cluster's own ``Date``) it came from. Terminal Pods (Succeeded, Failed) are
left out: the scheduler's informer never sees them.

Deviation: PodDisruptionBudgets read as ``policy/v1`` (1.21+) are written as
``policy/v1beta1``, the version v1.18 serves (the fields the scheduler reads are the same).
Imported state is replayed under v1.18.5 rules whatever the cluster's version; fields newer
than v1.18 are kept and reported by the loader.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final, TextIO

import yaml

from kubesched.cli.commands import Command
from kubesched.cli.live_cluster import RESOURCES, ClusterReadError, ClusterState, new_api_client, read_cluster

HELP = "read a live cluster (read-only) into a cluster file the dashboard and run open"
SERVER_ONLY_METADATA: Final = ("managedFields", "resourceVersion", "creationTimestamp", "selfLink", "generation")
LAST_APPLIED: Final = "kubectl.kubernetes.io/last-applied-configuration"
# The status fields kept, per kind (what the scheduler and the simulated controllers read); other
# kinds lose their status.
KEPT_STATUS: Final = {
    "Pod": ("phase", "conditions", "nominatedNodeName", "startTime"),
    "Node": ("capacity", "allocatable", "conditions", "addresses", "images"),
    "PersistentVolume": ("phase",),
    "PersistentVolumeClaim": ("phase", "accessModes", "capacity"),
    "PodDisruptionBudget": ("disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"),
}
WRITTEN_API_VERSION: Final = {("PodDisruptionBudget", "policy/v1"): "policy/v1beta1"}
TERMINAL_PHASES: Final = ("Succeeded", "Failed")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    parser.add_argument("--context", metavar="NAME", help="kubeconfig context (default: the current one)")
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("-n", "--namespace", metavar="NS",
                       help="namespaced objects of NS only (default: the context's namespace); pods bound to a "
                            "node are read from every namespace")
    scope.add_argument("-A", "--all-namespaces", action="store_true", help="every namespace")
    parser.add_argument("-o", "--output", metavar="FILE", default="-", help="cluster file to write (default: stdout)")


def run_import(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Read the cluster and write the file; one line per problem on stderr, exit 1 when nothing was read."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        client, server, context, context_namespace = new_api_client(args.kubeconfig, args.context)
        namespace = None if args.all_namespaces else (args.namespace or context_namespace)
        state = read_cluster(client, server=server, context=context, namespace=namespace)
    except ClusterReadError as error:
        print(f"import: {error}", file=err)
        return 1
    text, counts = cluster_file(state)
    if args.output == "-":
        out.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    for note in state.notes:
        print(f"import: {note}", file=err)
    where = "stdout" if args.output == "-" else args.output
    print(f"import: wrote {where}: {summary(counts)} (from {server}, {state.version or 'version unknown'})", file=err)
    return 0


# -- the file -----------------------------------------------------------------------------------------
def cluster_file(state: ClusterState) -> tuple[str, Counter]:
    """The multi-document YAML of a read, and how many objects of each kind it holds."""
    documents, counts, skipped = [], Counter(), Counter()
    for kind, _, _, _ in RESOURCES:
        listed = state.lists.get(kind)
        if listed is None:
            continue
        api_version = listed.get("apiVersion", "v1")
        for item in listed.get("items") or ():
            if kind == "Pod" and (item.get("status") or {}).get("phase") in TERMINAL_PHASES:
                skipped[item["status"]["phase"]] += 1
                continue
            documents.append(clean(kind, api_version, item))
            counts[kind] += 1
    body = "".join("---\n" + yaml.safe_dump(d, sort_keys=False, allow_unicode=True, width=120) for d in documents)
    return header(state, skipped) + body, counts


def header(state: ClusterState, skipped: Counter) -> str:
    """Where and when the state came from, and that it is replayed under v1.18.5 rules."""
    scope = "all namespaces" if state.namespace is None else (
        f"namespace {state.namespace} (and the pods bound to a node in any namespace)")
    lines = [f"Imported by `python -m kubesched import` from {state.server} (context {state.context}), {scope}.",
             f"Read at {state.date or 'an unknown time'} (the cluster's clock); the cluster runs "
             f"{state.version or 'an unknown version'}.",
             "Imported state is replayed under Kubernetes v1.18.5 scheduling rules, whatever the cluster's version.",
             "Stripped: managedFields, resourceVersion, creationTimestamp, selfLink, generation, the "
             "last-applied annotation, workload and Service status."]
    if skipped:
        lines.append("Left out: " + ", ".join(f"{n} {phase} pod(s)" for phase, n in sorted(skipped.items()))
                     + " (terminal: the scheduler never sees them).")
    if any(kind == "PodDisruptionBudget" and (state.lists[kind].get("apiVersion") == "policy/v1")
           for kind in state.lists):
        lines.append("PodDisruptionBudgets read as policy/v1 are written as policy/v1beta1 (what v1.18 serves).")
    lines += [f"Not read: {note}" for note in state.notes]
    return "".join(f"# {line}\n" for line in lines)


def clean(kind: str, api_version: str, item: Mapping[str, Any]) -> dict[str, Any]:
    """One listed object as a manifest: apiVersion and kind (list items carry none), metadata
    without the server's bookkeeping, spec as is, only the status the scheduler reads."""
    out: dict[str, Any] = {"apiVersion": WRITTEN_API_VERSION.get((kind, api_version), api_version), "kind": kind}
    for key, value in item.items():
        if key in ("apiVersion", "kind"):
            continue
        if key == "metadata":
            value = _metadata(value)
        elif key == "status":
            value = {k: v for k, v in (value or {}).items() if k in KEPT_STATUS.get(kind, ())}
            if not value:
                continue
        out[key] = value
    return out


def _metadata(meta: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in meta.items() if k not in SERVER_ONLY_METADATA}
    annotations = {k: v for k, v in (out.get("annotations") or {}).items() if k != LAST_APPLIED}
    if annotations:
        out["annotations"] = annotations
    else:
        out.pop("annotations", None)
    return out


def summary(counts: Counter) -> str:
    """``2 Nodes, 7 Pods, 1 Service`` in the order the resources are read."""
    return ", ".join(f"{counts[kind]} {_plural(kind, counts[kind])}" for kind, _, _, _ in RESOURCES
                     if counts[kind]) or "no objects"


def _plural(kind: str, n: int) -> str:
    return kind if n == 1 else kind + ("es" if kind.endswith("s") else "s")


COMMAND = Command("import", HELP, configure, run_import)
