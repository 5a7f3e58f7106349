"""cmd/app pieces on their own: NewOptions defaults, Validate, Config(), Complete(), main's exit."""

from __future__ import annotations

import dataclasses
import io

import pytest

from kubesched.cluster import APIServer
from kubesched.cmd.app.options import (
    INSECURE_SCHEDULER_PORT,
    KUBE_SCHEDULER_PORT,
    new_options,
)
from kubesched.cmd.app.server import ProcessEnv, describe_counts, main, with_plugin
from kubesched.cli.kube_scheduler import main as kube_scheduler_main
from kubesched.sim.simulation import Simulation
from kubesched.trace import Kind
from kubesched.util.loop import EventLoop
from tests.sim.clusters import SMALL

CONFIG_HEAD = "apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
V1ALPHA2 = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration"}


def test_new_options_defaults():
    opts = new_options()
    cfg = opts.component_config
    assert (opts.insecure_bind_address, opts.insecure_bind_port, opts.secure_bind_port) == (
        "0.0.0.0", INSECURE_SCHEDULER_PORT, KUBE_SCHEDULER_PORT) == ("0.0.0.0", 10251, 10259)
    assert (cfg.healthz_bind_address, cfg.metrics_bind_address, cfg.bind_timeout_seconds) == (
        "0.0.0.0:10251", "0.0.0.0:10251", 600)
    le = cfg.leader_election
    assert (le.leader_elect, le.resource_lock, le.resource_namespace, le.resource_name) == (
        True, "endpointsleases", "kube-system", "kube-scheduler")
    assert opts.config_file is None and opts.validate() == []


@pytest.mark.parametrize("field, value, message", [
    ("insecure_bind_port", 70000, ("--port 70000 must be between 0 and 65535, inclusive. 0 for turning off "
                                  "insecure (HTTP) port.")),
    ("secure_bind_port", -1, ("--secure-port -1 must be between 0 and 65535, inclusive. 0 for turning off "
                             "secure port")),
])
def test_validate(field, value, message):
    assert dataclasses.replace(new_options(), **{field: value}).validate() == [message]


@pytest.mark.parametrize("config_file, healthz, metrics, identity_prefix", [
    (None, ("healthz", "0.0.0.0:10251"), None, "host-x_"),
    ({**V1ALPHA2, "healthzBindAddress": ":10300"}, ("healthz", "0.0.0.0:10300"), ("metrics", "0.0.0.0:10251"),
     "host-x_"),
    ({**V1ALPHA2, "leaderElection": {"leaderElect": False}}, ("healthz", "0.0.0.0:10251"), None, ""),
])
def test_config_and_complete(config_file, healthz, metrics, identity_prefix):
    loop = EventLoop()
    api = APIServer(loop)
    opts = dataclasses.replace(new_options(), config_file=config_file)
    cc = opts.config(api, loop, hostname="host-x", identity_seed="1").complete()
    assert (cc.insecure_serving.name, cc.insecure_serving.address) == healthz
    got_metrics = cc.insecure_metrics_serving
    assert (None if got_metrics is None else (got_metrics.name, got_metrics.address)) == metrics
    assert cc.secure_serving.port == 10259
    assert cc.identity.startswith(identity_prefix) and bool(cc.identity) == bool(identity_prefix)
    assert (cc.leader_election is not None) == bool(identity_prefix)
    if cc.leader_election is not None:
        le = cc.leader_election
        assert (le.lease_duration, le.renew_deadline, le.retry_period, le.name) == (15.0, 10.0, 2.0,
                                                                                     "kube-scheduler")
        assert le.lock.describe() == "kube-system/kube-scheduler"


def test_bad_config_exits_1_like_run_does():
    loop = EventLoop()
    steps, exits = [], []
    env = ProcessEnv(hostname="h", loop=loop, client=APIServer(loop),
                     step=lambda **kw: steps.append(kw["step"]), exit=lambda code, msg: exits.append((code, msg)))
    main(env, {**V1ALPHA2, "percentageOfNodesToScore": 120})
    assert steps == ["main", "NewSchedulerCommand", "NewOptions", "runCommand"]
    ((code, message),) = exits
    assert code == 1 and "percentageOfNodesToScore" in message
    assert env.exited == (1, message) and env.sched is None


