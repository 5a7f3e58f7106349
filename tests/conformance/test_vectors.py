"""Every conformance vector case as one pytest case.

Upstream: the v1.18 unit-test tables translated to tests/conformance/vectors/*.yaml.
Cases with ``skip_reason`` are skipped with that reason; cases listed in ``xfail.yaml``
are strict xfails; files whose ``plugin`` has no adapter yet are skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubesched.conformance import adapter_for, case_id, run_case

HERE = Path(__file__).parent
VECTORS = HERE / "vectors"


def _xfails() -> dict[tuple[str, str, str], str]:
    entries = yaml.safe_load((HERE / "xfail.yaml").read_text()) or []
    out = {}
    for e in entries:
        stem = e["file"].removesuffix(".yaml")
        out[(stem, e.get("test") or "", e["name"])] = e["reason"]
    return out


def _params() -> list:
    xfails = _xfails()
    params = []
    for path in sorted(VECTORS.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        for case in (doc.get("cases") or []) + (doc.get("unit_cases") or []):
            marks = []
            if case.get("skip_reason"):
                marks.append(pytest.mark.skip(reason=str(case["skip_reason"])))
            reason = xfails.get((path.stem, case.get("test") or "", case["name"]))
            if reason is not None:
                marks.append(pytest.mark.xfail(reason=reason, strict=True))
            params.append(pytest.param(case, doc, id=f"{path.name}::{case_id(case)}", marks=marks))
    return params


@pytest.mark.parametrize(("case", "doc"), _params())
def test_vector(case: dict, doc: dict) -> None:
    if adapter_for(doc) is None:
        pytest.skip("no adapter yet")
    problems = run_case(case, doc)
    assert problems == [], "\n".join(problems)
