"""``python -m kubesched.conformance FILE_OR_DIR...``: run vector files, print failures and totals."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kubesched.conformance import case_id, run_case


def vector_files(args: list[str]) -> list[Path]:
    files: list[Path] = []
    for arg in args:
        path = Path(arg)
        files.extend(sorted(path.glob("*.yaml")) if path.is_dir() else [path])
    return [f for f in files if f.name != "README.md"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    passed = failed = skipped = 0
    for path in vector_files(args):
        doc = yaml.safe_load(path.read_text())
        for case in doc.get("cases", []) + doc.get("unit_cases", []):
            if case.get("skip_reason"):
                skipped += 1
                continue
            problems = run_case(case, doc)
            if problems:
                failed += 1
                print(f"{path.name}: {case_id(case)}: {'; '.join(problems)}")
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
