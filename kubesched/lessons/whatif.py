"""What-if variants: the lesson's cluster with a few changes, run by the engine, so a question's
answer about "what if node-2 had the label?" is computed, never written down.

Upstream: no counterpart. A patch merges as ``kubectl patch`` (strategic merge) does for the
fields lessons change: mappings merge key by key, ``null`` removes a key, a list of mappings
that all have a ``name`` (containers, volumes) merges item by item by name, any other list
(taints, tolerations, matchExpressions) is replaced whole.

``variant_source(lesson, changes)`` is the variant's cluster text (and configuration);
``describe(change)`` names a change in one line;
``run(lesson, question)`` runs it to the question's ``at`` (default: until idle or the horizon)
and returns the Simulation there. Both raise ``LessonError`` naming the lesson file and the
change that does not apply.
"""

from __future__ import annotations

from typing import Any

import yaml

from kubesched.lessons import runner
from kubesched.lessons.format import Change, Lesson, LessonError, Question
from kubesched.sim.scenario import SCENARIO_API_VERSION, SCENARIO_KIND, dump, join_documents
from kubesched.sim.simulation import Simulation

CONFIG_KIND = "KubeSchedulerConfiguration"
CONFIG_API_VERSION = "kubescheduler.config.k8s.io/v1alpha2"


def merge(base: Any, patch: Any) -> Any:
    """``base`` with ``patch`` merged in (the rules in the module docstring); inputs untouched."""
    if isinstance(patch, dict) and isinstance(base, dict):
        out = dict(base)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merge(base.get(key), value)
        return out
    if isinstance(patch, list) and isinstance(base, list) and _named(patch) and _named(base):
        out_list = list(base)
        for item in patch:
            index = next((i for i, old in enumerate(out_list) if old["name"] == item["name"]), None)
            if index is None:
                out_list.append(item)
            else:
                out_list[index] = merge(out_list[index], item)
        return out_list
    return patch


def _named(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(i, dict) and "name" in i for i in items)


def _matches(doc: Any, target: str) -> bool:
    parts = target.split("/")
    kind, name = parts[0], parts[-1]
    namespace = parts[1] if len(parts) == 3 else None
    if not isinstance(doc, dict) or doc.get("kind") != kind:
        return False
    meta = doc.get("metadata") or {}
    if meta.get("name") != name:
        return False
    return namespace is None or (meta.get("namespace") or "default") == namespace


def _find(docs: list[Any], target: str, where: str) -> int:
    for i, doc in enumerate(docs):
        if _matches(doc, target):
            return i
    raise LessonError(f"{where}: no {target} in the lesson's cluster")


def _scenario(docs: list[Any]) -> dict[str, Any]:
    for doc in docs:
        if isinstance(doc, dict) and doc.get("kind") == SCENARIO_KIND:
            return doc
    doc = {"apiVersion": SCENARIO_API_VERSION, "kind": SCENARIO_KIND, "spec": {"actions": []}}
    docs.append(doc)
    return doc


def _config(lesson: Lesson, docs: list[Any]) -> dict[str, Any]:
    """The configuration document the variant runs with (moved into the cluster text)."""
    for i, doc in enumerate(docs):
        if isinstance(doc, dict) and doc.get("kind") == CONFIG_KIND:
            return docs.pop(i)
    if lesson.config_path is not None:
        found = [d for d in yaml.safe_load_all(lesson.config_path.read_text(encoding="utf-8"))
                 if isinstance(d, dict) and d.get("kind") == CONFIG_KIND]
        if found:
            return found[0]
    return {"apiVersion": CONFIG_API_VERSION, "kind": CONFIG_KIND}


def variant_source(lesson: Lesson, changes: tuple[Change, ...]) -> tuple[str, dict[str, Any] | None]:
    """(the variant's cluster text, its configuration as a mapping, or None: the lesson's own)."""
    docs = [d for d in yaml.safe_load_all(lesson.cluster_path.read_text(encoding="utf-8")) if d is not None]
    config: dict[str, Any] | None = None
    for i, change in enumerate(changes):
        where = f"{lesson.path or lesson.id}: what_if[{i}]"
        if change.verb == "patch":
            index = _find(docs, change.target, where)
            docs[index] = merge(docs[index], change.data())
        elif change.verb == "delete":
            docs.pop(_find(docs, change.target, where))
        elif change.verb == "create":
            docs.append(change.data())
        elif change.verb == "config":
            config = merge(config if config is not None else _config(lesson, docs), change.data())
        else:
            spec = _scenario(docs).setdefault("spec", {})
            spec["actions"] = list(spec.get("actions") or []) + [change.data()]
    return join_documents(dump(d) for d in docs), config


def describe(change: Change) -> str:
    """One line naming a change (identifiers only, the same in every language)."""
    data = change.data()
    if change.verb == "patch":
        return f"patch {change.target} {_json(data)}"
    if change.verb == "delete":
        return f"delete {change.target}"
    if change.verb == "create":
        return f"create {data['kind']}/{data['metadata']['name']}"
    if change.verb == "config":
        return f"{CONFIG_KIND} {_json(data)}"
    at = data.pop("at")
    (verb, body), = data.items()
    if not isinstance(body, (str, dict)):           # killLeader: true
        return f"at t={at:g} s: {verb}"
    target = body if isinstance(body, str) else f"{body.get('kind', '')}/{(body.get('metadata') or body).get('name', '')}"
    return f"at t={at:g} s: {verb} {target}"


class _OneLineDumper(yaml.SafeDumper):
    """Flow YAML on one line: the page shows it as Markdown, where a wrapped dump's indented
    lines (or a quoted string's line breaks) would read as a code block."""


def _one_line_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if "\n" in value else None)


_OneLineDumper.add_representer(str, _one_line_str)


def _json(data: Any) -> str:
    return yaml.dump(data, Dumper=_OneLineDumper, default_flow_style=True, sort_keys=False, width=float("inf")).strip()


def run(lesson: Lesson, question: Question, seed: int | None = None) -> Simulation:
    """The variant's Simulation (with ``seed``, else the cluster's), stopped where ``question.at``
    says (default: idle)."""
    text, config = variant_source(lesson, question.what_if)
    try:
        sim = Simulation.from_text(text, config=config if config is not None else lesson.config_path,
                                   horizon=lesson.horizon, seed=seed)
    except ValueError as err:
        raise LessonError(f"{lesson.path or lesson.id}: the what-if variant does not load: {err}") from None
    if not question.at:
        sim.run_until_idle()
    for target in question.at:
        runner.goto(sim, target)
    return sim


__all__ = ["describe", "merge", "run", "variant_source"]
