"""Every lesson, in both languages: parses, loads its cluster, runs every step, every claim holds
against the engine, every quiz/prediction answer is computed and unique, same steps and claims."""

from __future__ import annotations

import functools

import pytest

from kubesched.lessons import claims, quiz, runner
from kubesched.lessons import format as fmt

IDS = fmt.lesson_ids()
CASES = [(lid, lang) for lid in IDS for lang in fmt.LANGS]


def test_enough_lessons_in_both_languages() -> None:
    zh = sorted(p.stem for p in (fmt.LESSONS_DIR / "zh").glob("*.md"))
    assert len(IDS) >= 12
    assert list(IDS) == zh


@functools.cache
def played(lesson_id: str) -> tuple[object, tuple[int, ...], tuple[tuple[object, ...], ...]]:
    """One Simulation per lesson: the cursor after every step, and each step's verdicts per language."""
    lessons = {lang: fmt.load(lesson_id, lang) for lang in fmt.LANGS}
    sim = runner.open_simulation(lessons["en"])
    cursors: list[int] = []
    per_step: list[tuple[object, ...]] = []
    for i, step in enumerate(lessons["en"].steps):
        cursors.append(runner.run_step(sim, step))
        row = []
        for lang in fmt.LANGS:
            other = lessons[lang].steps[i]
            verdicts = claims.check_all(other.claims, sim)
            predicted = quiz.answer(other.predict, sim) if other.predict else None
            row.append((lang, verdicts, predicted))
        per_step.append(tuple(row))
    return sim, tuple(cursors), tuple(per_step)


@pytest.mark.parametrize(("lesson_id", "lang"), CASES)
def test_lesson_parses_and_matches_english(lesson_id: str, lang: str) -> None:
    lesson = fmt.load(lesson_id, lang)
    english = fmt.load(lesson_id, "en")
    assert lesson.structure() == english.structure()
    assert lesson.cluster_path.is_file()
    assert lesson.cluster_path.read_text(encoding="utf-8").startswith("# ")
    assert all(step.narration for step in lesson.steps)
    assert lesson.quiz
    assert sum(len(s.claims) for s in lesson.steps) >= len(lesson.steps)
    for step in lesson.steps:
        for text in step.claims:
            claims.parse(text)


@pytest.mark.parametrize(("lesson_id", "lang"), CASES)
def test_every_claim_holds(lesson_id: str, lang: str) -> None:
    _, _cursors, per_step = played(lesson_id)
    failures = []
    for step, row in zip(fmt.load(lesson_id, lang).steps, per_step):
        verdicts = {l: v for l, v, _ in row}[lang]
        failures += [f"{step.id}: {v.claim.text}  (engine: {v.actual})" for v in verdicts if not v.holds]
    assert failures == []


@pytest.mark.parametrize(("lesson_id", "lang"), CASES)
def test_predictions_and_quiz_are_computed_and_unique(lesson_id: str, lang: str) -> None:
    sim, cursors, per_step = played(lesson_id)
    lesson = fmt.load(lesson_id, lang)
    for step, row in zip(lesson.steps, per_step):
        predicted = {l: p for l, _, p in row}[lang]
        assert (predicted is None) == (step.predict is None)
        if predicted is not None:
            assert len(predicted.options) >= 2
    sim.seek(cursors[-1])
    for question in lesson.quiz:
        got = quiz.answer(question, sim)
        assert len(got.options) >= 2 and len(set(got.options)) == len(got.options)
        assert got.multi or len(got.correct) == 1
        assert got.grade(sorted(got.correct))
