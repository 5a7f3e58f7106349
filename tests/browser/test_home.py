"""The dashboard in a real Chromium: it opens on the default sample cluster."""

from playwright.sync_api import expect

from kubesched.api.core import Node
from kubesched.api.load import load_cluster
from kubesched.ui.cluster_tables import SAMPLE_DIR


def test_opens_on_default_cluster(page):
    nodes = [o for o in load_cluster(SAMPLE_DIR / "default.yaml").objects if isinstance(o, Node)]
    expect(page.get_by_text("kubesched — kube-scheduler v1.18.5, step by step")).to_be_visible()
    expect(page.get_by_text(f"Nodes ({len(nodes)})")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(2)
