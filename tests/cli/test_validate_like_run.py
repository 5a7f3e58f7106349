"""``validate`` loads a file exactly as ``run`` does: same refusals, same lines, same exit code.

Upstream: none (issue 17's finding: ``validate`` refused every file with a Scenario document and
never checked the KubeSchedulerConfiguration, while ``run`` did the opposite).
"""

from __future__ import annotations

import io
import pathlib

import pytest

from kubesched.cli.main import build_parser, run_validate
from kubesched.cli.run import run_run

ROOT = pathlib.Path(__file__).resolve().parents[2]
NODE = ("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {capacity: {cpu: '1', memory: 1Gi, pods: '10'}}\n")
CONFIG = "---\napiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
SCENARIO = "---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  seed: 3\n  actions:\n  - {at: 5, cordon: n1}\n"

CASES = {
    "scenario document": (NODE + SCENARIO, None, 0),
    "percentage as text": (NODE + CONFIG + "percentageOfNodesToScore: lots\n", None, 1),
    "percentage out of range": (NODE + CONFIG + "percentageOfNodesToScore: 500\n", None, 1),
    "a 1.19+ config version": (NODE + CONFIG.replace("v1alpha2", "v1beta1"), None, 1),
    "a config kubesched reads": (NODE + CONFIG + "percentageOfNodesToScore: 50\n", None, 0),
    "bad --config file": (NODE, "apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
                                "percentageOfNodesToScore: -3\n", 1),
    "scenario action on an unknown verb": (NODE + SCENARIO.replace("cordon: n1", "drain: n1"), None, 1),
    "cluster error": (NODE.replace("cpu: '1'", "cpu: 1x"), None, 1),
    "a Policy with an unknown predicate": (NODE + "---\nkind: Policy\napiVersion: v1\npredicates:\n"
                                                  "- {name: PodFitsNothing}\n", None, 1),
    "a Policy the scheduler reads": (NODE + "---\nkind: Policy\napiVersion: v1\npredicates:\n"
                                            "- {name: PodFitsResources}\n", None, 0),
    "a line separator in a name stays on one line": (NODE.replace("name: n1", 'name: "n\\u2028one"'), None, 1),
}


def _validate(path: pathlib.Path, config: pathlib.Path | None) -> tuple[int, list[str]]:
    out = io.StringIO()
    argv = ["validate", str(path)] + (["--config", str(config)] if config else [])
    code = run_validate(build_parser().parse_args(argv), out)
    return code, out.getvalue().splitlines()


def _run(path: pathlib.Path, config: pathlib.Path | None) -> tuple[int, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["run", str(path), "--until", "0"] + (["--config", str(config)] if config else [])
    code = run_run(build_parser().parse_args(argv), out, err)
    return code, [line for line in err.getvalue().splitlines() if not line.startswith("note:")]


@pytest.mark.parametrize("name", list(CASES))
def test_validate_refuses_what_run_refuses(tmp_path: pathlib.Path, name: str) -> None:
    text, config_text, want = CASES[name]
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    config = None
    if config_text is not None:
        config = tmp_path / "config.yaml"
        config.write_text(config_text)
    code, lines = _validate(path, config)
    run_code, run_lines = _run(path, config)
    assert (code, run_code) == (want, want)
    if want:
        assert all("\u2028" not in line for line in lines)
        assert lines == run_lines + [f"{path}: refused: {len(run_lines)} error{'s' if len(run_lines) > 1 else ''}"]
    else:
        assert lines[-1].startswith(f"{path}: ok: 1 Node")


@pytest.mark.parametrize("sample", sorted(p.name for p in (ROOT / "sample_clusters" / "lessons").glob("*.yaml")))
def test_every_lesson_cluster_validates(sample: str) -> None:
    code, lines = _validate(ROOT / "sample_clusters" / "lessons" / sample, None)
    assert (code, len(lines)) == (0, 1), lines


def test_a_policy_config_file_is_read_as_run_reads_it(tmp_path: pathlib.Path) -> None:
    path, policy = tmp_path / "cluster.yaml", tmp_path / "policy.yaml"
    path.write_text(NODE)
    policy.write_text("kind: Policy\napiVersion: v1\npriorities:\n- {name: LeastRequestedPriority, weight: -1}\n")
    out, run_out, run_err = io.StringIO(), io.StringIO(), io.StringIO()
    code = run_validate(build_parser().parse_args(["validate", str(path), "--policy-config-file", str(policy)]), out)
    run_code = run_run(build_parser().parse_args(["run", str(path), "--policy-config-file", str(policy)]),
                       run_out, run_err)
    lines = out.getvalue().splitlines()
    assert (code, run_code, lines[:-1]) == (1, 1, run_err.getvalue().splitlines())
    assert lines[-1] == f"{path}: refused: {len(lines) - 1} error{'s' if len(lines) > 2 else ''}"


def test_the_policy_config_map_is_named_as_used_not_kept() -> None:
    """kube-scheduler reads the ConfigMap ``algorithmSource.policy.configMap`` names (``initPolicyFromConfigMap``)."""
    code, lines = _validate(ROOT / "sample_clusters" / "lessons" / "20-policy-to-plugins.yaml", None)
    assert code == 0
    assert len(lines) == 1 and "not used by kube-scheduler" not in lines[0]
    assert lines[0].endswith("; KubeSchedulerConfiguration; Policy from ConfigMap kube-system/scheduler-policy"), lines
