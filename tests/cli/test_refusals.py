"""``run`` says no with exit 1 and one line per problem, never a traceback and never exit 0 with a
silently idle scheduler (issue 17 items 2 and 4)."""

from __future__ import annotations

import json

import pytest

from kubesched.extender.sample import SampleExtender, run_sample_extender

CLUSTER = """apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: c, image: nginx}]}
"""
CONFIG = "---\napiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
PROVIDER = 'couldn\'t create scheduler using provider "DefaultProvider": '
LOOPBACK_ONLY = "only loopback extenders are enabled (set KUBESCHED_EXTENDER_ALLOW on the server to allow more)"


@pytest.mark.parametrize("config, message", [
    ("profiles:\n- plugins:\n    filter:\n      enabled: [{name: NoSuchPlugin}]\n",
     PROVIDER + "initializing profiles: creating profile for scheduler name default-scheduler: "
                'FilterPlugin "NoSuchPlugin" does not exist'),
    ("extenders:\n- {urlPrefix: 'http://10.0.0.1/x', filterVerb: filter}\n",
     PROVIDER + f'extenders[0].urlPrefix: "http://10.0.0.1/x" is not allowed: {LOOPBACK_ONLY}'),
    ("extenders:\n- {urlPrefix: 'http://[::ffff:127.0.0.1]:1/x', filterVerb: filter}\n",
     PROVIDER + 'extenders[0].urlPrefix: "http://[::ffff:127.0.0.1]:1/x" is not allowed: an IPv4-mapped IPv6 '
                "address is not accepted (write 127.0.0.1 instead)"),
    ("extenders:\n- {urlPrefix: 'gopher://127.0.0.1:6379/_', filterVerb: filter}\n",
     PROVIDER + 'extenders[0].urlPrefix: "gopher://127.0.0.1:6379/_" is not allowed: '
                "the scheme must be http or https"),
], ids=["unknown-plugin", "off-loopback", "mapped-loopback", "gopher"])
@pytest.mark.parametrize("argv", [(), ("--format", "json"), ("--no-trace",)], ids=["text", "json", "no-trace"])
def test_a_scheduler_that_cannot_start_exits_1(cli, cluster_file, config, message, argv):
    code, out, err = cli("run", cluster_file(CLUSTER + CONFIG + config), *argv)
    assert (code, err) == (1, message + "\n")
    assert "Traceback" not in out + err


@pytest.mark.parametrize("scenario, message", [
    ("{at: 1" + "0" * 400 + ", cordon: n1}",
     ":15: Scenario: spec.actions[0].at: must be a number of seconds from 0 to 10000000, not a 401-digit integer"),
    ("{at: 1.0e+300, cordon: n1}", ":15: Scenario: spec.actions[0].at: must be a number of seconds from 0 to "
                                   "10000000, not 1e+300"),
    ("{at: 5, at: 50, cordon: n1}", ':15: Scenario: spec.actions[0].at: duplicate key "at" (first at line 15)'),
    ("{at: 400, cordon: n1}", ":15: Scenario: spec.actions[0].at: 400s is more than the horizon (300s) after t=0; "
                              "a run stops 300s after its last change, so write at most 300"),
])
def test_scenario_errors_are_one_line_and_exit_1(cli, cluster_file, scenario, message):
    path = cluster_file(CLUSTER + "---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  actions:\n"
                        f"  - {scenario}\n")
    code, out, err = cli("run", path)
    assert (code, out, err) == (1, "", f"{path}{message}\n")


def test_a_non_ascii_extender_path_is_sent_as_go_sends_it(cli, cluster_file):
    """Go's url.Parse keeps the path and RequestURI percent-encodes it: the call works."""
    server = SampleExtender()
    with run_sample_extender(extender=server) as url:
        config = f"extenders:\n- {{urlPrefix: '{url}/调度', filterVerb: filter}}\n"
        code, out, err = cli("run", cluster_file(CLUSTER + CONFIG + config), "--format", "json")
    assert (code, err) == (0, "")
    assert [(p["name"], p["node"]) for p in json.loads(out)["pods"]] == [("web", "n1")]
    assert [r.path for r in server.requests] == ["/%E8%B0%83%E5%BA%A6/filter"]
