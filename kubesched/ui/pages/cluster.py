"""Cluster: node cards (NodeInfo at the cursor), allocation chart, topology graph, YAML editor.

Layout only (rows and figures from kubesched/ui/figures/cluster.py). The tabs run lazily: only the
open one is computed. Nodes and Topology are cursor-driven fragments; on a big cluster they show
one page of nodes at a time (``CARDS_PER_PAGE``), the YAML editor is plain (a change reruns all).
"""

from dataclasses import replace

import streamlit as st

from kubesched.sim.state import SimState
from kubesched.trace.upstream import permalink
from kubesched.ui import browser, charts, session
from kubesched.ui.figure_cache import cached
from kubesched.ui.figures import large
from kubesched.ui.figures.cluster import (
    TopologyLayout,
    allocation_figure,
    layout_of_key,
    node_cards,
    resource_choices,
    topology_figure,
    topology_graph,
    topology_key,
)
from kubesched.ui.figures.markup import md
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t
from kubesched.ui.pages._exports import chart_download

EDITOR = "cluster_editor"
EDITOR_VERSION = "_cluster_editor_version"
PAGE_KEY = "cluster_node_page"
NODE_INFO = permalink("pkg/scheduler/nodeinfo/node_info.go")


@st.cache_data(max_entries=32, show_spinner=False)
def fixed_layout(node_key: tuple[tuple[str, str, str], ...], hint: tuple[tuple[str, str], ...]) -> TopologyLayout:
    """The topology layout of one cluster run, computed once (it depends only on these keys)."""
    return layout_of_key(node_key, hint)


def _edited_name() -> str:
    base = session.cluster_source().removesuffix(" (edited)")
    return f"{base} (edited)"


def _on_edit() -> None:
    session.set_cluster_text(st.session_state[EDITOR])


def _on_apply() -> None:
    errors = session.load_cluster_text(st.session_state[EDITOR], _edited_name())
    st.session_state["_cluster_applied"] = not errors


def _on_discard() -> None:
    session.set_cluster_text(session.valid_cluster_text())
    st.session_state[EDITOR] = session.valid_cluster_text()
    st.session_state["_cluster_applied"] = False


def page_of_nodes(state: SimState, lang: str) -> SimState:
    """The state cut to one page of nodes (and the pods on them or on none) when there are many."""
    total = len(state.nodes)
    if total <= large.CARDS_PER_PAGE:
        return state
    page = st.pagination(large.page_count(total), key=PAGE_KEY, max_visible_pages=9)
    part = large.page_slice(page, total)
    st.caption(t("large.page", lang, first=part.start + 1, last=part.stop, total=total))
    nodes = state.nodes[part]
    names = {n.name for n in nodes}
    return replace(state, nodes=nodes, pods=tuple(p for p in state.pods if not p.node or p.node in names))


def node_card(card, lang: str) -> None:
    st.markdown(f"**{md(card.name)}**")
    st.caption(md(t("cluster.zone", lang, zone=card.zone, region=card.region)))
    if not card.in_cache:
        st.caption(t("cluster.not_in_cache", lang))
    if card.unschedulable:
        st.text(t("cluster.unschedulable", lang))
    for bar in card.bars:
        st.progress(min(1.0, bar.fraction), text=md(f"{bar.resource}: {bar.requested} / {bar.allocatable}"))
    st.text(t("cluster.taints", lang) + ": " + (", ".join(card.taints) or t("cluster.no_taints", lang)))
    with st.expander(t("cluster.pods", lang, count=len(card.pods))):
        st.text("\n".join(card.pods) or t("cluster.no_pods", lang))
    with st.expander(t("cluster.labels", lang, count=len(card.labels))):
        st.text("\n".join(f"{k}={v}" for k, v in card.labels))


