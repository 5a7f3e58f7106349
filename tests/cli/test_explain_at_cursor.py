""""Why (not) on node X?" at many cursor positions of default.yaml, in English and 中文.

The sentence must be true at the cursor: before the Filter walk a node is "not evaluated yet";
after it a feasible node waits for scoring; at the end of the cycle (where ▶ pod stops) the node
selectHost picked is "selected; binding pending", not "on" it and not "not on" it; a tie needs
two or more nodes; after the bind the pod is "on" the node. Scores carry the part every scored
node shares (NodePreferAvoidPods' 100 × 10000 and the other uniform plugins) beside the part
that differs. Expected numbers are read from the cycle's SCORE_RUN record, not from explain.
"""

from __future__ import annotations

import pytest

from kubesched.explain import explain_pod
from kubesched.explain.text import focus_phrase, words
from kubesched.sim.simulation import Simulation
from kubesched.trace import Kind
from kubesched.ui.i18n import t
from kubesched.ui.session import SAMPLE_DIR

TAINT = "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate"


@pytest.fixture(scope="module")
def sim() -> Simulation:
    return Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)


def _index(sim: Simulation, kind: Kind, cycle: int) -> int:
    """The trace index of the cycle's first record of ``kind`` (computing the run as far as needed)."""
    while True:
        found = next((i for i, r in enumerate(sim.trace) if r.kind is kind and r.cycle == cycle), None)
        if found is not None:
            return found
        sim.step("pod")


def _pod_stop(sim: Simulation, cycle: int) -> int:
    """Where ▶ pod stops for ``cycle``: the end of the callback holding its CYCLE_END."""
    sim.seek(0)
    while True:
        cursor = sim.step("pod")
        if any(r.kind is Kind.CYCLE_END and r.cycle == cycle for r in sim.trace[:cursor]):
            return cursor


def _scores(sim: Simulation, cycle: int) -> dict[str, object]:
    """From the SCORE_RUN itself: totals, ties, pick, and the part common to every scored node."""
    run = sim.trace[_index(sim, Kind.SCORE_RUN, cycle)].data
    common = 0
    for p in range(len(run.plugins)):
        values = {run.cell(i, p)[3] for i in range(len(run.nodes))}
        if len(values) == 1:
            common += values.pop()
    totals = dict(zip(run.nodes, run.totals))
    return {"totals": totals, "ties": run.ties(), "selected": run.selected, "common": common, "count": len(totals),
            "best": max(totals.values()), "lowest": min(totals, key=lambda n: (totals[n], n))}


def _sentence(sim: Simulation, cursor: int, pod: str, node: str, lang: str) -> str:
    sim.seek(cursor)
    e = explain_pod(sim.trace[:cursor], sim.state(), pod, node)
    return words(focus_phrase(e, node), lambda key: t(f"why.{key}", lang))


def _split(s: dict, total: int, lang: str) -> str:
    diff, common, count = total - s["common"], s["common"], s["count"]
    if lang == "zh":
        return f"{total}（除去 {count} 个打分节点共有的 {common}，为 {diff}）"
    return f"{total} ({diff} without the {common} common to all {count} scored nodes)"


def _other_tie(s: dict) -> str:
    return next(n for n in s["ties"] if n != s["selected"])


