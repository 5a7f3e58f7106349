"""Every public module of kubesched imports on its own, first, in a fresh interpreter (issue 15:
``python -c "import kubesched.cli.run"`` once failed with a circular import that only showed when
that module was imported first).

One helper interpreter loads the third-party libraries kubesched uses (none of kubesched), then
forks a tree of children that follows the packages: the child for ``a.b`` imports ``a.b`` in a
copy of the process that has just imported ``a``. That is exactly the state a fresh ``python -c
"import a.b.c"`` is in when it reaches ``c`` (Python imports ``a``, then ``a.b``, each to the end,
before ``c`` starts), so every module is imported first — but every package's ``__init__`` runs
once, not once per module under it. Streamlit page scripts (``kubesched/ui/pages``) and
``__main__`` modules are programs, not modules: not imported.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

HELPER = r"""
import gc, importlib, json, os, sys, traceback
import yaml, networkx, plotly.graph_objects, streamlit  # third-party only: kubesched stays unloaded
assert not any(m == "kubesched" or m.startswith("kubesched.") for m in sys.modules)
names, report = json.loads(sys.argv[1]), sys.argv[2]
width = os.cpu_count() or 2
children = {}
for name in names:
    children.setdefault(name.rpartition(".")[0], []).append(name)
gc.freeze()  # forked children leave the preloaded objects alone

def test(names):
    # one child per name, ``width`` at a time; each imports its module, then tests what lies below it
    running = set()
    for name in names:
        if len(running) >= width:
            running.discard(os.wait()[0])
        pid = os.fork()
        if pid == 0:
            try:
                importlib.import_module(name)
            except BaseException:
                with open(report, "a") as out:
                    out.write(json.dumps([name, traceback.format_exc(limit=-6)]) + "\n")
                os._exit(1)
            test(children.get(name, ()))
            os._exit(0)
        running.add(pid)
    while running:
        running.discard(os.wait()[0])

test(children[""])
"""


def public_modules() -> list[str]:
    names = []
    for path in sorted((ROOT / "kubesched").rglob("*.py")):
        relative = path.relative_to(ROOT)
        if "pages" in relative.parts or path.name == "__main__.py":
            continue
        parts = relative.with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_public_modules_list_is_complete():
    names = public_modules()
    assert {"kubesched", "kubesched.cli.run", "kubesched.sim.simulation", "kubesched.ui.session"} <= set(names)
    assert not any(".pages." in n or n.endswith("__main__") for n in names)


def test_every_public_module_imports_first_in_a_fresh_interpreter(tmp_path):
    report = tmp_path / "failures.jsonl"
    report.touch()
    result = subprocess.run([sys.executable, "-c", HELPER, json.dumps(public_modules()), str(report)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    failed = [json.loads(line) for line in report.read_text().splitlines()]
    assert failed == [], "\n\n".join(f"{name}:\n{message}" for name, message in failed)
