"""Suite-wide settings (kept here so the repository's top level stays as documented).

Every test gets a 10-minute pytest-timeout guard unless it sets its own. Tests marked ``slow``
are left out of the fast lane ``pytest -m "not slow"``; CI runs everything.
"""

import pytest

DEFAULT_TIMEOUT_SECONDS = 600


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long test (seconds, not milliseconds); "
                                       "deselect with -m 'not slow'")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(DEFAULT_TIMEOUT_SECONDS))
