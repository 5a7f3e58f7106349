"""Suite-wide settings (kept here so the repository's top level stays as documented).

Every test gets a 10-minute pytest-timeout guard unless it sets its own.
"""

import pytest

DEFAULT_TIMEOUT_SECONDS = 600


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(DEFAULT_TIMEOUT_SECONDS))
