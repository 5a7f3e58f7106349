"""What a run is a function of: the cluster objects, the scheduler configuration, the scenario
and the seed, read from YAML text or a file.

Upstream: no counterpart (kubesched's own input format: a multi-document cluster file that may
hold one KubeSchedulerConfiguration, one scheduler Policy and one Scenario document). Which
configuration that makes is ``config_source.resolve_config``'s.

Two doors, chosen by the caller, never guessed from the text: ``inputs_from_text`` (text from a
browser is only ever text: a one-line ``/etc/passwd`` is a YAML document holding a string; only
a ``pathlib.Path`` given for ``config``/``policy`` by a Python caller is read) and
``inputs_from_path`` (the CLI, the samples, the lessons). Loading raises nothing but LoadError,
ConfigError and ScenarioError (``guarded``).
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from kubesched.api.load import LoadedCluster, LoadError, LoadProblem, load_cluster
from kubesched.api.yaml_source import MAX_SOURCE_BYTES, read_documents
from kubesched.scheduler.apis.config.scheme import ConfigError, ConfigProblem
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.sim.config_source import CONFIG_KIND, POLICY_KIND, Located, resolve_config
from kubesched.sim.limits import ServerLimits, check_objects, check_text
from kubesched.sim.scenario import DEFAULT_FILENAME, Scenario, ScenarioError, blank_document, split_source

INPUT_ERRORS: Final = (LoadError, ConfigError, ScenarioError)
T = TypeVar("T")


@dataclass(frozen=True)
class Inputs:
    """Everything a run is a function of (besides the edits)."""

    objects: tuple[Any, ...]
    config: KubeSchedulerConfiguration
    config_given: bool
    scenario: Scenario
    seed: int
    cluster_text: str = ""
    config_document: dict[str, Any] | None = None   # written by to_scenario_yaml when not in the text
    policy_document: dict[str, Any] | None = None   # --policy-config-file: written likewise
    filename: str = "<string>"
    loaded: LoadedCluster | None = field(default=None, compare=False)

    @property
    def loaded_config_in_text(self) -> bool:
        """Whether ``cluster_text`` still holds the configuration document."""
        return self.loaded is not None and bool(self.loaded.config_documents)


def inputs_from_text(text: str, *, config: Any = None, policy: Any = None, seed: int | None = None,
                     filename: str = DEFAULT_FILENAME, limits: ServerLimits | None = None) -> Inputs:
    """Inputs from YAML text (the dashboard's only door): the text is never taken for a path.

    ``config`` is ``--config`` (YAML text, a dict, a KubeSchedulerConfiguration or a
    ``pathlib.Path``) and ``policy`` is ``--policy-config-file`` (YAML/JSON text or a
    ``pathlib.Path``); either replaces the text's own document of that kind. ``limits``:
    refuse a cluster larger than a server takes (kubesched.sim.limits).
    """
    if not isinstance(text, str):
        raise TypeError(f"inputs_from_text takes YAML text, not {type(text).__name__}")
    return guarded(filename, lambda: _inputs(text, filename, None, config, policy, seed, limits))


def inputs_from_path(path: pathlib.Path, *, config: Any = None, policy: Any = None, seed: int | None = None,
                     limits: ServerLimits | None = None) -> Inputs:
    """Inputs from a file (CLI, samples, lessons); ``config``/``policy`` as for ``inputs_from_text``."""
    path = pathlib.Path(path)
    filename = str(path)

    def load() -> Inputs:
        try:
            text = path.read_text(encoding="utf-8") if path.stat().st_size <= MAX_SOURCE_BYTES else None
        except (OSError, UnicodeDecodeError):
            text = None
        if text is None:
            load_cluster(path)  # raises the loader's LoadError naming the file (size, encoding, access)
        return _inputs(text, filename, path, config, policy, seed, limits)  # type: ignore[arg-type]
    return guarded(filename, load)


def load_inputs(source: str | pathlib.Path, *, config: Any = None, policy: Any = None,
                seed: int | None = None) -> Inputs:
    """``inputs_from_path`` for a ``pathlib.Path``, ``inputs_from_text`` for a ``str`` (always YAML text)."""
    if isinstance(source, pathlib.PurePath):
        return inputs_from_path(pathlib.Path(source), config=config, policy=policy, seed=seed)
    return inputs_from_text(source, config=config, policy=policy, seed=seed)


def guarded(filename: str, load: Callable[[], T]) -> T:
    """``load()``, whose only exceptions are LoadError / ConfigError / ScenarioError: anything
    else becomes a LoadError naming the file (as ``load_cluster`` does), never a traceback."""
    try:
        return load()
    except INPUT_ERRORS:
        raise
    except RecursionError as err:
        raise _internal(filename, "document is nested too deeply") from err
    except MemoryError as err:
        raise _internal(filename, "input too large for this server's memory") from err
    except Exception as err:  # noqa: BLE001 - the loaders' contract: only input errors escape
        raise _internal(filename, f"internal error while loading: {type(err).__name__}: {err}") from err


def _internal(filename: str, message: str) -> LoadError:
    return LoadError([LoadProblem(filename, 0, 1, "", "", "", "", message)])


def _inputs(text: str, filename: str, path: pathlib.Path | None, config: Any, policy: Any, seed: int | None,
            limits: ServerLimits | None) -> Inputs:
    if limits is not None:
        check_text(text, limits, filename)
    cluster_text, scenario = split_source(text, filename)
    scenario = scenario or Scenario(file=filename)
    documents = read_documents(cluster_text)[0]
    for given, kind in ((config, CONFIG_KIND), (policy, POLICY_KIND)):
        if given is not None:
            for doc in documents:
                if isinstance(doc.data, dict) and doc.data.get("kind") == kind:
                    cluster_text = blank_document(cluster_text, doc.line)
    loaded = load_cluster(cluster_text, filename=filename)
    if limits is not None:
        check_objects(loaded.objects, limits, filename)
    base_dir = path.parent if path is not None else None
    cfg, config_document, policy_document = _config(loaded, config, policy, documents, filename, base_dir)
    given = config is not None or policy is not None or bool(loaded.config_documents)
    effective_seed = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    return Inputs(objects=loaded.objects, config=cfg, config_given=given, scenario=scenario, seed=effective_seed,
                  cluster_text=cluster_text, config_document=config_document, policy_document=policy_document,
                  filename=filename, loaded=loaded)


def _config(loaded: LoadedCluster, config: Any, policy: Any, documents: list[Any], filename: str,
            base_dir: pathlib.Path | None) -> tuple[KubeSchedulerConfiguration, dict | None, dict | None]:
    """The configuration, and the given documents to_scenario_yaml writes (not in the text)."""
    by_line = {d.line: d for d in documents}  # the same documents, read with their lines
    in_file = {kind: _only(loaded, kind) for kind in (CONFIG_KIND, POLICY_KIND)}
    in_file = {kind: raw and Located(by_line.get(raw.line, raw), raw.file, raw.line) for kind, raw in in_file.items()}
    config_at, config_document = _given(config, CONFIG_KIND, in_file[CONFIG_KIND])
    policy_at, policy_document = _given(policy, POLICY_KIND, in_file[POLICY_KIND])
    if isinstance(config, pathlib.PurePath):
        base_dir = pathlib.Path(config).parent
    elif config is not None:
        base_dir = None
    cfg = resolve_config(config_at, policy_at, cluster_documents=documents, cluster_file=filename,
                         base_dir=base_dir)
    return cfg, config_document, policy_document


def _only(loaded: LoadedCluster, kind: str) -> Any:
    docs = [d for d in loaded.config_documents if d.data.get("kind") == kind]
    if len(docs) > 1:
        raise ConfigError([ConfigProblem(d.file, d.line, "", f"a second {kind} document (the first is "
                                         f"at line {docs[0].line}); a cluster file may hold one")
                           for d in docs[1:]])
    return docs[0] if docs else None


def _given(given: Any, kind: str, in_file: Located | None) -> tuple[Located | None, dict | None]:
    """Where a configuration / Policy comes from, and its document when given from outside."""
    if given is None:
        return in_file, None
    if isinstance(given, KubeSchedulerConfiguration):
        return Located(given, "<config>"), None
    if isinstance(given, dict):
        return Located(given, "<config>"), dict(given)
    if isinstance(given, pathlib.PurePath):
        text, name = pathlib.Path(given).read_text(encoding="utf-8"), str(given)
        source: Any = pathlib.Path(given)
    else:
        text, name = str(given), "<config>" if kind == CONFIG_KIND else "<policy>"
        source = text
    docs = [d.data for d in read_documents(text)[0] if isinstance(d.data, dict) and d.data.get("kind") == kind]
    return Located(source, name), (docs[0] if docs else None)


__all__ = ["CONFIG_KIND", "INPUT_ERRORS", "POLICY_KIND", "Inputs", "guarded", "inputs_from_path",
           "inputs_from_text", "load_inputs"]
