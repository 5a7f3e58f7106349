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
    assert (result.returncode, result.stdout, result.stderr) == (
        0, "sample_clusters/default.yaml: ok: 6 Node, 15 Pod\n", "")


@pytest.mark.parametrize("text,code,lines", [
    (NODE + "---\n" + POD, 0, ["{f}: ok: 1 Node, 1 Pod"]),
    (POD.replace("spec:\n", "spec:\n  extra: 1\n"), 0,
     ["{f}: 1 warning: 1 × unknown field (spec.extra); --verbose lists them", "{f}: ok: 1 Pod"]),
    (POD.replace("    image: nginx\n", "    image: nginx\n    resources: {requests: {cpu: 12x}}\n"), 1,
     ['{f}:9: Pod default/web-1: spec.containers[0].resources.requests.cpu: "12x" is not a valid quantity',
      "{f}: refused: 1 error"]),
    (NODE.replace("  name: node-1\n", "  name: node-1\n  labels: {ssd: yes}\n"), 1,
     ['{f}:5: Node node-1: metadata.labels.ssd: must be a string, but YAML read unquoted yes as a boolean: '
      'write "yes"', "{f}: refused: 1 error"]),
    (POD + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\n"
     "metadata: {name: b}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: s}\n", 0,
     ["{f}: kept 2 ConfigMap, 1 ServiceAccount: not used by kube-scheduler", "{f}: ok: 1 Pod"]),
    (POD.replace("  name: web-1\n", '  name: "web\\u2028x\\n"\n'), 1,
     ['{f}:4: Pod default/web\\u2028x\\n: metadata.name: Invalid value: "web\\u2028x\\n": a DNS-1123 subdomain '
      "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'example.com', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", "{f}: refused: 1 error"]),
])
def test_validate_output(tmp_path: pathlib.Path, text: str, code: int, lines: list[str]) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    out = io.StringIO()
    args = build_parser().parse_args(["validate", str(path)])
    assert run_validate(args, out) == code
    assert out.getvalue().splitlines() == [line.format(f=path) for line in lines]


WARNED = POD.replace("    image: nginx\n", "    image: nginx\n    imagePullPolicyy: Always\n    rezources: {}\n") \
    + "  schedulingGates: [{name: a}]\nstatus:\n  hostIPs: [{ip: 10.0.0.1}]\n  resize: x\n"


@pytest.mark.parametrize("flags,lines", [
    ([], ["{f}: 5 warnings: 3 × field not in Kubernetes v1.18 (spec.schedulingGates, status.hostIPs, status.resize), "
          "2 × unknown field (spec.containers[*].imagePullPolicyy, spec.containers[*].rezources); --verbose lists "
          "them", "{f}: ok: 1 Pod"]),
    (["--verbose"], [
        '{f}:9: warning: Pod default/web-1: spec.containers[0].imagePullPolicyy: unknown field (did you mean '
        '"imagePullPolicy"?)',
        '{f}:10: warning: Pod default/web-1: spec.containers[0].rezources: unknown field (did you mean "resources"?)',
        "{f}:11: warning: Pod default/web-1: spec.schedulingGates: field is not in Kubernetes v1.18 (added in 1.26)",
        "{f}:13: warning: Pod default/web-1: status.hostIPs: field is not in Kubernetes v1.18 (added in 1.28)",
        "{f}:14: warning: Pod default/web-1: status.resize: field is not in Kubernetes v1.18 (added in 1.27)",
        "{f}: ok: 1 Pod"]),
])
def test_warnings_are_grouped_unless_verbose(tmp_path: pathlib.Path, flags: list[str], lines: list[str]) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(WARNED)
    out = io.StringIO()
    assert run_validate(build_parser().parse_args(["validate", *flags, str(path)]), out) == 0
    assert out.getvalue().splitlines() == [line.format(f=path) for line in lines]


def test_validate_subprocess_exit_code(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("a: b: c\n")
    result = run("validate", str(path))
    assert (result.returncode, result.stdout) == (
        1, f"{path}:1: document 0: YAML syntax error (column 5): mapping values are not allowed in this context\n"
           f"{path}: refused: 1 error\n")


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
    samples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sample_clusters").glob("**/*.yaml"))
    result = run("validate", *samples)
    lines = result.stdout.splitlines()
    assert (result.returncode, len(lines)) == (0, len(samples))
    assert all(line.startswith(f"{sample}: ok: ") for line, sample in zip(lines, samples))
