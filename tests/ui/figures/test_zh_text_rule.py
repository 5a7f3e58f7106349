"""The English-run rule the 中文 browser tests apply (tests/browser/zh_text.py), on plain strings."""

import pytest

from tests.browser.zh_text import english_runs, vocabulary


@pytest.mark.parametrize(("text", "runs"), [
    ("✓ victims on node-1 are [batch-2]", ["victims on node-1 are [batch-2]"]),
    ("node-1 上的牺牲者是：batch-2", []),
    ("Choose options", []),                                           # two words: under the rule
    ("Drag and drop a file here", ["Drag and drop a file here"]),
    ("Pod web-1 在 activeQ 中", []),
    ("0 s, 1 s, 90 s, 94 s", []),                                      # units
    ("a b c d e", []),
    ("NodeResourcesFit NodeName NodePorts TaintToleration", []),      # plugin names
    ("Pending Running Bound", []),                                    # phases
    ("原因 “node(s) didn't have free ports for the requested pod ports”", []),   # quoted data
    ("default.yaml · cache-0 · zone-a-large-1", []),
    ("kube-scheduler v1.18.5 numFeasibleNodesToFind PDB YAML", []),
    ("运行已停止：the horizon was reached", ["the horizon was reached"]),
    ("拓扑分布约束（topology spread constraint）限制偏差", []),               # a glossary gloss
    ("（the horizon was reached）", ["the horizon was reached"]),          # not after a Chinese term
])
def test_english_runs(text, runs):
    assert english_runs(text) == runs


def test_the_vocabulary_comes_from_the_engine_and_the_clusters():
    words = vocabulary()
    assert {"noderesourcesfit", "activeq", "minpdbviolations", "reserve", "zone-a", "cache"} <= words
    assert "the" not in words and "are" not in words
