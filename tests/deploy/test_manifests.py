"""deploy/kubernetes/: strict schema validation (Kubernetes v1.30 schemas) and the links between the objects.

Each document must pass the vendored strict schema (unknown fields and wrong types fail), and the
objects must fit together: selectors match the pod labels, ports and probes name the container
port the image exposes, the pod runs as the image's user with a read-only root filesystem.
"""

import copy
import importlib.util

import pytest

from kubesched.api.quantity import Quantity
from tests.deploy import dockerfile as df
from tests.deploy import manifests as mf

MANIFESTS = mf.load()
KINDS = {m.kind: m.data for m in MANIFESTS}
DEPLOYMENT = KINDS["Deployment"]
POD = DEPLOYMENT["spec"]["template"]["spec"]
(CONTAINER,) = POD["containers"]
POD_LABELS = DEPLOYMENT["spec"]["template"]["metadata"]["labels"]
DOCKER = df.instructions(df.DOCKERFILE.read_text(encoding="utf-8"))


def _generator():
    spec = importlib.util.spec_from_file_location("deploy_schemas_generate", mf.DEPLOY / "schemas" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manifests_hold_the_expected_kinds_once_each():
    assert sorted(m.kind for m in MANIFESTS) == ["Deployment", "Ingress", "Namespace", "NetworkPolicy",
                                                "PodDisruptionBudget", "Service"]


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda m: f"{m.file}:{m.kind}")
def test_every_document_passes_the_strict_schema(manifest):
    problems = [f"{manifest.where(path)}: {path}: {message}" for path, message in mf.schema_problems(manifest.data)]
    assert problems == []


def _set(data: dict, path: str, value) -> dict:
    out = copy.deepcopy(data)
    *parents, last = path.split(".")
    node = out
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = value
    return out


@pytest.mark.parametrize("kind, path, value, expected", [
    ("Deployment", "spec.template.spec.containers.0.readynessProbe", {"periodSeconds": 10},
     [("spec.template.spec.containers[0]", "Additional properties are not allowed ('readynessProbe' was unexpected)")]),
    ("Deployment", "spec.replicas", "3", [("spec.replicas", "'3' is not of type 'integer', 'null'")]),
    ("Deployment", "spec.template.spec.securityContext.runAsNonroot", True,
     [("spec.template.spec.securityContext", "Additional properties are not allowed ('runAsNonroot' was unexpected)")]),
    ("Service", "spec.sessionAfinity", "ClientIP",
     [("spec", "Additional properties are not allowed ('sessionAfinity' was unexpected)")]),
    ("PodDisruptionBudget", "spec.maxUnavailable", [1],
     [("spec.maxUnavailable", "[1] is not valid under any of the given schemas")]),
    ("NetworkPolicy", "spec.egres", [], [("spec", "Additional properties are not allowed ('egres' was unexpected)")]),
    ("Ingress", "spec.rules.0.http.paths.0.backend", {"serviceName": "kubesched", "servicePort": 80},
     [("spec.rules[0].http.paths[0].backend",
       "Additional properties are not allowed ('serviceName', 'servicePort' were unexpected)")]),
    ("Namespace", "metadata.lables", {}, [("metadata", "Additional properties are not allowed ('lables' was unexpected)")]),
    ("Namespace", "apiVersion", "v2", [("", "no schema for v2 Namespace in kubernetes-v1.30.0-strict.json "
                                            "(regenerate: python deploy/schemas/generate.py)")]),
])
def test_a_wrong_field_is_refused(kind, path, value, expected):
    assert mf.schema_problems(_set(KINDS[kind], path, value)) == expected


def test_an_unquoted_number_annotation_is_refused():
    data = copy.deepcopy(KINDS["Ingress"])
    data["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"] = 3600
    assert mf.schema_problems(data) == [("metadata.annotations.nginx.ingress.kubernetes.io/proxy-read-timeout",
                                         "3600 is not of type 'string', 'null'")]


def test_a_policy_v1beta1_budget_is_not_what_we_target():
    assert mf.schema_problems({**KINDS["PodDisruptionBudget"], "apiVersion": "policy/v1beta1"})[0][1].startswith(
        "no schema for policy/v1beta1 PodDisruptionBudget")


def test_the_vendored_schema_covers_exactly_the_kinds_in_use_and_is_closed():
    bundle = mf.bundle()
    generator = _generator()
    assert sorted(bundle["x-kinds"]) == sorted(f"{api} {kind}" for api, kind in generator.manifest_kinds())
    defs = bundle["$defs"]
    assert generator.reachable(defs, list(bundle["x-kinds"].values())) == sorted(defs)  # every $ref resolves, none unused
    open_objects = [name for name, schema in defs.items()
                    if "properties" in schema and schema.get("additionalProperties") is not False]
    assert open_objects == []


