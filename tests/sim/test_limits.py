"""Inputs larger than a server takes are refused before they are built, with one clear line
(issue 15 "YAML bombs, 50 MB files, 10,000 documents, 1,000-level nesting"; issue 17 item 3).
Times and peak memory of each refusal: benchmarks/fuzz_inputs.py."""

from __future__ import annotations

import pytest

from kubesched.api.load import LoadError
from kubesched.api.yaml_source import MAX_DEPTH, MAX_DOCUMENTS, MAX_NODES, check_limits
from kubesched.sim import Simulation
from kubesched.sim.limits import CLI, DASHBOARD
from tests.sim.clusters import node, pod

SERVER = "this cluster is larger than this server allows"
RUN = "this cluster is larger than kubesched run allows"
DEPLOYMENT = """---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web{i}, namespace: default}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec: {{containers: [{{name: c, image: nginx}}]}}
"""
LAUGHS = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]) + "\n"


def refusal(text: str, **options) -> str:
    with pytest.raises(LoadError) as info:
        Simulation.from_text(text, **options)
    (problem,) = info.value.problems
    return str(problem)


def deployments(count: int, replicas: int) -> str:
    return "".join(DEPLOYMENT.format(i=i, replicas=replicas) for i in range(count))


BOMBS = {
    "billion-laughs": (LAUGHS, "<string>:1: document 0: too many alias expansions (more than 100000 nodes): "
                               "refusing a possible alias bomb"),
    "10,000-documents": ("---\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n" * 10_000, None),
    "1,000-levels": ("".join("  " * i + "a:\n" for i in range(1000)) + "  " * 1000 + "b\n",
                     f"<string>:{MAX_DEPTH + 1}: document 0: input is nested more than {MAX_DEPTH} levels deep: "
                     "refused before reading"),
    "1,000-flow-levels": ("a: " + "[" * 1000 + "]" * 1000 + "\n",
                          "<string>:1: document 0: YAML syntax error (column 1003): while increasing flow level, "
                          "exceeded maximum nesting depth"),
}


@pytest.mark.parametrize("name", BOMBS)
def test_bombs_are_refused_everywhere(name):
    text, message = BOMBS[name]
    for limits in (None, DASHBOARD):
        got = refusal(text, limits=limits)
        if message is not None:
            assert got == message, limits
    if name == "10,000-documents":
        assert refusal(text) == (f"<string>:{4 * MAX_DOCUMENTS + 1}: document {MAX_DOCUMENTS}: input has more "
                                 f"than {MAX_DOCUMENTS:,} documents: refused before reading")
        assert refusal(text, limits=DASHBOARD) == (f"<string>:16001: document 4000: {SERVER}: more than 4,000 documents")


def test_too_many_values_is_refused_at_the_line_that_crosses():
    text = "- 1\n" * (MAX_NODES + 10)
    assert refusal(text) == (f"<string>:{MAX_NODES}: document 0: input has more than {MAX_NODES:,} YAML values: "
                             "refused before reading")


@pytest.mark.parametrize("text, limits, message", [
    ("# x\n" * (5 << 18) + "a: 1\n", None, "<string>:1: document 0: input is 5242885 bytes, larger than the "
                                           "5242880 bytes (5 MiB) limit"),
    ("# x\n" * (1 << 18) + "a: 1\n", DASHBOARD, f"<string>:1: document 0: {SERVER}: 1,048,581 bytes "
                                                "(at most 1,048,576 bytes, 1 MiB)"),
    ("[" + "0," * 150_001 + "]\n", DASHBOARD, f"<string>:1: document 0: {SERVER}: more than 150,000 YAML values"),
    (deployments(1, 1001), DASHBOARD, f"<string>:1: document 0: {SERVER}: 0 nodes × 1,001 pods, counting replicas "
                                      "(at most 2,500 nodes, 1,000 pods and 250,000 nodes × pods)"),
    (deployments(100, 5000), DASHBOARD, f"<string>:1: document 0: {SERVER}: 0 nodes × 500,000 pods, counting "
                                        "replicas (at most 2,500 nodes, 1,000 pods and 250,000 nodes × pods)"),
    (deployments(3, 5000), CLI, f"<string>:1: document 0: {RUN}: 0 nodes × 15,000 pods, counting replicas "
                                "(at most 5,000 nodes, 10,000 pods and 5,000,000 nodes × pods)"),
    ("".join(node(f"n{i}") for i in range(251)) + "".join(pod(f"p{j}") for j in range(1000)), DASHBOARD,
     f"<string>:1: document 0: {SERVER}: 251 nodes × 1,000 pods (at most 2,500 nodes, 1,000 pods and "
     "250,000 nodes × pods)"),
])
def test_server_limits(text, limits, message):
    assert refusal(text, limits=limits) == message


def test_a_cluster_at_the_dashboard_limits_loads():
    text = "".join(node(f"n{i}") for i in range(250)) + "".join(pod(f"p{j}") for j in range(1000))
    sim = Simulation.from_text(text, limits=DASHBOARD)
    assert len(sim.inputs.objects) == 1250


@pytest.mark.parametrize("text, limits, crossed", [
    ("a: 1\n---\nb: 2\n---\nc: 3\n", {"max_documents": 2}, (4, "input has more than 2 documents")),
    ("a: [1, 2]\nb: {c: 3}\n", {"max_nodes": 5}, (2, "input has more than 5 YAML values")),
    ("a:\n  b:\n    c: [d]\n", {"max_depth": 3}, (3, "input is nested more than 3 levels deep")),
    ("a: b: c\n" + "d: 1\n" * 10, {"max_nodes": 3}, None),   # a syntax error first: left to the reader
    ("a: *nope\n", {"max_nodes": 3}, None),
])
def test_check_limits(text, limits, crossed):
    error = check_limits(text, **limits)
    if crossed is None:
        assert error is None
    else:
        assert (error.line, error.message) == (crossed[0], crossed[1] + ": refused before reading")


@pytest.mark.parametrize("kind", ["[Deployment]", "{a: 1}"])
def test_a_malformed_kind_is_a_field_error_under_the_dashboard_limits(kind):
    """Found by benchmarks/fuzz_inputs.py: counting a document whose kind is a list or a map must
    not fail before the loader names the field."""
    text = f"apiVersion: apps/v1\nkind: {kind}\nmetadata: {{name: web}}\n"
    got = refusal(text, limits=DASHBOARD)
    assert got.startswith("<string>:2: document 0: kind: "), got
    assert "internal error" not in got
