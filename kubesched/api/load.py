"""Loading a cluster from YAML manifests: read, decode, validate, default, expand.

Upstream: no single counterpart. It plays ``kubectl apply -f`` (multi-document
YAML, ``List`` and typed ``PodList``-style documents, the v1.18 OpenAPI check
with unknown fields as warnings) and the API server's create path (decode,
validate, default, admission) and the workload controllers
(kubesched.api.controllers) for a whole cluster at once.

Every finding is a :class:`LoadProblem` naming file, document, line, object and
field path; the loader raises nothing but :class:`LoadError`. Documents of kind
``KubeSchedulerConfiguration`` and the scheduler's ``Policy`` (``apiVersion: v1``) are kept
raw in ``config_documents``. Objects of kinds the simulator does not model (ConfigMap, Role,
Ingress, custom resources …) are validated and kept in ``inert``; ``inert_summary`` says so in
one line.

Document indexes are 0-based positions in the YAML stream (empty documents
count, and are skipped).
"""

from __future__ import annotations

import dataclasses
import pathlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from kubesched.api.controllers import expand
from kubesched.api.decode import Problem, decode_manifest
from kubesched.api.defaults import apply_defaults, default_meta
from kubesched.api.inert import InertObject
from kubesched.api.kinds import is_namespaced
from kubesched.api.openapi.schema import served
from kubesched.api.validate import object_key, validate_cluster, validate_object
from kubesched.api.validate_manifest import validate_manifest
from kubesched.api.yaml_source import MAX_SOURCE_BYTES, Document, read_documents

CONFIG_KIND = "KubeSchedulerConfiguration"
CONFIG_API_VERSION = "kubescheduler.config.k8s.io/v1alpha2"
POLICY_KIND = "Policy"  # the scheduler's legacy Policy (other groups have a Policy kind too)
POLICY_API_VERSIONS = ("v1", "kubescheduler.config.k8s.io/v1")
LIST_KIND = "List"
DEFAULT_FILENAME = "<string>"


@dataclass(frozen=True, slots=True)
class LoadProblem:
    """One error or warning, located in the source and in the object."""

    file: str
    document: int
    line: int
    kind: str
    namespace: str
    name: str
    path: str
    message: str
    warning: bool = False
    code: str = ""

    def subject(self) -> str:
        """``Pod default/web-1``, ``Node zone-a-1``, ``Pod (document 3)``, ``document 3``."""
        if self.kind and self.name:
            return f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"
        if self.kind:
            return f"{self.kind} (document {self.document})"
        return f"document {self.document}"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " + ("warning: " if self.warning else "")
        path = f"{self.path}: " if self.path else ""
        return one_line(f"{where}{self.subject()}: {path}{self.message}")


