"""The Job controller: parallelism pods at a time until completions, the Complete condition, the deadline.

Upstream: pkg/controller/job/job_controller.go (syncJob, manageJob) and
pkg/apis/batch/v1/defaults.go + pkg/registry/batch/job/strategy.go (defaults, selector).
Kubelet model: a bound pod runs at +1 s; a Job's pod succeeds JOB_POD_RUN_SECONDS (10 s)
later, so with the stand-in binder each wave of pods lasts 11 s.
"""

from __future__ import annotations

import re

import pytest

from kubesched.api.load import LoadError
from kubesched.api.names import ALPHANUMS
from kubesched.cluster.kubelet import JOB_POD_RUN_SECONDS
from tests.api.helpers import dump, load
from tests.cluster.workload_fakes import Cluster, node

WAVE = 1.0 + JOB_POD_RUN_SECONDS


def job(completions: int | None = None, parallelism: int | None = None, deadline: int | None = None,
        restart: str = "Never") -> dict:
    spec: dict = {"template": {"spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": restart}}}
    for key, value in (("completions", completions), ("parallelism", parallelism),
                       ("activeDeadlineSeconds", deadline)):
        if value is not None:
            spec[key] = value
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi"}, "spec": spec}


CASES = [
    # (completions, parallelism, creation times, completion time)
    (None, None, [0.0], WAVE),
    (5, 2, [0.0, 0.0, WAVE, WAVE, 2 * WAVE], 3 * WAVE),
    (2, 5, [0.0, 0.0], WAVE),
    (3, 1, [0.0, WAVE, 2 * WAVE], 3 * WAVE),
    (None, 3, [0.0, 0.0, 0.0], WAVE),
    (4, 0, [], None),
]


@pytest.mark.parametrize("completions,parallelism,created,done", CASES)
def test_parallelism_pods_at_a_time_until_completions(completions, parallelism, created, done) -> None:
    cluster = Cluster(node("n1"), job(completions, parallelism)).run(100.0)
    pods = cluster.pods()
    assert [p.metadata.creation_timestamp for p in pods] == created
    assert all(p.status.phase == "Succeeded" for p in pods)
    status = cluster.api.get("Job", "default", "pi").status
    if done is None:
        assert (status.start_time, status.conditions, status.active, status.succeeded) == (None, (), 0, 0)
        return
    assert (status.start_time, status.completion_time, status.active, status.succeeded, status.failed) == (
        0.0, done, 0, len(created), 0)
    assert [(c.type, c.status, c.last_transition_time) for c in status.conditions] == [("Complete", "True", done)]
    assert cluster.events("Job")[-1] == (done, 1, "pi", "Normal", "Completed", "Job completed", "job-controller")


def test_pod_names_come_from_generate_name_with_a_stable_seed() -> None:
    cluster = Cluster(node("n1"), job(3, 2)).run(30.0)
    assert [(p.metadata.creation_timestamp, p.metadata.name) for p in cluster.pods()] == [
        (0.0, "pi-dsttb"), (0.0, "pi-nhzc6"), (WAVE, "pi-ncj4k")]


def test_pods_carry_the_generated_selector_labels() -> None:
    cluster = Cluster(node("n1"), job(2, 2)).run(0.0)
    j = cluster.api.get("Job", "default", "pi")
    uid = j.metadata.uid
    assert (dict(j.spec.selector.match_labels), j.spec.backoff_limit, dict(j.metadata.labels)) == (
        {"controller-uid": uid}, 6, {"controller-uid": uid, "job-name": "pi"})
    pods = cluster.pods()
    assert all(dict(p.metadata.labels) == {"controller-uid": uid, "job-name": "pi"} for p in pods)
    assert all(re.fullmatch(f"pi-[{ALPHANUMS}]{{5}}", p.metadata.name) and p.metadata.generate_name == "pi-"
               for p in pods)
    assert sorted(e[4:] for e in cluster.events("Job")) == sorted(
        ("SuccessfulCreate", f"Created pod: {p.metadata.name}", "job-controller") for p in pods)
    assert cluster.api.get("Job", "default", "pi").status.active == 2


def test_active_deadline_fails_the_job_and_deletes_its_pods() -> None:
    cluster = Cluster(node("n1"), job(3, 1, deadline=5)).run(6.0)
    [pod] = cluster.pods()
    assert pod.metadata.deletion_timestamp == 5.0 + 30
    status = cluster.api.get("Job", "default", "pi").status
    assert (status.active, status.failed, [(c.type, c.reason, c.message) for c in status.conditions]) == (
        0, 1, [("Failed", "DeadlineExceeded", "Job was active longer than specified deadline")])
    assert cluster.events("Job")[-2:] == [
        (5.0, 1, "pi", "Normal", "SuccessfulDelete", f"Deleted pod: {pod.metadata.name}", "job-controller"),
        (5.0, 1, "pi", "Warning", "DeadlineExceeded", "Job was active longer than specified deadline",
         "job-controller")]


def test_a_job_created_later_by_an_action_runs_then() -> None:
    cluster = Cluster(node("n1"))
    cluster.add(job(1, 1), at=40.0)
    cluster.run(60.0)
    assert [(p.metadata.creation_timestamp, p.status.phase) for p in cluster.pods()] == [(40.0, "Succeeded")]
    assert cluster.api.get("Job", "default", "pi").status.completion_time == 40.0 + WAVE


@pytest.mark.parametrize("restart,message", [
    ("Always", 'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", '
               '"Never"'),
    ("", 'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"'),
])
def test_a_job_must_not_restart_always(restart: str, message: str) -> None:
    manifest = job(1, 1, restart=restart)
    if not restart:
        del manifest["spec"]["template"]["spec"]["restartPolicy"]
    with pytest.raises(LoadError) as err:
        load(dump(manifest))
    assert [str(p).split(": ", 2)[2] for p in err.value.errors] == [message]


def test_cron_jobs_are_kept_inert_with_a_note() -> None:
    cron = {"apiVersion": "batch/v1beta1", "kind": "CronJob", "metadata": {"name": "hello"},
            "spec": {"schedule": "*/1 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "containers": [{"name": "hello", "image": "busybox"}], "restartPolicy": "OnFailure"}}}}}}
    cluster = load(dump(cron))
    assert [(w.path, w.message) for w in cluster.warnings] == [(
        "spec.schedule", "kept inert: kubesched starts no Jobs on a clock; a Scenario action can create the Job "
                         "this CronJob would start")]
    run = Cluster(node("n1"), cron).run(120.0)
    assert run.pods() == []


def test_a_finished_job_pod_reports_completed_conditions() -> None:
    cluster = Cluster(node("n1"), job(1, 1)).run(5.0)
    [running] = cluster.pods()
    assert (running.status.phase, running.status.start_time) == ("Running", 1.0)
    cluster.run(20.0)
    [done] = cluster.pods()
    assert done.status.phase == "Succeeded"
    assert [(c.type, c.status, c.reason, c.last_transition_time) for c in done.status.conditions] == [
        ("Initialized", "True", "PodCompleted", 1.0), ("Ready", "False", "PodCompleted", WAVE),
        ("ContainersReady", "False", "PodCompleted", WAVE), ("PodScheduled", "True", "", 0.0)]
