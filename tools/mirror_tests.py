"""Move tests/ into a tree that mirrors kubesched/ (issue 12 §3): tests/plugins_a/... → tests/scheduler/framework/...

Idempotent and replayable on a newer main: folder rules place every file of an old folder (new files too),
per-file overrides refine them, files that no longer exist are skipped. For each move it runs ``git mv``,
creates the ``__init__.py`` chain of the new folders, and rewrites, in every Python/TOML/INI/Markdown file of
tests/, benchmarks/, deploy/, tools/ and the top level:

* dotted module names (``tests.sim_run.clusters`` → ``tests.sim.clusters``) and slash paths
  (``tests/sim_run/test_threads.py``), whole files before folders;
* relative imports (``from .builders import``) and bare imports of helpers of folders that had no
  ``__init__.py`` (``from volume_fixtures import``) in moved files, to the new dotted name;
* ``Path(__file__)...parents[N]`` in moved files, by the change of depth.

A file no rule places is left where it is and printed. Usage: ``python tools/mirror_tests.py [--dry-run]``.
Standard library only.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = "scheduler/framework/plugins"

# Old folder under tests/ → new folder under tests/ (every file of the folder, unless overridden below).
FOLDERS = {
    "cache": "scheduler/internal/cache",
    "config": "scheduler/apis/config",
    "core": "api",
    "core_scheduler": "scheduler/core",
    "eventhandlers": "scheduler",
    "framework": "scheduler/framework/v1alpha1",
    "leaderelection": "client/leaderelection",
    "persistentvolume": "controller/volume/persistentvolume",
    "plugin_shortcuts": PLUGINS,
    "plugins_a": PLUGINS,
    "plugins_b": PLUGINS,
    "plugins_volumes": PLUGINS,
    "preemption": "scheduler/core",
    "queue": "scheduler/internal/queue",
    "sim_run": "sim",
    "ui_figures": "ui/figures",
    "ui_pages": "ui/pages",
}

# Old file under tests/ → new file under tests/ (the module it tests, by upstream's file name).
FILES = {
    "core/test_features.py": "test_features.py",
    "core/test_go_quote.py": "util/test_strconv.py",
    "core/test_node_info.py": "scheduler/nodeinfo/test_node_info.py",
    "core/test_status.py": "scheduler/framework/v1alpha1/test_interface.py",
    "eventhandlers/test_informers.py": "client/informers/test_informers.py",
    "framework/test_algorithmprovider.py": "scheduler/algorithmprovider/test_registry.py",
    "framework/test_builtin_plugins.py": f"{PLUGINS}/test_builtin_plugins.py",
    "plugins_a/builders.py": f"{PLUGINS}/plugin_builders.py",
    "plugins_a/test_noderesources.py": f"{PLUGINS}/noderesources/test_noderesources.py",
    "plugins_a/test_perf_fast_paths_a.py": f"{PLUGINS}/noderesources/test_fast_paths.py",
    "plugins_a/test_node_affinity.py": f"{PLUGINS}/nodeaffinity/test_node_affinity.py",
    "plugins_a/test_node_ports.py": f"{PLUGINS}/nodeports/test_node_ports.py",
    "plugins_a/test_taints.py": f"{PLUGINS}/tainttoleration/test_taint_toleration.py",
    "plugins_a/test_node_lookup.py": f"{PLUGINS}/helper/test_snapshot.py",
    "plugins_b/builders.py": f"{PLUGINS}/placement_builders.py",
    "plugins_b/test_defaultpodtopologyspread.py":
        f"{PLUGINS}/defaultpodtopologyspread/test_default_pod_topology_spread.py",
    "plugins_b/test_interpodaffinity.py": f"{PLUGINS}/interpodaffinity/test_interpodaffinity.py",
    "plugins_b/test_perf_memos_b.py": f"{PLUGINS}/interpodaffinity/test_terms.py",
    "plugins_b/test_podtopologyspread.py": f"{PLUGINS}/podtopologyspread/test_podtopologyspread.py",
    "plugins_b/test_serviceaffinity.py": f"{PLUGINS}/serviceaffinity/test_serviceaffinity.py",
    "plugins_b/test_spread_helpers.py": f"{PLUGINS}/helper/test_spread.py",
    "plugins_volumes/test_node_volume_limits.py": f"{PLUGINS}/nodevolumelimits/test_node_volume_limits.py",
    "plugins_volumes/test_volume_binding_binder.py": f"{PLUGINS}/volumebinding/test_volume_binding.py",
    "preemption/builders.py": "scheduler/core/preemption_builders.py",
    "queue/test_internal_heap.py": "scheduler/internal/heap/test_heap.py",
    "sim_run/test_cmd_app.py": "cmd/app/test_app.py",
}

TEXT_SUFFIXES = {".py", ".toml", ".ini", ".cfg", ".md", ".txt", ".yaml", ".yml", ""}
SCANNED = ("tests", "benchmarks", "deploy", "tools", ".ci")


def destination(rel: str) -> str | None:
    """The new path (under tests/) of ``rel`` (under tests/), None when it stays."""
    if rel in FILES:
        return FILES[rel]
    folder, _, rest = rel.partition("/")
    if folder in FOLDERS and rest and "/" not in rest:
        return f"{FOLDERS[folder]}/{rest}"
    return None


def plan() -> dict[str, str]:
    """Old → new (both under tests/) for every existing file of a mirrored folder; __init__.py is recreated."""
    moves = {}
    for folder in FOLDERS:
        base = ROOT / "tests" / folder
        for path in sorted(base.glob("*")) if base.is_dir() else ():
            rel = path.relative_to(ROOT / "tests").as_posix()
            if path.name == "__init__.py" or path.name == "__pycache__":
                continue
            new = destination(rel) if path.is_file() else None
            if new is None:
                print(f"left in place (no rule): tests/{rel}")
            else:
                moves[rel] = new
    return moves


def dotted(rel: str) -> str:
    return "tests." + rel.removesuffix(".py").replace("/", ".")


def had_init(rel: str) -> bool:
    return (ROOT / "tests" / rel).parent.joinpath("__init__.py").exists()


def name_map(moves: dict[str, str]) -> list[tuple[str, str]]:
    """(old, new) textual renames, longest first: modules and files, then folders."""
    pairs = [(dotted(o), dotted(n)) for o, n in moves.items() if o.endswith(".py")]
    pairs += [(f"tests/{o}", f"tests/{n}") for o, n in moves.items()]
    whole = [f for f in FOLDERS if not any(rel.startswith(f"{f}/") for rel in FILES)]
    pairs += [(f"tests/{f}/", f"tests/{FOLDERS[f]}/") for f in whole if any(o.startswith(f"{f}/") for o in moves)]
    return sorted(pairs, key=lambda p: -len(p[0]))


def rewrite_names(text: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        end = "" if old.endswith("/") else r"(?![\w/])"
        text = re.sub(rf"(?<![\w./]){re.escape(old)}{end}", new, text)
    return text


def rewrite_moved(text: str, old: str, new: str, moves: dict[str, str], bare: dict[str, str]) -> str:
    """Relative and bare helper imports, and parents[N] depth, of one moved file."""
    old_pkg = dotted(old).rsplit(".", 1)[0]

    def relative(m: re.Match) -> str:
        target = f"{old_pkg}.{m.group(2)}"
        for o, n in moves.items():
            if dotted(o) == target:
                return f"{m.group(1)}from {dotted(n)} import"
        return f"{m.group(1)}from {target} import"

    text = re.sub(r"^(\s*)from \.(\w+) import", relative, text, flags=re.M)
    for module, new_dotted in bare.items():
        text = re.sub(rf"^(\s*)from {module} import", rf"\1from {new_dotted} import", text, flags=re.M)
        text = re.sub(rf"^(\s*)import {module}$", rf"\1import {new_dotted} as {module}", text, flags=re.M)
    delta = new.count("/") - old.count("/")
    if delta:
        text = re.sub(r"(Path\(__file__\)(?:\.resolve\(\))?\.parents\[)(\d+)\]",
                      lambda m: f"{m.group(1)}{int(m.group(2)) + delta}]", text)
    return text


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def ensure_inits(rel_dir: Path) -> None:
    for part in [rel_dir, *rel_dir.parents]:
        if part == Path("."):
            break
        init = ROOT / "tests" / part / "__init__.py"
        if not init.exists():
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text("")
            git("add", init.relative_to(ROOT).as_posix())


def scanned_files() -> list[Path]:
    files = [p for p in ROOT.iterdir() if p.is_file() and p.suffix in TEXT_SUFFIXES]
    for top in SCANNED:
        files += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES
                  and "__pycache__" not in p.parts]
    return [p for p in files if p.resolve() != Path(__file__).resolve()]


def remove_emptied(moves: dict[str, str]) -> None:
    for folder in {o.split("/")[0] for o in moves}:
        base = ROOT / "tests" / folder
        left = [p for p in base.iterdir() if p.name not in ("__init__.py", "__pycache__")] if base.is_dir() else []
        if base.is_dir() and not left:
            if (base / "__init__.py").exists():
                git("rm", "-q", (base / "__init__.py").relative_to(ROOT).as_posix())
            subprocess.run(["rm", "-rf", str(base)], check=True)


def main(dry_run: bool) -> int:
    moves = plan()
    for old, new in moves.items():
        print(f"tests/{old} -> tests/{new}")
    if dry_run or not moves:
        return 0
    bare = {Path(o).stem: dotted(n) for o, n in moves.items() if o.endswith(".py") and not had_init(o)}
    for old, new in moves.items():
        ensure_inits(Path(new).parent)
        git("mv", f"tests/{old}", f"tests/{new}")
        path = ROOT / "tests" / new
        if path.suffix == ".py":
            path.write_text(rewrite_moved(path.read_text(), old, new, moves, bare))
    remove_emptied(moves)
    pairs = name_map(moves)
    for path in scanned_files():
        text = path.read_text(errors="surrogateescape")
        changed = rewrite_names(text, pairs)
        if changed != text:
            path.write_text(changed, errors="surrogateescape")
            print(f"rewrote names in {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main("--dry-run" in sys.argv[1:]))
