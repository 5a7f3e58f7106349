"""Rows and figures for the Home and Cluster pages: sample cards, node cards, the topology graph.

Upstream: pkg/scheduler/nodeinfo/node_info.go (NodeInfo: requestedResource vs
allocatableResource, pods) for what a node card shows; the topology labels
``topology.kubernetes.io/{region,zone}`` and their 1.18-era ``failure-domain.beta.kubernetes.io``
forms (staging/src/k8s.io/api/core/v1/well_known_labels.go).

Pure functions over a ``SimState`` (kubesched/sim/state.py) or file text; no Streamlit here.
Text that came from a learner's YAML is escaped before it reaches a Plotly label (Plotly
reads a few HTML tags in text).

Deviation: the topology layout is layered like networkx's ``multipartite_layout`` (x by layer)
but orders each layer as a tree (rows of a node's pods together, a node centred on its pods, a
zone on its nodes): ``multipartite_layout`` keeps the graph's vertex order inside a layer, which
crosses edges. It is computed once per cluster from where each pod ends up, so every pod keeps
one row for the whole run: on no node it waits in the right-hand column, once bound it moves
left next to its node; nothing else moves.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import plotly.graph_objects as go

from kubesched.api.quantity import Quantity, QuantityError
from kubesched.sim.state import PHASE_DELETED, NodeState, PodState, SimState
from kubesched.ui.theme import OKABE_ITO, QUEUE_COLOURS, QUEUE_GLYPHS
from kubesched.ui.i18n.samples import CARDS

ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")
REGION_LABELS = ("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region")
NO_ZONE, NO_REGION = "(no zone)", "(no region)"
CORE_RESOURCES = ("cpu", "memory", "pods", "ephemeral-storage")
LAYER_COLOURS = {"region": OKABE_ITO["grey"], "zone": OKABE_ITO["sky_blue"], "node": OKABE_ITO["blue"]}
NODE_TAINTED_COLOUR = OKABE_ITO["yellow"]
POD_PENDING_COLOUR = OKABE_ITO["grey"]
EDGE_COLOUR = "#8C8C8C"


# -- sample files ------------------------------------------------------------------------------------
def leading_comment(text: str) -> str:
    """The leading ``#`` comment block of a cluster file, as paragraphs joined by blank lines."""
    paragraphs: list[list[str]] = [[]]
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        if body:
            paragraphs[-1].append(body)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


@dataclass(frozen=True, slots=True)
class SampleCard:
    name: str           # file name
    headline: str       # the first sentence of the leading comment
    description: str    # the rest of the leading comment


def sample_card(path: Path, lang: str = "en") -> SampleCard:
    """A Home-page card: the file's name and its leading comment (in English), or its
    translation from ``kubesched.ui.i18n.samples.CARDS``."""
    translated = CARDS.get(lang, {}).get(path.name)
    if translated:
        return SampleCard(path.name, *translated)
    comment = leading_comment(path.read_text(encoding="utf-8"))
    first, _, rest = comment.partition("\n\n")
    headline = first.split(" - ", 1)[1] if " - " in first else first
    return SampleCard(path.name, headline.strip(), rest.strip())


# -- node cards ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ResourceBar:
    resource: str
    requested: str        # canonical quantity, in millis when either side is (pods: number of pods on the node)
    allocatable: str
    fraction: float       # requested / allocatable, 0 when nothing is allocatable (may exceed 1)


@dataclass(frozen=True, slots=True)
class NodeCard:
    name: str
    zone: str
    region: str
    unschedulable: bool
    taints: tuple[str, ...]
    labels: tuple[tuple[str, str], ...]
    pods: tuple[str, ...]
    bars: tuple[ResourceBar, ...]
    in_cache: bool        # False before the scheduler cache has the node (informers not synced yet)


def label_of(labels: tuple[tuple[str, str], ...] | dict[str, str], keys: tuple[str, ...], default: str) -> str:
    table = dict(labels)
    return next((table[k] for k in keys if table.get(k)), default)