@pytest.mark.parametrize("lock, message", [
    ("bogus", "couldn't create resource lock: Invalid lock-type bogus"),
    ("Leases", "couldn't create resource lock: Invalid lock-type Leases"),   # lock types are case-sensitive
    ("<b>x</b>", "couldn't create resource lock: Invalid lock-type <b>x</b>"),
])
def test_unknown_resource_lock_exits_1(lock, message):
    """makeLeaderElectionConfig: resourcelock.New refuses the type; Config() returns the error and
    the command exits 1 after runCommand (validation does not check the type in v1.18)."""
    loop = EventLoop()
    steps, exits = [], []
    env = ProcessEnv(hostname="h", loop=loop, client=APIServer(loop),
                     step=lambda **kw: steps.append(kw["step"]), exit=lambda code, msg: exits.append((code, msg)))
    main(env, {**V1ALPHA2, "leaderElection": {"resourceLock": lock}})
    assert steps == ["main", "NewSchedulerCommand", "NewOptions", "runCommand"]
    assert exits == [(1, message)] and env.sched is None


def test_unknown_resource_lock_is_ignored_without_leader_election():
    loop = EventLoop()
    opts = dataclasses.replace(new_options(), config_file={
        **V1ALPHA2, "leaderElection": {"leaderElect": False, "resourceLock": "bogus"}})
    assert opts.config(APIServer(loop), loop, hostname="h").leader_election is None


@pytest.mark.parametrize("election, message", [
    ("{leaseDuration: 10s, renewDeadline: 10s}",     # validation allows equal; NewLeaderElector does not
     "couldn't create leader elector: leaseDuration must be greater than renewDeadline"),
    ("{leaseDuration: 15s, renewDeadline: 5s, retryPeriod: 5s}",   # 5s > 1.2 × 5s fails
     "couldn't create leader elector: renewDeadline must be greater than retryPeriod*JitterFactor"),
])
def test_leader_elector_refusal_exits_1_after_cache_sync(election, message):
    text = SMALL + f"---\n{CONFIG_HEAD}leaderElection: {election}\n"
    sim = Simulation.from_text(text, seed=0)
    sim.run_until_idle()
    errors = [r.data.message for r in sim.trace if r.kind is Kind.LOG and r.data.severity == "E"]
    assert errors == [message]
    steps = [r.data.step for r in sim.trace if r.kind is Kind.STARTUP_STEP]
    assert steps[-1] == "WaitForCacheSync" and not sim.trace.filter(Kind.BIND)


@pytest.mark.parametrize("counts, text", [
    ([("Node", 6), ("Pod", 15), ("Service", 0)], "6 nodes, 15 pods"),
    ([("Node", 1), ("Pod", 0), ("PersistentVolumeClaim", 2), ("StorageClass", 1)],
     "1 node, 0 pods, 2 persistentvolumeclaims, 1 storageclass"),
    ([("Node", 0), ("Pod", 1), ("StorageClass", 3)], "0 nodes, 1 pod, 3 storageclasses"),
])
def test_describe_counts(counts, text):
    assert describe_counts(counts) == text


def test_kube_scheduler_main_prints_startup_and_placements(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(SMALL)
    out = io.StringIO()
    assert kube_scheduler_main([str(path)], out=out) == 0
    text = out.getvalue()
    assert "scheduler-a  WaitForCacheSync" in text and "informers synced 2 nodes, 3 pods" in text
    assert "stopped: idle" in text and "default/db" in text


def test_kube_scheduler_main_exits_1_on_bad_input(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n")
    err = io.StringIO()
    assert kube_scheduler_main([str(path)], out=io.StringIO(), err=err) == 1
    assert "bad.yaml" in err.getvalue()


@pytest.mark.parametrize("names, exit_message, registered", [
    (("Sample",), None, "Sample"),
    (("NodeName",), "a plugin named NodeName already exists", None),
    (("Sample", "Sample"), "a plugin named Sample already exists", None),
])
def test_out_of_tree_plugins_reach_scheduler_new(names, exit_message, registered):
    loop = EventLoop()
    records, exits = [], []
    env = ProcessEnv(hostname="h", loop=loop, client=APIServer(loop),
                     step=lambda **kw: records.append(kw), exit=lambda code, msg: exits.append((code, msg)),
                     registry_options=tuple(with_plugin(n, lambda args, handle: None) for n in names))
    main(env)
    if exit_message is None:
        new = next(r for r in records if r["step"] == "scheduler.New")
        assert dict(new["details"])["out-of-tree plugins"] == registered
        assert "1 profile (default-scheduler); in-tree registry + 1 out-of-tree plugin;" in new["message"]
        assert exits == []
    else:
        assert exits == [(1, exit_message)]
        assert "scheduler.New" not in [r["step"] for r in records]
