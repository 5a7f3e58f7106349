"""The placeholder dashboard page, headless (streamlit AppTest)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kubesched.api.core import Node, Pod
from kubesched.api.load import load_cluster
from kubesched.ui.cluster_tables import SAMPLE_DIR, node_rows, pod_rows, sample_clusters

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def app():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_opens_on_default_sample(app):
    assert app.selectbox(key="cluster").value == "default.yaml"
    cluster = load_cluster(SAMPLE_DIR / "default.yaml")
    nodes = [o for o in cluster.objects if isinstance(o, Node)]
    pods = [o for o in cluster.objects if isinstance(o, Pod)]
    assert [h.value for h in app.subheader] == [f"Nodes ({len(nodes)})", f"Pods ({len(pods)})"]
    assert list(app.dataframe[0].value["node"]) == [r["node"] for r in node_rows(nodes)]
    assert list(app.dataframe[1].value["pod"]) == [r["pod"] for r in pod_rows(pods)]


@pytest.mark.parametrize("name", sample_clusters())
def test_every_sample_renders(name):
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="cluster").set_value(name).run()
    assert not at.exception and not at.error
