"""Objects of kinds kube-scheduler does not watch, kept as they were written.

Upstream: every kind v1.18 serves is a valid object (ConfigMap, Secret, Role, Ingress,
HorizontalPodAutoscaler, …); the scheduler's informers simply never list them. Such an object
is checked against its v1.18 schema and its metadata validated, then kept here, untouched, so a
Helm render or ``kubectl get all -o yaml`` loads whole. A kind that gains a model in
``kubesched.api.kinds.KINDS`` stops being inert.
"""

from __future__ import annotations

from typing import Any, Mapping

from kubesched.api.fields import fld, model
from kubesched.api.meta import ObjectMeta

CUSTOM_RESOURCE = "custom resource"


@model
class InertObject:
    """A stored object the simulator does not model: its apiVersion, kind, metadata and body."""

    api_version: str = ""
    kind: str = ""
    metadata: ObjectMeta = fld(factory=ObjectMeta)
    body: Mapping[str, Any] = fld(factory=dict)
    custom: bool = False

    @property
    def KIND(self) -> str:  # noqa: N802 - the class attribute every model has
        return self.kind

    @property
    def API_VERSION(self) -> str:  # noqa: N802
        return self.api_version