def _milli(text: str) -> int:
    try:
        return Quantity.parse(text).milli_value()
    except QuantityError:
        return 0


def resource_bars(node: NodeState) -> tuple[ResourceBar, ...]:
    """Requested vs allocatable as NodeInfo holds them: core resources first, then scalars.

    NodeInfo counts pods by ``len(pods)`` (``requestedResource.AllowedPodNumber`` stays 0), so
    the pods bar uses the number of pods on the node.
    """
    allocatable = dict(node.allocatable)
    requested = dict(node.requested)
    names = [r for r in CORE_RESOURCES if r in allocatable]
    names += sorted(r for r in allocatable if r not in CORE_RESOURCES)
    bars = []
    for name in names:
        used = str(len(node.pods)) if name == "pods" else requested.get(name, "0")
        total = allocatable[name]
        cap = _milli(total)
        bars.append(ResourceBar(name, *_one_scale(used, total), _milli(used) / cap if cap > 0 else 0.0))
    return tuple(bars)


def _one_scale(used: str, total: str) -> tuple[str, str]:
    """Both sides in millis when either is (``6`` of ``7910m`` reads ``6000m / 7910m``): canonical
    quantities pick their suffix one by one, and a learner compares the two numbers."""
    if (used.endswith("m") or total.endswith("m")) and used != "0":
        return f"{_milli(used)}m", f"{_milli(total)}m"
    return used, total


def node_cards(state: SimState) -> tuple[NodeCard, ...]:
    """One card per node, in the API server's order."""
    return tuple(NodeCard(n.name, label_of(n.labels, ZONE_LABELS, NO_ZONE), label_of(n.labels, REGION_LABELS, NO_REGION),
                          n.unschedulable, n.taints, n.labels, n.pods, resource_bars(n), bool(n.requested))
                 for n in state.nodes)


def allocation_figure(cards: tuple[NodeCard, ...], resource: str, *, title: str = "") -> go.Figure:
    """Requested share of allocatable per node for one resource (a horizontal bar per node)."""
    rows = [(c.name, bar) for c in cards for bar in c.bars if bar.resource == resource]
    names = [html.escape(name) for name, _ in rows]
    fig = go.Figure(go.Bar(
        x=[round(bar.fraction * 100, 1) for _, bar in rows], y=names, orientation="h",
        marker_color=[OKABE_ITO["vermillion"] if bar.fraction > 1 else OKABE_ITO["blue"] for _, bar in rows],
        text=[f"{html.escape(bar.requested)} / {html.escape(bar.allocatable)}" for _, bar in rows],
        textposition="auto", hovertemplate="%{y}: %{text} (%{x}%)<extra></extra>", name=resource))
    fig.update_layout(title=title or resource, xaxis={"range": [0, 100], "ticksuffix": "%"},
                      yaxis={"autorange": "reversed"}, height=80 + 32 * max(1, len(rows)),
                      margin={"l": 10, "r": 10, "t": 40, "b": 10}, showlegend=False)
    return fig


def resource_choices(cards: tuple[NodeCard, ...]) -> list[str]:
    """The resources any card has a bar for: the core ones first, each group by name."""
    return sorted({bar.resource for card in cards for bar in card.bars},
                  key=lambda r: (r not in CORE_RESOURCES, r))


# -- topology graph --------------------------------------------------------------------------------------
def topology_graph(nodes: tuple[NodeState, ...]) -> nx.DiGraph:
    """region → zone → node, every vertex with its ``layer`` (0, 1, 2); names are ``layer:name``."""
    graph = nx.DiGraph()
    for node in sorted(nodes, key=lambda n: (label_of(n.labels, REGION_LABELS, NO_REGION),
                                             label_of(n.labels, ZONE_LABELS, NO_ZONE), n.name)):
        region = label_of(node.labels, REGION_LABELS, NO_REGION)
        zone = label_of(node.labels, ZONE_LABELS, NO_ZONE)
        graph.add_node(f"region:{region}", layer=0, label=region, kind="region")
        graph.add_node(f"zone:{region}/{zone}", layer=1, label=zone, kind="zone")
        graph.add_node(f"node:{node.name}", layer=2, label=node.name, kind="node")
        graph.add_edge(f"region:{region}", f"zone:{region}/{zone}")
        graph.add_edge(f"zone:{region}/{zone}", f"node:{node.name}")
    return graph


