"""move_event offers wrong options of the answer's family: node updates beside a node update,
assigned-pod events beside an assigned-pod event (read from real lesson runs)."""

from __future__ import annotations

import functools

import pytest

from kubesched.lessons import quiz
from kubesched.lessons.claims import View
from kubesched.lessons.format import CLUSTERS_DIR, Question
from kubesched.sim import Simulation

CASES = [
    ("18-what-wakes-pods.yaml", "plain", "NodeTaintChange",
     ("NodeAdd", "NodeAllocatableChange", "NodeLabelChange", "NodeSpecUnschedulableChange", "NodeTaintChange")),
    ("18-what-wakes-pods.yaml", "ssd-app", "NodeLabelChange",
     ("NodeAdd", "NodeAllocatableChange", "NodeLabelChange", "NodeSpecUnschedulableChange", "NodeTaintChange")),
    ("18-what-wakes-pods.yaml", "cache-friend", "AssignedPodAdd",
     ("AssignedPodAdd", "AssignedPodDelete", "AssignedPodUpdate", "NodeAdd", "PodAdd")),
    ("04-queues.yaml", "big", "BackoffComplete",
     ("BackoffComplete", "PodAdd", "ScheduleAttemptFailure", "UnschedulableTimeout", "NodeAdd")),
]


@functools.cache
def finished(cluster: str) -> Simulation:
    sim = Simulation.from_yaml(CLUSTERS_DIR / cluster, horizon=120)
    sim.run_until_idle()
    return sim


@pytest.mark.parametrize(("cluster", "pod", "event", "options"), CASES)
def test_move_event_options_are_of_the_answers_family(cluster: str, pod: str, event: str,
                                                      options: tuple[str, ...]) -> None:
    got = quiz.answer(Question("move_event", (("pod", pod),), "Q"), finished(cluster))
    assert (got.options, got.correct) == (tuple(sorted(options)), frozenset([event]))
