"""Lesson player: narration one step at a time with Continue, predict-then-reveal, beside it the
figure that makes the step's point (queue timeline and state machine, Filter matrix, Score
breakdown, victims, binding timeline, startup, election) and the pods, a quiz computed from
the trace with the reasons, and "open this step in the sandbox" as a second door.

Upstream: no counterpart. Layout only: lessons come from kubesched/lessons (format, runner,
claims, quiz, player) and the side view from kubesched/ui/figures/lessons.py. The URL names the
lesson and the step (``?lesson=04-queues&lstep=3``); progress is kept in the session.
"""

from __future__ import annotations

import streamlit as st

from kubesched.lessons import claims, player, quiz, runner, whatif
from kubesched.lessons import format as fmt
from kubesched.ui import charts, claim_text, session, url_state
from kubesched.ui.figures import lessons as rows
from kubesched.ui.i18n import t
from kubesched.ui.stepper import render_status
from kubesched.ui.widget_default import index_of

RUN, PROGRESS, PICK, EMPTY = "lesson_run", "lesson_progress", "lesson_pick", "lesson_empty_choice"
LESSON, LSTEP = "lesson", "lstep"      # this page's URL keys

lang = session.lang()
ids = fmt.lesson_ids()
st.title(t("lessons.title", lang))


def _lesson(lesson_id: str) -> fmt.Lesson:
    return fmt.load(lesson_id, lang)


def _run(lesson_id: str) -> dict:
    run = st.session_state.get(RUN)
    if run is None or run["id"] != lesson_id:
        with st.spinner(t("lessons.loading", lang)):
            sim, cursors = runner.play(fmt.load(lesson_id, "en"))
        run = {"id": lesson_id, "sim": sim, "cursors": cursors, "variants": {}}
        st.session_state[RUN] = run
    return run


def _progress(lesson: fmt.Lesson) -> player.Progress:
    table = st.session_state.setdefault(PROGRESS, {})
    if lesson.id not in table:
        progress = player.start(lesson)
        step = st.query_params.get(LSTEP)
        if step and step.isdigit() and st.query_params.get(LESSON) == lesson.id:
            progress = player.at_step(lesson, progress, int(step) - 1)
        table[lesson.id] = progress
    return table[lesson.id]


def _save(progress: player.Progress) -> None:
    st.session_state[PROGRESS][progress.lesson] = progress


def _on_pick() -> None:
    st.query_params[LESSON] = st.session_state[PICK]
    st.query_params.pop(LSTEP, None)


wanted = st.query_params.get(LESSON)
if wanted in ids and st.session_state.get(PICK) != wanted and (
        PICK not in st.session_state or url_state.is_history_navigation()):
    # a URL naming another lesson wins when it opens the page (a reload, a link) or comes back with
    # Back/Forward; a click sent before the last pick reached the URL carries the lesson before it
    st.session_state[PICK] = wanted
elif PICK not in st.session_state:
    st.session_state[PICK] = ids[0]
lesson_id = st.selectbox(t("lessons.pick", lang), ids, key=PICK, index=index_of(PICK, ids), on_change=_on_pick,
                         format_func=lambda i: _lesson(i).title)
lesson = _lesson(lesson_id)
try:
    run = _run(lesson_id)
except (fmt.LessonError, ValueError) as err:
    st.error(t("lessons.error", lang, error=err))
    st.stop()
sim, cursors = run["sim"], run["cursors"]
progress = _progress(lesson)


def _act(fn, *args) -> None:
    _save(fn(lesson, st.session_state[PROGRESS][lesson.id], *args))


def _chosen(key: str) -> object:
    """The widget's choice; remembers an empty one so the page asks for a choice instead of grading."""
    value = st.session_state.get(key)
    st.session_state[EMPTY] = key if not value else None
    return value


def _guess(key: str) -> None:
    _act(player.guess, _chosen(key))


def _answer(index: int, key: str) -> None:
    _act(player.answer, index, _chosen(key))


def _truth(question: fmt.Question) -> quiz.Answer:
    """The computed answer at the current cursor (a what-if runs its variant once per session)."""
    return quiz.answer(question, sim, lesson=lesson, variants=run["variants"])


def _ask_choice(question: fmt.Question, truth: quiz.Answer, key: str) -> None:
    label = lambda o: rows.option_label(o, lang)  # noqa: E731
    if truth.multi:
        st.multiselect(question.q, truth.options, key=key, format_func=label, placeholder=t("lessons.choose", lang))
    else:
        st.radio(question.q, truth.options, key=key, index=None, format_func=label)
    if truth.variant:
        st.caption(t("lessons.variant", lang, changes="; ".join(whatif.describe(c) for c in question.what_if)))
    if st.session_state.get(EMPTY) == key:
        st.warning(t("lessons.choose_first", lang))