@dataclass(frozen=True, slots=True)
class TopologyLayout:
    """Fixed positions: ``points`` for region/zone/node vertices, ``slots`` (y) for pods.

    x by layer: region 0, zone 1, node 2, pods on a node ``POD_X``, pods on no node ``PENDING_X``.
    """

    points: dict[str, tuple[float, float]]
    slots: dict[str, float]

    def y_of(self, pod_key: str) -> float | None:
        return self.slots.get(pod_key)


POD_X, PENDING_X = 3.0, 4.6


def topology_key(nodes: tuple[NodeState, ...]) -> tuple[tuple[str, str, str], ...]:
    """``(name, region, zone)`` per node: all the topology layout depends on (a cache key)."""
    return tuple((n.name, label_of(n.labels, REGION_LABELS, ""), label_of(n.labels, ZONE_LABELS, ""))
                 for n in nodes)


def layout_of_key(node_key: tuple[tuple[str, str, str], ...], hint: tuple[tuple[str, str], ...]) -> TopologyLayout:
    """``topology_layout`` rebuilt from a ``topology_key`` and ``(pod, node)`` pairs of the run's end."""
    nodes = tuple(NodeState(name, ((REGION_LABELS[0], region), (ZONE_LABELS[0], zone)), (), False, (), (), ())
                  for name, region, zone in node_key)
    return topology_layout(topology_graph(nodes), dict(hint))


def topology_layout(graph: nx.DiGraph, hint: dict[str, str] | None = None) -> TopologyLayout:
    """A layered (multipartite) tree layout computed once per cluster; plain floats, no randomness.

    ``hint`` maps pod keys to the node each one ends up on (the end of the computed run): every
    pod gets one fixed row, the rows of a node's pods are contiguous, the node sits in the middle
    of its rows, a zone in the middle of its nodes, a region in the middle of its zones. Pods
    that end on no node get the rows at the bottom. Rows go downwards from 0 in steps of 1.
    """
    hint = hint or {}
    nodes = [n for n, d in graph.nodes(data=True) if d["kind"] == "node"]
    by_node: dict[str, list[str]] = {}
    for pod, node in sorted(hint.items()):
        by_node.setdefault(node if f"node:{node}" in graph else "", []).append(pod)
    points: dict[str, tuple[float, float]] = {}
    slots: dict[str, float] = {}
    row = 0.0
    for vertex in nodes:          # insertion order: region, zone, node name
        pods = by_node.get(vertex[5:], [])
        span = max(1, len(pods))
        for i, pod in enumerate(pods):
            slots[pod] = -(row + i)
        points[vertex] = (2.0, -(row + (span - 1) / 2))
        row += span
    for pod in by_node.get("", []):
        slots[pod] = -row
        row += 1
    for layer, kind in ((1.0, "zone"), (0.0, "region")):
        for vertex, data in graph.nodes(data=True):
            if data["kind"] == kind:
                ys = [points[child][1] for child in graph.successors(vertex)]
                points[vertex] = (layer, sum(ys) / len(ys))
    return TopologyLayout(points, slots)


@dataclass(frozen=True, slots=True)
class PodMark:
    key: str
    node: str           # "" when not on a node
    x: float
    y: float
    colour: str
    glyph: str
    status: str         # Bound / Running / activeQ / podBackoffQ / unschedulableQ / Pending


def _pod_look(pod: PodState) -> tuple[str, str, str]:
    if pod.node:
        return QUEUE_COLOURS["bound"], QUEUE_GLYPHS["bound"], pod.phase
    if pod.queue:
        return QUEUE_COLOURS.get(pod.queue, POD_PENDING_COLOUR), QUEUE_GLYPHS.get(pod.queue, "·"), pod.queue
    return POD_PENDING_COLOUR, "·", pod.phase