def nodes_view() -> None:
    """Node cards and the allocation chart of (one page of) the nodes at the cursor."""
    lang = session.lang()
    state = page_of_nodes(session.current().state(), lang)
    cards = cached("cluster.cards", lambda: node_cards(state), st.session_state.get(PAGE_KEY))
    st.markdown(f"{t('cluster.nodeinfo', lang)} [{t('cluster.source', lang)}]({NODE_INFO})")
    columns = st.columns(3)
    for i, card in enumerate(cards):
        with columns[i % 3].container(border=True):
            node_card(card, lang)
    resources = resource_choices(cards)
    if resources:
        resource = st.selectbox(t("cluster.resource", lang), resources, key="cluster_resource")
        fig = cached("cluster.allocation", lambda: allocation_figure(
            cards, resource, title=t("cluster.allocation_title", lang, resource=resource)),
            resource, st.session_state.get(PAGE_KEY))
        charts.show(fig, "cluster_allocation")
        chart_download(fig, f"allocation-{resource}", key="cluster_allocation_download")


def topology_view() -> None:
    """region → zone → node → pod at the cursor, every pod in the row it keeps for the whole run."""
    lang = session.lang()
    sim = session.current()
    state = page_of_nodes(sim.state(), lang)
    st.caption(t("cluster.topology_help", lang))

    def build():
        end = sim.end_state()  # the end of the computed run: where every pod ends up
        layout = fixed_layout(topology_key(state.nodes), tuple(sorted((p.key, p.node) for p in end.pods)))
        titles = {k: t(f"cluster.layer_{k}", lang) for k in ("region", "zone", "node", "pod")}
        return topology_figure(topology_graph(state.nodes), layout, state, titles=titles)

    topo = cached("cluster.topology", build, st.session_state.get(PAGE_KEY))
    charts.show(topo, "cluster_topology")
    chart_download(topo, "topology", key="cluster_topology_download")


def yaml_view() -> None:
    """The editor: the learner's text is kept (valid or not) until Apply or Discard."""
    lang = session.lang()
    sim = session.current()
    if st.session_state.get(EDITOR_VERSION) != session.text_version() or EDITOR not in st.session_state:
        st.session_state[EDITOR] = session.cluster_text()
        st.session_state[EDITOR_VERSION] = session.text_version()
    st.text_area(t("cluster.editor", lang), key=EDITOR, height=480, on_change=_on_edit)
    browser.line_numbers(EDITOR)
    apply_col, discard_col, _ = st.columns([1, 1, 3])
    apply_col.button(t("cluster.apply", lang), key="cluster_apply", on_click=_on_apply, type="primary",
                     width="stretch")
    discard_col.button(t("cluster.discard", lang), key="cluster_discard", on_click=_on_discard, width="stretch")
    rows = session.cluster_problem_rows()
    if rows:
        st.error(t("cluster.errors", lang, count=len(rows)))
        st.dataframe([{t(f"cluster.col_{k}", lang): v for k, v in row.items()} for row in rows],
                     hide_index=True, key="cluster_problems")
        st.code("\n".join(session.cluster_errors()), language=None)
    elif st.session_state.get("_cluster_applied"):
        st.success(t("cluster.applied", lang))
    elif session.cluster_text() != session.valid_cluster_text():
        st.info(t("cluster.draft", lang))
    loaded = sim.inputs.loaded
    if loaded is not None and loaded.warnings:
        st.warning(t("cluster.warnings", lang))
        st.code("\n".join(str(w) for w in loaded.warnings), language=None)


lang = session.lang()
st.title(t("cluster.title", lang))
st.caption(t("cluster.caption", lang))
tab_nodes, tab_topology, tab_yaml = st.tabs(
    [t("cluster.tab_nodes", lang), t("cluster.tab_topology", lang), t("cluster.tab_yaml", lang)], key="cluster_tab",
    on_change="rerun")
with tab_nodes:
    if tab_nodes.open:
        cursor_views(nodes_view)
with tab_topology:
    if tab_topology.open:
        cursor_views(topology_view)

with tab_yaml:
    if tab_yaml.open:
        yaml_view()
