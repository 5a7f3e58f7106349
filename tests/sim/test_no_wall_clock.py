"""No wall clock and no global random anywhere under kubesched/ (determinism rule).

``import random`` is allowed for ``random.Random(seed)`` instances; any other
``random.<function>(`` call, or ``from random import <function>``, is not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "kubesched"
ALLOWED = (ROOT / "bench",  # the benchmarks time the engine from outside
           ROOT / "scheduler" / "core" / "extender_transport.py",  # real HTTP: httpTimeout is wall time
           ROOT / "ui" / "fragments.py")  # the browser's clean-up delay after a page run, not simulated time

FORBIDDEN = [
    (re.compile(r"\btime\.(time|monotonic|perf_counter|time_ns|monotonic_ns)\s*\("), "wall clock"),
    (re.compile(r"\bdatetime\.(now|utcnow|today)\s*\("), "wall clock"),
    (re.compile(r"\bdate\.today\s*\("), "wall clock"),
    (re.compile(r"^\s*from\s+time\s+import\s+.*\b(time|monotonic|perf_counter)\b"), "wall clock import"),
    (re.compile(r"^\s*from\s+random\s+import\b(?!\s+Random\s*$)"), "global random function"),
    # random.<anything> except random.Random(seed) instances
    (re.compile(r"(?<![\w.])random\.(?!Random\b)[a-z_]+\s*\("), "global random call"),
]


def offences(text: str, name: str) -> list[str]:
    found = []
    for lineno, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        for pattern, what in FORBIDDEN:
            if pattern.search(code):
                found.append(f"{name}:{lineno}: {what}: {line.strip()}")
    return found


def test_no_wall_clock_or_global_random_under_kubesched():
    problems = []
    for path in sorted(ROOT.rglob("*.py")):
        if any(path.is_relative_to(allowed) for allowed in ALLOWED):
            continue
        problems += offences(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent)))
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("line,bad", [
    ("t = time.time()", True),
    ("t = time.monotonic()", True),
    ("now = datetime.now()", True),
    ("now = datetime.datetime.utcnow()", True),
    ("import random", False),  # allowed: only random.Random(seed) may be used
    ("import random as rnd", False),
    ("x = random.choice(nodes)", True),
    ("from random import shuffle", True),
    ("rng = random.Random(seed)", False),
    ("from random import Random", False),
    ("self.random.shuffle(nodes)", False),  # an injected Random instance
    ("x = rng.random()", False),
    ("self.clock.now()", False),
    ("# time.time() in a comment", False),
    ("loop.now()", False),
])
def test_the_checker_itself(line, bad):
    assert bool(offences(line, "x.py")) is bad
