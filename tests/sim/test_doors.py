"""The two doors of a Simulation: ``from_text`` never reaches the filesystem, ``from_path`` reads a file.

Issue 17 item 1: a one-line text naming a file that exists on the server was loaded as that file.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import pathlib
from collections.abc import Iterator

import pytest

from kubesched.api.load import LoadError
from kubesched.scheduler.apis.config.scheme import ConfigError
from kubesched.sim import Simulation
from tests.sim.clusters import SMALL, node

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_clusters" / "taints.yaml"
NOT_AN_OBJECT = "<string>:1: document 0: must be an object, not a string"


@pytest.fixture()
def secret_cluster(tmp_path: pathlib.Path) -> pathlib.Path:
    """A valid cluster file on the "server" whose node name must never show up."""
    path = tmp_path / "secret.yaml"
    path.write_text(node("only-in-the-file"))
    return path


@contextlib.contextmanager
def no_filesystem() -> Iterator[list[str]]:
    """While inside, every way a loader could read a file raises (and is remembered)."""
    calls: list[str] = []

    def refuse(name: str):
        def call(*args, **kwargs):
            calls.append(f"{name}{args[:1]}")
            raise AssertionError(f"filesystem reached: {name}{args[:1]}")
        return call
    targets = [(builtins, "open"), (io, "open"), (os, "open"), (os, "stat"), (os, "lstat"), (os, "scandir"),
               (os, "listdir"), (os.path, "isfile"), (os.path, "exists")]
    targets += [(pathlib.Path, name) for name in ("open", "read_text", "read_bytes", "stat", "exists", "is_file")]
    saved = [(target, name, getattr(target, name)) for target, name in targets]
    try:
        for target, name, _ in saved:
            setattr(target, name, refuse(f"{getattr(target, '__name__', target)}.{name}"))
        yield calls
    finally:
        for target, name, original in saved:
            setattr(target, name, original)


def _paths(secret: pathlib.Path) -> list[str]:
    return ["sample_clusters/taints.yaml", str(SAMPLE), "/etc/passwd", str(secret), "../" * 8 + "etc/hostname"]


def test_text_naming_a_file_is_yaml_text(secret_cluster):
    for text in _paths(secret_cluster):
        with no_filesystem() as calls, pytest.raises(LoadError) as info:
            Simulation.from_text(text)
        assert calls == []
        assert str(info.value).splitlines()[1:] == [NOT_AN_OBJECT], text


def test_text_loads_without_the_filesystem():
    with no_filesystem() as calls:
        sim = Simulation.from_text(SMALL)
        sim.run_until_idle()
    assert calls == []
    assert sorted((p.name, p.node) for p in sim.state().pods) == [("db", "n1"), ("web-1", "n2"), ("web-2", "n2")]


def test_config_text_naming_a_file_is_yaml_text():
    with no_filesystem() as calls, pytest.raises(ConfigError) as info:
        Simulation.from_text(SMALL, config=str(SAMPLE))
    assert calls == []
    assert str(info.value).splitlines()[1:] == ["<config>:1: the configuration must be an object, not a string"]


def test_only_a_path_object_is_read_for_the_configuration(tmp_path):
    """A Python caller may hand ``config`` as a ``pathlib.Path`` (its explicit choice); the same
    name as ``str`` is YAML text (what the dashboard always passes)."""
    path = tmp_path / "cfg.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n"
                    "percentageOfNodesToScore: 70\n")
    assert Simulation.from_text(SMALL, config=path).inputs.config.percentage_of_nodes_to_score == 70
    with pytest.raises(ConfigError, match="the configuration must be an object, not a string"):
        Simulation.from_text(SMALL, config=str(path))


def test_text_door_refuses_a_path_object():
    with pytest.raises(TypeError, match="takes YAML text, not PosixPath"):
        Simulation.from_text(SAMPLE)  # type: ignore[arg-type]


def test_path_door_reads_the_file(secret_cluster):
    sim = Simulation.from_path(secret_cluster)
    assert [o.metadata.name for o in sim.inputs.objects] == ["only-in-the-file"]
    assert sim.inputs.filename == str(secret_cluster)
    assert Simulation.from_path(str(secret_cluster)).inputs.objects == sim.inputs.objects


@pytest.mark.parametrize("make, loads_file", [(lambda p: p, True), (str, False)], ids=["Path", "str"])
def test_from_yaml_picks_the_door_by_type_only(secret_cluster, make, loads_file):
    source = make(secret_cluster)
    if loads_file:
        assert Simulation.from_yaml(source).inputs.objects[0].metadata.name == "only-in-the-file"
    else:
        with pytest.raises(LoadError, match="must be an object, not a string"):
            Simulation.from_yaml(source)
