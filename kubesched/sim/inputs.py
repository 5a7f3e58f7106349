"""What a run is a function of: the cluster objects, the scheduler configuration, the scenario
and the seed, read from YAML text or a file.

Upstream: no counterpart (kubesched's own input format: a multi-document cluster file that may
hold one KubeSchedulerConfiguration and one Scenario document).
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field
from typing import Any, Final

from kubesched.api.load import LoadedCluster, load_cluster
from kubesched.api.yaml_source import read_documents
from kubesched.scheduler.apis.config.scheme import (
    ConfigError,
    ConfigProblem,
    default_config,
    load_config,
)
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.sim.scenario import Scenario, blank_document, split_source

CONFIG_KIND: Final = "KubeSchedulerConfiguration"


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


def load_inputs(source: str | pathlib.Path, *, config: Any = None, seed: int | None = None) -> Inputs:
    """Read the cluster, its configuration and its scenario; LoadError / ConfigError / ScenarioError."""
    if _is_path(source):
        path = pathlib.Path(source)
        filename = str(source)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            load_cluster(path)  # raises the loader's LoadError naming the file
            raise
    else:
        filename, text = "<string>", str(source)
    cluster_text, scenario = split_source(text, filename)
    scenario = scenario or Scenario(file=filename)
    config_docs = [d for d in read_documents(cluster_text)[0] if isinstance(d.data, dict)
                   and d.data.get("kind") == CONFIG_KIND]
    if config is not None:
        for doc in config_docs:
            cluster_text = blank_document(cluster_text, doc.line)
    loaded = load_cluster(cluster_text, filename=filename)
    cfg, config_document = _config(loaded, config)
    given = config is not None or bool(loaded.config_documents)
    effective_seed = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    return Inputs(objects=loaded.objects, config=cfg, config_given=given, scenario=scenario, seed=effective_seed,
                  cluster_text=cluster_text, config_document=config_document, filename=filename, loaded=loaded)


def _config(loaded: LoadedCluster, config: Any) -> tuple[KubeSchedulerConfiguration, dict[str, Any] | None]:
    if config is None:
        docs = loaded.config_documents
        if len(docs) > 1:
            raise ConfigError([ConfigProblem(d.file, d.line, "", f"a second {CONFIG_KIND} document (the first is "
                                             f"at line {docs[0].line}); a cluster file may hold one")
                               for d in docs[1:]])
        return (load_config(docs[0]) if docs else default_config()), None
    if isinstance(config, KubeSchedulerConfiguration):
        return config, None
    if isinstance(config, dict):
        return load_config(config), dict(config)
    if _is_path(config):
        path = pathlib.Path(config)
        cfg = load_config(path)
        text = path.read_text(encoding="utf-8")
    else:
        text = str(config)
        cfg = load_config(text)
    docs = [d.data for d in read_documents(text)[0] if isinstance(d.data, dict) and d.data.get("kind") == CONFIG_KIND]
    return cfg, (docs[0] if docs else None)


__all__ = ["CONFIG_KIND", "Inputs", "load_inputs"]