# (case, cycle, pod, where the cursor is, which node, lang, expected sentence built from the scores)
CASES = [
    ("before the walk", 1, "default/api-1", "walk", lambda s: "zone-a-large-1", "en",
     lambda s, n: f"{n} is not evaluated yet: the Filter walk of cycle 1 has not run at the cursor."),
    ("before the walk", 1, "default/api-1", "walk", lambda s: "zone-a-large-1", "zh",
     lambda s, n: f"{n} 尚未评估：游标处周期 1 的过滤遍历还没有运行。"),
    ("feasible, not scored yet", 1, "default/api-1", "walked", lambda s: "zone-a-large-1", "en",
     lambda s, n: f"{n} passed all filters; scoring has not happened yet at the cursor."),
    ("feasible, not scored yet", 1, "default/api-1", "walked", lambda s: "zone-a-large-1", "zh",
     lambda s, n: f"{n} 通过了所有过滤插件；游标处尚未打分。"),
    ("rejected mid-cycle", 1, "default/api-1", "walked", lambda s: "zone-c-gpu-1", "en",
     lambda s, n: f"Not on {n}: Filter plugin TaintToleration rejected it: {TAINT}."),
    ("rejected mid-cycle", 1, "default/api-1", "walked", lambda s: "zone-c-gpu-1", "zh",
     lambda s, n: f"不在 {n} 上：Filter 插件 TaintToleration 拒绝了它：{TAINT}。"),
    ("picked, tie of 2, binding pending", 1, "default/api-1", "pod", lambda s: s["selected"], "en",
     lambda s, n: (f"{n} selected; binding pending: it passed all filters on {n} and tied for the highest score "
                   f"{_split(s, s['best'], 'en')} with {_other_tie(s)}; selectHost picked {n}.")),
    ("picked, tie of 2, binding pending", 1, "default/api-1", "pod", lambda s: s["selected"], "zh",
     lambda s, n: (f"已选中 {n}，等待绑定：它在 {n} 上通过了所有过滤插件，并与 {_other_tie(s)} 并列最高分 "
                   f"{_split(s, s['best'], 'zh')}；selectHost 选择了 {n}。")),
    ("tied, not picked", 1, "default/api-1", "pod", _other_tie, "en",
     lambda s, n: (f"Not on {n}: it passed all filters and tied for the highest score {_split(s, s['best'], 'en')} "
                   f"with {s['selected']}; selectHost picked {s['selected']}.")),
    ("lower score", 1, "default/api-1", "pod", lambda s: s["lowest"], "en",
     lambda s, n: (f"Not on {n}: it passed all filters but scored {s['totals'][n]}, lower than {s['selected']}'s "
                   f"{s['best']} (without the {s['common']} common to all {s['count']} scored nodes: "
                   f"{s['totals'][n] - s['common']} vs {s['best'] - s['common']}).")),
    ("lower score", 1, "default/api-1", "pod", lambda s: s["lowest"], "zh",
     lambda s, n: (f"不在 {n} 上：它通过了所有过滤插件，但得分 {s['totals'][n]}，低于 {s['selected']} 的 {s['best']}"
                   f"（除去 {s['count']} 个打分节点共有的 {s['common']}：{s['totals'][n] - s['common']} 对 "
                   f"{s['best'] - s['common']}）。")),
    ("after the bind", 1, "default/api-1", "bound", lambda s: s["selected"], "en",
     lambda s, n: (f"On {n}: it passed all filters on {n} and tied for the highest score {_split(s, s['best'], 'en')} "
                   f"with {_other_tie(s)}; selectHost picked {n}.")),
    ("after the bind", 1, "default/api-1", "bound", lambda s: s["selected"], "zh",
     lambda s, n: (f"在 {n} 上：它在 {n} 上通过了所有过滤插件，并与 {_other_tie(s)} 并列最高分 "
                   f"{_split(s, s['best'], 'zh')}；selectHost 选择了 {n}。")),
    ("picked alone (a tie of 1 is no tie)", 2, "default/best-effort", "pod", lambda s: s["selected"], "en",
     lambda s, n: (f"{n} selected; binding pending: it passed all filters on {n} and had the highest score, "
                   f"{_split(s, s['best'], 'en')}.")),
    ("picked alone (a tie of 1 is no tie)", 2, "default/best-effort", "pod", lambda s: s["selected"], "zh",
     lambda s, n: (f"已选中 {n}，等待绑定：它在 {n} 上通过了所有过滤插件，且得分最高：{_split(s, s['best'], 'zh')}。")),
]


def _cursor(sim: Simulation, cycle: int, where: str) -> int:
    if where == "walk":
        return _index(sim, Kind.FILTER_RUN, cycle)          # the walk's record not yet visible
    if where == "walked":
        return _index(sim, Kind.FILTER_RUN, cycle) + 1
    if where == "pod":
        return _pod_stop(sim, cycle)
    return _index(sim, Kind.BIND, cycle) + 1                 # "bound"


@pytest.mark.parametrize("case, cycle, pod, where, node_of, lang, expected", CASES,
                         ids=[f"{c[0]}-{c[5]}" for c in CASES])
def test_why_sentence_at_the_cursor(sim, case, cycle, pod, where, node_of, lang, expected):
    scores = _scores(sim, cycle)
    node = node_of(scores)
    assert _sentence(sim, _cursor(sim, cycle, where), pod, node, lang) == expected(scores, node)


def test_the_scenario_has_the_situations_the_table_names(sim):
    one, two = _scores(sim, 1), _scores(sim, 2)
    assert len(one["ties"]) == 2 and len(two["ties"]) == 1      # a real tie, and a single best node
    assert one["common"] >= 1_000_000 and one["lowest"] not in one["ties"]
    bind = _index(sim, Kind.BIND, 1)
    assert _pod_stop(sim, 1) <= bind                               # ▶ pod stops before the binding cycle binds


def test_zh_sentence_keys_match_the_english_ones():
    from kubesched.explain.text import PHRASES
    from kubesched.ui.i18n import CATALOG
    assert {k for k in CATALOG["zh"] if k.startswith("why.")} == {f"why.{k}" for k in PHRASES}
