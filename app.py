"""kubesched dashboard entry point (placeholder: the dashboard issue replaces it).

Loads a built-in sample cluster (``sample_clusters/default.yaml`` first) and shows its
nodes and pods as the API server holds them after defaulting.
"""

import pandas  # noqa: F401  (import eagerly: plotly reads sys.modules["pandas"] during reruns)
import streamlit as st

from kubesched.api.core import Node, Pod
from kubesched.api.load import LoadError, load_cluster
from kubesched.ui.cluster_tables import SAMPLE_DIR, describe, node_rows, pod_rows, sample_clusters

st.set_page_config(page_title="kubesched", layout="wide")
st.title("kubesched — kube-scheduler v1.18.5, step by step")
choice = st.selectbox("Sample cluster", sample_clusters(), key="cluster")
path = SAMPLE_DIR / choice
st.caption(describe(path))
try:
    cluster = load_cluster(path)
except LoadError as err:
    st.error("\n".join(str(p) for p in err.problems))
    st.stop()
nodes = [o for o in cluster.objects if isinstance(o, Node)]
pods = [o for o in cluster.objects if isinstance(o, Pod)]
st.subheader(f"Nodes ({len(nodes)})")
st.dataframe(node_rows(nodes), hide_index=True, key="nodes")
st.subheader(f"Pods ({len(pods)})")
st.dataframe(pod_rows(pods), hide_index=True, key="pods")
