"""The quiz engine: ties are never graded as a coin flip, what-if variants are run by the engine,
and feedback says why an option is wrong — on the lessons' own clusters."""

from __future__ import annotations

import functools

import pytest

from kubesched.lessons import feedback, player, quiz, runner, whatif
from kubesched.lessons import format as fmt


def lesson(cluster: str, quiz_yaml: str, steps: str = "- id: end\n  goto: {idle: true}\n") -> fmt.Lesson:
    text = f"---\ntitle: T\ncluster: {cluster}\nsteps:\n{steps}quiz:\n{quiz_yaml}---\n## end\nEnd.\n"
    return fmt.parse(text, name="t")


@functools.cache
def finished(cluster: str) -> object:
    sim = runner.open_simulation(lesson(cluster, "- {ask: winner, pod: x, q: Q}\n"))
    sim.run_until_idle()
    return sim


def ask(cluster: str, question: str) -> quiz.Answer:
    les = lesson(cluster, question)
    return quiz.answer(les.quiz[0], finished(cluster), lesson=les)


def keys(whys: tuple[feedback.Why, ...]) -> list[tuple[str, dict[str, str]]]:
    return [(w.key, dict(w.args)) for w in whys]


# -- ties: the answer is "any of them", never the seeded pick ----------------------------------------------
@pytest.mark.parametrize(("cluster", "pod", "ties"), [
    ("05-node-tree.yaml", "web-1", {"zone-a-1", "zone-a-2", "zone-a-3", "zone-b-1", "zone-c-1", "zone-c-2"}),
    ("08-topology-spread.yaml", "db-3", {"b-1", "b-2"}),
    ("14-extenders.yaml", "web", {"node-1", "node-2"}),
])
def test_a_tie_is_answered_any_of_them_and_the_tie_set(cluster, pod, ties):
    got = ask(cluster, f"- {{ask: winner, pod: {pod}, q: Q}}\n")
    assert got.correct == {quiz.TIE}
    picked = next(o for o in sorted(ties) if o in got.options)
    assert not got.grade(picked)                        # the seeded pick is not "the" answer
    assert [w.key for w in got.feedback(picked)] == ["tie"]
    could = ask(cluster, f"- {{ask: could_pick, pod: {pod}, q: Q}}\n")
    assert (could.multi, set(could.correct)) == (True, ties)
    assert could.grade(sorted(ties))


def test_a_clear_winner_is_a_node_and_any_of_them_is_wrong_with_the_scores():
    got = ask("09-score.yaml", "- {ask: winner, pod: web, q: Q}\n")
    assert got.correct == {"node-ssd"}
    assert keys(got.feedback(quiz.TIE)) == [("no_tie", {"winner": "node-ssd", "best": "1000483",
                                                        "runner": "node-image", "second": "1000392"})]
    assert keys(got.feedback("node-busy"))[0] == ("scores_lower", {"node": "node-busy", "total": "1000283",
                                                                  "winner": "node-ssd", "best": "1000483"})
    could = ask("09-score.yaml", "- {ask: could_pick, pod: web, q: Q}\n")
    assert could.correct == {"node-ssd"}


def test_a_pod_that_fits_nowhere_has_no_node_as_its_answer():
    got = ask("06-filter.yaml", "- {ask: winner, pod: web, q: Q, what_if: [{patch: Pod/web, set: {spec: "
                                "{containers: [{name: web, resources: {requests: {cpu: '5'}}}]}}}]}\n")
    assert got.correct == {quiz.NONE}
    (because,) = got.because
    assert because.key == "unschedulable"
    assert because.arg("message").startswith("0/6 nodes are available: ")


# -- why a wrong answer is wrong ------------------------------------------------------------------------------
@pytest.mark.parametrize(("node", "chosen", "expected"), [
    ("node-cordoned", "NodeResourcesFit",
     ("not_evaluated", {"node": "node-cordoned", "plugin": "NodeResourcesFit", "first": "NodeUnschedulable",
                        "reason": "node(s) were unschedulable"})),
    ("node-port", "NodeName", ("plugin_passed", {"node": "node-port", "plugin": "NodeName"})),
    ("node-hdd", "TaintToleration",
     ("not_evaluated", {"node": "node-hdd", "plugin": "TaintToleration", "first": "NodeAffinity",
                        "reason": "node(s) didn't match node selector"})),
])
def test_rejecting_plugin_feedback_names_the_plugin_that_stopped_the_node(node, chosen, expected):
    got = ask("06-filter.yaml", f"- {{ask: rejecting_plugin, pod: web, node: {node}, q: Q}}\n")
    assert chosen in got.options
    assert keys(got.feedback(chosen))[0] == expected


