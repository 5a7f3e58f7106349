"""Lesson files: Markdown with YAML front matter, parsed into frozen dataclasses.

Upstream: no counterpart (teaching material about the v1.18.5 scheduler).

A lesson file (``lessons/<lang>/<id>.md``; the ``en`` and ``zh`` files of a lesson have the
same front matter except ``title``, ``lang`` and every ``q``, and a test checks that)::

    ---
    title: The scheduling queue
    lang: en
    cluster: 04-queues.yaml            # under sample_clusters/lessons/
    config: null                       # optional KubeSchedulerConfiguration file, same folder
    horizon: 120                       # optional Simulation horizon (simulated seconds)
    steps:
    - id: popped
      goto: {until: {kind: CYCLE_END, pod: default/web-2}}
      claims:
      - pod default/web-2 is in unschedulableQ
      predict: {ask: feasible_nodes, pod: default/web-2, q: "Which nodes pass?"}
    quiz:
    - {ask: rejecting_plugin, pod: default/web-2, node: node-1, q: "Which plugin rejected node-1?"}
    - ask: winner                      # a what-if question: the engine runs a variant
      pod: web-2
      what_if: [{patch: Node/node-1, set: {metadata: {labels: {disk: ssd}}}}]
      q: "If node-1 were labelled disk=ssd, where would web-2 go?"
    ---
    ## popped
    One or two sentences of narration for the step ``popped``.

Step targets (``goto``): ``{until: {kind: KIND, <field>: value ...}}`` (right after the next matching record;
``settle: true`` goes on to the end of the engine event holding it, where ``state()`` is exact),
``{unit: event|phase|pod, count: N}``, ``{advance: seconds}``, ``{idle: true}``, or an action
``{at: seconds, create|update|delete|cordon|uncordon|killLeader|partition|stallWatch: ...}`` (the Scenario action
syntax; applied at the cursor after advancing to ``at``). ``goto`` may be a list (done in order).
The page shows a finished run: it plays every step once, keeps each step's cursor and seeks
there (runner.show). A step that only lets time pass (``advance``, an action's ``at``) ends on
a TIME record at that time (kubesched.trace.records), so "time is 61s" holds on the page too.

``view`` (optional) names the figure the page shows beside the step's narration: queue (the
queue timeline and state machine), filter (the Filter matrix, "not evaluated" cells included),
score (the Score breakdown), preemption (the victims chart), binding (the binding-cycle
timeline), startup, election; without it the page picks the one of the step's last decision.

The narration of each step is the Markdown section headed ``## <step id>``; an optional
``## intro`` section comes first. ``q`` fields are the only other language-specific text.
``<!-- … -->`` comments in the narration are for authors and never shown: cite there the
upstream function each sentence rests on (``<!-- upstream: scheduler.go scheduleOne -->``).

Claims (``claims``) are sentences in the fixed grammar of ``claims.GRAMMAR``, checked against the
engine at the step's cursor; the page shows each with ✓ or ✗, and the lesson tests require ✓.

Questions (``predict`` of a step, items of ``quiz``): ``{ask: NAME, <args>, q: wording}``. A
prediction is asked before its step runs and graded at the step's cursor; the quiz at the last
step's cursor. The answer, the options and the reasons are computed (quiz.py); never write one.
The asks and their arguments (pod names may omit ``default/``):

- Filter: ``feasible_nodes`` (pod; multi-select), ``rejecting_plugin`` (pod, node),
  ``evaluated_nodes`` / ``feasible_count`` / ``num_feasible_nodes_to_find`` (pod).
- Score: ``winner`` (pod: the node its last cycle chose; ``TIE`` when selectHost drew among equal
  totals, ``NONE`` when the cycle found no node), ``could_pick`` (pod; multi-select: the tie
  set, every node selectHost could have returned), ``top_plugin`` / ``total_score`` (pod, node).
- Queue: ``queue_of`` / ``move_event`` / ``attempts`` / ``backoff_seconds`` (pod),
  ``first_popped`` (pods: "a, b, c" — which was popped first).
- Preemption: ``preemption_node`` (pod; ``TIE`` when every rule left a tie), ``preemption_criterion``
  (pod), ``victims`` (pod; multi-select among the pods selectVictimsOnNode removed there).
- Startup: ``first_startup_step`` (steps: "A, B"), ``leader``, ``profile`` (pod).
- Anything the claim grammar can say: ``true_false`` (claim: "pod big is in activeQ"): Yes/No,
  e.g. "is big retried now?" as ``{ask: true_false, claim: "pod big is in activeQ"}``.

No question grades a seeded coin flip: where v1.18.5 picks at random the right answer is the
option "any of them" (quiz.TIE), or ask ``could_pick``; a test plays every lesson and refuses a
question without a unique computed answer. A multi-select question whose right set is empty has
"none of them" (quiz.NONE) as its answer: choosing nothing is never an answer (the page asks
for a choice first).

What-if questions: ``what_if`` lists changes to the lesson's cluster; the engine runs that
variant from the start, to ``at`` (a goto or a list of them, as in a step; default: until idle
or the horizon), and the ask is answered there. The learner sees the question's ``q`` and the
changes (whatif.describe). Changes:

- ``{patch: Kind/name, set: {...}}`` (``Kind/namespace/name`` for another namespace): a merge
  into that object of the cluster file as ``kubectl patch`` does — mappings merge, ``null``
  removes a key, lists of mappings with ``name`` (containers) merge by name, other lists
  (taints, tolerations) are replaced. Add a label: ``set: {metadata: {labels: {disk: ssd}}}``;
  remove the taints: ``set: {spec: {taints: null}}``; change a request: ``set: {spec:
  {containers: [{name: web, resources: {requests: {cpu: "3"}}}]}}``.
- ``{create: <manifest>}`` (add a node, a pod, a PDB …), ``{delete: Kind/name}``.
- ``{config: {...}}``: merged into the lesson's KubeSchedulerConfiguration (its ``config`` file or
  a document in the cluster, else an empty v1alpha2 one): ``{percentageOfNodesToScore: 10}``.
- A Scenario action ``{at: S, create|update|delete|cordon|uncordon|killLeader|partition|stallWatch: ...}``: added to
  the variant's Scenario (a pod arriving at t=5 s, the leader killed at t=20 s).

Feedback: every answer carries ``because`` (why the answer is what it is) and, per option, why
it is or is not the answer — keyed facts read from the run (feedback.py: "node-2 fails
NodeResourcesFit: Insufficient cpu", "plugin X was not evaluated: Y rejected first", "a and b
tie at 1000368 …"); the page words them in the learner's language (``lessons.why.<key>``). A new
ask is a function ``(View, Question) -> Answer`` in ``quiz.ASKS`` building its reasons with
``feedback.why``; a new feedback key goes in ``feedback.KEYS`` and both UI catalogs.
"""

