"""Issue 13 items 5, 7, 8 through ``python -m kubesched run``: refused Scenario actions, ``boundAt`` of a
pod bound in the input file, and every replica's cycles after a leader change (exact times and nodes)."""

from __future__ import annotations

import json

from tests.sim.clusters import node, pod, scenario, takeover_time

CREATE_LATE = ("{at: %s, create: {apiVersion: v1, kind: Pod, metadata: {name: late, namespace: default}, "
               "spec: {containers: [{name: c, image: nginx}]}}}")


def run_json(cli, path, *argv):
    code, out, err = cli("run", path, "--format", "json", *argv)
    return code, json.loads(out), err


# -- item 5: refused actions ----------------------------------------------------------------------
REFUSING = node("n1") + pod("web") + scenario(
    "{at: 2, delete: {kind: Pod, name: ghost}}",
    "{at: 3, create: {apiVersion: v1, kind: Pod, metadata: {name: web}, spec: {containers: [{name: c, image: nginx}]}}}",
    CREATE_LATE % 4)
REFUSED = [
    {"index": 0, "time": 2.0, "action": "delete Pod default/ghost", "error": 'pods "ghost" not found'},
    {"index": 1, "time": 3.0, "action": "create Pod default/web", "error": 'pods "web" already exists'},
]
REFUSED_LINES = ['refused: spec.actions[0] at t=2s: delete Pod default/ghost: pods "ghost" not found',
                 'refused: spec.actions[1] at t=3s: create Pod default/web: pods "web" already exists']


def test_refused_actions_are_printed_listed_in_json_and_the_run_goes_on(cli, cluster_file):
    code, data, err = run_json(cli, cluster_file(REFUSING))
    assert code == 0
    assert data["actionErrors"] == REFUSED
    assert err.splitlines() == REFUSED_LINES
    assert [(c["cycle"], c["time"], c["pod"], c["node"]) for c in data["cycles"]] == [
        (1, 0.0, "default/web", "n1"), (2, 4.0, "default/late", "n1")]


def test_strict_exits_1_on_a_refused_action_in_both_formats(cli, cluster_file):
    path = cluster_file(REFUSING)
    code, data, err = run_json(cli, path, "--strict")
    assert (code, data["actionErrors"], err.splitlines()) == (1, REFUSED, REFUSED_LINES)
    code, out, err = cli("run", path, "--strict")
    assert code == 1 and err.splitlines() == REFUSED_LINES and "default/late  n1" in out


def test_strict_exits_0_when_every_action_was_applied(cli, cluster_file):
    code, data, err = run_json(cli, cluster_file(node("n1") + scenario(CREATE_LATE % 4)), "--strict")
    assert (code, data["actionErrors"], err) == (0, [], "")


# -- item 7: boundAt of a pod bound in the input ---------------------------------------------------
def test_a_pod_bound_in_the_input_file_is_bound_at_0_even_after_later_updates(cli, cluster_file):
    relabel = ("{at: 5, update: {apiVersion: v1, kind: Pod, metadata: {name: resident, namespace: default, "
               "labels: {tier: db}}, spec: {nodeName: n1, containers: [{name: c, image: nginx, "
               "resources: {requests: {cpu: 500m}}}]}}}")
    text = node("n1") + pod("resident", node_name="n1") + scenario(CREATE_LATE % 3, relabel)
    code, data, err = run_json(cli, cluster_file(text))
    assert (code, data["actionErrors"]) == (0, [])
    assert [(p["name"], p["node"], p["phase"], p["boundAt"]) for p in data["pods"]] == [
        ("late", "n1", "Bound", 3.0), ("resident", "n1", "Bound", 0.0)]
    code, out, _ = cli("run", cluster_file(text))
    assert [line.split() for line in out.splitlines()[-2:]] == [
        ["default/late", "n1", "Bound", "1", "3s"], ["default/resident", "n1", "Bound", "0", "0s"]]


# -- item 8: every replica's cycles ----------------------------------------------------------------
def test_cycles_of_the_old_and_the_new_leader_are_both_listed_with_the_replica(cli, cluster_file):
    text = node("n1") + pod("early") + scenario("{at: 5, killLeader: true}", CREATE_LATE % 6, replicas=2)
    code, data, _ = run_json(cli, cluster_file(text))
    assert code == 0
    rows = [(c["cycle"], c["time"], c["pod"], c["node"], c["replica"]) for c in data["cycles"]]
    assert rows == [(1, 0.0, "default/early", "n1", "scheduler-a"),
                    (1, round(takeover_time("scheduler-b", 4.0), 6), "default/late", "n1", "scheduler-b")]
    identities = [c["identity"] for c in data["cycles"]]
    assert [i.split("_")[0] for i in identities] == ["scheduler-a", "scheduler-b"]
    assert len(set(identities)) == 2 and all(len(i.split("_")[1]) == 36 for i in identities)
