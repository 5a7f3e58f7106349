"""Lesson progress as a pure state machine: which step, predict-then-reveal, quiz answers.

Upstream: no counterpart.

For each step: if it asks a prediction, the stage is ``predict`` (the view still shows the
previous step) until a guess is made; then ``narrate`` (the step's cursor, its narration and
the reveal). ``advance`` goes to the next step, and after the last one to ``quiz`` (or
``done`` when the lesson has no quiz). Every transition returns a new ``Progress``.

Nothing chosen is not an answer: ``guess`` and ``answer`` with no option change nothing (the
page asks for a choice; a question whose right answer is "none of them" offers that as an
option, quiz.NONE). ``skip_prediction`` records an empty guess, which is never graded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from kubesched.lessons.format import Lesson

STAGES = ("predict", "narrate", "quiz", "done")


@dataclass(frozen=True, slots=True)
class Progress:
    lesson: str
    step: int = 0
    stage: str = "narrate"
    guesses: tuple[tuple[int, tuple[str, ...]], ...] = ()      # step index -> chosen options
    answers: tuple[tuple[int, tuple[str, ...]], ...] = ()      # quiz index -> chosen options

    def guess_of(self, step: int) -> tuple[str, ...] | None:
        return dict(self.guesses).get(step)

    def answer_of(self, question: int) -> tuple[str, ...] | None:
        return dict(self.answers).get(question)

    @property
    def shown_step(self) -> int:
        """The step whose cursor the view shows (-1: the start of the run)."""
        if self.stage == "predict":
            return self.step - 1
        return self.step


def _entry(lesson: Lesson, index: int, progress: Progress) -> Progress:
    asks = lesson.steps[index].predict is not None and progress.guess_of(index) is None
    return replace(progress, step=index, stage="predict" if asks else "narrate")


def start(lesson: Lesson) -> Progress:
    return _entry(lesson, 0, Progress(lesson.id))


def at_step(lesson: Lesson, progress: Progress, index: int) -> Progress:
    """Jump to step ``index`` (clamped), keeping guesses and answers."""
    index = max(0, min(index, len(lesson.steps) - 1))
    return _entry(lesson, index, progress)


def guess(lesson: Lesson, progress: Progress, chosen: Iterable[str] | str | None) -> Progress:
    """Record the prediction for the current step and reveal it."""
    picked = _picked(chosen)
    if progress.stage != "predict" or not picked:
        return progress
    guesses = tuple(sorted((dict(progress.guesses) | {progress.step: picked}).items()))
    return replace(progress, guesses=guesses, stage="narrate")


def _picked(chosen: Iterable[str] | str | None) -> tuple[str, ...]:
    if chosen is None:
        return ()
    return (chosen,) if isinstance(chosen, str) else tuple(sorted(chosen))


def skip_prediction(lesson: Lesson, progress: Progress) -> Progress:
    """Go on without a guess (recorded as an empty guess: never graded)."""
    if progress.stage != "predict":
        return progress
    guesses = tuple(sorted((dict(progress.guesses) | {progress.step: ()}).items()))
    return replace(progress, guesses=guesses, stage="narrate")


def advance(lesson: Lesson, progress: Progress) -> Progress:
    """"Continue": the next step, then the quiz, then done."""
    if progress.stage == "predict":
        return progress
    if progress.stage == "narrate":
        if progress.step + 1 < len(lesson.steps):
            return _entry(lesson, progress.step + 1, progress)
        return replace(progress, stage="quiz" if lesson.quiz else "done")
    if progress.stage == "quiz" and len(progress.answers) == len(lesson.quiz):
        return replace(progress, stage="done")
    return progress


def back(lesson: Lesson, progress: Progress) -> Progress:
    if progress.stage in ("quiz", "done"):
        return replace(progress, step=len(lesson.steps) - 1, stage="narrate")
    if progress.step == 0:
        return progress
    return replace(progress, step=progress.step - 1, stage="narrate")


def answer(lesson: Lesson, progress: Progress, question: int, chosen: Iterable[str] | str | None) -> Progress:
    picked = _picked(chosen)
    if progress.stage != "quiz" or not 0 <= question < len(lesson.quiz) or not picked:
        return progress
    answers = tuple(sorted((dict(progress.answers) | {question: picked}).items()))
    return replace(progress, answers=answers)


__all__ = ["STAGES", "Progress", "advance", "answer", "at_step", "back", "guess", "skip_prediction", "start"]