def _grade(truth: quiz.Answer, chosen: tuple[str, ...]) -> bool:
    """Right or wrong, the engine's answer, and why (computed from the run)."""
    ok = truth.grade(chosen)
    st.text(t("lessons.right" if ok else "lessons.wrong", lang) + "  "
            + t("lessons.answer", lang, answer=rows.answer_text(truth.correct, lang)))
    reasons = truth.because if ok else truth.feedback(chosen)
    if reasons:
        st.caption(t("lessons.why", lang) + " " + " ".join(rows.why_text(w, lang) for w in reasons))
    return ok


def _sandbox(cursor: int) -> None:
    sim.seek(cursor)
    st.session_state[session.SIM] = sim
    st.session_state[session.SOURCE] = f"lesson {lesson.id}"
    st.session_state.pop(RUN, None)


shown = progress.shown_step
runner.show(sim, cursors, shown)
cursor = sim.cursor
if st.query_params.get(LESSON) != lesson.id:
    st.query_params[LESSON] = lesson.id
if st.query_params.get(LSTEP) != str(progress.step + 1):
    st.query_params[LSTEP] = str(progress.step + 1)

if progress.step == 0 and progress.stage in ("predict", "narrate") and lesson.intro:
    st.markdown(lesson.intro)

left, right = st.columns([2, 3])
with left:
    if progress.stage in ("predict", "narrate"):
        step = lesson.steps[progress.step]
        st.caption(t("lessons.step", lang, n=progress.step + 1, total=len(lesson.steps)))
        if progress.stage == "predict" and step.predict is not None:
            runner.show(sim, cursors, progress.step)
            expected = _truth(step.predict)
            runner.show(sim, cursors, shown)
            st.subheader(t("lessons.predict", lang))
            key = f"lesson_guess_{lesson.id}_{progress.step}"
            _ask_choice(step.predict, expected, key)
            c1, c2 = st.columns(2)
            c1.button(t("lessons.reveal", lang), key="lesson_reveal", on_click=_guess, args=(key,))
            c2.button(t("lessons.skip", lang), key="lesson_skip", on_click=_act, args=(player.skip_prediction,))
        else:
            st.markdown(step.narration)
            guess = progress.guess_of(progress.step) if step.predict is not None else None
            if guess:
                st.text(t("lessons.your_guess", lang, guess=rows.answer_text(guess, lang)))
                _grade(_truth(step.predict), guess)
            elif guess is not None:
                st.caption(t("lessons.skipped", lang))
            st.caption(t("lessons.claims", lang))
            for verdict in claims.check_all(step.claims, sim):
                st.text(("✓ " if verdict.holds else "✗ ") + claim_text.render(verdict.claim, lang))
            c1, c2 = st.columns([2, 3])
            c1.button(t("lessons.back", lang), key="lesson_back", on_click=_act, args=(player.back,),
                      disabled=progress.step == 0, shortcut="Left", width="stretch")
            c2.button(t("lessons.continue", lang), key="lesson_continue", on_click=_act, args=(player.advance,),
                      type="primary", shortcut="Right", width="stretch")
            if st.button(t("lessons.sandbox", lang), key="lesson_sandbox", on_click=_sandbox, args=(cursor,),
                         type="tertiary", icon=":material/open_in_new:"):
                st.switch_page("kubesched/ui/pages/schedule.py")
    else:
        st.subheader(t("lessons.quiz", lang))
        right_count = 0
        for i, question in enumerate(lesson.quiz):
            truth = _truth(question)
            key = f"lesson_quiz_{lesson.id}_{i}"
            _ask_choice(question, truth, key)
            given = progress.answer_of(i)
            if given is not None:
                right_count += _grade(truth, given)
            else:
                st.button(t("lessons.check", lang), key=f"lesson_check_{i}", on_click=_answer, args=(i, key))
        st.text(t("lessons.score", lang, right=right_count, total=len(lesson.quiz)))
        if progress.stage == "done":
            st.success(t("lessons.done", lang))
        else:
            st.button(t("lessons.continue", lang), key="lesson_finish", on_click=_act, args=(player.advance,),
                      disabled=len(progress.answers) < len(lesson.quiz))
        st.button(t("lessons.restart", lang), key="lesson_restart",
                  on_click=lambda: _save(player.start(lesson)))
with right:
    st.subheader(t("lessons.view", lang))
    render_status(sim, lang)
    visible = sim.trace[:sim.cursor]
    start = cursors[shown - 1] if shown > 0 else 0
    view = rows.step_view(visible, start, lesson.steps[shown].view if shown >= 0 else "")
    for panel in rows.view_panels(view, sim.trace, sim.cursor, sim.time, lang):
        charts.show(panel.figure, f"lesson_view_{panel.key}")
        if panel.caption:
            st.caption(panel.caption)
    states = run.setdefault("states", {})       # a big run replays to compute a past state: once per cursor
    if sim.cursor not in states:
        states[sim.cursor] = sim.state()
    st.dataframe(rows.pod_rows(states[sim.cursor], visible), hide_index=True, key="lesson_pods", width="stretch",
                 column_config={"pod": t("lessons.col_pod", lang), "queue": t("lessons.col_queue", lang),
                                "node": t("lessons.col_node", lang), "nominated": t("lessons.col_nominated", lang),
                                "phase": t("lessons.col_phase", lang)})
