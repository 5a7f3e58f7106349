"""Every lesson claim form reads as a sentence in English and in Chinese (kubesched/ui/claim_text.py)."""

from __future__ import annotations

import re

import pytest

from kubesched.lessons import claims
from kubesched.lessons import format as fmt
from kubesched.ui.claim_text import ARGS, render
from tests.browser.zh_text import english_runs

# one claim per form, in FORMS order
EXAMPLES = {
    "queue": "pod web-1 is in activeQ",
    "no-queue": "pod stray is in no queue",
    "phase": "pod web-1 is Pending",
    "bound": "pod web-1 is bound to node-2",
    "fails": 'node node-3 fails NodeUnschedulable with "node(s) were unschedulable" for web',
    "passes": "node node-1 passes all filters",
    "not-evaluated": "node node-3 is not evaluated by NodeResourcesFit for web",
    "not-visited": "node node-0420 is not visited for web-1",
    "feasible-set": "feasible nodes are [node-1, node-2]",
    "filter-order": "filter order for web-1 is [a-1, b-1]",
    "evaluated": "evaluated nodes == 2",
    "feasible": "feasible nodes for big == 0",
    "to-find": "numFeasibleNodesToFind == 6",
    "score": "PodTopologySpread scores b-1 for db-3 raw=0 normalized=0",
    "total": "total score of node-1 is 1000381",
    "select": "selectHost picks node-1 among [node-1, node-2]",
    "suggested": "schedule result for web is node-ok",
    "victims": "victims on node-1 are [batch-2]",
    "pick": "preemption for critical-api picks node-2 by MinPDBViolations",
    "pdb": "PDB violations on node-1 == 1",
    "nominated": "nominated node of critical-api is none",
    "attempts": "big attempts == 2",
    "event": 'event Scheduled on web-1 says "Successfully assigned default/web-1 to node-2"',
    "last-move": "last move of web-1 is activeQ -> - on Pop",
    "terminating": "pod cache-2 is Terminating",
    "no-preemption": "preemption did not run for api",
    "not-eligible": "preemption for db is not eligible because TerminatingPodsOnNominatedNode",
    "unresolvable": "node node-2 is unresolvable for preemption of db",
    "potential": "potential nodes for preemption of late are []",
    "expired": "web-1 expired from the cache",
    "backoff": "backoff of big expires at t=1s",
    "time": "time is 26s",
    "queues": "queues are activeQ=0 podBackoffQ=1 unschedulableQ=0",
    "phase-end": "phase Reserve for web-1 ends with Success",
    "startup": "startup step main is done",
    "startup-detail": 'startup step NewOptions has bindTimeoutSeconds = "600"',
    "leader": "leader is scheduler-a",
    "lease": "scheduler-a made the last 'acquired' transition",
    "cycle": "cycle == 1",
    "profile": "profile of late is default-scheduler",
    "binding": "binding cycle of web-1 ends bound",
    "holds": "node node-2 holds web-1",
    "requests": "node node-2 requests cpu = 1",
    "assumed": "web-1 was assumed",
    "forgotten": "web-1 was forgotten",
    "permit-wait": "web-1 waited on Permit",
    "log": 'a log line says "error selecting node"',
    "pop-order": "pop order is [web, db]",
    "calls-at": "InterPodAffinity calls at PreFilter for web == 1",
    "nominated-added": "nominated pods added on node-1 for late are [critical]",
    "filter-passes": "filter passes on node-1 == 2",
    "extender": "extender http://127.0.0.1:2/gpu Filter for train was error",
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_examples_cover_every_form_and_every_form_names_its_arguments():
    forms = [name for name, *_ in claims.FORMS]
    assert list(EXAMPLES) == forms
    assert list(ARGS) == forms
    assert [claims.parse(text).form for text in EXAMPLES.values()] == forms
    assert [len(ARGS[f]) for f in forms] == [len(claims.parse(EXAMPLES[f]).args) for f in forms]


@pytest.mark.parametrize("form", list(EXAMPLES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_form_renders_with_its_names_and_no_english_in_chinese(form, lang):
    claim = claims.parse(EXAMPLES[form])
    text = render(claim, lang)
    names = [a for a in claim.args if a and not a.startswith("[") and a not in ("-", "none")]
    assert [n for n in names if n.replace('\\"', '"') not in text] == []
    assert "{" not in text
    if lang == "zh":
        assert CJK.search(text), text
        assert english_runs(text) == [], text
        assert text != render(claim, "en")


@pytest.mark.parametrize(("claim", "lang", "sentence"), [
    ("victims on node-1 are [batch-2]", "en", "the victims on node-1 are: batch-2"),
    ("victims on node-1 are [batch-2]", "zh", "node-1 上的牺牲者是：batch-2"),
    ("feasible nodes are [node-1, node-2]", "en", "the feasible nodes for the current pod are: node-1, node-2"),
    ("feasible nodes are [node-1, node-2]", "zh", "当前 Pod 的可行节点是：node-1, node-2"),
    ("potential nodes for preemption of late are []", "zh", "late 抢占的候选节点是：无"),
    ("pod web-1 is bound to node-2 at t=3s", "en", "pod web-1 is bound to node-2 at t=3 s"),
    ("pod web-1 is bound to node-2", "zh", "Pod web-1 已绑定到 node-2"),
    ("last move of web-1 is activeQ -> - on Pop", "zh", "web-1 最近一次队列移动：因 Pop 从 activeQ 到 队列外"),
    ("nominated node of critical-api is none", "en", "the nominated node of critical-api is none"),
    ('node node-3 fails NodeUnschedulable with "node(s) were unschedulable" for web', "zh",
     "对 web，节点 node-3 未通过 NodeUnschedulable，原因 “node(s) were unschedulable”"),
    ('event Scheduled on p says "a \\"b\\" c"', "en", "the Scheduled event on p says “a \"b\" c”"),
])
def test_exact_sentences(claim, lang, sentence):
    assert render(claim, lang) == sentence


def test_every_claim_of_every_lesson_renders_in_both_languages():
    texts = {c for i in fmt.lesson_ids() for lang in ("en", "zh") for s in fmt.load(i, lang).steps for c in s.claims}
    assert texts
    assert [c for c in sorted(texts) if english_runs(render(c, "zh"))] == []
