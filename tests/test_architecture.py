"""The layers hold: import-linter's contracts (``.importlinter``) and an import graph without circles.

The contracts are the layer picture of the README; a module-level circle or a circle between
packages (at any depth) is a defect even where Python tolerates it.
"""

from __future__ import annotations

import pathlib
import sys

import grimp
import networkx as nx
import pytest
from importlinter.cli import lint_imports

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    imports = grimp.build_graph("kubesched", cache_dir=None)
    g = nx.DiGraph()
    for module in imports.modules:
        g.add_node(module)
        for imported in imports.find_modules_directly_imported_by(module):
            g.add_edge(module, imported)
    return g


def test_import_linter_contracts_are_kept(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    code = lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True)
    assert code == 0, capsys.readouterr().out


def _circles(g: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def test_no_module_imports_itself_through_others(graph):
    assert _circles(graph) == []


@pytest.mark.parametrize("depth", [2, 3, 4, 5])
def test_no_circle_between_packages(graph, depth):
    def package(module: str) -> str:
        return ".".join(module.split(".")[:depth])

    packages = nx.DiGraph()
    for a, b in graph.edges:
        if package(a) != package(b):
            packages.add_edge(package(a), package(b))
    assert _circles(packages) == []


def test_the_contract_names_every_top_level_package():
    listed = (ROOT / ".importlinter").read_text()
    top = sorted(p.stem if p.is_file() else p.name
                 for p in (ROOT / "kubesched").iterdir()
                 if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__"))
    missing = [name for name in top if f"kubesched.{name}" not in listed]
    assert missing == []


def test_the_graph_holds_the_engine(graph):
    # guards against an empty graph passing the circle tests above
    assert graph.has_edge("kubesched.scheduler.scheduler", "kubesched.util.loop")
    assert graph.number_of_edges() > 500