class LoadError(Exception):
    """The manifests have errors; ``problems`` holds errors and warnings in source order."""

    def __init__(self, problems: Sequence[LoadProblem]):
        self.problems = tuple(problems)
        errors = [p for p in self.problems if not p.warning]
        super().__init__(f"{len(errors)} error(s) in the cluster manifests:\n"
                         + "\n".join(str(p) for p in self.problems))

    @property
    def errors(self) -> tuple[LoadProblem, ...]:
        return tuple(p for p in self.problems if not p.warning)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an object came from: a document (and ``items[i]`` inside a List)."""

    file: str
    document: int
    line: int
    path: str = ""


@dataclass(frozen=True, slots=True)
class RawDocument:
    """A document kept as plain data (KubeSchedulerConfiguration, Policy)."""

    file: str
    document: int
    line: int
    data: Any


@dataclass(frozen=True)
class LoadedCluster:
    """The objects of a cluster, in document order, defaulted and expanded."""

    objects: tuple[Any, ...]
    warnings: tuple[LoadProblem, ...] = ()
    config_documents: tuple[RawDocument, ...] = ()
    sources: tuple[str, ...] = ()
    origins: tuple[Origin, ...] = field(default=(), compare=False)
    inert: tuple[InertObject, ...] = ()

    def inert_summary(self) -> str:
        """``kept 3 ConfigMap, 1 ServiceAccount: not used by kube-scheduler`` ("" when none)."""
        return inert_summary(self.inert)

    def of_kind(self, cls: type) -> tuple[Any, ...]:
        """Every object of one model class, in order (``of_kind(Pod)``)."""
        return tuple(o for o in self.objects if isinstance(o, cls))

    def get(self, cls: type, name: str, namespace: str = "") -> Optional[Any]:
        for obj in self.of_kind(cls):
            if obj.metadata.name == name and obj.metadata.namespace == namespace:
                return obj
        return None

    def origin_of(self, obj: Any) -> Optional[Origin]:
        for candidate, origin in zip(self.objects, self.origins):
            if candidate is obj:
                return origin
        return None


# ---------------------------------------------------------------- one entry = one object's manifest


@dataclass(slots=True)
class _Entry:
    source: int
    file: str
    doc: Document
    prefix: str  # "" or "items[3]"
    data: Any
    obj: Any = None
    problems: list[LoadProblem] = field(default_factory=list)
    decodable: bool = True

    @property
    def line(self) -> int:
        return self.doc.line_of(self.prefix) if self.prefix else self.doc.line

    def full(self, path: str) -> str:
        if not self.prefix:
            return "" if path == "(document)" else path
        return self.prefix if path in ("", "(document)") else f"{self.prefix}.{path}"

    def identity(self) -> tuple[str, str, str]:
        data = self.data if isinstance(self.data, dict) else {}
        kind = data.get("kind") if isinstance(data.get("kind"), str) else ""
        meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
        name = meta.get("name") if isinstance(meta.get("name"), str) else ""
        namespace = meta.get("namespace") if isinstance(meta.get("namespace"), str) else ""
        if kind and name and is_namespaced(kind):
            namespace = namespace or "default"
        elif not is_namespaced(kind):
            namespace = ""
        return kind, namespace, name

    def add(self, problem: Problem, line: Optional[int] = None) -> None:
        path = self.full(problem.path)
        message = problem.message
        trap = self.doc.traps.get(path)
        if trap is not None and message.startswith("must be a string, not "):
            message = trap.message()
        kind, namespace, name = self.identity()
        self.problems.append(LoadProblem(self.file, self.doc.index, line or self.doc.line_of(path),
                                         kind, namespace, name, path, message, problem.warning,
                                         problem.code))


def _split(source: int, file: str, doc: Document) -> tuple[list[_Entry], list[RawDocument]]:
    """A document's entries: itself, or the items of a ``List``; config kept raw."""
    data = doc.data
    if is_scheduler_config(data):
        return [], [RawDocument(file, doc.index, doc.line, data)]
    item_type = _list_item_type(data)
    if item_type is not None:
        items = data["items"]
        if not isinstance(items, list):
            entry = _Entry(source, file, doc, "", data, decodable=False)
            entry.add(Problem("items", f"must be a list, not {type(items).__name__}"))
            return [entry], []
        entries = [_Entry(source, file, doc, f"items[{i}]", _typed(item, item_type))
                   for i, item in enumerate(items)]
        return entries, []
    return [_Entry(source, file, doc, "", data)], []


def is_scheduler_config(data: Any) -> bool:
    """A KubeSchedulerConfiguration or a scheduler Policy: kept raw, for the scheduler to read."""
    return isinstance(data, dict) and (data.get("kind") == CONFIG_KIND or (
        data.get("kind") == POLICY_KIND and data.get("apiVersion") in POLICY_API_VERSIONS))


def _list_item_type(data: Any) -> Optional[tuple[str, str]]:
    """``("", "")`` for ``kind: List``; (apiVersion, kind) of a typed list's items; else None."""
    if not isinstance(data, dict) or "items" not in data or not isinstance(data.get("kind"), str):
        return None
    kind, version = data["kind"], data.get("apiVersion")
    if kind == LIST_KIND:
        return "", ""
    if kind.endswith(LIST_KIND) and isinstance(version, str) and (version, kind[:-4]) in served():
        return version, kind[:-4]
    return None


def _typed(item: Any, item_type: tuple[str, str]) -> Any:
    """An item of a ``PodList`` (the API leaves out its apiVersion and kind) made whole."""
    version, kind = item_type
    if not kind or not isinstance(item, dict):
        return item
    return {"apiVersion": version, "kind": kind, **item}


def _decode(entry: _Entry) -> None:
    if not entry.decodable:
        return
    obj, problems = decode_manifest(entry.data)
    for problem in problems:
        entry.add(problem)
    for path, message, line in entry.doc.key_errors:
        if not entry.prefix or path == entry.prefix or path.startswith(entry.prefix + ".") \
                or path.startswith(entry.prefix + "["):
            entry.add(Problem(path[len(entry.prefix) + 1:] if entry.prefix else path, message), line)
    if obj is None:
        return
    entry.obj = obj
    if any(not p.warning for p in entry.problems):
        return  # shape and schema errors first: rules on a half-read object would mislead
    for problem in validate_object(obj) + validate_manifest(entry.data):
        entry.add(problem)


# ---------------------------------------------------------------- public API


def _read_source(index: int, file: str, text: str) -> tuple[list[_Entry], list[RawDocument], list[LoadProblem]]:
    documents, error = read_documents(text)
    entries: list[_Entry] = []
    configs: list[RawDocument] = []
    for doc in documents:
        if doc.data is None:
            continue
        found, raw = _split(index, file, doc)
        entries += found
        configs += raw
    problems = []
    if error is not None:
        problems.append(LoadProblem(file, error.document, error.line, "", "", "", "", error.message))
    return entries, configs, problems


