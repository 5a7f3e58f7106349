"""Startup figure builders: the Run() timeline, past/future at the cursor, leader election and hand-over."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from kubesched.sim.edits import KillLeader
from kubesched.sim.simulation import Simulation
from kubesched.trace.records import Kind, LeaderElection, Record, StartupStep
from kubesched.trace.upstream import LEADERELECTION_GO, permalink
from kubesched.ui.figures import startup as s
from tests.sim.clusters import takeover_time

SAMPLES = Path(__file__).resolve().parents[3] / "sample_clusters"
STARTUP_KINDS = (Kind.STARTUP_STEP, Kind.LEADER_ELECTION)


def step(seq, time, name, replica="scheduler-a", **details):
    return Record(seq, time, Kind.STARTUP_STEP, file="cmd/kube-scheduler/app/server.go", func="Run",
                  data=StartupStep(name, f"did {name}", (("replica", replica),) + tuple(details.items())))


def election(seq, time, replica, transition, holder=""):
    return Record(seq, time, Kind.LEADER_ELECTION, file=LEADERELECTION_GO, func="LeaderElector.tryAcquireOrRenew",
                  data=LeaderElection(f"{replica}_uuid", transition, holder and f"{holder}_uuid",
                                      "kube-system/kube-scheduler", f"{transition} by {replica}"))


SETTINGS = {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "2s"}
# Two replicas; a leads at 0, is killed at 3, b retries every 2 s from 1 and takes over at 19.
TWO = (
    step(0, 0.0, "LeaderElector.Run", "scheduler-a", **SETTINGS),
    step(1, 0.0, "LeaderElector.Run", "scheduler-b", **SETTINGS),
    election(2, 0.0, "scheduler-a", "acquired", "scheduler-a"),
    Record(3, 0.5, Kind.LOG),
    election(4, 1.0, "scheduler-b", "attempt failed", "scheduler-a"),
    election(5, 19.0, "scheduler-b", "acquired", "scheduler-b"),
)


@pytest.mark.parametrize("identity, replica", [
    ("scheduler-a_ed5508cb-d548", "scheduler-a"), ("scheduler-b", "scheduler-b"), ("host_a_b", "host")])
def test_replica_of_identity(identity, replica):
    assert s.replica_of_identity(identity) == replica


@pytest.mark.parametrize("cursor, past", [(0, []), (2, [0, 1]), (4, [0, 1, 2]), (6, [0, 1, 2, 4, 5])])
def test_timeline_marks_past_by_cursor(cursor, past):
    steps = s.timeline(TWO, cursor)
    assert [x.seq for x in steps] == [0, 1, 2, 4, 5]
    assert [x.seq for x in steps if x.past] == past
    assert [x.replica for x in steps] == ["scheduler-a", "scheduler-b", "scheduler-a", "scheduler-b", "scheduler-b"]
    assert s.replicas(steps) == ("scheduler-a", "scheduler-b")


def test_timeline_rows_hide_or_show_the_future():
    steps = s.timeline(TWO, 3)
    assert [r["seq"] for r in s.timeline_rows(steps, show_future=False)] == [0, 1, 2]
    rows = s.timeline_rows(steps, show_future=True)
    assert [(r["seq"], r["past"]) for r in rows] == [(0, True), (1, True), (2, True), (4, False), (5, False)]
    assert rows[0]["did"] == ("did LeaderElector.Run — leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s")
    assert rows[2]["step"] == "acquired" and rows[2]["function"] == "LeaderElector.tryAcquireOrRenew"
    assert rows[2]["link"] == permalink(LEADERELECTION_GO)


def test_timeline_figure_greys_the_future_and_marks_the_cursor():
    steps = s.timeline(TWO, 3)
    fig = s.timeline_figure(steps, show_future=True)
    past = [tr for tr in fig.data if not tr.name.endswith(")")]
    future = [tr for tr in fig.data if tr.name.endswith(")")]
    assert sorted(tr.marker.color for tr in past) == sorted(s.REPLICA_COLOURS[:2])
    assert {tr.marker.color for tr in future} == {s.FUTURE_COLOUR}
    assert sum(len(tr.y) for tr in future) == 2
    assert [h.y0 for h in fig.layout.shapes] == [-2.5]
    hidden = s.timeline_figure(steps, show_future=False)
    assert sum(len(tr.y) for tr in hidden.data) == 3 and not hidden.layout.shapes


def test_election_settings_and_implied_attempts():
    assert s.election_settings(TWO) == {"scheduler-a": (15.0, 10.0, 2.0), "scheduler-b": (15.0, 10.0, 2.0)}
    # b's grid: 1, 3, 5, … ; strictly between the kill (3) and its acquisition (19)
    assert s.implied_attempts(TWO, "scheduler-b", 3.0, 19.0) == (5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 17.0)
    assert s.implied_attempts(TWO, "nobody", 3.0, 19.0) == ()


@pytest.mark.parametrize("kills, expected", [
    ([3.0], [("scheduler-a", "scheduler-b", 19.0)]),
    ([20.0], [("scheduler-b", "", None)]),
])
def test_handovers(kills, expected):
    got = s.handovers(TWO, kills)
    assert [(h.old_leader, h.new_leader, h.acquired_at) for h in got] == expected


def test_election_figure_kill_and_implied_markers():
    fig = s.election_figure(TWO, cursor=6, kill_times=[3.0])
    kill = next(tr for tr in fig.data if tr.name == "KillLeader")
    assert list(kill.x) == [3.0] and list(kill.y) == ["scheduler-a"]
    implied = next(tr for tr in fig.data if tr.name == "scheduler-b implied")
    assert list(implied.x) == [5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 17.0]
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert [(tr.y[0], tr.base[0], tr.x[0]) for tr in bars] == [("scheduler-a", 0.0, 19.0),
                                                              ("scheduler-b", 19.0, 2.0)]


def test_election_figure_draws_the_kill_above_the_axis_and_a_legend():
    fig = s.election_figure(TWO, cursor=6, kill_times=[3.0])
    (line,) = fig.layout.shapes
    assert (line.type, line.x0, line.x1, line.yref, line.y0, line.y1) == ("line", 3.0, 3.0, "y domain", 0, 1)
    (label,) = fig.layout.annotations
    assert (label.text, label.yref, label.y, label.yanchor) == ("✗ KillLeader at t=3s", "paper", 1.0, "bottom")
    assert fig.layout.xaxis.range[0] < 0 < 3.0 < fig.layout.xaxis.range[1]     # the mark off the y axis
    legend = [tr.name for tr in fig.data if tr.showlegend is not False and tr.x == (None,)]
    assert legend == ["scheduler-a", "scheduler-b", "attempt failed", "acquired", "holds the lease", "KillLeader"]
    assert fig.layout.showlegend is True and fig.layout.legend.xanchor == "left" and fig.layout.legend.x > 1
    assert [tr.name for tr in fig.data if tr.showlegend is not False] == legend     # nothing listed twice
    zh = [tr.name for tr in s.election_figure(TWO, cursor=6, kill_times=[3.0], lang="zh").data
          if tr.showlegend is not False and tr.x == (None,)]
    assert zh[2:4] == [s.step_label("attempt failed", "zh"), s.step_label("acquired", "zh")] != legend[2:4]
    no_kill = s.election_figure(TWO, cursor=6)
    assert not no_kill.layout.shapes and "KillLeader" not in [tr.name for tr in no_kill.data]


# -- against real runs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["default.yaml", "taints.yaml"])
def test_one_replica_runs_the_walkthrough_sequence(name):
    sim = Simulation.from_yaml(SAMPLES / name)
    sim.run_until_idle()
    steps = s.timeline(sim.trace, len(sim.trace))
    assert tuple(x.step for x in steps if x.kind == "startup") == s.RUN_SEQUENCE
    assert [x.step for x in steps if x.kind == "election"][:3] == ["attempt succeeded", "new-leader", "acquired"]
    assert all(x.past and x.func and x.link for x in steps)


def test_two_replicas_hand_over_after_the_lease_expires():
    sim = Simulation.from_yaml(s.with_replicas(Simulation.from_yaml(SAMPLES / "default.yaml").inputs, 2))
    assert sim.inputs.scenario.replicas == 2
    sim.step("pod")
    killed = sim.time
    sim.apply(KillLeader())
    sim.run_until_idle()
    (hand,) = s.handovers(sim.trace, [killed])
    lease, _renew, retry = s.election_settings(sim.trace)["scheduler-b"]
    assert (hand.old_leader, hand.new_leader) == ("scheduler-a", "scheduler-b")
    # b retries after jittered waits (from 0) and wins at its first try after the lease it last saw expired
    assert (lease, retry) == (15.0, 2.0)
    last_renewal = max(0.0, retry * math.ceil(killed / retry) - retry)
    assert hand.acquired_at == takeover_time("scheduler-b", last_renewal)


def test_with_replicas_keeps_cluster_seed_and_configuration():
    base = Simulation.from_yaml(SAMPLES / "default.yaml", seed=7)
    again = Simulation.from_yaml(s.with_replicas(base.inputs, 2))
    assert again.inputs.seed == 7 and again.inputs.scenario.replicas == 2
    assert again.inputs.objects == base.inputs.objects
    assert again.inputs.config == base.inputs.config


def test_startup_texts_exist_in_both_languages():
    from kubesched.ui.i18n import startup as texts

    assert set(texts.EN) == set(texts.ZH) and all(k.startswith("startup.") for k in texts.EN)


def test_the_chinese_table_and_timeline_have_no_english_sentence():
    from tests.browser.zh_text import english_runs
    sim = Simulation.from_yaml(s.with_replicas(Simulation.from_yaml(SAMPLES / "default.yaml").inputs, 2))
    sim.step("pod")
    sim.apply(KillLeader())
    sim.run_until_idle()
    steps = s.timeline(sim.trace, len(sim.trace))
    rows = s.timeline_rows(steps, show_future=True, lang="zh")
    assert [r["did"] for r in rows if english_runs(r["did"]) or english_runs(r["step"])] == []
    labels = [label for trace in s.timeline_figure(steps, lang="zh").data for label in trace.text]
    assert "设置 healthz 检查" in labels and [x for x in labels if english_runs(x)] == []
    english = s.timeline_rows(steps, show_future=True)
    assert [r["did"].split(" — ")[0] for r in english] == [x.message for x in steps]


def test_a_step_label_is_translated_only_where_upstream_has_no_function_name():
    assert [s.step_label(x, "zh") for x in ("scheduler.New", "Setup healthz checks", "acquired")] == [
        "scheduler.New", "设置 healthz 检查", "获得租约"]
    assert s.step_label("Setup healthz checks") == "Setup healthz checks"
