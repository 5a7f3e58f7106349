"""Checking a manifest against its v1.18 OpenAPI schema: fields, types, required fields.

Upstream: the strict OpenAPI validation ``kubectl apply`` runs before sending an object
(k8s.io/kube-openapi's validation over api/openapi-spec @ v1.18.0), here with the
``jsonschema`` package's Draft 4 validator over the schemas of ``kubernetes-validate==1.18.0``.

Each finding is a :class:`~kubesched.api.decode.Problem` at a field path
(``spec.containers[0].image``). An unknown field says which it is: a field a later release
added (``not in Kubernetes v1.18 (added in 1.26)``, code ``newer-field``) or a typo
(``unknown field (did you mean "imagePullPolicy"?)``, code ``unknown-field``). Wrong types
and missing required fields are errors, worded as the decoder words them. A value for a
``Quantity`` is parsed as the API server parses it.

Deviation: kubectl 1.18 refuses unknown fields (``--validate=true``) and the API server
drops them; here they are warnings, so that a manifest from a newer cluster still loads
(the scheduler never reads those fields). ``null`` counts as absent, as in Go's decoding.
A time may also be a number (seconds on the simulation clock), as the decoder allows.
"""

from __future__ import annotations

import difflib
import functools
from typing import Any, Iterator, Mapping

import jsonschema

from kubesched.api.openapi.history import field_added
from kubesched.api.openapi.schema import BASE_RELEASE, definitions
from kubesched.api.quantity import is_manifest_quantity

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
TIMES = frozenset({"io.k8s.apimachinery.pkg.apis.meta.v1.Time", "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"})
NEWER_FIELD = "newer-field"
UNKNOWN_FIELD = "unknown-field"
_RELEASE = BASE_RELEASE.rsplit(".", 1)[0]
_TYPE_WORDS = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "a boolean", "object": "an object", "array": "a list"}

Finding = tuple[str, str, bool, str]   # (path, message, warning, code)


def describe(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def path_of(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@functools.cache
def _names() -> Mapping[int, str]:
    return {id(schema): name for name, schema in definitions().items()}


def _one_of() -> Any:
    """``oneOf`` for IntOrString and Quantity: the API server's own parsing."""
    def one_of(validator: Any, options: Any, instance: Any, schema: Any) -> Iterator[Any]:
        name = _names().get(id(schema))
        if name == QUANTITY:
            number = isinstance(instance, (int, float)) and not isinstance(instance, bool)
            if not (isinstance(instance, str) or number) or not is_manifest_quantity(instance):
                yield jsonschema.ValidationError("quantity")
            return
        if name == INT_OR_STRING:
            if isinstance(instance, bool) or not isinstance(instance, (int, str)):
                yield jsonschema.ValidationError("int-or-string")
            return
        yield from jsonschema.Draft4Validator.VALIDATORS["oneOf"](validator, options, instance, schema)
    return one_of


@functools.cache
def _validator_class() -> Any:
    return jsonschema.validators.extend(jsonschema.Draft4Validator, {"oneOf": _one_of()})


@functools.cache
def _validator(definition: str) -> Any:
    root = {"definitions": definitions(), "$ref": f"#/definitions/{definition}"}
    return _validator_class()(root)


def _unknown(path: str, key: str, schema: Mapping[str, Any]) -> Finding:
    where = _join(path, key)
    added = field_added(_names().get(id(schema), ""), key)
    if added:
        return where, f"field is not in Kubernetes v{_RELEASE} (added in {added})", True, NEWER_FIELD
    close = difflib.get_close_matches(key, list(schema.get("properties", ())), n=1, cutoff=0.75)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    return where, f"unknown field{hint}", True, UNKNOWN_FIELD


def _is_clock_time(value: Any, schema: Mapping[str, Any]) -> bool:
    """A time given as seconds on the simulation clock (kubesched's extension of RFC 3339 text)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and _names().get(id(schema)) in TIMES


def _findings(error: Any) -> list[Finding]:
    path, instance, schema = path_of(error.absolute_path), error.instance, error.schema
    kind = error.validator
    if kind == "additionalProperties":
        known = schema.get("properties", {})
        return [_unknown(path, str(k), schema) for k in instance if k not in known]
    if kind == "type" and _is_clock_time(instance, schema):
        return []
    if kind == "type" and instance is not None:
        wanted = error.validator_value
        wanted = wanted if isinstance(wanted, list) else [wanted]
        words = " or ".join(_TYPE_WORDS.get(w, w) for w in wanted)
        return [(path, f"must be {words}, not {describe(instance)}", False, "type")]
    if kind == "required" and isinstance(instance, dict):
        return [(_join(path, r), "Required value", False, "required")
                for r in error.validator_value if instance.get(r) is None]
    if kind == "oneOf" and error.message == "quantity":
        shown = f'"{instance}"' if isinstance(instance, str) else repr(instance)
        return [(path, f"{shown} is not a valid quantity", False, "quantity")]
    if kind == "oneOf" and error.message == "int-or-string":
        return [(path, f"must be an integer or a string, not {describe(instance)}", False, "type")]
    return []


def check(data: Any, definition: str) -> list[Finding]:
    """Every schema finding for ``data`` as an object of ``definition``, in path order, once each."""
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for error in _validator(definition).iter_errors(data):
        for finding in _findings(error):
            if finding[:2] not in seen:
                seen.add(finding[:2])
                out.append(finding)
    return out
