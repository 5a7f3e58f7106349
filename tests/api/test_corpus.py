"""A corpus of real manifests (written from the Kubernetes docs and examples of 2020, v1.18 era).

- ``corpus/*.yaml``: every file loads exactly as ``run`` loads it, with no error and no warning
  (but a CronJob's note that it is kept inert);
  together they cover every kind a Helm render or ``kubectl get all`` holds;
- ``corpus/invalid/``: every file is refused; each ``# expect:`` line is one problem line
  (file, line, object, field, message), and there are no others;
- ``corpus/newer/``: fields and apiVersions newer than v1.18 are named as newer (``added in``);
- ``corpus/dump/``: a ``kubectl get nodes,pods -A -o yaml`` of 6 nodes and 40 pods loads in one go,
  ``validate`` prints at most 15 lines, and ``explain`` answers for every pending pod.

Upstream: the v1.18.0 OpenAPI document and pkg/apis/*/validation (the messages); the dump's pending
reasons follow generic_scheduler.go (podPassesBasicChecks) and the Filter plugins' reasons.
"""

from __future__ import annotations

import io
import pathlib

import pytest
import yaml

from kubesched.api.load import LoadError, LoadProblem
from kubesched.cli.main import build_parser, run_validate
from kubesched.cli.run import open_simulation
from kubesched.api.validate import CRON_JOB_NOTE
from kubesched.explain import explain_pod, sentence

CORPUS = pathlib.Path(__file__).with_name("corpus")
VALID = sorted(CORPUS.glob("*.yaml"))
INVALID = sorted((CORPUS / "invalid").glob("*.yaml"))
NEWER = sorted((CORPUS / "newer").glob("*.yaml"))
DUMP = CORPUS / "dump" / "kubectl-get-nodes-pods.yaml"
KINDS = {"Deployment", "DaemonSet", "Job", "CronJob", "StatefulSet", "ReplicaSet", "ReplicationController",
         "ConfigMap", "Secret", "ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding",
         "Ingress", "HorizontalPodAutoscaler", "LimitRange", "ResourceQuota", "PersistentVolume",
         "PersistentVolumeClaim", "StorageClass", "PodDisruptionBudget", "PriorityClass", "Service", "Pod",
         "Node", "Namespace", "NetworkPolicy", "Endpoints", "CustomResourceDefinition"}


def _expected(path: pathlib.Path) -> list[str]:
    return [line[len("# expect: "):] for line in path.read_text().splitlines() if line.startswith("# expect: ")]


def _problems(path: pathlib.Path) -> tuple[bool, list[LoadProblem]]:
    """(loaded?, every problem) through run's own loading."""
    try:
        sim = open_simulation(str(path), None, None, trace=False)
    except LoadError as err:
        return False, list(err.problems)
    return True, list(sim.inputs.loaded.warnings)


def test_the_corpus_is_large_and_covers_every_kind() -> None:
    kinds = {doc.get("kind") for path in VALID for doc in yaml.safe_load_all(path.read_text()) if doc}
    kinds |= {item["kind"] for path in VALID for doc in yaml.safe_load_all(path.read_text())
              if doc and doc.get("kind") == "List" for item in doc["items"]}
    assert (len(VALID) >= 60, len(INVALID) >= 15, len(NEWER) >= 10) == (True, True, True)
    assert KINDS - kinds == set()


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_valid_manifests_load_without_a_finding(path: pathlib.Path) -> None:
    loaded, problems = _problems(path)
    assert (loaded, [str(p) for p in problems if p.message != CRON_JOB_NOTE]) == (True, [])


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_manifests_are_refused_naming_object_and_field(path: pathlib.Path) -> None:
    loaded, problems = _problems(path)
    lines = [str(p).replace(f"{path.parent}/", "") for p in problems if not p.warning]
    assert (loaded, lines) == (False, _expected(path))


@pytest.mark.parametrize("path", NEWER, ids=[p.name for p in NEWER])
def test_newer_fields_and_versions_are_named_as_newer(path: pathlib.Path) -> None:
    _, problems = _problems(path)
    lines = sorted(f"{'warning' if p.warning else 'error'}: {p.subject()}: {p.path}: {p.message}" for p in problems)
    assert lines == sorted(_expected(path))
    assert all("(added in 1." in line for line in lines)


def _validate(*argv: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = run_validate(build_parser().parse_args(["validate", *argv]), out)
    return code, out.getvalue().splitlines()


def test_the_dump_loads_in_one_go_and_validate_is_short() -> None:
    assert _validate(str(DUMP)) == (0, [f"{DUMP}: ok: 6 Node, 40 Pod"])


def test_a_newer_clusters_dump_is_still_short(tmp_path: pathlib.Path) -> None:
    """The same dump as a 1.28 cluster prints it: 76 newer fields (40 spec.os, 36 bound pods' hostIPs), one line."""
    doc = yaml.safe_load(DUMP.read_text())
    for item in doc["items"]:
        if item["kind"] == "Pod" and "hostIP" in item["status"]:
            item["status"]["hostIPs"] = [{"ip": item["status"]["hostIP"]}]
        if item["kind"] == "Pod":
            item["spec"]["os"] = {"name": "linux"}
    path = tmp_path / "dump.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    code, lines = _validate(str(path))
    assert (code, lines) == (0, [
        f"{path}: 76 warnings: 76 × field not in Kubernetes v1.18 (spec.os, status.hostIPs); --verbose lists them",
        f"{path}: ok: 6 Node, 40 Pod"])
    assert len(_validate("--verbose", str(path))[1]) == 77


PENDING = {  # the 1.18 derivation: NodeResourcesFit runs before TaintToleration, so the master says
    # "Insufficient", not its taint; db-3's claim is not in the dump (podPassesBasicChecks)
    "ml/analytics": "0/6 nodes are available: 1 Insufficient memory, 6 Insufficient cpu.",
    "ml/trainer-5b7d6c9f8-vplrw": "0/6 nodes are available: 6 Insufficient nvidia.com/gpu.",
    "shop/db-3": 'persistentvolumeclaim "data-db-3" not found.',
    "shop/search-6d9c7b5f4-w6kfp": "0/6 nodes are available: 6 node(s) didn't match node selector.",
}


def test_explain_answers_for_every_pending_pod_of_the_dump() -> None:
    sim = open_simulation(str(DUMP), None, None, trace=True)
    sim.run_until_idle()
    pending = sorted(f"{p.namespace}/{p.name}" for p in sim.state().pods if p.phase == "Pending")
    assert pending == sorted(PENDING)
    answers = {name: sentence(explain_pod(sim.trace[: sim.cursor], sim.state(), name)) for name in pending}
    assert answers == {name: f"Pod {name} is Pending: {why}" for name, why in PENDING.items()}
