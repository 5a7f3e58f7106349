"""Claim-parser errors, lesson-format errors, and the player state machine."""

from __future__ import annotations

import pytest

from kubesched.lessons import claims, player
from kubesched.lessons import format as fmt

GOOD = [
    ("pod web-1 is in activeQ", "queue", ("web-1", "activeQ")),
    ('node n1 fails NodeResourcesFit with "Insufficient cpu" for web', "fails",
     ("n1", "NodeResourcesFit", "Insufficient cpu", "web")),
    ("pod batch-1 is bound to zone-b-large-1 at t=5s", "bound", ("batch-1", "zone-b-large-1", "5")),
    ("victims on node-3 are [low-1, low-2]", "victims", ("node-3", "[low-1, low-2]")),
    ("nominated node of p is none", "nominated", ("p", "none")),
    ("web-2 attempts == 3", "attempts", ("web-2", "3")),
    ("queues are activeQ=1 podBackoffQ=0 unschedulableQ=2", "queues", ("1", "0", "2")),
    ("extender http://127.0.0.1:1/scheduler Filter for web was ignored", "extender",
     ("http://127.0.0.1:1/scheduler", "Filter", "web", "ignored")),
    ("pod cache-2 is Terminating", "terminating", ("cache-2",)),
    ("preemption did not run for low", "no-preemption", ("low",)),
    ("preemption for p is not eligible because TerminatingPodsOnNominatedNode", "not-eligible",
     ("p", "TerminatingPodsOnNominatedNode")),
    ("node n1 is unresolvable for preemption of p", "unresolvable", ("n1", "p")),
    ("potential nodes for preemption of p are [n2]", "potential", ("p", "[n2]")),
    ("web-1 expired from the cache", "expired", ("web-1",)),
]
BAD = [
    "pod web-1 is in someQ",
    "node n1 fails NodeResourcesFit with Insufficient cpu",
    "victims on node-3 are low-1",
    "web-2 attempts = 3",
    "extender http://127.0.0.1:1/scheduler Filter for web was skipped",
    "",
]


@pytest.mark.parametrize(("text", "form", "args"), GOOD)
def test_claims_parse(text: str, form: str, args: tuple[str, ...]) -> None:
    claim = claims.parse(text)
    assert (claim.form, claim.args) == (form, args)


@pytest.mark.parametrize("text", BAD)
def test_claim_errors_list_the_grammar(text: str) -> None:
    with pytest.raises(claims.ClaimError) as err:
        claims.parse(text)
    assert "a claim is one of" in str(err.value)
    assert "pod P is in activeQ|podBackoffQ|unschedulableQ" in str(err.value)


FRONT = "---\ntitle: T\ncluster: c.yaml\nsteps:\n- id: s1\n  goto: {advance: 1}\n{extra}---\n## s1\nSay it.\n"
BAD_LESSONS = [
    ("no front matter", "title: T\n", "must start with YAML front matter"),
    ("unknown field", FRONT.replace("{extra}", "colour: red\n"), "unknown field 'colour'"),
    ("missing narration", FRONT.replace("{extra}", "").replace("## s1", "## s2"), "no narration"),
    ("bad goto", FRONT.replace("{advance: 1}", "{jump: 1}").replace("{extra}", ""), "expected one of until"),
    ("bad kind", FRONT.replace("{advance: 1}", "{until: {kind: NOPE}}").replace("{extra}", ""),
     "not a trace record kind"),
    ("a derived kind", FRONT.replace("{advance: 1}", "{until: {kind: PLUGIN_CALL}}").replace("{extra}", ""),
     "'PLUGIN_CALL' is not a trace record kind (plugin calls are derived from FILTER_RUN"),
    ("quiz without wording", FRONT.replace("{extra}", "quiz:\n- {ask: winner, pod: p}\n"), "q (the question"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_LESSONS)
def test_format_errors(name: str, text: str, message: str) -> None:
    with pytest.raises(fmt.LessonError) as err:
        fmt.parse(text)
    assert message in str(err.value)


def _lesson() -> fmt.Lesson:
    text = ("---\ntitle: T\ncluster: c.yaml\nsteps:\n- id: a\n  goto: {advance: 1}\n"
            "- id: b\n  goto: {advance: 1}\n  predict: {ask: winner, pod: p, q: Which}\n"
            "quiz:\n- {ask: winner, pod: p, q: Which}\n---\n## a\nA.\n## b\nB.\n")
    return fmt.parse(text, name="t")


def test_player_walks_predict_narrate_quiz_done() -> None:
    lesson = _lesson()
    p = player.start(lesson)
    assert (p.step, p.stage, p.shown_step) == (0, "narrate", 0)
    p = player.advance(lesson, p)
    assert (p.step, p.stage, p.shown_step) == (1, "predict", 0)
    assert player.advance(lesson, p) == p          # must guess (or skip) first
    p = player.guess(lesson, p, "n1")
    assert (p.stage, p.guess_of(1), p.shown_step) == ("narrate", ("n1",), 1)
    p = player.advance(lesson, p)
    assert p.stage == "quiz"
    assert player.advance(lesson, p).stage == "quiz"  # unanswered quiz
    p = player.answer(lesson, p, 0, "n2")
    assert p.answer_of(0) == ("n2",)
    p = player.advance(lesson, p)
    assert p.stage == "done"
    p = player.back(lesson, p)
    assert (p.step, p.stage) == (1, "narrate")
    assert player.at_step(lesson, p, 99).step == 1
