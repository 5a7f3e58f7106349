"""``python -m kubesched validate`` and ``--help``."""

from __future__ import annotations

import io
import pathlib
import subprocess
import sys

import pytest

from kubesched.cli.main import COMMANDS, main, run_validate, build_parser
from tests.api.helpers import NODE, POD

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kubesched", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_help_lists_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "validate" in result.stdout and "COMMAND" in result.stdout


def test_validate_clean_sample() -> None:
    result = run("validate", "sample_clusters/default.yaml")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize("text,code,lines", [
    (NODE + "---\n" + POD, 0, []),
    (POD.replace("spec:\n", "spec:\n  extra: 1\n"), 0,
     ["{f}:6: warning: Pod default/web-1: spec.extra: unknown field"]),
    (POD.replace("    image: nginx\n", "    image: nginx\n    resources: {requests: {cpu: 12x}}\n"), 1,
     ['{f}:9: Pod default/web-1: spec.containers[0].resources.requests.cpu: "12x" is not a valid quantity']),
    (NODE.replace("  name: node-1\n", "  name: node-1\n  labels: {ssd: yes}\n"), 1,
     ['{f}:5: Node node-1: metadata.labels.ssd: must be a string, but YAML read unquoted yes as a boolean: '
      'write "yes"']),
])
def test_validate_output(tmp_path: pathlib.Path, text: str, code: int, lines: list[str]) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    out = io.StringIO()
    args = build_parser().parse_args(["validate", str(path)])
    assert run_validate(args, out) == code
    assert out.getvalue().splitlines() == [line.format(f=path) for line in lines]


def test_validate_subprocess_exit_code(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("a: b: c\n")
    result = run("validate", str(path))
    assert (result.returncode, result.stdout) == (
        1, f"{path}:1: document 0: YAML syntax error (column 5): mapping values are not allowed in this context\n")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "validate" in capsys.readouterr().out


def test_commands_registry() -> None:
    assert list(COMMANDS) == ["validate", "run", "explain", "import", "bench"]


@pytest.mark.parametrize("flags, code, duplicates", [
    ([], 0, 0),               # each file is its own cluster
    (["--together"], 1, 1),   # one cluster: the same node name twice
])
def test_validate_files_separately_or_together(tmp_path: pathlib.Path, flags: list[str], code: int,
                                               duplicates: int) -> None:
    paths = []
    for name in ("a.yaml", "b.yaml"):
        path = tmp_path / name
        path.write_text(NODE)
        paths.append(str(path))
    out = io.StringIO()
    assert run_validate(build_parser().parse_args(["validate", *flags, *paths]), out) == code
    assert sum("Duplicate value" in line for line in out.getvalue().splitlines()) == duplicates


def test_validate_all_samples_at_once() -> None:
    samples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sample_clusters").glob("*.yaml"))
    result = run("validate", *samples)
    assert (result.returncode, result.stdout) == (0, "")
