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


def test_no_element_is_sent_as_a_reference_to_the_browsers_cache():
    """Streamlit caches elements of at least ``minCachedMessageSize`` bytes in the browser and then sends
    only their hash; under load that gave "Cached ForwardMsg MISS" (see the config's comment)."""
    from streamlit import config
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.forward_msg_cache import populate_hash_if_needed

    before = config.get_option("global.minCachedMessageSize")
    config.set_option("global.minCachedMessageSize", CONFIG["global"]["minCachedMessageSize"])
    try:
        msg = ForwardMsg()
        msg.delta.new_element.markdown.body = "x" * 33 * 2**20   # bigger than maxMessageSize allows
        populate_hash_if_needed(msg)
        assert msg.metadata.cacheable is False
    finally:
        config.set_option("global.minCachedMessageSize", before)