def pod_marks(state: SimState, layout: TopologyLayout) -> tuple[PodMark, ...]:
    """Every live pod in its fixed row: next to its node when on one, in the right column when not.

    Pods the layout has no row for (created after it was computed) get rows below the others.
    """
    extra = min(layout.slots.values(), default=1.0)
    extra = min(extra, min((y for _, y in layout.points.values()), default=0.0)) - 1
    marks: list[PodMark] = []
    for pod in sorted(state.pods, key=lambda p: p.key):
        if pod.phase == PHASE_DELETED:
            continue
        y = layout.y_of(pod.key)
        if y is None:
            y, extra = extra, extra - 1
        colour, glyph, status = _pod_look(pod)
        on_node = bool(pod.node) and f"node:{pod.node}" in layout.points
        marks.append(PodMark(pod.key, pod.node if on_node else "", POD_X if on_node else PENDING_X, y,
                             colour, glyph, status))
    return tuple(marks)


def topology_figure(graph: nx.DiGraph, layout: TopologyLayout, state: SimState, *,
                    titles: dict[str, str] | None = None) -> go.Figure:
    """region → zone → node → pod drawn from a fixed layout; pods coloured by queue or bound."""
    titles = titles or {}
    tainted = {n.name for n in state.nodes if n.taints or n.unschedulable}
    marks = pod_marks(state, layout)
    ex, ey = [], []
    for a, b in graph.edges():
        (x0, y0), (x1, y1) = layout.points[a], layout.points[b]
        ex += [x0, x1, None]
        ey += [y0, y1, None]
    for mark in marks:
        if mark.node:
            x0, y0 = layout.points[f"node:{mark.node}"]
            ex += [x0, mark.x, None]
            ey += [y0, mark.y, None]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", line={"color": EDGE_COLOUR, "width": 1},
                             hoverinfo="skip", showlegend=False, name="edges"))
    for kind in ("region", "zone", "node"):
        names = [n for n, d in graph.nodes(data=True) if d["kind"] == kind]
        labels = [graph.nodes[n]["label"] for n in names]
        colours = [NODE_TAINTED_COLOUR if kind == "node" and label in tainted else LAYER_COLOURS[kind]
                   for label in labels]
        fig.add_trace(go.Scatter(
            x=[layout.points[n][0] for n in names], y=[layout.points[n][1] for n in names], mode="markers+text",
            marker={"size": 18 if kind != "node" else 16, "color": colours, "symbol": "square" if kind == "node" else "circle",
                        "line": {"color": "#333333", "width": 1}},
            text=[html.escape(label) for label in labels], textposition="top center",
            hovertemplate=f"{kind}: %{{text}}<extra></extra>", name=titles.get(kind, kind)))
    fig.add_trace(go.Scatter(
        x=[m.x for m in marks], y=[m.y for m in marks], mode="markers+text",
        marker={"size": 11, "color": [m.colour for m in marks], "line": {"color": "#333333", "width": 1}},
        text=[f"{m.glyph} {html.escape(m.key.split('/', 1)[-1])}" for m in marks], textposition="middle right",
        customdata=[[html.escape(m.key), m.status] for m in marks],
        hovertemplate="%{customdata[0]}: %{customdata[1]}<extra></extra>", name=titles.get("pod", "pod")))
    ys = [xy[1] for xy in layout.points.values()] + [m.y for m in marks]
    rows = max(ys, default=0.0) - min(ys, default=0.0) + 1
    fig.update_layout(
        height=int(120 + 24 * rows), margin={"l": 10, "r": 10, "t": 10, "b": 10},
        xaxis={"visible": False, "range": [-0.4, PENDING_X + 1.4], "fixedrange": True},
        yaxis={"visible": False, "range": [min(ys, default=0.0) - 0.8, max(ys, default=0.0) + 0.8], "fixedrange": True},
        legend={"orientation": "h", "yanchor": "top", "y": -0.01, "x": 0}, plot_bgcolor="rgba(0,0,0,0)",
        paper_bgcolor="rgba(0,0,0,0)", uirevision="topology")
    return fig