def test_feasible_nodes_feedback_explains_each_wrong_tick_and_each_miss():
    got = ask("06-filter.yaml", "- {ask: feasible_nodes, pod: web, q: Q}\n")
    assert got.correct == {"node-ok"}
    assert keys(got.feedback(["node-small"])) == [      # in option order: the miss, the wrong tick
        ("passes", {"node": "node-ok"}),
        ("fails", {"node": "node-small", "plugin": "NodeResourcesFit", "reason": "Insufficient cpu"})]


def test_true_false_reads_a_claim_and_says_what_the_engine_shows():
    got = ask("04-queues.yaml", "- {ask: true_false, claim: 'pod big is in activeQ', q: Q}\n")
    assert got.correct == {quiz.NO}
    assert keys(got.because) == [("claim", {"actual": "in no queue"})]


# -- what-if: the engine runs the variant ------------------------------------------------------------------------
WHAT_IFS = [
    # node-ssd loses disk=ssd: NodeAffinity's preference no longer lifts it; node-image wins on ImageLocality
    ("09-score.yaml", "{ask: winner, pod: web, q: Q, what_if: [{patch: Node/node-ssd, "
                      "set: {metadata: {labels: {disk: null}}}}]}", {"node-image"}),
    # web asks for 3 CPUs: only node-ok had 4, so Filter leaves nothing
    ("06-filter.yaml", "{ask: feasible_nodes, pod: web, q: Q, what_if: [{patch: Pod/web, "
                       "set: {spec: {containers: [{name: web, resources: {requests: {cpu: '5'}}}]}}}]}",
     {quiz.NONE}),
    # the GPU taint removed: node-gpu passes too
    ("06-filter.yaml", "{ask: feasible_nodes, pod: web, q: Q, what_if: [{patch: Node/node-gpu, "
                       "set: {spec: {taints: null}}}]}", {"node-gpu", "node-ok"}),
    # a second empty zone-b node: db-3 still ties between the zone-b nodes, now three
    ("08-topology-spread.yaml", "{ask: could_pick, pod: db-3, q: Q, what_if: [{create: {apiVersion: v1, "
                                "kind: Node, metadata: {name: b-3, labels: {kubernetes.io/hostname: b-3, "
                                "topology.kubernetes.io/zone: zone-b}}, status: {capacity: {cpu: '4', "
                                "memory: 8Gi, pods: '110'}}}}]}", {"b-1", "b-2", "b-3"}),
    # percentageOfNodesToScore 10 on 1000 nodes: 100 (10 % of 1000)
    ("10-percentage-of-nodes-to-score.yaml", "{ask: num_feasible_nodes_to_find, pod: web-1, q: Q, "
                                             "what_if: [{config: {percentageOfNodesToScore: 10}}]}", {"100"}),
    # a 4-CPU node arriving at t=10 s: big (in unschedulableQ since t=1 s) is bound there on attempt 3
    ("04-queues.yaml", "{ask: true_false, claim: 'pod big is bound to node-4 at t=10s', q: Q, what_if: "
                       "[{at: 10, create: {apiVersion: v1, kind: Node, metadata: {name: node-4}, status: "
                       "{capacity: {cpu: '4', memory: 8Gi, pods: '110'}}}}], at: {advance: 20}}", {quiz.YES}),
    ("04-queues.yaml", "{ask: attempts, pod: big, q: Q, what_if: [{at: 10, create: {apiVersion: v1, kind: Node, "
                       "metadata: {name: node-4}, status: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}}}], "
                       "at: {advance: 20}}", {"3"}),
]


@pytest.mark.parametrize(("cluster", "question", "correct"), WHAT_IFS)
def test_what_if_answers_come_from_the_variant_run(cluster, question, correct):
    got = ask(cluster, f"- {question}\n")
    assert (got.variant, set(got.correct)) == (True, correct)


def test_what_if_variants_are_cached_by_their_changes():
    les = lesson("09-score.yaml", "- {ask: winner, pod: web, q: Q, what_if: [{delete: Node/node-ssd}]}\n"
                                  "- {ask: could_pick, pod: web, q: Q, what_if: [{delete: Node/node-ssd}]}\n")
    cache: dict = {}
    first = quiz.answer(les.quiz[0], finished("09-score.yaml"), lesson=les, variants=cache)
    quiz.answer(les.quiz[1], finished("09-score.yaml"), lesson=les, variants=cache)
    assert len(cache) == 1
    assert first.correct == {"node-image"}


def test_a_what_if_naming_a_missing_object_says_which_change():
    les = lesson("09-score.yaml", "- {ask: winner, pod: web, q: Q, what_if: [{patch: Node/node-x, set: {a: 1}}]}\n")
    with pytest.raises(quiz.QuizError, match=r"t: what_if\[0\]: no Node/node-x in the lesson's cluster"):
        quiz.answer(les.quiz[0], finished("09-score.yaml"), lesson=les)