from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass
from typing import Any

import yaml

from kubesched.trace import Kind
from kubesched.trace.records import DERIVED_KINDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
CLUSTERS_DIR = ROOT / "sample_clusters" / "lessons"
LANGS = ("en", "zh")
GOTO_VERBS = ("until", "unit", "advance", "idle")
ACTION_VERBS = ("create", "update", "delete", "cordon", "uncordon", "killLeader", "partition", "stallWatch")
UNITS = ("event", "phase", "pod")
QUESTION_KEYS = ("ask", "q", "what_if", "at")
VIEWS = ("queue", "filter", "score", "preemption", "binding", "startup", "election")
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n(.*)\Z", re.DOTALL)
_HEADING = re.compile(r"^## +(\S+)\s*$", re.MULTILINE)
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


class LessonError(ValueError):
    """A lesson file that does not follow the format; the message names file and field."""




@dataclass(frozen=True, slots=True)
class Goto:
    """One cursor move: ``verb`` in until | unit | advance | idle | action."""

    verb: str
    match: tuple[tuple[str, str], ...] = ()   # until: record fields to match
    settle: bool = False
    unit: str = ""
    count: int = 1
    seconds: float = 0.0
    action: tuple[tuple[str, Any], ...] = ()  # action: the Scenario action mapping, items


