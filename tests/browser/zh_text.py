"""The 中文 UI check shared by the browser tests: visible text may not hold a run of three or
more English words outside code, identifiers and user data.

``visible_texts(page)`` reads the text a learner sees (DOM and chart SVG text, hidden elements,
``code``/``pre`` and text areas such as the YAML editors left out); ``english_runs(text)`` finds
the runs: an ASCII stretch (any other character ends it) with three English words. A token
counts as an identifier, never as an English word, when it is in ``vocabulary()`` (plugin,
extension point, queue, phase, code, criterion and record-kind names from the engine; every
one-word string of the sample and lesson clusters: object names, labels, kinds) or is shaped
like one (a digit, ``-_./:=`` inside, camelCase or ALL CAPS); a single letter is a unit or a
variable ("0 s, 1 s"), not a word. Text between quotes (“ ”, "…") is data: the trace's
upstream messages, quoted as the engine recorded them; an English term in （ ） right after
its Chinese name is the glossary's gloss (kubesched/ui/i18n, /work/shared/reference/glossary.md).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RUN = 3
# Upstream's own FitError message (core/generic_scheduler.go FitError.Error), shown as the engine
# recorded it: data, the same in every language.
UPSTREAM_MESSAGES = (re.compile(r"^\d+/\d+ nodes are available: "),)
VISIBLE_TEXTS_JS = """() => {
  const skip = 'code, pre, textarea, script, style, [data-testid="stCode"], [aria-hidden="true"]';
  const seen = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(skip)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    seen.set(el, (seen.get(el) || '') + node.textContent);
  }
  return [...seen.values()].map(s => s.replace(/\\s+/g, ' ').trim());
}"""
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^' ]+'")
_GLOSS = re.compile(r"(?<=[\u4e00-\u9fff])（[A-Za-z][A-Za-z -]*）")   # 拓扑分布约束（topology spread constraint）
_CHUNK = re.compile(r"[\x00-\x7f]+")           # ASCII stretches: any other character breaks a run
_TOKEN = re.compile(r"[A-Za-z0-9_./:=+\-']+")
_SHAPED = re.compile(r"[0-9_./:=+\-]|[a-z][A-Z]|^[A-Z]{2,}s?$")


def _cluster_words(path: Path) -> set[str]:
    words: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(key)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str) and " " not in node.strip():
            words.add(node.strip())
    try:
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            walk(doc)
    except yaml.YAMLError:
        pass
    return words


@functools.cache
def vocabulary() -> frozenset[str]:
    """Identifiers from the engine's own names and the clusters' data (not a list of sentences)."""
    from kubesched.lessons.claims import PHASES, QUEUES
    from kubesched.scheduler.core.preemption import PICK_CRITERIA
    from kubesched.scheduler.framework.plugins.registry import IN_TREE_PLUGINS
    from kubesched.scheduler.framework.v1alpha1.interface import Code
    from kubesched.scheduler.internal.queue import scheduling_queue
    from kubesched.trace import Kind
    from kubesched.ui.figures.binding import ALL_PHASES, LANES
    from kubesched.ui.figures.configuration import EXTENSION_POINTS

    names = set(IN_TREE_PLUGINS) | set(QUEUES) | set(PHASES) | set(PICK_CRITERIA) | set(ALL_PHASES) | set(LANES)
    names |= {str(code) for code in Code} | {kind.value for kind in Kind}
    names |= {field for pair in EXTENSION_POINTS for field in pair}
    names |= {v for k, v in vars(scheduling_queue).items() if k.startswith("MOVE_") and isinstance(v, str)}
    for path in sorted((ROOT / "sample_clusters").rglob("*.yaml")) + sorted((ROOT / "lessons").rglob("*.yaml")):
        names |= _cluster_words(path)
    names |= {"Pod", "Pods", "Node", "Nodes", "YAML", "Python", "Kubernetes", "kubesched", "Streamlit", "Plotly"}
    return frozenset(n.lower() for n in names)


def _english(token: str) -> bool:
    word = token.strip("'.:=-")
    return len(word) > 1 and not _SHAPED.search(word) and word.lower() not in vocabulary() and word.isalpha()


def english_runs(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The ASCII stretches of ``text`` holding ``RUN`` or more English words (identifiers and
    numbers in between do not end a stretch; ``allowed``: more identifiers)."""
    runs: list[str] = []
    for chunk in _CHUNK.findall(_GLOSS.sub("（）", _QUOTED.sub(" ", text))):
        words = [w for w in _TOKEN.findall(chunk) if _english(w) and w.lower() not in allowed]
        if len(words) >= RUN:
            runs.append(chunk.strip())
    return runs


def visible_texts(page) -> list[str]:
    return page.evaluate(VISIBLE_TEXTS_JS)


def english_on_page(page, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Every English run in the page's visible text (its first 120 characters), but for the
    texts ``UPSTREAM_MESSAGES``."""
    return [run[:120] for text in visible_texts(page) for run in english_runs(text, allowed)
            if not any(owned.match(run) for owned in UPSTREAM_MESSAGES)]