def test_namespace_first_and_everything_in_it():
    namespace = KINDS["Namespace"]["metadata"]["name"]
    assert MANIFESTS[0].kind == "Namespace"  # kubectl apply -f deploy/kubernetes/ goes in file order
    assert {m.data["metadata"].get("namespace") for m in MANIFESTS if m.kind != "Namespace"} == {namespace}
    assert KINDS["Namespace"]["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


def _selects_the_pods(match_labels: dict) -> bool:
    return bool(match_labels) and all(POD_LABELS.get(k) == v for k, v in match_labels.items())


@pytest.mark.parametrize("where, selector", [
    ("Deployment spec.selector", DEPLOYMENT["spec"]["selector"]["matchLabels"]),
    ("Service spec.selector", KINDS["Service"]["spec"]["selector"]),
    ("PodDisruptionBudget spec.selector", KINDS["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"]),
    ("NetworkPolicy spec.podSelector", KINDS["NetworkPolicy"]["spec"]["podSelector"]["matchLabels"]),
    ("Deployment topologySpreadConstraints", POD["topologySpreadConstraints"][0]["labelSelector"]["matchLabels"]),
])
def test_selectors_pick_the_dashboard_pods(where, selector):
    assert _selects_the_pods(selector), where


def test_replicas_and_disruption_budget():
    assert DEPLOYMENT["spec"]["replicas"] == 3
    assert KINDS["PodDisruptionBudget"]["spec"] == {"maxUnavailable": 1, "selector": DEPLOYMENT["spec"]["selector"]}
    assert DEPLOYMENT["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": 1, "maxUnavailable": 0}


def test_the_container_port_is_the_one_the_image_exposes_and_the_policy_admits():
    (port,) = CONTAINER["ports"]
    exposed = next(i.args for i in DOCKER if i.keyword == "EXPOSE")
    assert (port["name"], port["containerPort"], str(port["containerPort"])) == ("http", 8501, exposed)
    policy = KINDS["NetworkPolicy"]["spec"]
    assert policy["ingress"] == [{"ports": [{"port": 8501, "protocol": "TCP"}]}]
    assert (policy["policyTypes"], policy["egress"]) == (["Ingress", "Egress"], [])  # no traffic out


@pytest.mark.parametrize("probe", ["startupProbe", "readinessProbe", "livenessProbe"])
def test_probes_ask_stcore_health(probe):
    assert CONTAINER[probe]["httpGet"] == {"path": "/_stcore/health", "port": "http"}


def test_no_command_override_so_the_image_cmd_runs():
    assert "command" not in CONTAINER and "args" not in CONTAINER


def test_service_is_sticky_by_client_ip_to_the_http_port():
    spec = KINDS["Service"]["spec"]
    assert spec["sessionAffinity"] == "ClientIP"
    assert [p["targetPort"] for p in spec["ports"]] == ["http"]


def test_ingress_routes_to_the_service_with_cookie_affinity_and_long_websocket_timeouts():
    ingress = KINDS["Ingress"]
    (path,) = ingress["spec"]["rules"][0]["http"]["paths"]
    service = KINDS["Service"]
    assert path["backend"]["service"] == {"name": service["metadata"]["name"], "port": {"name": "http"}}
    assert path["backend"]["service"]["port"]["name"] in [p["name"] for p in service["spec"]["ports"]]
    notes = ingress["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/affinity-mode"] == "persistent"
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert int(notes["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600


def test_pod_security():
    uid, _, gid = next(i.args for i in DOCKER if i.keyword == "USER").partition(":")
    assert POD["securityContext"] == {"runAsNonRoot": True, "runAsUser": int(uid), "runAsGroup": int(gid),
                                      "seccompProfile": {"type": "RuntimeDefault"}}
    assert CONTAINER["securityContext"] == {"allowPrivilegeEscalation": False, "privileged": False,
                                            "readOnlyRootFilesystem": True, "capabilities": {"drop": ["ALL"]}}
    assert POD["automountServiceAccountToken"] is False


def test_the_only_writable_place_is_an_empty_dir_on_tmp():
    volumes = {v["name"]: v for v in POD["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in CONTAINER["volumeMounts"]}
    assert mounts == {"/tmp": "tmp"} and "emptyDir" in volumes["tmp"]
    assert set(mounts.values()) == set(volumes)


@pytest.mark.parametrize("resource", ["cpu", "memory"])
def test_requests_fit_in_limits(resource):
    resources = CONTAINER["resources"]
    request, limit = (Quantity.parse(resources[k][resource]) for k in ("requests", "limits"))
    assert 0 < request.milli_value() <= limit.milli_value()
