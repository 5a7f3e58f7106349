"""``.streamlit/config.toml``: what a shared classroom server needs, read by ``streamlit run app.py``."""

import tomllib
from pathlib import Path

from kubesched.sim.limits import DASHBOARD

CONFIG = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text())


def test_privacy_viewer_toolbar_and_theme():
    assert CONFIG["browser"]["gatherUsageStats"] is False
    assert CONFIG["client"]["toolbarMode"] == "viewer"
    assert CONFIG["theme"]["primaryColor"] == "#0072B2" and CONFIG["theme"]["dark"]["primaryColor"] == "#56B4E9"


def test_shared_server_limits():
    server = CONFIG["server"]
    assert server["runOnSave"] is False
    assert server["maxUploadSize"] == 1
    assert DASHBOARD.max_bytes == server["maxUploadSize"] * 2**20   # the dashboard's byte limit is this number
    assert 0 < server["maxMessageSize"] <= 64
    assert CONFIG["runner"]["postScriptGC"] is False
