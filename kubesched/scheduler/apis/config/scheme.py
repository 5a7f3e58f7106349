"""Loading a scheduler configuration: read, decode strictly, default, convert, validate.

Upstream: cmd/kube-scheduler/app/options/configfile.go (loadConfigFromFile, loadConfig),
cmd/kube-scheduler/app/options/deprecated.go (DeprecatedOptions.ApplyTo: ``--policy-config-file``),
pkg/scheduler/apis/config/scheme/scheme.go (the strict codec: v1alpha1, v1alpha2 and the v1
Policy), pkg/scheduler/scheduler.go (initPolicyFromFile, initPolicyFromConfigMap) and
options.Validate (ValidateKubeSchedulerConfiguration; ValidatePolicy).

``load_config`` takes YAML text, a file ``Path``, an already parsed document (``dict``), a
read ``yaml_source.Document`` or one of the cluster loader's ``RawDocument``, and returns the internal
``KubeSchedulerConfiguration`` or raises one ``ConfigError`` naming every problem as
``file:line: path: message``. Decoding problems stop before defaulting, as upstream's decoder
error does; validation problems are all reported together. A ``kubescheduler.config.k8s.io``
version newer than v1.18's gets one line naming the release it came with.

``load_policy`` reads a ``Policy`` the same way (decode, then ``ValidatePolicy``);
``policy_file_config`` is the configuration ``--policy-config-file`` gives.

Deviations:
- A text with several YAML documents is accepted when exactly one of them is a
  ``KubeSchedulerConfiguration`` (a cluster file); upstream reads a single document.
- A Policy named by ``algorithmSource.policy.file`` is read (and validated) when the
  configuration is loaded, relative to the configuration file's directory (upstream: in
  ``scheduler.New``, relative to the working directory); a configuration given as text reads
  no file: the caller passes the Policy (a document of the same cluster file). A ConfigMap
  source is left for the caller to fill from the cluster (``SchedulerPolicySource.policy``).
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubesched.api.yaml_source import Document, read_documents
from kubesched.scheduler.apis.config import defaults, v1, v1alpha1, v1alpha2
from kubesched.scheduler.apis.config.decoder import FieldProblem, describe, show
from kubesched.scheduler.apis.config.legacy_types import Policy
from kubesched.scheduler.apis.config.types import (
    KubeSchedulerConfiguration,
    SchedulerAlgorithmSource,
    SchedulerPolicyFileSource,
    SchedulerPolicySource,
)
from kubesched.scheduler.apis.config.validation import (
    validate_kube_scheduler_configuration,
    validate_policy,
)

DEFAULT_FILENAME = "<config>"
KIND: Final = v1alpha2.KIND
GROUP_NAME: Final = v1alpha2.GROUP_NAME
READABLE_VERSIONS: Final = (v1alpha1.API_VERSION, v1alpha2.API_VERSION)
# kubescheduler.config.k8s.io versions of KubeSchedulerConfiguration that v1.18 does not know,
# and the Kubernetes release that introduced each.
NEWER_VERSIONS: Final = {"v1beta1": "1.19", "v1beta2": "1.22", "v1beta3": "1.23", "v1": "1.25"}


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


def load_config(source: str | pathlib.Path | Mapping[str, Any] | Any, *, filename: str | None = None,
                policy: Policy | None = None, base_dir: pathlib.Path | None = None) -> KubeSchedulerConfiguration:
    """The internal configuration of a v1alpha1 or v1alpha2 document (text, file, dict or
    RawDocument). ``policy`` is what an ``algorithmSource.policy.file`` source holds when the
    caller has it; else the file is read relative to ``base_dir`` (a ``Path`` source: its
    directory), and not at all when there is no directory."""
    file, doc = _document(source, filename, KIND)
    if base_dir is None and isinstance(source, pathlib.Path):
        base_dir = source.parent
    return decode_document(doc, file, policy=policy, base_dir=base_dir)


def default_config() -> KubeSchedulerConfiguration:
    """The configuration of an empty v1alpha2 document (what ``--config``-less 1.18 runs)."""
    return load_config({"apiVersion": v1alpha2.API_VERSION, "kind": v1alpha2.KIND})


def decode_document(doc: Document, file: str = DEFAULT_FILENAME, *, policy: Policy | None = None,
                    base_dir: pathlib.Path | None = None) -> KubeSchedulerConfiguration:
    """Decode, default, convert and validate one read document."""
    problem = _locator(doc, file)
    version, meta = check_type_meta(doc.data)
    if meta:
        raise ConfigError([problem(p.path, p.message) for p in meta])
    module = v1alpha1 if version == v1alpha1.API_VERSION else v1alpha2
    versioned, problems = module.decode(doc.data, doc.traps.get)
    found = [problem(p, m, line) for p, m, line in doc.key_errors]
    found += [problem(p.path, p.message) for p in problems]
    if found:
        raise ConfigError(_dedup(found))
    try:
        config = (v1alpha1.convert(v1alpha1.set_defaults(versioned)) if module is v1alpha1
                  else defaults.convert(defaults.set_defaults(versioned)))
    except v1alpha1.ConversionError as err:
        raise ConfigError([problem(err.problem.path, err.problem.message)]) from None
    invalid = [problem(p.path, p.message) for p in validate_kube_scheduler_configuration(config)]
    if invalid:
        raise ConfigError(_dedup(invalid))
    return _with_policy_file(config, policy, base_dir, problem)


def check_type_meta(data: Any) -> tuple[str, list[FieldProblem]]:
    """The apiVersion of a KubeSchedulerConfiguration v1.18 reads, or why it is not one."""
    if not isinstance(data, Mapping):
        return "", [FieldProblem("", f"the configuration must be an object, not {describe(data)}")]
    kind, version = data.get("kind"), data.get("apiVersion")
    problems = []
    if v1.is_policy(data):
        return "", [FieldProblem("kind", "this is a Policy (predicates and priorities), not a "
                                         f"{KIND}: give it with --policy-config-file, or name it in "
                                         "algorithmSource.policy of a v1alpha1 configuration")]
    if kind is None or kind == "":
        problems.append(FieldProblem("kind", f'Required value: must be "{KIND}"'))
    elif kind != KIND:
        problems.append(FieldProblem("kind", f'Unsupported value: {show(kind)}: supported values: "{KIND}"'))
    supported = ", ".join(f'"{v}"' for v in READABLE_VERSIONS)
    newer = NEWER_VERSIONS.get(version.removeprefix(GROUP_NAME + "/")) if isinstance(version, str) \
        and version.startswith(GROUP_NAME + "/") else None
    if version is None or version == "":
        problems.append(FieldProblem("apiVersion", f"Required value: must be one of {supported}"))
    elif newer is not None:
        problems.append(FieldProblem("apiVersion", f"{version} is a Kubernetes {newer}+ format; kube-scheduler "
                                                   "v1.18.5 reads kubescheduler.config.k8s.io/v1alpha1 and "
                                                   "v1alpha2"))
    elif version not in READABLE_VERSIONS:
        problems.append(FieldProblem("apiVersion", f"Unsupported value: {show(version)}: supported values: "
                                                   f"{supported}"))
    return (version if not problems else ""), problems


# -- the legacy Policy ------------------------------------------------------------------------------
def load_policy(source: str | pathlib.Path | Mapping[str, Any] | Any, *, filename: str | None = None) -> Policy:
    """The Policy of a ``kind: Policy`` document (text, file, dict or RawDocument): decoded
    strictly, then ``ValidatePolicy`` (upstream runs it in createFromConfig)."""
    file, doc = _document(source, filename, v1.KIND)
    problem = _locator(doc, file)
    if not v1.is_policy(doc.data):
        return _not_a_policy(doc.data, problem)
    found = [problem(p, m, line) for p, m, line in doc.key_errors]
    policy, problems = v1.decode(doc.data, doc.traps.get)
    found += [problem(p.path, p.message) for p in problems]
    if found or policy is None:
        raise ConfigError(_dedup(found))
    invalid = [problem(p.path, p.message) for p in validate_policy(policy)]
    if invalid:
        raise ConfigError(invalid)
    return policy


def _not_a_policy(data: Any, problem: Any) -> Policy:
    if not isinstance(data, Mapping):
        raise ConfigError([problem("", f"the policy must be an object, not {describe(data)}")])
    versions = ", ".join(f'"{v}"' for v in v1.API_VERSIONS)
    raise ConfigError([problem("", f"expected kind Policy with apiVersion {versions}, found kind "
                                   f"{show(data.get('kind'))} with apiVersion {show(data.get('apiVersion'))}")])


def read_policy_file(path: pathlib.Path, shown: str | None = None) -> Policy:
    """``initPolicyFromFile``: ``missing policy config file X`` when it is not there."""
    name = shown or str(path)
    if not path.is_file():
        raise ConfigError([ConfigProblem(name, None, "", f"missing policy config file {name}")])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError([ConfigProblem(name, None, "", f"couldn't read policy config: {err}")]) from None
    return load_policy(text, filename=name)


def policy_file_config(path: str, policy: Policy) -> KubeSchedulerConfiguration:
    """``DeprecatedOptions.ApplyTo`` for ``--policy-config-file`` without ``--config``: the
    defaults with the Policy file as algorithm source."""
    source = SchedulerPolicySource(file=SchedulerPolicyFileSource(path), policy=policy)
    return dataclasses.replace(default_config(), algorithm_source=SchedulerAlgorithmSource(provider=None,
                                                                                           policy=source))


def _with_policy_file(config: KubeSchedulerConfiguration, policy: Policy | None, base_dir: pathlib.Path | None,
                      problem: Any) -> KubeSchedulerConfiguration:
    """Fill a file policy source: the given Policy, else the file (relative to ``base_dir``)."""
    source = config.algorithm_source
    if source.provider is not None or source.policy is None or source.policy.file is None:
        return config
    path = source.policy.file.path
    if policy is None:
        if base_dir is None:
            raise ConfigError([problem("algorithmSource.policy.file.path", f"missing policy config file {path} "
                                       "(a configuration given as text reads no file: put the Policy document "
                                       "in the cluster file)")])
        target = pathlib.Path(path)
        policy = read_policy_file(target if target.is_absolute() else base_dir / target, path)
    filled = dataclasses.replace(source.policy, policy=policy)
    return dataclasses.replace(config, algorithm_source=dataclasses.replace(source, policy=filled))


# -- documents --------------------------------------------------------------------------------------
def _locator(doc: Document, file: str) -> Any:
    def problem(path: str, message: str, line: int | None = None) -> ConfigProblem:
        return ConfigProblem(file, line if line is not None else (doc.line_of(path) if doc.line else None),
                             path, message)
    return problem


def _dedup(problems: list[ConfigProblem]) -> list[ConfigProblem]:
    """Identical messages once, as ``ErrorList.ToAggregate``."""
    out: list[ConfigProblem] = []
    for p in problems:
        if all((q.path, q.message) != (p.path, p.message) for q in out):
            out.append(p)
    return out


def _document(source: Any, filename: str | None, kind: str) -> tuple[str, Document]:
    if isinstance(source, pathlib.Path):
        name = filename or str(source)
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError([ConfigProblem(name, None, "", f"cannot read the file: {err}")]) from None
        return name, _from_text(text, name, kind)
    if isinstance(source, str):
        name = filename or DEFAULT_FILENAME
        return name, _from_text(source, name, kind)
    if isinstance(source, Document):  # a document read with its lines (a cluster file's)
        return filename or DEFAULT_FILENAME, source
    if isinstance(source, Mapping):
        return filename or DEFAULT_FILENAME, Document(0, 0, dict(source))
    if hasattr(source, "data") and hasattr(source, "file"):  # kubesched.api.load.RawDocument
        return filename or source.file, Document(source.document, source.line, source.data)
    raise TypeError(f"load_config takes YAML text, a Path, a dict or a RawDocument, not {type(source).__name__}")


def _from_text(text: str, file: str, kind: str) -> Document:
    documents, error = read_documents(text)
    if error is not None:
        raise ConfigError([ConfigProblem(file, error.line, "", error.message)])
    present = [d for d in documents if d.data is not None]
    if len(present) > 1:
        present = [d for d in present if isinstance(d.data, dict) and d.data.get("kind") == kind]
    if len(present) != 1:
        what = "no" if not present else f"{len(present)}"
        raise ConfigError([ConfigProblem(file, None, "", f"expected one {kind} document, found {what}")])
    return present[0]
