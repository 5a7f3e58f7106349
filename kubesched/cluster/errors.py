"""API errors worded as kube-apiserver words them.

Upstream: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go
(NewNotFound, NewAlreadyExists, NewConflict, NewInvalid) and
staging/src/k8s.io/apiserver/pkg/storage/errors.go (the optimistic-concurrency
message of InterpretUpdateError).
"""

from __future__ import annotations

from typing import Final

from kubesched.cluster.resources import qualified_kind, qualified_resource

OBJECT_MODIFIED: Final = ("the object has been modified; please apply your changes "
                          "to the latest version and try again")


class APIError(Exception):
    """A failed API call: ``reason`` (metav1.StatusReason) and HTTP ``code``."""

    reason: str = ""
    code: int = 500

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(APIError):
    reason = "NotFound"
    code = 404


class AlreadyExists(APIError):
    reason = "AlreadyExists"
    code = 409


class Conflict(APIError):
    reason = "Conflict"
    code = 409


class Invalid(APIError):
    reason = "Invalid"
    code = 422


def not_found(kind: str, name: str) -> NotFound:
    """``pods "web-1" not found``."""
    return NotFound(f'{qualified_resource(kind)} "{name}" not found')


def already_exists(kind: str, name: str) -> AlreadyExists:
    """``pods "web-1" already exists``."""
    return AlreadyExists(f'{qualified_resource(kind)} "{name}" already exists')


def conflict(resource: str, name: str, detail: str = OBJECT_MODIFIED) -> Conflict:
    """``Operation cannot be fulfilled on pods "web-1": <detail>``; ``resource`` is qualified
    (``pods``, ``pods/binding``, ``leases.coordination.k8s.io``)."""
    return Conflict(f'Operation cannot be fulfilled on {resource} "{name}": {detail}')


def update_conflict(kind: str, name: str) -> Conflict:
    return conflict(qualified_resource(kind), name)


def invalid(kind: str, name: str, causes: list[str]) -> Invalid:
    """``Pod "web-1" is invalid: <field>: <type>: <detail>`` (several causes as ``[a, b]``)."""
    text = causes[0] if len(causes) == 1 else "[" + ", ".join(causes) + "]"
    return Invalid(f'{qualified_kind(kind)} "{name}" is invalid: {text}')
