"""Markdown fragments the pages share: learner text made inert, links to upstream functions.

Upstream: no counterpart (dashboard plumbing). Names, labels and messages from a learner's YAML
go through ``md`` before they reach ``st.markdown`` or a Markdown-rendering alert, so they show
as typed (no formatting, no links, no HTML).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kubesched.trace.upstream import permalink

__all__ = ["code_link", "links_line", "md", "section_link"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$])")


def md(text: object) -> str:
    """``text`` with every Markdown special character backslash-escaped."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def code_link(name: str, url: str) -> str:
    """``[`name`](url)``: an upstream function name linked to its source."""
    return f"[`{name}`]({url})"


def links_line(pairs: Iterable[tuple[str, str]]) -> str:
    """``(name, url)`` pairs as one line of code links joined by `` · `` (repeats dropped)."""
    return " · ".join(dict.fromkeys(code_link(name, url) for name, url in pairs))


def section_link(links: Mapping[str, tuple[str, str]], section: str) -> str:
    """The code link of a page section, from a ``section → (upstream path, function)`` table."""
    path, func = links[section]
    return code_link(func, permalink(path))
