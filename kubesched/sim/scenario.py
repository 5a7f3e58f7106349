"""Scenario documents: ``kind: Scenario`` (``apiVersion: kubesched/v1alpha1``) — seed, scheduler
replicas and timed actions — read from a cluster file and written back.

Upstream: no counterpart (a scenario is what a lesson, a benchmark or a bug report needs:
"a node arrives at t=5 s").

Format::

    apiVersion: kubesched/v1alpha1
    kind: Scenario
    metadata: {name: node-arrives}          # optional
    spec:
      seed: 7                               # optional (default 0)
      replicas: 2                           # scheduler replicas (default 1)
      actions:
      - {at: 5, create: {apiVersion: v1, kind: Node, metadata: {name: n4}, ...}}
      - {at: 8, update: <whole manifest>}
      - {at: 9, delete: {kind: Pod, namespace: default, name: web-1}}
      - {at: 10, cordon: n1}
      - {at: 11, uncordon: n1}
      - {at: 20, killLeader: true}
      - {at: 21, partition: scheduler-a}    # that replica's requests fail, its watches stall
      - {at: 22, stallWatch: scheduler-b}   # only its watches stall (its requests still succeed)
      - {at: 31, tick: true}                # a TIME record at t=31 s (time passes; nothing changes)

``partition`` and ``stallWatch`` name a scheduler replica by hostname (``scheduler-a`` is the
first, ``scheduler-b`` the second …); the cut lasts to the end of the run (kubesched.sim.edits.Partition).

``at`` is in simulated seconds. An action may also carry ``afterEvent: N`` (written by
``Simulation.to_scenario_yaml`` for edits made with ``Simulation.apply``): it is then applied
right after the engine's N-th loop callback instead of as a callback of its own at ``at``,
which reproduces the edited run exactly.

Bounds: ``at`` is at most ``MAX_ACTION_SECONDS``; a timed action (no ``afterEvent``) is at most
one horizon after the timed action before it (the first: after t=0), since a run stops a
horizon after its last change (``horizon_problems``, checked when the Simulation is built).
The document is held to the standard of manifests: duplicate keys, non-string keys and
unknown fields are errors with their line.

``split_source(text, file)`` finds the Scenario document (at most one) in a multi-document
cluster text and returns the text with that document blanked out (line numbers of the other
documents are unchanged: lines end where YAML ends them, also at a lone CR, NEL, U+2028 and
U+2029) plus the parsed ``Scenario``. Every problem is a ``ScenarioProblem``
naming file, line and field path, raised together as one ``ScenarioError``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from kubesched.api.decode import decode_object
from kubesched.api.kinds import KINDS, is_namespaced
from kubesched.api.validate import validate_object
from kubesched.api.yaml_source import Document, read_documents
from kubesched.sim.edits import (
    Cordon,
    Create,
    Delete,
    Edit,
    KillLeader,
    Partition,
    Tick,
    Uncordon,
    Update,
    to_action,
)

SCENARIO_KIND = "Scenario"
SCENARIO_API_VERSION = "kubesched/v1alpha1"
DEFAULT_FILENAME = "<string>"
ACTION_VERBS = ("create", "update", "delete", "cordon", "uncordon", "killLeader", "partition", "stallWatch", "tick")
MAX_ACTION_SECONDS = 10_000_000
"""Latest ``at`` (about 116 days of simulated time; far beyond any horizon a run reaches)."""
_REPLICA = re.compile(r"^scheduler-(?:[a-z]|[1-9][0-9]*)$")  # kubesched.sim.replica.hostname
_SEPARATOR = re.compile(r"^(---|\.\.\.)(\s|$)")
_LINE_BREAK = re.compile("(\r\n|[\r\n\x85\u2028\u2029])")  # YAML 1.1 line breaks (PyYAML, libyaml)


@dataclass(frozen=True, slots=True)
class ScenarioProblem:
    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        path = f"{self.path}: " if self.path else ""
        return f"{self.file}:{self.line}: Scenario: {path}{self.message}"


class ScenarioError(ValueError):
    """The Scenario document has errors; ``problems`` lists each with file, line and field."""

    def __init__(self, problems: Sequence[ScenarioProblem]):
        self.problems = tuple(problems)
        super().__init__(f"{len(self.problems)} error(s) in the scenario:\n"
                         + "\n".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Action:
    """One timed edit."""

    at: float
    edit: Edit
    after_event: int | None = None
    line: int = 0
    path: str = ""


@dataclass(frozen=True, slots=True)
class Scenario:
    seed: int | None = None
    replicas: int = 1
    actions: tuple[Action, ...] = ()
    name: str = ""
    file: str = DEFAULT_FILENAME
    line: int = 0


# -- finding the document ------------------------------------------------------------------------------
def is_scenario(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == SCENARIO_KIND


def split_source(text: str, file: str = DEFAULT_FILENAME) -> tuple[str, Scenario | None]:
    """(the text without its Scenario document, the parsed Scenario or None)."""
    if SCENARIO_KIND not in text:  # no document can say kind: Scenario (the cluster loader reads the rest)
        return text, None
    documents, _error = read_documents(text)
    found = [d for d in documents if is_scenario(d.data)]
    if not found:
        return text, None
    if len(found) > 1:
        raise ScenarioError([ScenarioProblem(file, d.line, "", f"a second {SCENARIO_KIND} document "
                                             f"(the first is at line {found[0].line}); a file may hold one")
                             for d in found[1:]])
    scenario = parse(found[0], file)
    return blank_document(text, found[0].line), scenario


def blank_document(text: str, start_line: int) -> str:
    """``text`` with the document starting at ``start_line`` (1-based) replaced by empty lines."""
    parts = _LINE_BREAK.split(text)
    lines = parts[0::2]
    i = start_line - 1
    while i < len(lines) and not (i > start_line - 1 and _SEPARATOR.match(lines[i])):
        if i == start_line - 1 and _SEPARATOR.match(lines[i]):
            # "--- apiVersion: …" on the separator line itself: keep the separator only.
            lines[i] = lines[i][:3]
        else:
            lines[i] = ""
        i += 1
    parts[0::2] = lines
    return "".join(parts)


# -- parsing -------------------------------------------------------------------------------------------------
class _Problems:
    def __init__(self, doc: Document, file: str) -> None:
        self.doc, self.file = doc, file
        self.items = [ScenarioProblem(file, line, path, message) for path, message, line in doc.key_errors]
        self._keyed = {path for path, _, _ in doc.key_errors}  # said once: no "unknown field" on top

    def add(self, path: str, message: str) -> None:
        if path not in self._keyed:
            self.items.append(ScenarioProblem(self.file, self.doc.line_of(path), path, message))


def parse(doc: Document, file: str = DEFAULT_FILENAME) -> Scenario:
    """The Scenario of one read document; raises ``ScenarioError`` listing every problem."""
    problems = _Problems(doc, file)
    data = doc.data
    if data.get("apiVersion") != SCENARIO_API_VERSION:
        problems.add("apiVersion", f'must be "{SCENARIO_API_VERSION}", not {_show(data.get("apiVersion"))}')
    for key in data:
        if key not in ("apiVersion", "kind", "metadata", "spec"):
            problems.add(key, "unknown field")
    name = ""
    meta = data.get("metadata")
    if meta is not None:
        if not isinstance(meta, dict):
            problems.add("metadata", f"must be a mapping, not {_show(meta)}")
        else:
            name = meta.get("name", "") if isinstance(meta.get("name", ""), str) else ""
    spec = data.get("spec", {})
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        problems.add("spec", f"must be a mapping, not {_show(spec)}")
        raise ScenarioError(problems.items)
    for key in spec:
        if key not in ("seed", "replicas", "actions"):
            problems.add(f"spec.{key}", "unknown field (expected seed, replicas, actions)")
    seed = spec.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        problems.add("spec.seed", f"must be a non-negative integer, not {_show(seed)}")
        seed = None
    replicas = spec.get("replicas", 1)
    if not isinstance(replicas, int) or isinstance(replicas, bool) or not 1 <= replicas <= 26:
        problems.add("spec.replicas", f"must be an integer from 1 to 26, not {_show(replicas)}")
        replicas = 1
    actions_data = spec.get("actions", []) or []
    actions: list[Action] = []
    if not isinstance(actions_data, list):
        problems.add("spec.actions", f"must be a list, not {_show(actions_data)}")
    else:
        for i, item in enumerate(actions_data):
            action = _action(item, f"spec.actions[{i}]", problems)
            if action is not None:
                actions.append(action)
    if problems.items:
        raise ScenarioError(problems.items)
    return Scenario(seed, replicas, tuple(actions), name, file, doc.line)


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 80 else f'"{value[:60]}…" ({len(value)} characters)'
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 15:
        return f"a {len(str(abs(value)))}-digit integer"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value)


def _action(item: Any, path: str, problems: _Problems) -> Action | None:
    if not isinstance(item, dict):
        problems.add(path, f"must be a mapping with at and one of {', '.join(ACTION_VERBS)}, not {_show(item)}")
        return None
    ok = True
    at = item.get("at")
    if at is None:
        problems.add(path, "missing field at (simulated seconds)")
        ok = False
    elif isinstance(at, bool) or not isinstance(at, (int, float)) or not 0 <= at <= MAX_ACTION_SECONDS:
        problems.add(f"{path}.at", f"must be a number of seconds from 0 to {MAX_ACTION_SECONDS}, not {_show(at)}")
        ok = False
    after = item.get("afterEvent")
    if after is not None and (isinstance(after, bool) or not isinstance(after, int) or after < 0):
        problems.add(f"{path}.afterEvent", f"must be a non-negative integer, not {_show(after)}")
        ok = False
    verbs = [k for k in item if k in ACTION_VERBS]
    unknown = [k for k in item if k not in ACTION_VERBS and k not in ("at", "afterEvent")]
    for key in unknown:
        problems.add(f"{path}.{key}", f"unknown field (expected at and one of {', '.join(ACTION_VERBS)})")
        ok = False
    if len(verbs) != 1:
        if verbs or not unknown:  # an unknown key without any verb is most likely a misspelt verb: said above
            problems.add(path, f"needs exactly one of {', '.join(ACTION_VERBS)}, found "
                         + (", ".join(verbs) if verbs else "none"))
        return None
    verb = verbs[0]
    edit = _edit(verb, item[verb], f"{path}.{verb}", problems)
    if edit is None or not ok:
        return None
    return Action(float(at), edit, after, problems.doc.line_of(path), path)


def horizon_problems(scenario: Scenario, horizon: float) -> list[ScenarioProblem]:
    """Timed actions further than ``horizon`` after the timed action before them (or after 0).

    A run stops ``horizon`` simulated seconds after its last change: an action later than that
    is one the run would only reach by idling through the gap.
    """
    problems = []
    previous = 0.0
    for action in sorted((a for a in scenario.actions if a.after_event is None), key=lambda a: a.at):
        if action.at - previous > horizon:
            after = "t=0" if previous == 0 else f"the action before it (at {previous:g}s)"
            problems.append(ScenarioProblem(
                scenario.file, action.line, f"{action.path}.at" if action.path else "at",
                f"{action.at:g}s is more than the horizon ({horizon:g}s) after {after}; a run stops "
                f"{horizon:g}s after its last change, so write at most {previous + horizon:g}"))
        previous = action.at
    return problems


def _edit(verb: str, body: Any, path: str, problems: _Problems) -> Edit | None:
    if verb in ("create", "update"):
        if not isinstance(body, dict):
            problems.add(path, f"must be a manifest (a mapping), not {_show(body)}")
            return None
        obj, found = decode_object(body)
        errors = [p for p in found if not p.warning]
        for p in errors:
            problems.add(_join(path, p.path), p.message)
        if obj is None or errors:
            return None
        invalid = [p for p in validate_object(obj) if not p.warning]
        for p in invalid:
            problems.add(_join(path, p.path), p.message)
        if invalid:
            return None
        obj = _with_namespace(obj)
        return Create(obj) if verb == "create" else Update(obj)
    if verb == "delete":
        return _delete(body, path, problems)
    if verb in ("cordon", "uncordon"):
        if not isinstance(body, str) or not body:
            problems.add(path, f"must be a node name, not {_show(body)}")
            return None
        return Cordon(body) if verb == "cordon" else Uncordon(body)
    if verb in ("partition", "stallWatch"):
        if not isinstance(body, str) or not _REPLICA.match(body):
            problems.add(path, f"must be a scheduler replica's hostname (scheduler-a, scheduler-b …), not {_show(body)}")
            return None
        return Partition(body, watch_only=verb == "stallWatch")
    if body is not True:
        problems.add(path, f"must be true, not {_show(body)}")
        return None
    return Tick() if verb == "tick" else KillLeader()


def _join(path: str, sub: str) -> str:
    if not sub or sub == "(document)":
        return path
    return f"{path}{sub}" if sub.startswith("[") else f"{path}.{sub}"


def _with_namespace(obj: Any) -> Any:
    import dataclasses
    kind = type(obj).KIND
    if is_namespaced(kind) and not obj.metadata.namespace:
        return dataclasses.replace(obj, metadata=dataclasses.replace(obj.metadata, namespace="default"))
    return obj


def _delete(body: Any, path: str, problems: _Problems) -> Edit | None:
    if not isinstance(body, dict):
        problems.add(path, f"must be a mapping with kind, namespace and name, not {_show(body)}")
        return None
    bad = False
    for key in body:
        if key not in ("kind", "namespace", "name"):
            problems.add(f"{path}.{key}", "unknown field (expected kind, namespace, name)")
            bad = True
    kind, name, namespace = body.get("kind"), body.get("name"), body.get("namespace", "")
    for key, value in (("kind", kind), ("name", name)):
        if not isinstance(value, str) or not value:
            problems.add(f"{path}.{key}" if key in body else path,
                         f"{key} must be a non-empty string" if key in body else f"missing field {key}")
            bad = True
    if not isinstance(namespace, str):
        problems.add(f"{path}.namespace", f"must be a string, not {_show(namespace)}")
        bad = True
    if bad:
        return None
    if kind not in KINDS:
        problems.add(f"{path}.kind", f'unknown kind "{kind}" (one of {", ".join(sorted(KINDS))})')
        return None
    return Delete(kind, (namespace or "default") if is_namespaced(kind) else "", name)


# -- writing -------------------------------------------------------------------------------------------------
def action_document(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"at": _number(action.at)}
    if action.after_event is not None:
        out["afterEvent"] = action.after_event
    out.update(to_action(action.edit))
    return out


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def scenario_document(scenario: Scenario) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if scenario.seed is not None:
        spec["seed"] = scenario.seed
    spec["replicas"] = scenario.replicas
    spec["actions"] = [action_document(a) for a in scenario.actions]
    doc: dict[str, Any] = {"apiVersion": SCENARIO_API_VERSION, "kind": SCENARIO_KIND}
    if scenario.name:
        doc["metadata"] = {"name": scenario.name}
    doc["spec"] = spec
    return doc


def dump(data: Any) -> str:
    """Block-style YAML with keys in the given order (quoted where YAML 1.1 would misread)."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True)


def join_documents(parts: Iterable[str]) -> str:
    """One multi-document YAML text: the non-blank ``parts`` without their edge newlines, ``---`` between."""
    return "\n---\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"
