"""Label selectors: requirements, matching and conversion from API selectors.

Upstream: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Requirement,
NewRequirement, Selector.Matches, Everything, Nothing, SelectorFromSet) and
apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from kubesched.api.meta import LabelSelector

IN, NOT_IN, EXISTS, DOES_NOT_EXIST = "In", "NotIn", "Exists", "DoesNotExist"
EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GT, LT = "=", "==", "!=", "Gt", "Lt"
_SET_OPS = {IN, NOT_IN, EQUALS, DOUBLE_EQUALS, NOT_EQUALS}


class SelectorError(ValueError):
    """A requirement that ``labels.NewRequirement`` would refuse."""


_INT64 = re.compile(r"^[+-]?[0-9]+\Z")


def _as_int(text: str) -> Optional[int]:
    """``strconv.ParseInt(text, 10, 64)``: no spaces, no underscores, within int64."""
    if not _INT64.match(text):
        return None
    value = int(text)
    return value if -(2**63) <= value < 2**63 else None


_LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)


def label_value_errors(value: str) -> list[str]:
    """``validation.IsValidLabelValue``: why ``value`` is not a valid label value ([] if it is)."""
    errors = []
    if len(value) > 63:
        errors.append("must be no more than 63 characters")
    if not _LABEL_VALUE_RE.fullmatch(value):
        errors.append("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
                      "or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
                      f"'my_value',  or '12345', regex used for validation is '{_LABEL_VALUE_FMT}')")
    return errors


@dataclass(frozen=True, slots=True)
class Requirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()

    @classmethod
    def new(cls, key: str, operator: str, values: Iterable[str] = ()) -> "Requirement":
        """Validate like ``labels.NewRequirement`` (value counts per operator)."""
        vals = tuple(values)
        if not key:
            raise SelectorError("key: Invalid value: \"\": name part must be non-empty")
        if operator in (IN, NOT_IN) and not vals:
            raise SelectorError("values: Invalid value: for 'in', 'notin' operators, values set can't be empty")
        if operator in (EQUALS, DOUBLE_EQUALS, NOT_EQUALS) and len(vals) != 1:
            raise SelectorError("values: Invalid value: exact-match compatibility requires one single value")
        if operator in (EXISTS, DOES_NOT_EXIST) and vals:
            raise SelectorError("values: Invalid value: values set must be empty for exists and does not exist")
        if operator in (GT, LT):
            if len(vals) != 1:
                raise SelectorError("values: Invalid value: for 'Gt', 'Lt' operators, exactly one value is required")
            if _as_int(vals[0]) is None:
                raise SelectorError("values[0]: Invalid value: for 'Gt', 'Lt' operators, the value must be an integer")
        if operator not in _SET_OPS | {EXISTS, DOES_NOT_EXIST, GT, LT}:
            raise SelectorError(f"operator: Unsupported value: \"{operator}\"")
        for value in vals:
            errors = label_value_errors(value)
            if errors:  # validateLabelValue
                raise SelectorError(f'invalid label value: "{value}": at key: "{key}": ' + "; ".join(errors))
        return cls(key, operator, vals)

    def matches(self, labels: Mapping[str, str]) -> bool:
        present = self.key in labels
        if self.operator in (IN, EQUALS, DOUBLE_EQUALS):
            return present and labels[self.key] in self.values
        if self.operator in (NOT_IN, NOT_EQUALS):
            return not present or labels[self.key] not in self.values
        if self.operator == EXISTS:
            return present
        if self.operator == DOES_NOT_EXIST:
            return not present
        if not present:
            return False
        have, want = _as_int(labels[self.key]), _as_int(self.values[0])
        if have is None or want is None:
            return False
        return have > want if self.operator == GT else have < want


@dataclass(frozen=True, slots=True)
class Selector:
    """A conjunction of requirements; ``nothing`` selects no object at all."""

    requirements: tuple[Requirement, ...] = ()
    nothing: bool = False

    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.nothing:
            return False
        for requirement in self.requirements:
            if not requirement.matches(labels):
                return False
        return True

    def empty(self) -> bool:
        return not self.nothing and not self.requirements

    def __str__(self) -> str:
        return ",".join(_show(r) for r in self.requirements)


def _show(r: Requirement) -> str:
    if r.operator in (EQUALS, DOUBLE_EQUALS, NOT_EQUALS):
        return f"{r.key}{r.operator}{r.values[0]}"
    if r.operator == EXISTS:
        return r.key
    if r.operator == DOES_NOT_EXIST:
        return f"!{r.key}"
    if r.operator in (GT, LT):
        return f"{r.key}{'>' if r.operator == GT else '<'}{r.values[0]}"
    return f"{r.key} {r.operator.lower()} ({','.join(sorted(r.values))})"


EVERYTHING = Selector()
NOTHING = Selector(nothing=True)


def selector_from_set(labels: Mapping[str, str] | None) -> Selector:
    """``labels.SelectorFromSet``: every key must equal its value; empty selects all."""
    if not labels:
        return EVERYTHING
    return Selector(tuple(Requirement(k, EQUALS, (v,)) for k, v in sorted(labels.items())))


def label_selector_as_selector(selector: LabelSelector | None) -> Selector:
    """``metav1.LabelSelectorAsSelector``: nil selects nothing, empty selects everything.

    Raises SelectorError for an invalid requirement, as upstream returns an error.
    """
    if selector is None:
        return NOTHING
    if not selector.match_labels and not selector.match_expressions:
        return EVERYTHING
    reqs = [Requirement.new(k, EQUALS, (v,)) for k, v in selector.match_labels.items()]
    for expr in selector.match_expressions:
        if expr.operator not in (IN, NOT_IN, EXISTS, DOES_NOT_EXIST):
            raise SelectorError(f"{expr.operator!r} is not a valid pod selector operator")
        reqs.append(Requirement.new(expr.key, expr.operator, expr.values))
    return Selector(tuple(sorted(reqs, key=lambda r: r.key)))
