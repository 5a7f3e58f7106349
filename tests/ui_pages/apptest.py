"""The app under AppTest, opened with a query string (shared by the page tests)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def run_app(**query: str) -> AppTest:
    """``app.py`` run once with ``?key=value`` for each keyword; no exception on the way."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at
