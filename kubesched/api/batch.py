"""batch kinds: Job (batch/v1) and CronJob (batch/v1beta1, the version 1.18 serves).

Upstream: staging/src/k8s.io/api/batch/v1/types.go (Job, JobSpec, JobStatus,
JobCondition) and batch/v1beta1/types.go (CronJob, JobTemplateSpec). A Job's pods are
created by kubesched.cluster.job_controller; a CronJob is kept as an inert object
(kubesched runs no clock-driven Jobs; a Scenario action may create the Job it would).
``batch/v1`` CronJob is Kubernetes 1.21+.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from kubesched.api.core import PodTemplateSpec
from kubesched.api.fields import fld, model
from kubesched.api.meta import LabelSelector, ObjectMeta, ObjectReference, Time

JOB_COMPLETE = "Complete"
JOB_FAILED = "Failed"


@model
class JobSpec:
    parallelism: Optional[int] = None
    completions: Optional[int] = None
    active_deadline_seconds: Optional[int] = None
    backoff_limit: Optional[int] = None
    selector: Optional[LabelSelector] = None
    manual_selector: Optional[bool] = None
    template: PodTemplateSpec = fld(required=True, factory=PodTemplateSpec)
    ttl_seconds_after_finished: Optional[int] = None


@model
class JobCondition:
    type: str = fld("", required=True)
    status: str = fld("", required=True)
    last_probe_time: Optional[Time] = None
    last_transition_time: Optional[Time] = None
    reason: str = ""
    message: str = ""


@model
class JobStatus:
    conditions: tuple[JobCondition, ...] = ()
    start_time: Optional[Time] = None
    completion_time: Optional[Time] = None
    active: int = 0
    succeeded: int = 0
    failed: int = 0


@model
class Job:
    API_VERSION: ClassVar[str] = "batch/v1"
    KIND: ClassVar[str] = "Job"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: JobSpec = fld(factory=JobSpec)
    status: JobStatus = fld(factory=JobStatus)


@model
class JobTemplateSpec:
    metadata: ObjectMeta = fld(factory=ObjectMeta)
    spec: JobSpec = fld(factory=JobSpec)


@model
class CronJobSpec:
    schedule: str = fld("", required=True)
    starting_deadline_seconds: Optional[int] = None
    concurrency_policy: str = ""
    suspend: Optional[bool] = None
    job_template: JobTemplateSpec = fld(required=True, factory=JobTemplateSpec)
    successful_jobs_history_limit: Optional[int] = None
    failed_jobs_history_limit: Optional[int] = None


@model
class CronJobStatus:
    active: tuple[ObjectReference, ...] = ()
    last_schedule_time: Optional[Time] = None


@model
class CronJob:
    API_VERSION: ClassVar[str] = "batch/v1beta1"
    KIND: ClassVar[str] = "CronJob"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: CronJobSpec = fld(factory=CronJobSpec)
    status: CronJobStatus = fld(factory=CronJobStatus)
