"""The generic manifest decoder: types, required fields, unknown fields, quantities, times."""

from __future__ import annotations

import pytest

from kubesched.api.core import Container, ContainerPort, Pod, Toleration
from kubesched.api.decode import DecodeError, Problem, decode, decode_object, decode_strict
from kubesched.api.meta import ObjectMeta
from kubesched.api.policy import PodDisruptionBudgetSpec
from kubesched.api.quantity import Quantity


@pytest.mark.parametrize("cls,data,want", [
    (ContainerPort, {"containerPort": "80"}, [Problem("containerPort", "must be an integer, not a string", False, "80")]),
    (ContainerPort, {"containerPort": True}, [Problem("containerPort", "must be an integer, not a boolean", False, True)]),
    (ContainerPort, {}, [Problem("containerPort", "Required value")]),
    (Container, {"name": 5}, [Problem("name", "must be a string, not an integer", False, 5)]),
    (Container, {"name": "c", "ports": {}}, [Problem("ports", "must be a list, not an object", False, {})]),
    (Container, {"name": "c", "resources": {"requests": []}},
     [Problem("resources.requests", "must be an object, not a list", False, [])]),
    (Container, {"name": "c", "resources": {"requests": {"cpu": "1x"}}},
     [Problem("resources.requests.cpu", '"1x" is not a valid quantity', False, "1x")]),
    (Container, {"name": "c", "resources": {"requests": {"cpu": "1e99999999"}}},
     [Problem("resources.requests.cpu", '"1e99999999" is not a valid quantity', False, "1e99999999")]),
    (Container, {"name": "c", "livenessProbe": {}}, [Problem("livenessProbe", "unknown field", True)]),
    (Toleration, {"tolerationSeconds": 1.5}, [Problem("tolerationSeconds", "must be an integer, not a number",
                                                      False, 1.5)]),
    (PodDisruptionBudgetSpec, {"minAvailable": [1]},
     [Problem("minAvailable", "must be an integer or a string, not a list", False, [1])]),
    (ObjectMeta, {"creationTimestamp": "yesterday"},
     [Problem("creationTimestamp", '"yesterday" is not a valid time', False, "yesterday")]),
    (ObjectMeta, {"creationTimestamp": 10**400},
     [Problem("creationTimestamp", f"{10**400!r} is not a valid time", False, 10**400)]),
    (ObjectMeta, {"labels": {"a": None}}, [Problem("labels.a", "must be a string, not null", False, None)]),
    (ObjectMeta, {"name": None}, []),
])
def test_decode_problems(cls: type, data: dict, want: list[Problem]) -> None:
    assert decode(cls, data)[1] == want


@pytest.mark.parametrize("value,want", [(1, Quantity.parse("1")), (0.5, Quantity.parse("500m")),
                                        ("250m", Quantity.parse("250m")), ("1Gi", Quantity.parse("1Gi"))])
def test_quantity_values(value: object, want: Quantity) -> None:
    container, problems = decode(Container, {"name": "c", "resources": {"requests": {"cpu": value}}})
    assert (container.resources.requests["cpu"], problems) == (want, [])


@pytest.mark.parametrize("value,want", [("2020-01-01T00:00:00Z", 1577836800.0), (12.5, 12.5),
                                        ("2020-01-01T01:00:00+01:00", 1577836800.0)])
def test_times(value: object, want: float) -> None:
    meta, problems = decode(ObjectMeta, {"creationTimestamp": value})
    assert (meta.creation_timestamp, problems) == (want, [])


def test_decode_object_and_strict() -> None:
    manifest = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                "spec": {"containers": [{"name": "c"}]}}
    pod, problems = decode_object(manifest)
    assert (type(pod), pod.metadata.namespace, problems) == (Pod, "", [])
    assert decode_strict(manifest) == pod
    with pytest.raises(DecodeError) as info:
        decode_strict({**manifest, "spec": {}})
    assert str(info.value) == "spec.containers: Required value"


@pytest.mark.parametrize("doc,want", [
    ([], [Problem("(document)", "must be an object, not a list")]),
    ({"apiVersion": "v1"}, [Problem("kind", "Required value")]),
    ({"kind": "Pod"}, [Problem("apiVersion", "Required value")]),
    ({"kind": "Pod", "apiVersion": "v2"}, [Problem("apiVersion", '"v2" is not a version of Pod in Kubernetes v1.18; use v1')]),
])
def test_kind_problems(doc: object, want: list[Problem]) -> None:
    assert decode_object(doc) == (None, want)