@pytest.mark.parametrize(("base", "patch", "merged"), [
    ({"a": 1, "b": {"c": 2}}, {"b": {"d": 3}}, {"a": 1, "b": {"c": 2, "d": 3}}),
    ({"a": 1, "b": 2}, {"b": None}, {"a": 1}),
    ({"l": [{"name": "x", "v": 1}, {"name": "y"}]}, {"l": [{"name": "x", "v": 2}, {"name": "z"}]},
     {"l": [{"name": "x", "v": 2}, {"name": "y"}, {"name": "z"}]}),
    ({"taints": [{"key": "k"}]}, {"taints": []}, {"taints": []}),
    ({"taints": [{"key": "k"}]}, {"taints": [{"key": "j"}]}, {"taints": [{"key": "j"}]}),
])
def test_merge_is_kubectls_strategic_merge_for_lesson_edits(base, patch, merged):
    assert whatif.merge(base, patch) == merged


@pytest.mark.parametrize(("change", "line"), [
    (fmt.Change("config", body='{"profiles": [{"plugins": {"score": {"enabled": [{"name": "NodeResourcesMostAllocated", '
                                '"weight": 2}, {"name": "NodeLabel", "weight": 1}]}}, "schedulerName": "default-scheduler"}]}'),
     "KubeSchedulerConfiguration {profiles: [{plugins: {score: {enabled: [{name: NodeResourcesMostAllocated, weight: 2}, "
     "{name: NodeLabel, weight: 1}]}}, schedulerName: default-scheduler}]}"),
    (fmt.Change("patch", "ConfigMap/kube-system/p", '{"data": {"policy.cfg": "a\\nb"}}'),
     "patch ConfigMap/kube-system/p {data: {policy.cfg: \"a\\nb\"}}"),
    (fmt.Change("delete", "Pod/old"), "delete Pod/old"),
], ids=["long-config", "multi-line-string", "delete"])
def test_a_change_is_described_on_one_line(change, line):
    """The page shows the description as Markdown: a wrapped dump's indented lines became a code block."""
    assert whatif.describe(change) == line


@pytest.mark.parametrize(("change", "line"), [
    ({"at": 19, "killLeader": True}, "at t=19 s: killLeader"),
    ({"at": 0, "stallWatch": "scheduler-a"}, "at t=0 s: stallWatch scheduler-a"),
    ({"at": 5, "delete": {"kind": "Pod", "name": "web"}}, "at t=5 s: delete Pod/web"),
    ({"at": 5, "create": {"kind": "Node", "metadata": {"name": "n4"}}}, "at t=5 s: create Node/n4"),
    ({"patch": "Node/n1", "set": {"spec": {"unschedulable": True}}}, "patch Node/n1 {spec: {unschedulable: true}}"),
])
def test_a_what_if_change_is_described_in_one_line(change, line):
    (parsed,) = fmt._changes([change], "what_if")
    assert whatif.describe(parsed) == line


BAD_WHAT_IFS = [
    ("{patch: Node, set: {}}", "what_if[0].patch must be Kind/name"),
    ("{patch: Node/n1}", "expected {patch: Kind/name, set: {...}}"),
    ("{at: 5, wobble: n1}", "a timed change is a Scenario action"),
    ("{create: {kind: Node}}", "create must be a manifest with kind and metadata.name"),
]


@pytest.mark.parametrize(("change", "message"), BAD_WHAT_IFS)
def test_what_if_format_errors_name_the_field(change, message):
    with pytest.raises(fmt.LessonError, match=message.replace("{", r"\{").replace("}", r"\}")
                       .replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        lesson("09-score.yaml", f"- {{ask: winner, pod: web, q: Q, what_if: [{change}]}}\n")


def test_at_without_what_if_is_refused():
    with pytest.raises(fmt.LessonError, match="it needs what_if"):
        lesson("09-score.yaml", "- {ask: winner, pod: web, q: Q, at: {idle: true}}\n")


# -- nothing chosen is no answer ---------------------------------------------------------------------------------
def test_nothing_chosen_is_neither_a_guess_nor_an_answer():
    les = fmt.parse("---\ntitle: T\ncluster: c.yaml\nsteps:\n- id: a\n  goto: {advance: 1}\n"
                    "  predict: {ask: winner, pod: p, q: Which}\nquiz:\n- {ask: winner, pod: p, q: Which}\n"
                    "---\n## a\nA.\n", name="t")
    p = player.start(les)
    assert p.stage == "predict"
    assert player.guess(les, p, ()) == p and player.guess(les, p, None) == p
    skipped = player.skip_prediction(les, p)
    assert (skipped.stage, skipped.guess_of(0)) == ("narrate", ())
    q = player.advance(les, skipped)
    assert player.answer(les, q, 0, []) == q
    assert player.answer(les, q, 0, "n1").answer_of(0) == ("n1",)


def test_every_feedback_key_is_built_with_its_arguments():
    with pytest.raises(KeyError, match="takes"):
        feedback.why("tie", nodes="a")
    assert feedback.why("tie", nodes=("a", "b"), total=3).args == (("nodes", "a, b"), ("total", "3"))
