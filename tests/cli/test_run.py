"""``python -m kubesched run``: the JSON schema, placements, --no-trace, --until, text output, input errors."""

from __future__ import annotations

import json
import re

import pytest

from kubesched.api.load import LoadError, load_cluster
from tests.cli.clusters import (
    BAD_CLUSTER,
    TAINT_REASON,
    THREE_NODES,
    THREE_NODES_PLACEMENTS,
)
from tests.cli.conftest import SAMPLES

TOP_KEYS = {"pods", "cycles", "events", "actionErrors", "end_time", "trace_digest"}
POD_TYPES = {"namespace": (str,), "name": (str,), "node": (str, type(None)), "nominatedNode": (str, type(None)),
             "phase": (str,), "boundAt": (float, type(None)), "attempts": (int,)}
CYCLE_TYPES = {"cycle": (int,), "time": (float,), "pod": (str,), "profile": (str,), "result": (str,),
               "node": (str, type(None)), "evaluatedNodes": (int,), "feasibleNodes": (int,), "message": (str,),
               "replica": (str,), "identity": (str,)}
EVENT_TYPES = {"time": (float, type(None)), "type": (str,), "reason": (str,), "object": (str,), "message": (str,),
               "count": (int,)}


def run_json(cli, *argv):
    code, out, err = cli("run", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def check_rows(rows, types):
    for row in rows:
        assert set(row) == set(types)
        for key, allowed in types.items():
            value = row[key]
            assert isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed), (key, value)


def test_json_schema_on_the_default_sample(cli):
    data = run_json(cli, SAMPLES / "default.yaml")
    assert set(data) == TOP_KEYS
    check_rows(data["pods"], POD_TYPES)
    check_rows(data["cycles"], CYCLE_TYPES)
    check_rows(data["events"], EVENT_TYPES)
    assert isinstance(data["end_time"], float)
    assert re.fullmatch(r"[0-9a-f]{64}", data["trace_digest"])
    pods_in_file = sorted((p.metadata.namespace, p.metadata.name)
                          for p in load_cluster(SAMPLES / "default.yaml").objects if type(p).__name__ == "Pod")
    assert [(p["namespace"], p["name"]) for p in data["pods"]] == pods_in_file
    assert {p["phase"] for p in data["pods"]} <= {"Pending", "Bound", "Deleted"}
    assert {c["result"] for c in data["cycles"]} <= {"scheduled", "unschedulable", "error"}
    too_big = next(p for p in data["pods"] if p["name"] == "too-big")
    assert (too_big["phase"], too_big["node"], too_big["boundAt"]) == ("Pending", None, None)
    assert too_big["attempts"] >= 1
    for pod in data["pods"]:
        assert (pod["phase"] == "Bound") == (pod["node"] is not None)
    # every cycle's pod is in pods; each scheduled cycle names a node, each failed one a message
    names = {f"{p['namespace']}/{p['name']}" for p in data["pods"]}
    for c in data["cycles"]:
        assert c["pod"] in names
        assert (c["result"] == "scheduled") == (c["node"] is not None and c["message"] == "")
        assert c["feasibleNodes"] <= c["evaluatedNodes"] <= 6


def test_known_placements_of_an_inline_cluster(cli, cluster_file):
    data = run_json(cli, cluster_file(THREE_NODES))
    assert {f"{p['namespace']}/{p['name']}": p["node"] or "" for p in data["pods"]} == THREE_NODES_PLACEMENTS
    by_name = {p["name"]: p for p in data["pods"]}
    assert by_name["hungry"]["phase"] == by_name["picky"]["phase"] == "Pending"
    assert by_name["small"]["phase"] == "Bound" and isinstance(by_name["small"]["boundAt"], float)
    assert by_name["small"]["attempts"] == 1
    hungry = [c for c in data["cycles"] if c["pod"] == "default/hungry"]
    assert hungry and {(c["result"], c["message"]) for c in hungry} == {
        ("unschedulable", f"0/3 nodes are available: 1 {TAINT_REASON}, 2 Insufficient cpu.")}
    assert by_name["hungry"]["attempts"] == len(hungry)
    failed = [e for e in data["events"] if e["object"] == "Pod default/hungry"]
    assert {(e["type"], e["reason"], e["message"]) for e in failed} == {
        ("Warning", "FailedScheduling", f"0/3 nodes are available: 1 {TAINT_REASON}, 2 Insufficient cpu.")}
    scheduled = [e for e in data["events"] if e["object"] == "Pod default/small"]
    assert [(e["reason"], e["message"], e["count"]) for e in scheduled] == [
        ("Scheduled", "Successfully assigned default/small to small-node", 1)]


