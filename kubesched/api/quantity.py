"""Kubernetes resource quantities: exact parsing, rounding and canonical form.

Upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go
(ParseQuantity, Quantity.Value, Quantity.MilliValue, Quantity.String / CanonicalizeBytes).

A quantity is an exact rational number plus the format it was written in
(binary ``Ki``…``Ei``, decimal ``n``…``E``, or a decimal exponent ``1e3``).
Like upstream, values finer than one nano-unit are rounded up on parsing, and
``value()`` / ``milli_value()`` round up (away from zero) to an integer.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

BINARY_SI = "BinarySI"
DECIMAL_SI = "DecimalSI"
DECIMAL_EXPONENT = "DecimalExponent"

_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DECIMAL_SUFFIX = {exp: suffix for suffix, exp in _DECIMAL.items()}
_SYNTAX = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)\Z")
_EXPONENT = re.compile(r"^[eE]([+-]?[0-9]+)\Z")
_NANO = Fraction(1, 10**9)


class QuantityError(ValueError):
    """The text is not a Kubernetes quantity."""


def _round_away(value: Fraction) -> int:
    return _round_away_ratio(value.numerator, value.denominator)


def _round_away_ratio(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` (denominator > 0) rounded away from zero, in integer math."""
    quotient, remainder = divmod(numerator, denominator)  # floors
    return quotient + 1 if remainder and numerator > 0 else quotient


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Quantity:
    """An exact quantity; compare, add and subtract like numbers."""

    amount: Fraction
    format: str = DECIMAL_SI

    @classmethod
    def parse(cls, text: str | int) -> "Quantity":
        """Parse ``text`` as ``resource.ParseQuantity`` does; raise QuantityError."""
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise QuantityError(f"{text!r} is not a valid quantity")
        raw = str(text).strip() if isinstance(text, int) else text
        match = _SYNTAX.match(raw)
        if not match or raw != raw.strip():
            raise QuantityError(f"{text!r} is not a valid quantity")
        number, suffix = Fraction(match.group(1)), match.group(2)
        if suffix in _BINARY:
            amount, fmt = number * 2 ** _BINARY[suffix], BINARY_SI
        elif suffix in _DECIMAL:
            amount, fmt = number * Fraction(10) ** _DECIMAL[suffix], DECIMAL_SI
        elif exp := _EXPONENT.match(suffix):
            amount, fmt = number * Fraction(10) ** int(exp.group(1)), DECIMAL_EXPONENT
        else:
            raise QuantityError(f"{text!r} is not a valid quantity")
        return cls(Fraction(_round_away(amount / _NANO)) * _NANO, fmt)

    @classmethod
    def from_milli(cls, milli: int, fmt: str = DECIMAL_SI) -> "Quantity":
        return cls(Fraction(milli, 1000), fmt)

    @classmethod
    def from_int(cls, value: int, fmt: str = DECIMAL_SI) -> "Quantity":
        return cls(Fraction(value), fmt)

    def value(self) -> int:
        """Integer value, rounded up (``Quantity.Value``)."""
        amount = self.amount
        return _round_away_ratio(amount.numerator, amount.denominator)

    def milli_value(self) -> int:
        """Value in thousandths, rounded up (``Quantity.MilliValue``)."""
        amount = self.amount
        return _round_away_ratio(amount.numerator * 1000, amount.denominator)

    def is_zero(self) -> bool:
        return self.amount == 0

    def __add__(self, other: "Quantity") -> "Quantity":
        return Quantity(self.amount + other.amount, self.format)

    def __sub__(self, other: "Quantity") -> "Quantity":
        return Quantity(self.amount - other.amount, self.format)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Quantity) and self.amount == other.amount

    def __lt__(self, other: "Quantity") -> bool:
        return self.amount < other.amount

    def __hash__(self) -> int:
        return hash(self.amount)

    def __str__(self) -> str:
        return canonical(self.amount, self.format)

    def __repr__(self) -> str:
        return f"Quantity({str(self)!r})"


def canonical(amount: Fraction, fmt: str) -> str:
    """The canonical text of a quantity, as ``Quantity.String`` prints it."""
    if amount == 0:
        return "0"
    if fmt == BINARY_SI and (abs(amount) < 1024 or amount.denominator != 1):
        fmt = DECIMAL_SI
    if fmt == BINARY_SI:
        mantissa, exp = int(amount), 0
        while mantissa % 1024 == 0 and exp < 60:
            mantissa, exp = mantissa // 1024, exp + 10
        suffix = {v: k for k, v in _BINARY.items()}.get(exp, "")
        return f"{mantissa}{suffix}"
    mantissa, exp = int(amount / _NANO), -9
    while mantissa % 1000 == 0 and exp < 18:
        mantissa, exp = mantissa // 1000, exp + 3
    if fmt == DECIMAL_EXPONENT:
        return f"{mantissa}" if exp == 0 else f"{mantissa}e{exp}"
    return f"{mantissa}{_DECIMAL_SUFFIX[exp]}"


_MAX_INPUT_TEXT = 64
_EXPONENT_TAIL = re.compile(r"[eE]([+-]?[0-9]+)$")


def parse_manifest_value(data: object) -> Quantity:
    """A manifest's quantity (text or YAML number), bounded: no 10**10**9 from ``1e999999999``."""
    text = repr(data) if isinstance(data, float) else data
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str) or len(text) > _MAX_INPUT_TEXT:
        raise QuantityError(f"{data!r} is not a valid quantity")
    exponent = _EXPONENT_TAIL.search(text)
    if exponent and abs(int(exponent.group(1))) > 60:
        raise QuantityError(f"{data!r} is not a valid quantity")
    return Quantity.parse(text)


def is_manifest_quantity(data: object) -> bool:
    try:
        parse_manifest_value(data)
    except (ValueError, ArithmeticError):
        return False
    return True

