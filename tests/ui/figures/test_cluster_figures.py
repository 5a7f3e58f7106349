"""Pure builders of the Home and Cluster pages: sample cards, node cards, allocation bars, topology."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.sim.state import NodeState, PodState, QueueState, SimState
from kubesched.ui.figures import cluster as fc
from kubesched.ui.theme import OKABE_ITO, QUEUE_COLOURS, QUEUE_GLYPHS

SAMPLES = Path(__file__).resolve().parents[3] / "sample_clusters"


@cache
def final_state(name: str) -> SimState:
    sim = Simulation.from_yaml(SAMPLES / name, seed=0)
    sim.run_until_idle()
    return sim.state()


def node(name: str, *, labels=(), taints=(), unschedulable=False, allocatable=(), requested=(), pods=()) -> NodeState:
    return NodeState(name, tuple(labels), tuple(taints), unschedulable, tuple(allocatable), tuple(requested),
                     tuple(pods))


def pod(key: str, *, node_name: str = "", phase: str = "Pending", queue: str = "") -> PodState:
    namespace, name = key.split("/", 1)
    return PodState(namespace, name, phase, node_name, "", 0, None, queue)


def state(nodes, pods=()) -> SimState:
    return SimState(0.0, 0, "", QueueState(), tuple(nodes), tuple(pods), (), ())


def zoned(name: str, zone: str, region: str = "r1") -> NodeState:
    return node(name, labels=(("topology.kubernetes.io/region", region), ("topology.kubernetes.io/zone", zone)))


# -- sample files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("# a - first.\n#\n# second line\n# continues.\nkind: Node\n# not this", "a - first.\n\nsecond line continues."),
    ("kind: Node\n# late comment", ""),
    ("#only\n", "only"),
    ("# one\n#\n#\n# two\n", "one\n\ntwo"),
])
def test_leading_comment(text, expected):
    assert fc.leading_comment(text) == expected


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_sample_card_is_the_file_comment(name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    first_line = text.splitlines()[0]
    card = fc.sample_card(SAMPLES / name)
    assert card.name == name
    assert first_line.startswith(f"# {name} - ")
    assert first_line.endswith(card.headline)
    assert card.description.split()[0] == text.splitlines()[2].lstrip("# ").split()[0]


# -- resource bars ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("allocatable, requested, pods, expected", [
    ((("cpu", "2"), ("memory", "4Gi"), ("pods", "110")), (("cpu", "500m"), ("memory", "1Gi"), ("pods", "0")),
     ("default/a", "default/b"),
     [("cpu", "500m", "2000m", 0.25), ("memory", "1Gi", "4Gi", 0.25), ("pods", "2", "110", 2 / 110)]),
    ((("cpu", "7910m"), ("memory", "29Gi")), (("cpu", "6"), ("memory", "24Gi")), (),
     [("cpu", "6000m", "7910m", 6000 / 7910), ("memory", "24Gi", "29Gi", 24 / 29)]),
    ((("cpu", "1930m"),), (), (), [("cpu", "0", "1930m", 0.0)]),
    ((("cpu", "0"), ("example.com/gpu", "2"), ("memory", "1Gi")), (("example.com/gpu", "3"),), (),
     [("cpu", "0", "0", 0.0), ("memory", "0", "1Gi", 0.0), ("example.com/gpu", "3", "2", 1.5)]),
    ((("ephemeral-storage", "10Gi"), ("cpu", "1")), (), (),
     [("cpu", "0", "1", 0.0), ("ephemeral-storage", "0", "10Gi", 0.0)]),
])
def test_resource_bars(allocatable, requested, pods, expected):
    bars = fc.resource_bars(node("n", allocatable=allocatable, requested=requested, pods=pods))
    assert [(b.resource, b.requested, b.allocatable) for b in bars] == [e[:3] for e in expected]
    assert [b.fraction for b in bars] == pytest.approx([e[3] for e in expected])


@pytest.mark.parametrize("name", ["default.yaml", "taints.yaml", "spread.yaml"])
def test_node_cards_follow_the_state(name):
    st = final_state(name)
    cards = fc.node_cards(st)
    assert [c.name for c in cards] == [n.name for n in st.nodes]
    for card, n in zip(cards, st.nodes):
        labels = dict(n.labels)
        assert card.zone == labels.get("topology.kubernetes.io/zone",
                                       labels.get("failure-domain.beta.kubernetes.io/zone", fc.NO_ZONE))
        assert card.pods == n.pods and card.taints == n.taints and card.in_cache
        bars = {b.resource: b for b in card.bars}
        assert bars["pods"].requested == str(len(n.pods))
        assert fc._milli(bars["cpu"].requested) == fc._milli(n.requested_of("cpu"))
        assert fc._milli(bars["cpu"].allocatable) == fc._milli(n.allocatable_of("cpu"))
    placed = {p.key for p in st.pods if p.node}
    assert placed == {key for c in cards for key in c.pods}


def test_node_not_in_cache_has_no_requested():
    card = fc.node_cards(state([node("n", allocatable=(("cpu", "1"),))]))[0]
    assert card.in_cache is False
    assert [(b.resource, b.requested) for b in card.bars] == [("cpu", "0")]


def test_allocation_figure_bars_and_colours():
    st = state([node("a", allocatable=(("cpu", "2"),), requested=(("cpu", "1"),)),
                node("<b>x</b>", allocatable=(("cpu", "1"),), requested=(("cpu", "1500m"),))])
    fig = fc.allocation_figure(fc.node_cards(st), "cpu", title="cpu")
    bar = fig.data[0]
    assert bar.type == "bar" and bar.orientation == "h"
    assert list(bar.y) == ["a", "&lt;b&gt;x&lt;/b&gt;"]
    assert list(bar.x) == [50.0, 150.0]
    assert list(bar.marker.color) == [OKABE_ITO["blue"], OKABE_ITO["vermillion"]]
    assert list(bar.text) == ["1 / 2", "1500m / 1000m"]
    assert fig.layout.xaxis.range == (0, 100)


# -- topology ------------------------------------------------------------------------------------------------
def test_topology_graph_layers_and_edges():
    nodes = (zoned("n2", "z-b"), zoned("n1", "z-a"), zoned("n3", "z-a"), node("bare"))
    graph = fc.topology_graph(nodes)
    layers = {name: data["layer"] for name, data in graph.nodes(data=True)}
    assert layers == {"region:r1": 0, "zone:r1/z-a": 1, "zone:r1/z-b": 1, "node:n1": 2, "node:n2": 2, "node:n3": 2,
                      f"region:{fc.NO_REGION}": 0, f"zone:{fc.NO_REGION}/{fc.NO_ZONE}": 1, "node:bare": 2}
    assert sorted(graph.edges()) == sorted([
        ("region:r1", "zone:r1/z-a"), ("region:r1", "zone:r1/z-b"), ("zone:r1/z-a", "node:n1"),
        ("zone:r1/z-a", "node:n3"), ("zone:r1/z-b", "node:n2"),
        (f"region:{fc.NO_REGION}", f"zone:{fc.NO_REGION}/{fc.NO_ZONE}"),
        (f"zone:{fc.NO_REGION}/{fc.NO_ZONE}", "node:bare")])


def test_beta_zone_label_is_read():
    n = node("n", labels=(("failure-domain.beta.kubernetes.io/region", "old-r"),
                          ("failure-domain.beta.kubernetes.io/zone", "old-z")))
    assert set(fc.topology_graph((n,)).nodes) == {"region:old-r", "zone:old-r/old-z", "node:n"}


def test_layout_is_a_fixed_layered_tree():
    nodes = (zoned("a1", "z-a"), zoned("a2", "z-a"), zoned("b1", "z-b"))
    hint = {"ns/p1": "a2", "ns/p2": "a2", "ns/p3": "b1", "ns/wait": "", "ns/elsewhere": "gone-node"}
    layout = fc.topology_layout(fc.topology_graph(nodes), hint)
    again = fc.topology_layout(fc.topology_graph(tuple(reversed(nodes))), dict(reversed(list(hint.items()))))
    assert layout == again
    assert layout.points == {
        "node:a1": (2.0, 0.0), "node:a2": (2.0, -1.5), "node:b1": (2.0, -3.0),
        "zone:r1/z-a": (1.0, -0.75), "zone:r1/z-b": (1.0, -3.0), "region:r1": (0.0, -1.875)}
    assert layout.slots == {"ns/p1": -1.0, "ns/p2": -2.0, "ns/p3": -3.0, "ns/elsewhere": -4.0, "ns/wait": -5.0}
    assert all(type(v) is float for xy in layout.points.values() for v in xy)
    empty = fc.topology_layout(fc.topology_graph(()))
    assert (empty.points, empty.slots) == ({}, {})


def test_pod_marks_keep_their_rows():
    nodes = (zoned("n0", "z"), zoned("n1", "z"))
    layout = fc.topology_layout(fc.topology_graph(nodes), {"ns/a": "n0", "ns/b": "n1", "ns/c": "n1"})
    pods = [pod("ns/a", node_name="n0", phase="Bound"), pod("ns/b", queue="unschedulableQ"),
            pod("ns/c", queue="activeQ"), pod("ns/new", queue="podBackoffQ"), pod("ns/gone", phase="Deleted")]
    marks = {m.key: m for m in fc.pod_marks(state(nodes, pods), layout)}
    assert set(marks) == {"ns/a", "ns/b", "ns/c", "ns/new"}
    assert (marks["ns/a"].x, marks["ns/a"].y, marks["ns/a"].node) == (fc.POD_X, 0.0, "n0")
    assert (marks["ns/a"].colour, marks["ns/a"].glyph, marks["ns/a"].status) == (
        QUEUE_COLOURS["bound"], QUEUE_GLYPHS["bound"], "Bound")
    assert (marks["ns/b"].x, marks["ns/b"].y, marks["ns/b"].node) == (fc.PENDING_X, -1.0, "")
    assert (marks["ns/b"].colour, marks["ns/b"].glyph) == (QUEUE_COLOURS["unschedulableQ"],
                                                           QUEUE_GLYPHS["unschedulableQ"])
    assert marks["ns/c"].colour == QUEUE_COLOURS["activeQ"] and marks["ns/c"].y == -2.0
    assert marks["ns/new"].y == -3.0 and marks["ns/new"].colour == QUEUE_COLOURS["podBackoffQ"]
    bound_later = fc.pod_marks(state(nodes, [pod("ns/b", node_name="n1", phase="Bound")]), layout)
    assert [(m.x, m.y, m.node) for m in bound_later] == [(fc.POD_X, -1.0, "n1")]


def test_topology_figure_traces_are_explicit_and_escaped():
    nodes = (zoned("n1", "z"), node("tainted<i>", labels=zoned("x", "z").labels,
                                    taints=("k=v:NoSchedule",)))
    st = state(nodes, [pod("ns/<b>p</b>", node_name="n1", phase="Running")])
    graph = fc.topology_graph(st.nodes)
    fig = fc.topology_figure(graph, fc.topology_layout(graph, {"ns/<b>p</b>": "n1"}), st, titles={"pod": "Pod"})
    spec = json.loads(fig.to_json())
    kinds = [(t["type"], t["mode"], t["name"]) for t in spec["data"]]
    assert kinds == [("scatter", "lines", "edges"), ("scatter", "markers+text", "region"),
                     ("scatter", "markers+text", "zone"), ("scatter", "markers+text", "node"),
                     ("scatter", "markers+text", "Pod")]
    node_trace = spec["data"][3]
    assert node_trace["text"] == ["n1", "tainted&lt;i&gt;"]
    assert node_trace["marker"]["color"] == [fc.LAYER_COLOURS["node"], fc.NODE_TAINTED_COLOUR]
    pod_trace = spec["data"][4]
    assert pod_trace["text"] == ["✓ &lt;b&gt;p&lt;/b&gt;"]
    assert pod_trace["marker"]["color"] == [QUEUE_COLOURS["bound"]]
    assert spec["data"][0]["line"]["color"] == fc.EDGE_COLOUR
    # 3 graph edges + 1 node → pod edge, each "x0, x1, None"
    assert len(spec["data"][0]["x"]) == 3 * 4


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_every_sample_topology_places_every_live_pod(name):
    st = final_state(name)
    graph = fc.topology_graph(st.nodes)
    layout = fc.topology_layout(graph, {p.key: p.node for p in st.pods})
    marks = fc.pod_marks(st, layout)
    assert sorted(m.key for m in marks) == sorted(p.key for p in st.pods if p.phase != "Deleted")
    assert all(m.node == st.placements()[m.key] for m in marks if m.node)
    assert len({m.y for m in marks}) == len(marks)   # one row per pod
    for m in marks:
        if m.node:   # a bound pod's row is in its node's block
            rows = sorted(layout.slots[p.key] for p in st.pods if p.node == m.node)
            assert rows[0] <= m.y <= rows[-1]


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_every_sample_card_has_a_chinese_translation(name):
    from tests.browser.zh_text import english_runs
    card, english = fc.sample_card(SAMPLES / name, "zh"), fc.sample_card(SAMPLES / name)
    assert card.name == name
    assert (card.headline, card.description) != (english.headline, english.description)
    assert english_runs(card.headline) == [] and english_runs(card.description) == []
