"""``python -m kubesched explain``: output, --node, exit codes."""

from __future__ import annotations

import pytest

from kubesched.cli.explain import pod_key
from tests.cli.clusters import AFFINITY_REASON, BAD_CLUSTER, TAINT_REASON, THREE_NODES


@pytest.mark.parametrize("text, key", [("default/web", "default/web"), ("web", "default/web"),
                                       ("kube-system/dns", "kube-system/dns")])
def test_pod_key(text, key):
    assert pod_key(text) == key


CASES = [
    (("--pod", "default/hungry"),
     f"Pod default/hungry is Pending: 0/3 nodes are available: 1 {TAINT_REASON}, 2 Insufficient cpu."),
    (("--pod", "default/picky"), f"Pod default/picky is Pending: 0/3 nodes are available: 3 {AFFINITY_REASON}."),
    (("--pod", "default/hungry", "--node", "small-node"),
     "Not on small-node: Filter plugin NodeResourcesFit rejected it: Insufficient cpu."),
    (("--pod", "default/hungry", "--node", "gpu-node"),
     f"Not on gpu-node: Filter plugin TaintToleration rejected it: {TAINT_REASON}."),
]


@pytest.mark.parametrize("argv, first_line", CASES)
def test_explain_prints_the_sentence_then_details(cli, cluster_file, argv, first_line):
    code, out, err = cli("explain", cluster_file(THREE_NODES), *argv)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == first_line
    assert "Filter (v1.18 stops at a node's first failing filter):" in lines


def test_explain_bound_pod(cli, cluster_file):
    code, out, _ = cli("explain", cluster_file(THREE_NODES), "--pod", "small")
    assert code == 0
    assert out.startswith("Pod default/small is bound to node small-node at ")
    assert "Pick: highest score " in out and "-> small-node." in out


def test_unknown_pod_exits_1(cli, cluster_file):
    code, out, err = cli("explain", cluster_file(THREE_NODES), "--pod", "default/ghost")
    assert (code, out, err) == (1, "", "Pod default/ghost is not in the cluster.\n")


def test_bad_cluster_exits_1_without_traceback(cli, cluster_file):
    code, out, err = cli("explain", cluster_file(BAD_CLUSTER), "--pod", "default/broken")
    assert (code, out) == (1, "")
    assert err and "Traceback" not in err


@pytest.mark.parametrize("pod", ["a/b/c", "/x", "ns/"])
def test_bad_pod_argument_is_a_usage_error(cli, cluster_file, pod):
    with pytest.raises(SystemExit) as raised:
        cli("explain", cluster_file(THREE_NODES), "--pod", pod)
    assert raised.value.code == 2
