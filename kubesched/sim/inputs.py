"""What a run is a function of: the cluster objects, the scheduler configuration, the scenario
and the seed, read from YAML text or a file.

Upstream: no counterpart (kubesched's own input format: a multi-document cluster file that may
hold one KubeSchedulerConfiguration, one scheduler Policy and one Scenario document). Which
configuration that makes is ``config_source.resolve_config``'s.
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field
from typing import Any

from kubesched.api.load import LoadedCluster, load_cluster
from kubesched.api.yaml_source import read_documents
from kubesched.scheduler.apis.config.scheme import ConfigError, ConfigProblem
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.sim.config_source import CONFIG_KIND, POLICY_KIND, Located, resolve_config
from kubesched.sim.scenario import Scenario, blank_document, split_source


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


def _is_path(source: Any) -> bool:
    if isinstance(source, pathlib.Path):
        return True
    return isinstance(source, str) and "\n" not in source and len(source) < 4096 and os.path.isfile(source)


def load_inputs(source: str | pathlib.Path, *, config: Any = None, policy: Any = None,
                seed: int | None = None) -> Inputs:
    """Read the cluster, its configuration and its scenario; LoadError / ConfigError / ScenarioError.

    ``config`` is ``--config`` (a path, YAML text, a dict or a KubeSchedulerConfiguration) and
    ``policy`` is ``--policy-config-file`` (a path or YAML/JSON text); either replaces the
    cluster file's own document of that kind.
    """
    if _is_path(source):
        path = pathlib.Path(source)
        filename = str(source)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            load_cluster(path)  # raises the loader's LoadError naming the file
            raise
    else:
        path, filename, text = None, "<string>", str(source)
    cluster_text, scenario = split_source(text, filename)
    scenario = scenario or Scenario(file=filename)
    documents = read_documents(cluster_text)[0]
    for given, kind in ((config, CONFIG_KIND), (policy, POLICY_KIND)):
        if given is not None:
            for doc in documents:
                if isinstance(doc.data, dict) and doc.data.get("kind") == kind:
                    cluster_text = blank_document(cluster_text, doc.line)
    loaded = load_cluster(cluster_text, filename=filename)
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
    if config is not None and _is_path(config):
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
    if _is_path(given):
        text, name = pathlib.Path(given).read_text(encoding="utf-8"), str(given)
        source: Any = pathlib.Path(given)
    else:
        text, name = str(given), "<config>" if kind == CONFIG_KIND else "<policy>"
        source = text
    docs = [d.data for d in read_documents(text)[0] if isinstance(d.data, dict) and d.data.get("kind") == kind]
    return Located(source, name), (docs[0] if docs else None)


__all__ = ["CONFIG_KIND", "POLICY_KIND", "Inputs", "load_inputs"]
