"""``python -m kubesched validate``: load files exactly as ``run`` does and say what is wrong, briefly.

Upstream: no counterpart (``kubectl apply --dry-run=server`` is the nearest); the messages follow the
API server's field errors and the v1.18 OpenAPI check.

Each FILE goes through ``run``'s own loading (``kubesched.cli.run.open_simulation``: the cluster, its
KubeSchedulerConfiguration or Policy, ``--config``, ``--policy-config-file``, its Scenario), so
``validate`` accepts what ``run`` accepts and refuses what it refuses. Output, per file:

- every error, one line each (file, line, object, field);
- warnings grouped and counted in one line (``3 warnings: 2 × unknown field (spec.extra, …), …``);
  ``--verbose`` lists them one per line instead;
- the kinds kept but not used by kube-scheduler, in one line (a ConfigMap that
  ``algorithmSource.policy.configMap`` names is used: the summary says so instead);
- a one-line summary: ``FILE: ok: 6 Node, 40 Pod`` or ``FILE: refused: 2 errors``.

User values are printed escaped, so a problem never spans two lines. ``--together`` loads all files as
one cluster (objects only: ``run`` reads one file). Exit 1 when any file has an error.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from kubesched.api.load import LoadedCluster, LoadError, LoadProblem, inert_summary, load_files, one_line
from kubesched.cli.commands import Command
from kubesched.cli.run import input_errors, open_simulation, problem_lines

GROUPS = {
    "newer-field": "field not in Kubernetes v1.18",
    "unknown-field": "unknown field",
    "priority-class-missing": "PriorityClass not in the input",
}
SHOWN_PATHS = 3
_INDEX = re.compile(r"\[\d+\]")


def _configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", metavar="FILE", nargs="+",
                        help="cluster YAML, as `run` reads it (may hold a KubeSchedulerConfiguration and a "
                             "Scenario); each file is one cluster unless --together")
    parser.add_argument("--config", metavar="FILE", help="KubeSchedulerConfiguration file, as `run --config`")
    parser.add_argument("--policy-config-file", metavar="FILE", dest="policy_config_file",
                        help="legacy scheduler Policy file, as `run --policy-config-file`")
    parser.add_argument("--verbose", action="store_true", help="list every warning instead of counting them")
    parser.add_argument("--together", action="store_true",
                        help="load all files as one cluster (references may cross files; objects only)")


def _path_pattern(problem: LoadProblem) -> str:
    path = problem.path
    if path.startswith("items["):
        path = path.split(".", 1)[1] if "." in path else path
    return _INDEX.sub("[*]", path)


def warning_summary(warnings: Sequence[LoadProblem]) -> str:
    """``3 warnings: 2 × unknown field (spec.extra, status.x), 1 × …`` ("" when none)."""
    if not warnings:
        return ""
    groups: dict[str, list[str]] = {}
    for w in warnings:
        paths = groups.setdefault(GROUPS.get(w.code, w.message if not w.code else w.code), [])
        paths.append(_path_pattern(w))
    parts = []
    for label, paths in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        distinct = list(dict.fromkeys(paths))
        shown = ", ".join(distinct[:SHOWN_PATHS]) + (f", +{len(distinct) - SHOWN_PATHS} more"
                                                    if len(distinct) > SHOWN_PATHS else "")
        parts.append(f"{len(paths)} × {label} ({shown})")
    noun = "warning" if len(warnings) == 1 else "warnings"
    return f"{len(warnings)} {noun}: " + ", ".join(parts) + "; --verbose lists them"


def _counts(objects: Iterable[Any]) -> str:
    counts: dict[str, int] = {}
    for obj in objects:
        counts[obj.KIND] = counts.get(obj.KIND, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "no objects"


def _report_loaded(name: str, cluster: LoadedCluster | None, extra: str, verbose: bool,
                   out: TextIO) -> None:
    warnings = list(cluster.warnings) if cluster is not None else []
    if verbose:
        for w in warnings:
            print(w, file=out)
    elif warnings:
        print(f"{name}: {warning_summary(warnings)}", file=out)
    kept = inert_summary(cluster.inert) if cluster is not None else ""
    if kept:
        print(f"{name}: {kept}", file=out)
    objects = _counts(cluster.objects) if cluster is not None else "no objects"
    print(one_line(f"{name}: ok: {objects}{extra}"), file=out)


def _report_refused(name: str, err: BaseException, verbose: bool, out: TextIO) -> None:
    problems = getattr(err, "problems", ())
    warnings = [p for p in problems if isinstance(p, LoadProblem) and p.warning]
    errors = [p for p in problems if not (isinstance(p, LoadProblem) and p.warning)]
    lines = problem_lines(err) if not problems else [one_line(str(p)) for p in errors]
    for line in lines:
        print(line, file=out)
    if verbose:
        for w in warnings:
            print(w, file=out)
    elif warnings:
        print(f"{name}: {warning_summary(warnings)}", file=out)
    count = len(lines)
    print(one_line(f"{name}: refused: {count} error{'s' if count != 1 else ''}"), file=out)


def _validate_file(name: str, args: argparse.Namespace, out: TextIO) -> bool:
    verbose = getattr(args, "verbose", False)
    try:
        sim = open_simulation(name, getattr(args, "config", None), None, trace=False,
                              policy=getattr(args, "policy_config_file", None))
    except input_errors() as err:
        _report_refused(name, err, verbose, out)
        return False
    inputs = sim.inputs
    actions = len(inputs.scenario.actions)
    extra = "" if not actions else f"; Scenario: {actions} action{'s' if actions != 1 else ''}"
    extra += "; KubeSchedulerConfiguration" if inputs.config_given else ""
    loaded, policy_map = _without_policy_config_map(inputs.loaded, inputs.config)
    extra += f"; Policy from ConfigMap {policy_map}" if policy_map else ""
    _report_loaded(name, loaded, extra, verbose, out)
    return True


def _without_policy_config_map(loaded: LoadedCluster | None, config: Any) -> tuple[LoadedCluster | None, str]:
    """The cluster without the ConfigMap that ``algorithmSource.policy.configMap`` names (kube-scheduler
    reads it: ``initPolicyFromConfigMap``), and ``namespace/name`` of it ("" when there is none)."""
    source = config.algorithm_source
    ref = source.policy.config_map if source.policy is not None else None
    if loaded is None or ref is None:
        return loaded, ""
    kept = tuple(o for o in loaded.inert if not (o.kind == "ConfigMap" and o.metadata.name == ref.name
                                                  and (o.metadata.namespace or "default") == ref.namespace))
    return dataclasses.replace(loaded, inert=kept), f"{ref.namespace}/{ref.name}"


def _validate_together(files: Sequence[str], verbose: bool, out: TextIO) -> bool:
    name = ", ".join(files)
    try:
        cluster = load_files(files)
    except LoadError as err:
        _report_refused(name, err, verbose, out)
        return False
    _report_loaded(name, cluster, "", verbose, out)
    return True


def run_validate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    verbose = getattr(args, "verbose", False)
    if args.together:
        ok = _validate_together(args.files, verbose, out)
    else:
        ok = all([_validate_file(f, args, out) for f in args.files])
    return 0 if ok else 1


COMMAND = Command("validate", "load files exactly as `run` does; errors, counted warnings and a summary "
                              "(exit 1 on errors)", _configure_validate, run_validate)
