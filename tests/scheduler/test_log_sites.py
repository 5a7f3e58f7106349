"""Log lines carry klog severity and the upstream call site; 2-argument log callables still work."""

from __future__ import annotations

import pytest

from kubesched.scheduler.scheduler import as_log, no_log
from tests.scheduler.fakes import ScriptedAlgorithm, World, make_pod

SCHED, FACTORY = "pkg/scheduler/scheduler.go", "pkg/scheduler/factory.go"


class SiteWorld(World):
    """A World whose log takes the keywords (so nothing is dropped)."""

    def log(self, verbosity: int, message: str, *, severity: str = "I", site=None) -> None:
        self.logs.append((verbosity, severity, site, message))


@pytest.mark.parametrize("algorithm, want", [
    (ScriptedAlgorithm(host="n2"), [
        (3, "I", (SCHED, "Scheduler.scheduleOne"), "Attempting to schedule pod: default/p"),
        (2, "I", (SCHED, "Scheduler.scheduleOne"),
         'pod default/p is bound successfully on node "n2", 3 nodes evaluated, 2 nodes were found feasible.'),
    ]),
    (ScriptedAlgorithm(error=RuntimeError("boom")), [
        (3, "I", (SCHED, "Scheduler.scheduleOne"), "Attempting to schedule pod: default/p"),
        (0, "E", (SCHED, "Scheduler.scheduleOne"), "error selecting node for pod: boom"),
        (0, "E", (FACTORY, "MakeDefaultErrorFunc"), "Error scheduling default/p: boom; retrying"),
        (3, "I", (SCHED, "podConditionUpdaterImpl.update"),
         "Updating pod condition for default/p to (PodScheduled==False, Reason=Unschedulable)"),
    ]),
], ids=["bound", "schedule-error"])
def test_log_lines_carry_severity_and_site(algorithm, want):
    world = SiteWorld(algorithm)
    world.add_pod(make_pod("p"))
    world.sched.schedule_one()
    world.loop.run(until=0.0)
    assert world.logs == want


def test_a_two_argument_log_gets_verbosity_and_message_only():
    seen: list = []
    log = as_log(lambda v, m: seen.append((v, m)))
    log(0, "x", severity="E", site=(SCHED, "Scheduler.preempt"))
    assert seen == [(0, "x")]


@pytest.mark.parametrize("log", [
    no_log,
    lambda v, m, *, severity="I", site=None: None,
    lambda v, m, **where: None,
], ids=["no_log", "keywords", "var-keywords"])
def test_a_log_taking_the_keywords_is_used_as_is(log):
    assert as_log(log) is log
