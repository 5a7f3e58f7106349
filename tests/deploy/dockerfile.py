"""A reader for deploy/Dockerfile and the repository's .dockerignore, for checks without a docker engine.

``instructions`` splits the Dockerfile as BuildKit does for the forms used here (comments,
backslash continuations, exec form as JSON). ``Ignore`` follows moby/patternmatcher: patterns are
cleaned paths, ``*`` and ``?`` stop at ``/``, ``**`` crosses directories, a path is matched when
it or one of its parent folders is, and the last matching pattern wins (``!`` admits again).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"


@dataclass(frozen=True)
class Instruction:
    line: int
    keyword: str
    args: str

    def exec_form(self) -> list[str]:
        """The JSON array of ``CMD [...]`` (or ``HEALTHCHECK ... CMD [...]``)."""
        text = self.args.split(" CMD ", 1)[1] if self.keyword == "HEALTHCHECK" else self.args
        return json.loads(text)


def instructions(text: str) -> list[Instruction]:
    out, parts, start = [], [], 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not parts and (not line or line.startswith("#")):
            continue
        start = start if parts else number
        if line.endswith("\\"):
            parts.append(line[:-1].strip())
            continue
        parts.append(line)
        keyword, _, args = " ".join(p for p in parts if p and not p.startswith("#")).partition(" ")
        out.append(Instruction(start, keyword.upper(), args.strip()))
        parts = []
    return out


def env(instrs: list[Instruction]) -> dict[str, str]:
    """The ``ENV key=value`` pairs (the forms used in deploy/Dockerfile: unquoted values)."""
    out = {}
    for ins in instrs:
        if ins.keyword == "ENV":
            out.update(pair.split("=", 1) for pair in ins.args.split())
    return out


def _regex(pattern: str) -> re.Pattern:
    out, i = "^", 0
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                i += 1
            out += ".*" if i == len(pattern) else "(.*/)?"
            continue
        out += "[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch)
        i += 1
    return re.compile(out + "$")


@dataclass(frozen=True)
class Ignore:
    patterns: tuple[tuple[bool, str, re.Pattern], ...]  # (admits, pattern, regex)

    @classmethod
    def parse(cls, text: str) -> "Ignore":
        out = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            admits = line.startswith("!")
            pattern = posixpath.normpath(line[1:].strip() if admits else line).lstrip("/") or "."
            out.append((admits, pattern, _regex(pattern)))
        return cls(tuple(out))

    def excluded(self, path: str) -> bool:
        parts = path.split("/")
        candidates = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        result = False
        for admits, _, regex in self.patterns:
            if any(regex.match(c) for c in candidates):
                result = not admits
        return result

    def may_admit_below(self, folder: str) -> bool:
        """Whether an admitting pattern could match something under the excluded ``folder``."""
        return any(admits and (pattern.startswith(folder + "/") or any(c in pattern for c in "*?["))
                   for admits, pattern, _ in self.patterns)


def context_files(root: Path, ignore: Ignore) -> set[str]:
    """The files ``docker build`` sends from ``root``: every file that ``ignore`` does not exclude."""
    out = set()
    for folder, dirs, files in os.walk(root):
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        dirs[:] = [d for d in dirs if not (ignore.excluded(prefix + d) and not ignore.may_admit_below(prefix + d))]
        out.update(prefix + f for f in files if not ignore.excluded(prefix + f))
    return out


def copied(instrs: list[Instruction], context: set[str]) -> set[str]:
    """Context files that the COPY instructions put in the image (sources relative to the context)."""
    out = set()
    for ins in instrs:
        if ins.keyword != "COPY":
            continue
        sources = [a for a in ins.args.split() if not a.startswith("--")][:-1]
        for source in sources:
            src = posixpath.normpath(source)
            out.update(f for f in context if src == "." or f == src or f.startswith(src + "/"))
    return out
