"""Loading a scheduler configuration: read, decode strictly, default, convert, validate.

Upstream: cmd/kube-scheduler/app/options/configfile.go (loadConfigFromFile, loadConfig),
pkg/scheduler/apis/config/scheme/scheme.go (the strict codec) and options.Validate
(ValidateKubeSchedulerConfiguration).

``load_config`` takes YAML text, a file ``Path``, an already parsed document (``dict``) or
one of the cluster loader's ``RawDocument`` (a config kept raw in a cluster file), and
returns the internal ``KubeSchedulerConfiguration`` or raises one ``ConfigError`` naming
every problem as ``file:line: path: message``. Decoding problems stop before defaulting,
as upstream's decoder error does; validation problems are all reported together.

Deviation: a text with several YAML documents is accepted when exactly one of them is a
``KubeSchedulerConfiguration`` (a cluster file); upstream reads a single document.
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubesched.api.yaml_source import Document, read_documents
from kubesched.scheduler.apis.config import defaults, v1alpha2
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.scheduler.apis.config.validation import (
    validate_kube_scheduler_configuration,
)

DEFAULT_FILENAME = "<config>"


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    """One problem of a configuration, located by file, line (if known) and field path."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + (f"{self.path}: {self.message}" if self.path else self.message)


class ConfigError(ValueError):
    """The configuration cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[ConfigProblem]):
        self.problems = tuple(problems)
        super().__init__(f"{len(self.problems)} error(s) in the scheduler configuration:\n"
                         + "\n".join(str(p) for p in self.problems))


def load_config(source: str | pathlib.Path | Mapping[str, Any] | Any, *,
                filename: str | None = None) -> KubeSchedulerConfiguration:
    """The internal configuration of a v1alpha2 document (text, file, dict or RawDocument)."""
    file, doc = _document(source, filename)
    return decode_document(doc, file)


def default_config() -> KubeSchedulerConfiguration:
    """The configuration of an empty v1alpha2 document (what ``--config``-less 1.18 runs)."""
    return load_config({"apiVersion": v1alpha2.API_VERSION, "kind": v1alpha2.KIND})


def decode_document(doc: Document, file: str = DEFAULT_FILENAME) -> KubeSchedulerConfiguration:
    """Decode, default, convert and validate one read document."""
    def problem(path: str, message: str, line: int | None = None) -> ConfigProblem:
        return ConfigProblem(file, line if line is not None else (doc.line_of(path) if doc.line else None),
                             path, message)
    versioned, problems = v1alpha2.decode(doc.data, doc.traps.get)
    found = [problem(p, m, line) for p, m, line in doc.key_errors]
    found += [problem(p.path, p.message) for p in problems]
    if found:
        raise ConfigError(_dedup(found))
    config = defaults.convert(defaults.set_defaults(versioned))
    invalid = [problem(p.path, p.message) for p in validate_kube_scheduler_configuration(config)]
    if invalid:
        raise ConfigError(_dedup(invalid))
    return config


def _dedup(problems: list[ConfigProblem]) -> list[ConfigProblem]:
    """Identical messages once, as ``ErrorList.ToAggregate``."""
    out: list[ConfigProblem] = []
    for p in problems:
        if all((q.path, q.message) != (p.path, p.message) for q in out):
            out.append(p)
    return out


def _document(source: Any, filename: str | None) -> tuple[str, Document]:
    if isinstance(source, pathlib.Path):
        name = filename or str(source)
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError([ConfigProblem(name, None, "", f"cannot read the file: {err}")]) from None
        return name, _from_text(text, name)
    if isinstance(source, str):
        name = filename or DEFAULT_FILENAME
        return name, _from_text(source, name)
    if isinstance(source, Mapping):
        return filename or DEFAULT_FILENAME, Document(0, 0, dict(source))
    if hasattr(source, "data") and hasattr(source, "file"):  # kubesched.api.load.RawDocument
        return filename or source.file, Document(source.document, source.line, source.data)
    raise TypeError(f"load_config takes YAML text, a Path, a dict or a RawDocument, not {type(source).__name__}")


def _from_text(text: str, file: str) -> Document:
    documents, error = read_documents(text)
    if error is not None:
        raise ConfigError([ConfigProblem(file, error.line, "", error.message)])
    present = [d for d in documents if d.data is not None]
    if len(present) > 1:
        present = [d for d in present if isinstance(d.data, dict) and d.data.get("kind") == v1alpha2.KIND]
    if len(present) != 1:
        what = "no" if not present else f"{len(present)}"
        raise ConfigError([ConfigProblem(file, None, "", f"expected one {v1alpha2.KIND} document, found {what}")])
    return present[0]
