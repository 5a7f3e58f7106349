"""The slow lane of tests/conftest.py: a folder, a module or a test function (every parameter)."""

from types import SimpleNamespace

import pytest

from tests.conftest import ROOT, is_slow


def item(nodeid: str) -> SimpleNamespace:
    path, _, name = nodeid.partition("::")
    return SimpleNamespace(path=ROOT / path, name=name, originalname=name.split("[")[0])


@pytest.mark.parametrize("nodeid, slow", [
    ("tests/browser/test_home.py::test_anything", True),
    ("tests/test_import_each_module.py::test_every_public_module_imports_first_in_a_fresh_interpreter", True),
    ("tests/lessons/test_quiz.py::test_what_if_answers_come_from_the_variant_run[06-filter.yaml-q-c]", True),
    ("tests/lessons/test_quiz.py::test_what_if_answers_come_from_the_variant_run_x", False),
    ("tests/lessons/test_quiz.py::test_quiz_other", False),
    ("tests/test_architecture.py::test_import_linter_contracts_are_kept", False),
])
def test_is_slow(nodeid, slow):
    assert is_slow(item(nodeid)) is slow
