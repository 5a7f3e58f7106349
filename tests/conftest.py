"""Suite-wide settings (kept here so the repository's top level stays as documented).

Every test gets a 10-minute pytest-timeout guard unless it sets its own. Tests marked ``slow``
are left out of the fast lane ``pytest -m "not slow"``; CI runs everything.
"""

from pathlib import Path

import pytest

DEFAULT_TIMEOUT_SECONDS = 600
ROOT = Path(__file__).resolve().parents[1]

# The slow lane, by folder, module or test function (paths from the repository root; measured with
# --durations: each takes seconds). Everything else is the fast lane, about two minutes on two idle cores.
SLOW = (
    "tests/browser/",  # a Streamlit server and Chromium per module
    "tests/ui/pages/",  # AppTest runs of whole pages, 1-12 s each
    "tests/test_import_each_module.py",  # a fresh interpreter per kubesched module
    "tests/sim/test_threads.py",  # every sample and lesson cluster run twice, in threads
    "tests/sim/test_limits.py",  # clusters and bombs at the loader's limits
    "tests/sim/test_scenario_strict.py::test_fuzzed_scenarios_give_a_field_error_or_a_run",
    "tests/lessons/test_quiz.py::test_what_if_answers_come_from_the_variant_run",  # a variant run per answer
    "tests/lessons/test_lessons.py::test_no_question_grades_a_coin_flip",
    "tests/lessons/test_lessons.py::test_predictions_and_quiz_are_computed_and_unique",
)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long test (seconds, not milliseconds); "
                                       "deselect with -m 'not slow'")


def is_slow(item) -> bool:
    """A folder (ends in /), a module (every test in it) or a test function (all its parameters)."""
    module = Path(item.path).resolve().relative_to(ROOT).as_posix()
    function = f"{module}::{getattr(item, 'originalname', item.name)}"
    return any(module.startswith(entry) if entry.endswith("/") else entry in (module, function) for entry in SLOW)


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(DEFAULT_TIMEOUT_SECONDS))
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
