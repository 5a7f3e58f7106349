"""Quantity parsing, rounding, canonical form and comparison.

Upstream: TestQuantityParse, TestQuantityString, TestQuantityValue in
staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go (subset).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from kubesched.api.quantity import (BINARY_SI, DECIMAL_EXPONENT, DECIMAL_SI, Quantity,
                                    QuantityError)


@dataclass(frozen=True)
class Case:
    text: str
    amount: Fraction
    fmt: str
    value: int
    milli: int
    canonical: str


CASES = [
    Case("0", Fraction(0), DECIMAL_SI, 0, 0, "0"),
    Case("1", Fraction(1), DECIMAL_SI, 1, 1000, "1"),
    Case("+1", Fraction(1), DECIMAL_SI, 1, 1000, "1"),
    Case("-1", Fraction(-1), DECIMAL_SI, -1, -1000, "-1"),
    Case("1.0", Fraction(1), DECIMAL_SI, 1, 1000, "1"),
    Case(".5", Fraction(1, 2), DECIMAL_SI, 1, 500, "500m"),
    Case("1.5", Fraction(3, 2), DECIMAL_SI, 2, 1500, "1500m"),
    Case("1234567", Fraction(1234567), DECIMAL_SI, 1234567, 1234567000, "1234567"),
    Case("1n", Fraction(1, 10**9), DECIMAL_SI, 1, 1, "1n"),
    Case("1u", Fraction(1, 10**6), DECIMAL_SI, 1, 1, "1u"),
    Case("100m", Fraction(1, 10), DECIMAL_SI, 1, 100, "100m"),
    Case("1000m", Fraction(1), DECIMAL_SI, 1, 1000, "1"),
    Case("1k", Fraction(1000), DECIMAL_SI, 1000, 10**6, "1k"),
    Case("1M", Fraction(10**6), DECIMAL_SI, 10**6, 10**9, "1M"),
    Case("100M", Fraction(10**8), DECIMAL_SI, 10**8, 10**11, "100M"),
    Case("1G", Fraction(10**9), DECIMAL_SI, 10**9, 10**12, "1G"),
    Case("1T", Fraction(10**12), DECIMAL_SI, 10**12, 10**15, "1T"),
    Case("1P", Fraction(10**15), DECIMAL_SI, 10**15, 10**18, "1P"),
    Case("1E", Fraction(10**18), DECIMAL_SI, 10**18, 10**21, "1E"),
    Case("1Ki", Fraction(2**10), BINARY_SI, 1024, 1024000, "1Ki"),
    Case("1Mi", Fraction(2**20), BINARY_SI, 2**20, 2**20 * 1000, "1Mi"),
    Case("1Gi", Fraction(2**30), BINARY_SI, 2**30, 2**30 * 1000, "1Gi"),
    Case("1Ti", Fraction(2**40), BINARY_SI, 2**40, 2**40 * 1000, "1Ti"),
    Case("1Pi", Fraction(2**50), BINARY_SI, 2**50, 2**50 * 1000, "1Pi"),
    Case("1Ei", Fraction(2**60), BINARY_SI, 2**60, 2**60 * 1000, "1Ei"),
    Case("1.5Gi", Fraction(3 * 2**29), BINARY_SI, 1610612736, 1610612736000, "1536Mi"),
    Case("2048Ki", Fraction(2**21), BINARY_SI, 2**21, 2**21 * 1000, "2Mi"),
    Case("1000Ki", Fraction(1024000), BINARY_SI, 1024000, 1024000000, "1000Ki"),
    Case("0.5Ki", Fraction(512), BINARY_SI, 512, 512000, "512"),
    Case("1e3", Fraction(1000), DECIMAL_EXPONENT, 1000, 10**6, "1e3"),
    Case("1E3", Fraction(1000), DECIMAL_EXPONENT, 1000, 10**6, "1e3"),
    Case("1.5e3", Fraction(1500), DECIMAL_EXPONENT, 1500, 1500000, "1500"),
    Case("12e-3", Fraction(12, 1000), DECIMAL_EXPONENT, 1, 12, "12e-3"),
    Case("1e-9", Fraction(1, 10**9), DECIMAL_EXPONENT, 1, 1, "1e-9"),
    Case("0.0000000001", Fraction(1, 10**9), DECIMAL_SI, 1, 1, "1n"),
    Case("1.0001m", Fraction(1000100, 10**9), DECIMAL_SI, 1, 2, "1000100n"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text)
def test_parse(case: Case) -> None:
    q = Quantity.parse(case.text)
    assert (q.amount, q.format) == (case.amount, case.fmt)
    assert (q.value(), q.milli_value()) == (case.value, case.milli)
    assert str(q) == case.canonical


@pytest.mark.parametrize("text", ["", " 1", "1 ", "12x", "1.2.3", "Ki", "1KiB", "e3", "1e", "--1",
                                  "1 Gi", "1ki", "0x10", "1.5.Gi", "m"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(QuantityError):
        Quantity.parse(text)


@pytest.mark.parametrize("value", [True, None, 1.5, [1]])
def test_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(QuantityError):
        Quantity.parse(value)  # type: ignore[arg-type]


def test_parse_accepts_int() -> None:
    assert Quantity.parse(3) == Quantity.parse("3")


@pytest.mark.parametrize("a,b,relation", [
    ("1Ki", "1k", ">"),
    ("1000m", "1", "=="),
    ("500m", "1", "<"),
    ("1Gi", "1G", ">"),
    ("1e3", "1k", "=="),
    ("-1", "0", "<"),
    ("1n", "0", ">"),
])
def test_compare(a: str, b: str, relation: str) -> None:
    qa, qb = Quantity.parse(a), Quantity.parse(b)
    got = ">" if qa > qb else "<" if qa < qb else "=="
    assert got == relation
    assert (hash(qa) == hash(qb)) == (relation == "==")


@pytest.mark.parametrize("milli,canonical", [(0, "0"), (1, "1m"), (250, "250m"), (1000, "1"), (1500, "1500m"),
                                             (2000000, "2k")])
def test_from_milli(milli: int, canonical: str) -> None:
    q = Quantity.from_milli(milli)
    assert (q.milli_value(), str(q)) == (milli, canonical)


@pytest.mark.parametrize("a,b,total,difference", [
    ("1", "500m", "1500m", "500m"),
    ("1Gi", "512Mi", "1536Mi", "512Mi"),
    ("2", "2", "4", "0"),
])
def test_add_sub(a: str, b: str, total: str, difference: str) -> None:
    qa, qb = Quantity.parse(a), Quantity.parse(b)
    assert (str(qa + qb), str(qa - qb)) == (total, difference)


def test_from_int() -> None:
    assert (Quantity.from_int(5).value(), str(Quantity.from_int(5))) == (5, "5")
    assert str(Quantity.from_int(2048, BINARY_SI)) == "2Ki"