@dataclass(frozen=True, slots=True)
class Change:
    """One edit of a what-if variant (see the module docstring): ``verb`` in patch | create |
    delete | config | action; ``target`` is ``Kind/name`` or ``Kind/namespace/name`` (patch,
    delete); ``body`` the patch, manifest, configuration patch or Scenario action, as canonical
    JSON text (a Change is hashable, so a variant run can be cached by its changes)."""

    verb: str
    target: str = ""
    body: str = ""

    def data(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass(frozen=True, slots=True)
class Question:
    """A question whose answer is computed from the trace (quiz.py); ``q`` is its wording.

    ``what_if``: the variant of the lesson's cluster the answer is computed on (empty: the
    lesson's own run at the cursor); ``at``: where the variant run stops (empty: idle)."""

    ask: str
    args: tuple[tuple[str, str], ...]
    q: str
    what_if: tuple[Change, ...] = ()
    at: tuple[Goto, ...] = ()

    def arg(self, name: str, default: str = "") -> str:
        return dict(self.args).get(name, default)


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    goto: tuple[Goto, ...]
    claims: tuple[str, ...]
    predict: Question | None
    narration: str
    view: str = ""               # the figure beside the narration (VIEWS); "" lets the page choose


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str                      # file stem, e.g. "04-queues"
    lang: str
    title: str
    cluster: str                 # file name under sample_clusters/lessons/
    config: str | None
    horizon: float
    intro: str
    steps: tuple[Step, ...]
    quiz: tuple[Question, ...]
    path: str = ""

    @property
    def cluster_path(self) -> pathlib.Path:
        return CLUSTERS_DIR / self.cluster

    @property
    def config_path(self) -> pathlib.Path | None:
        return CLUSTERS_DIR / self.config if self.config else None

    def structure(self) -> tuple[Any, ...]:
        """Everything but the wording: equal for the two languages of one lesson."""
        return (self.id, self.cluster, self.config, self.horizon,
                tuple((s.id, s.goto, s.claims, _bare(s.predict), s.view) for s in self.steps),
                tuple(_bare(q) for q in self.quiz))


def _bare(q: Question | None) -> tuple[Any, ...] | None:
    return None if q is None else (q.ask, q.args, q.what_if, q.at)


# -- parsing -------------------------------------------------------------------------------------
def parse(text: str, *, name: str = "lesson", lang: str = "en", path: str = "") -> Lesson:
    """Parse one lesson file's text; raises ``LessonError`` naming the field at fault."""
    where = path or name
    m = _FRONT.match(text)
    if not m:
        raise LessonError(f"{where}: must start with YAML front matter between two '---' lines")
    try:
        front = yaml.safe_load(m.group(1))
    except yaml.YAMLError as err:
        raise LessonError(f"{where}: front matter is not valid YAML: {err}") from None
    if not isinstance(front, dict):
        raise LessonError(f"{where}: front matter must be a mapping")
    allowed = {"title", "lang", "cluster", "config", "horizon", "steps", "quiz"}
    for key in front:
        if key not in allowed:
            raise LessonError(f"{where}: unknown field {key!r} (expected {', '.join(sorted(allowed))})")
    title = _text(front, "title", where)
    file_lang = front.get("lang", lang)
    if file_lang != lang:
        raise LessonError(f"{where}: lang is {file_lang!r} but the file is in lessons/{lang}/")
    cluster = _text(front, "cluster", where)
    config = front.get("config")
    if config is not None and not isinstance(config, str):
        raise LessonError(f"{where}: config must be a file name")
    horizon = front.get("horizon", 300)
    if isinstance(horizon, bool) or not isinstance(horizon, (int, float)) or horizon <= 0:
        raise LessonError(f"{where}: horizon must be a positive number of seconds")
    sections = _sections(m.group(2), where)
    raw_steps = front.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{where}: steps must be a non-empty list")
    steps = tuple(_step(item, i, sections, where) for i, item in enumerate(raw_steps))
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{where}: step ids must be unique: {ids}")
    extra = set(sections) - set(ids) - {"intro"}
    if extra:
        raise LessonError(f"{where}: narration sections without a step: {sorted(extra)}")
    raw_quiz = front.get("quiz") or []
    if not isinstance(raw_quiz, list):
        raise LessonError(f"{where}: quiz must be a list")
    quiz = tuple(_question(q, f"quiz[{i}]", where) for i, q in enumerate(raw_quiz))
    return Lesson(name, lang, title, cluster, config, float(horizon), sections.get("intro", ""),
                  steps, quiz, path)


def _text(front: dict[str, Any], key: str, where: str) -> str:
    value = front.get(key)
    if not isinstance(value, str) or not value.strip():
        raise LessonError(f"{where}: {key} must be a non-empty string")
    return value.strip()


def _sections(body: str, where: str) -> dict[str, str]:
    parts = _HEADING.split(body)
    if parts[0].strip():
        raise LessonError(f"{where}: text before the first '## <step id>' heading")
    out: dict[str, str] = {}
    for sid, text in zip(parts[1::2], parts[2::2]):
        if sid in out:
            raise LessonError(f"{where}: two narration sections for {sid!r}")
        out[sid] = " ".join(_COMMENT.sub(" ", text).split())
    return out


def _step(item: Any, i: int, sections: dict[str, str], where: str) -> Step:
    at = f"{where}: steps[{i}]"
    if not isinstance(item, dict):
        raise LessonError(f"{at} must be a mapping")
    for key in item:
        if key not in ("id", "goto", "claims", "predict", "view"):
            raise LessonError(f"{at}: unknown field {key!r} (expected id, goto, claims, predict, view)")
    view = item.get("view", "")
    if view and view not in VIEWS:
        raise LessonError(f"{at}.view must be one of {', '.join(VIEWS)}")
    sid = item.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        raise LessonError(f"{at}.id must be lower-case letters, digits and '-'")
    raw_goto = item.get("goto")
    if raw_goto is None:
        raise LessonError(f"{at}.goto is missing")
    gotos = raw_goto if isinstance(raw_goto, list) else [raw_goto]
    goto = tuple(_goto(g, f"{at}.goto") for g in gotos)
    claims = item.get("claims") or []
    if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
        raise LessonError(f"{at}.claims must be a list of strings")
    predict = _question(item["predict"], f"steps[{i}].predict", where) if item.get("predict") else None
    narration = sections.get(sid, "")
    if not narration:
        raise LessonError(f"{at}: no narration (a '## {sid}' section)")
    return Step(sid, goto, tuple(c.strip() for c in claims), predict, narration, view)


def _goto(g: Any, at: str) -> Goto:
    if not isinstance(g, dict):
        raise LessonError(f"{at} must be a mapping")
    if "until" in g:
        match = g["until"]
        if not isinstance(match, dict) or "kind" not in match:
            raise LessonError(f"{at}.until must be a mapping with kind")
        if match["kind"] not in Kind.__members__ or Kind[match["kind"]] in DERIVED_KINDS:
            raise LessonError(f"{at}.until.kind {match['kind']!r} is not a trace record kind"
                              + (" (plugin calls are derived from FILTER_RUN, SCORE_RUN, PREEMPTION and POINT_RUN)"
                                 if match["kind"] == "PLUGIN_CALL" else ""))
        return Goto("until", tuple((str(k), str(v)) for k, v in match.items()), settle=bool(g.get("settle")))
    if "unit" in g:
        if g["unit"] not in UNITS:
            raise LessonError(f"{at}.unit must be one of {', '.join(UNITS)}")
        count = g.get("count", 1)
        if not isinstance(count, int) or count < 1:
            raise LessonError(f"{at}.count must be a positive integer")
        return Goto("unit", unit=g["unit"], count=count)
    if "advance" in g:
        seconds = g["advance"]
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise LessonError(f"{at}.advance must be a non-negative number of seconds")
        return Goto("advance", seconds=float(seconds))
    if "idle" in g:
        return Goto("idle")
    verbs = [v for v in ACTION_VERBS if v in g]
    if len(verbs) == 1:
        return Goto("action", seconds=float(g.get("at", 0)), action=tuple(g.items()))
    raise LessonError(f"{at}: expected one of {', '.join(GOTO_VERBS)} or an action "
                      f"({', '.join(ACTION_VERBS)})")


def _question(data: Any, at: str, where: str) -> Question:
    if not isinstance(data, dict) or not isinstance(data.get("ask"), str):
        raise LessonError(f"{where}: {at} must be a mapping with ask")
    q = data.get("q")
    if not isinstance(q, str) or not q.strip():
        raise LessonError(f"{where}: {at}.q (the question's wording) is missing")
    for key, value in data.items():
        if key not in QUESTION_KEYS and isinstance(value, (dict, list)):
            raise LessonError(f"{where}: {at}.{key} must be a plain value (only what_if and at take structure)")
    args = tuple(sorted((str(k), str(v)) for k, v in data.items() if k not in QUESTION_KEYS))
    what_if = _changes(data.get("what_if"), f"{where}: {at}.what_if")
    stop = data.get("at")
    if stop is not None and not what_if:
        raise LessonError(f"{where}: {at}.at says where a what-if variant stops: it needs what_if")
    gotos = () if stop is None else tuple(_goto(g, f"{where}: {at}.at[{i}]")
                                          for i, g in enumerate(stop if isinstance(stop, list) else [stop]))
    return Question(data["ask"], args, q.strip(), what_if, gotos)


def _changes(raw: Any, at: str) -> tuple[Change, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    if not items:
        raise LessonError(f"{at} must list at least one change")
    return tuple(_change(item, f"{at}[{i}]") for i, item in enumerate(items))


def _change(item: Any, at: str) -> Change:
    if not isinstance(item, dict):
        raise LessonError(f"{at} must be a mapping")
    if "at" in item:
        verbs = [v for v in ACTION_VERBS if v in item]
        if len(verbs) != 1 or set(item) - {"at", verbs[0]}:
            raise LessonError(f"{at}: a timed change is a Scenario action: at and one of {', '.join(ACTION_VERBS)}")
        return Change("action", body=_canonical(item))
    keys = set(item)
    if keys == {"patch", "set"}:
        _target(item["patch"], f"{at}.patch")
        if not isinstance(item["set"], dict):
            raise LessonError(f"{at}.set must be a mapping (a merge patch)")
        return Change("patch", item["patch"], _canonical(item["set"]))
    if keys == {"delete"}:
        return Change("delete", _target(item["delete"], f"{at}.delete"))
    if keys == {"create"}:
        manifest = item["create"]
        if not isinstance(manifest, dict) or not isinstance(manifest.get("kind"), str) \
                or not isinstance((manifest.get("metadata") or {}).get("name"), str):
            raise LessonError(f"{at}.create must be a manifest with kind and metadata.name")
        return Change("create", body=_canonical(manifest))
    if keys == {"config"}:
        if not isinstance(item["config"], dict):
            raise LessonError(f"{at}.config must be a mapping (merged into the KubeSchedulerConfiguration)")
        return Change("config", body=_canonical(item["config"]))
    raise LessonError(f"{at}: expected {{patch: Kind/name, set: {{...}}}}, {{create: manifest}}, "
                      f"{{delete: Kind/name}}, {{config: {{...}}}} or a Scenario action {{at: S, <verb>: ...}}")


def _target(text: Any, at: str) -> str:
    parts = text.split("/") if isinstance(text, str) else []
    if len(parts) not in (2, 3) or not all(parts):
        raise LessonError(f"{at} must be Kind/name or Kind/namespace/name, not {text!r}")
    return text


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# -- finding lessons --------------------------------------------------------------------------------
def lesson_ids(root: pathlib.Path = LESSONS_DIR) -> tuple[str, ...]:
    """The lesson ids (file stems) of the English lessons, in order."""
    return tuple(sorted(p.stem for p in (root / "en").glob("*.md")))


def load(lesson_id: str, lang: str = "en", root: pathlib.Path = LESSONS_DIR) -> Lesson:
    """Read and parse ``lessons/<lang>/<lesson_id>.md``."""
    if lang not in LANGS:
        raise LessonError(f"unknown language {lang!r}")
    path = root / lang / f"{lesson_id}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LessonError(f"{path}: cannot read: {err.strerror}") from None
    return parse(text, name=lesson_id, lang=lang, path=str(path.relative_to(root.parent)))


__all__ = ["CLUSTERS_DIR", "LANGS", "LESSONS_DIR", "VIEWS", "Change", "Goto", "Lesson", "LessonError", "Question", "Step",
           "lesson_ids", "load", "parse"]