def _load(named_texts: Sequence[tuple[str, Optional[str], Optional[LoadProblem]]]) -> LoadedCluster:
    entries: list[_Entry] = []
    configs: list[RawDocument] = []
    problems: list[tuple[int, LoadProblem]] = []
    for index, (file, text, failure) in enumerate(named_texts):
        if failure is not None:
            problems.append((index, failure))
            continue
        assert text is not None
        found, raw, errs = _read_source(index, file, text)
        entries += found
        configs += raw
        problems += [(index, p) for p in errs]
    for entry in entries:
        _decode(entry)
    decoded = [e for e in entries if e.obj is not None]
    for i, problem in validate_cluster([e.obj for e in decoded]):
        decoded[i].add(problem)
    problems += [(e.source, p) for e in entries for p in e.problems]
    problems.sort(key=lambda sp: (sp[0], sp[1].line, sp[1].document))
    ordered = [p for _, p in problems]
    if any(not p.warning for p in ordered):
        raise LoadError(ordered)
    return _build(decoded, ordered, configs, tuple(f for f, _, _ in named_texts))


def _build(entries: list[_Entry], warnings: list[LoadProblem], configs: list[RawDocument],
           sources: tuple[str, ...]) -> LoadedCluster:
    inert = tuple(dataclasses.replace(e.obj, metadata=default_meta(e.obj.metadata, e.obj.KIND, str(i)))
                  for i, e in enumerate(entries) if isinstance(e.obj, InertObject))
    decoded = [e for e in entries if not isinstance(e.obj, InertObject)]
    objects = apply_defaults([e.obj for e in decoded])
    expanded = expand(objects)
    seen: dict[tuple[str, str, str], int] = {}
    errors: list[LoadProblem] = []
    for obj, i in expanded:
        key = object_key(obj)
        if key in seen and seen[key] != i:
            entry = decoded[i]
            errors.append(LoadProblem(entry.file, entry.doc.index, entry.line, *entry.identity(), "",
                                      f'creates {key[0]} "{key[2]}", which already exists'))
        seen.setdefault(key, i)
    if errors:
        raise LoadError(warnings + errors)
    origins = tuple(Origin(decoded[i].file, decoded[i].doc.index, decoded[i].line, decoded[i].prefix)
                    for _, i in expanded)
    return LoadedCluster(tuple(o for o, _ in expanded), tuple(warnings), tuple(configs), sources, origins,
                         inert)


def inert_summary(objects: Iterable[InertObject]) -> str:
    """One line naming the kept kinds with their counts, in first-seen order."""
    counts: dict[str, int] = {}
    custom: set[str] = set()
    for obj in objects:
        counts[obj.kind] = counts.get(obj.kind, 0) + 1
        if obj.custom:
            custom.add(obj.kind)
    if not counts:
        return ""
    kinds = ", ".join(f"{n} {kind}" + (" (custom resource, not checked)" if kind in custom else "")
                      for kind, n in counts.items())
    return one_line(f"kept {kinds}: not used by kube-scheduler")


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (one problem, one line)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _unexpected(file: str, err: BaseException) -> LoadError:
    return LoadError([LoadProblem(file, 0, 1, "", "", "", "",
                                  f"internal error while loading: {type(err).__name__}: {err}")])


def load_cluster(source: str | pathlib.Path, *, filename: Optional[str] = None) -> LoadedCluster:
    """Load YAML text (``str``) or a file (``pathlib.Path``); raise LoadError on errors."""
    if isinstance(source, pathlib.Path):
        return load_files([source]) if filename is None else _guard(filename, lambda: _load(
            [_read_path(source, filename)]))
    name = filename or DEFAULT_FILENAME
    return _guard(name, lambda: _load([(name, source, None)]))


def load_files(paths: Iterable[str | pathlib.Path]) -> LoadedCluster:
    """Load several files as one cluster (references may cross files)."""
    paths = list(paths)
    return _guard(str(paths[0]) if paths else DEFAULT_FILENAME,
                  lambda: _load([_read_path(pathlib.Path(p), str(p)) for p in paths]))


def _guard(file: str, run: Any) -> LoadedCluster:
    try:
        return run()
    except LoadError:
        raise
    except RecursionError as err:
        raise LoadError([LoadProblem(file, 0, 1, "", "", "", "", "document is nested too deeply")]) from err
    except Exception as err:  # noqa: BLE001 - the loader's contract: only LoadError escapes
        raise _unexpected(file, err) from err


def _read_path(path: pathlib.Path, name: str) -> tuple[str, Optional[str], Optional[LoadProblem]]:
    def failure(message: str) -> tuple[str, None, LoadProblem]:
        return name, None, LoadProblem(name, 0, 1, "", "", "", "", message)
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            return failure(f"input is {size} bytes, larger than the {MAX_SOURCE_BYTES} bytes (5 MiB) limit")
        return name, path.read_bytes().decode("utf-8"), None
    except UnicodeDecodeError as err:
        return failure(f"not UTF-8 text: {err.reason} at byte {err.start}")
    except OSError as err:
        return failure(f"cannot read file: {err.strerror or err}")
