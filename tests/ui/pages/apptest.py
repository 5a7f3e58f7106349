"""The app under AppTest, opened with a query string (shared by the page tests)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from kubesched.ui.i18n import t

APP = str(Path(__file__).resolve().parents[3] / "app.py")
CLUSTER_PAGE = "kubesched/ui/pages/cluster.py"


def run_app(**query: str) -> AppTest:
    """``app.py`` run once with ``?key=value`` for each keyword; no exception on the way."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def open_editor(at: AppTest) -> AppTest:
    """The Cluster page with its YAML tab open (tabs run lazily)."""
    at.switch_page(CLUSTER_PAGE).run()
    at.session_state["cluster_tab"] = t("cluster.tab_yaml", at.session_state["lang"])
    return at.run()
