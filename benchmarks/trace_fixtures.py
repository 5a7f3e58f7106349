"""Write the trace fixtures of every sample and lesson cluster (``tests/trace/fixtures/``).

Each cluster of sample_clusters/ and sample_clusters/lessons/ is run to idle with seed 0 and
its records are written as JSON lines (``kubesched.trace.digest``'s form, without ``seq``),
gzip'd with a fixed header so the bytes only change when the records do. The records are
those of the *per-call* trace that recorded every plugin call as a PLUGIN_CALL record and
Filter/Score/preemption as FEASIBLE_NODES, FILTER_WALK, NOMINATED_PASS, SCORE_SUMMARY,
SELECT_HOST and PREEMPTION_* records (the trace before issue 12).
``tests/trace/test_fixtures.py`` checks that the decision records of today's trace give the
same rows (``kubesched.trace.calls``), so no view's numbers changed with the trace contract.

Which engine writes them:

- ``--engine DIR``: a checkout whose recorder still stores per-call records, e.g. the commit
  before issue 12's trace change (``git worktree add /tmp/per-call <commit>``); its
  ``kubesched`` is imported instead of this tree's. The clusters are always this tree's.
- without ``--engine``: this tree, its decision records rendered in the old form by
  ``tests/trace/legacy.py``. Use it only after an intended behaviour change (the fixtures then
  guard the new behaviour; the rendering itself stays under test by the fixtures written
  from the per-call engine, see the test's docstring).

    .venv/bin/python benchmarks/trace_fixtures.py --engine /tmp/per-call   # ~5 s
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "trace" / "fixtures"


def clusters() -> list[Path]:
    """Every sample and lesson cluster, in a fixed order."""
    samples = ROOT / "sample_clusters"
    return sorted(samples.glob("*.yaml")) + sorted((samples / "lessons").glob("*.yaml"))


def fixture_path(cluster: Path) -> Path:
    """``sample_clusters/lessons/06-filter.yaml`` → ``fixtures/lessons__06-filter.jsonl.gz``."""
    name = str(cluster.relative_to(ROOT / "sample_clusters")).replace("/", "__")
    return FIXTURES / (name.removesuffix(".yaml") + ".jsonl.gz")


def write(path: Path, lines: list[str]) -> None:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as out:
        out.write("".join(line + "\n" for line in lines).encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def read(path: Path) -> list[dict]:
    """The records of a fixture, as ``record_to_dict`` gives them (no ``seq``)."""
    with gzip.open(path, "rt", encoding="utf-8") as text:
        return [json.loads(line) for line in text if line.strip()]


def _line(row: dict) -> str:
    return json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def records_of(cluster: Path, legacy) -> list[dict]:
    """The per-call records of one cluster run to idle (``legacy``: today's rendering, or None)."""
    from kubesched.sim.simulation import Simulation
    from kubesched.trace.digest import record_to_dict

    sim = Simulation.from_yaml(cluster, seed=0)
    sim.run_until_idle()
    if legacy is not None:
        return legacy(sim.trace)
    rows = [record_to_dict(r) for r in sim.trace]
    for row in rows:
        del row["seq"]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", type=Path, help="a checkout whose trace stores per-call records")
    args = parser.parse_args(argv)
    legacy = None
    if args.engine is not None:
        sys.path.insert(0, str(args.engine.resolve()))
    else:
        sys.path.insert(0, str(ROOT))
        from tests.trace.legacy import per_call_records as legacy
    import kubesched
    print(f"engine: {Path(kubesched.__file__).parent}", file=sys.stderr)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    total = 0
    for cluster in clusters():
        path = fixture_path(cluster)
        rows = records_of(cluster, legacy)
        write(path, [_line(row) for row in rows])
        total += path.stat().st_size
        print(f"{path.relative_to(ROOT)}: {len(rows)} records, {path.stat().st_size} bytes", file=sys.stderr)
    print(f"total {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