@pytest.mark.parametrize("source", ["inline", "default.yaml", "preemption.yaml"])
def test_no_trace_gives_the_same_pods_and_events(cli, cluster_file, source):
    path = cluster_file(THREE_NODES) if source == "inline" else SAMPLES / source
    traced = run_json(cli, path)
    untraced = run_json(cli, path, "--no-trace")
    assert untraced["pods"] == traced["pods"]
    assert untraced["events"] == traced["events"]
    assert untraced["end_time"] == traced["end_time"]
    assert (untraced["cycles"], untraced["trace_digest"]) == ([], None)
    assert traced["cycles"]


def test_same_inputs_same_digest_and_seed_is_used(cli, cluster_file):
    path = cluster_file(THREE_NODES)
    assert run_json(cli, path)["trace_digest"] == run_json(cli, path)["trace_digest"]
    assert run_json(cli, path, "--seed", "7")["trace_digest"] == run_json(cli, path, "--seed", "7")["trace_digest"]


SCENARIO = THREE_NODES + """\
---
apiVersion: kubesched/v1alpha1
kind: Scenario
spec:
  actions:
  - at: 5
    create:
      apiVersion: v1
      kind: Pod
      metadata: {name: late, namespace: default}
      spec:
        containers:
        - {name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 100Mi}}}
"""


def test_until_seconds_stops_before_a_timed_action(cli, cluster_file):
    path = cluster_file(SCENARIO)
    early = run_json(cli, path, "--until", "2")
    assert early["end_time"] <= 2.0
    assert "late" not in {p["name"] for p in early["pods"]}
    done = run_json(cli, path)
    late = next(p for p in done["pods"] if p["name"] == "late")
    assert late["phase"] == "Bound" and late["boundAt"] >= 5.0


def test_text_prints_klog_lines_and_the_placement_table(cli, cluster_file):
    code, out, _ = cli("run", cluster_file(THREE_NODES))
    assert code == 0
    lines = out.splitlines()
    assert re.match(r'^I\d{4} \d\d:\d\d:\d\d\.\d{6} +1 scheduler\.go\] pod default/small is bound successfully '
                    r'on node "small-node", 3 nodes evaluated, 2 nodes were found feasible\.$',
                    next(line for line in lines if "default/small is bound" in line))
    table = lines[lines.index(next(line for line in lines if line.startswith("POD "))):]
    assert table[0].split() == ["POD", "NODE", "PHASE", "ATTEMPTS", "BOUND", "AT"]
    rows = {row.split()[0]: row.split() for row in table[1:]}
    assert set(rows) == set(THREE_NODES_PLACEMENTS)
    assert rows["default/hungry"][1:3] == ["-", "Pending"]
    assert rows["default/small"][1:4] == ["small-node", "Bound", "1"]
    assert rows["default/resident"][1] == "big-node"


def test_verbosity_gates_klog_lines(cli, cluster_file):
    path = cluster_file(THREE_NODES)
    _, v2, _ = cli("run", path)
    _, v0, _ = cli("run", path, "-v", "0")
    _, v5, _ = cli("run", path, "-v", "5")
    klog = re.compile(r"^[IWE]\d{4} ")
    n0, n2, n5 = (sum(1 for line in out.splitlines() if klog.match(line)) for out in (v0, v2, v5))
    assert n0 < n2 < n5
    assert "is bound successfully" not in v0           # a klog.V(2) line
    assert "Attempting to schedule pod: default/small" in v5 and "Attempting to schedule pod" not in v2


def test_no_trace_text_has_only_the_table(cli, cluster_file):
    code, out, _ = cli("run", cluster_file(THREE_NODES), "--no-trace")
    assert code == 0
    assert out.splitlines()[0].split()[:2] == ["POD", "NODE"]


def test_bad_cluster_prints_the_loader_problems_and_exits_1(cli, cluster_file):
    path = cluster_file(BAD_CLUSTER)
    with pytest.raises(LoadError) as raised:
        load_cluster(path)
    code, out, err = cli("run", path)
    assert (code, out) == (1, "")
    assert err.splitlines() == [str(p) for p in raised.value.problems]
    assert "Traceback" not in err


def test_missing_file_exits_1(cli, tmp_path):
    code, out, err = cli("run", tmp_path / "nope.yaml")
    assert (code, out, err) == (1, "", f"{tmp_path / 'nope.yaml'}: no such file\n")


def test_bad_config_prints_its_problems_and_exits_1(cli, cluster_file):
    config = cluster_file("apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
                          "percentageOfNodesToScore: 150\n", name="config.yaml")
    code, out, err = cli("run", cluster_file(THREE_NODES), "--config", config)
    assert (code, out) == (1, "")
    assert err and "percentageOfNodesToScore" in err and "Traceback" not in err
    assert all(line.startswith((str(config), "config.yaml")) for line in err.splitlines())


@pytest.mark.parametrize("until", ["soon", "-1"])
def test_bad_until_is_a_usage_error(cli, cluster_file, until):
    with pytest.raises(SystemExit) as raised:
        cli("run", cluster_file(THREE_NODES), "--until", until)
    assert raised.value.code == 2
