"""Lessons played in a real Chromium: each prediction asks for a choice before it grades and then
grades it, every step's claims show ✓ (never ✗), the step's figure is drawn, no exception appears,
and the quiz can be checked to the end. Every lesson is played in Chinese, where every step and the
quiz also pass the English-run rule of tests/browser/zh_text.py; in English every fourth lesson is
played (the page code is the same in both languages, and tests/lessons checks every claim of every
lesson in both languages without a browser), which keeps CI inside its 30 minutes.

``LESSON_SHOTS=<dir>`` also saves a screenshot of every step there (for looking at, not checked);
``LESSON_IDS=a,b`` plays only those lessons, in both languages (for debugging one).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kubesched.lessons import format as fmt
from kubesched.ui.claim_text import render
from kubesched.ui.i18n import t
from tests.browser.zh_text import english_on_page

SHOTS = os.environ.get("LESSON_SHOTS", "")
MAIN = '[data-testid="stMain"]'
SETTLED = """() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-stale="true"]')"""


def _click(page, key: str) -> None:
    """Click the button with widget key ``key`` and wait until the rerun it starts has drawn."""
    page.locator(f".st-key-{key} button").click()
    page.wait_for_timeout(150)
    page.wait_for_function(SETTLED, timeout=180_000)


def _choose(page, key: str) -> None:
    """Pick the first option of the radio or multiselect with widget key ``key``."""
    box = page.locator(f".st-key-{key}")
    radios = box.get_by_role("radio")
    if radios.count():
        radios.first.click(force=True)
    else:
        box.scroll_into_view_if_needed()
        box.locator("input").first.click()
        try:
            page.locator('[role="option"]:not([data-key="__select_all__"])').first.click(timeout=10_000)
        except Exception:
            _shot(page, f"failed-{key}")
            raise
        page.keyboard.press("Escape")
    page.wait_for_timeout(150)
    page.wait_for_function(SETTLED, timeout=180_000)


def _texts(page) -> list[str]:
    return page.locator(f'{MAIN} [data-testid="stText"]').all_inner_texts()


def _no_exception(page, where: str) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0, where
    assert page.locator(f'{MAIN} [data-testid="stAlertContentError"]').count() == 0, where


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _play(page, url: str, lesson: fmt.Lesson, lang: str) -> None:
    page.goto(f"{url}/lessons?lesson={lesson.id}")
    page.wait_for_function(SETTLED, timeout=180_000)
    total = len(lesson.steps)
    asked = False
    for i, step in enumerate(lesson.steps):
        caption = page.get_by_text(t("lessons.step", lang, n=i + 1, total=total), exact=True)
        expect(caption).to_be_visible(timeout=180_000)
        if step.predict is not None:
            key = f"lesson_guess_{lesson.id}_{i}"
            if not asked:           # once per lesson: Reveal with nothing chosen asks for a choice
                _click(page, "lesson_reveal")
                expect(page.get_by_text(t("lessons.choose_first", lang))).to_be_visible()
                asked = True
            _choose(page, key)
            _click(page, "lesson_reveal")
            expect(page.get_by_text(re.compile(re.escape(t("lessons.your_guess", lang, guess="")))).first).to_be_visible()
        expect(page.get_by_text(t("lessons.claims", lang))).to_be_visible()
        texts = _texts(page)
        where = f"{lesson.id} [{lang}] step {i + 1} ({step.id})"
        _no_exception(page, where)
        assert [c for c in step.claims if f"✓ {render(c, lang)}" not in texts] == [], where
        assert not any(text.startswith("✗ ") and not text.startswith(t("lessons.wrong", lang)) for text in texts), where
        expect(page.locator(f'{MAIN} [data-testid="stPlotlyChart"]').first).to_be_visible()
        if lang == "zh":
            assert english_on_page(page) == [], where
        _shot(page, f"{lesson.id}-{i + 1:02d}-{step.id}-{lang}")
        _click(page, "lesson_continue")
    expect(page.get_by_role("heading", name=t("lessons.quiz", lang))).to_be_visible()
    for i, _question in enumerate(lesson.quiz):
        _choose(page, f"lesson_quiz_{lesson.id}_{i}")
        _click(page, f"lesson_check_{i}")
        expect(page.locator(f".st-key-lesson_check_{i}")).to_have_count(0)
    _no_exception(page, f"{lesson.id} [{lang}] quiz")
    if lang == "zh":
        assert english_on_page(page) == [], f"{lesson.id} [zh] quiz"
    score = re.escape(t("lessons.score", lang, right="RIGHT", total=len(lesson.quiz))).replace("RIGHT", r"\d+")
    expect(page.get_by_text(re.compile(f"^{score}$"))).to_be_visible()
    _shot(page, f"{lesson.id}-quiz-{lang}")
    _click(page, "lesson_finish")
    expect(page.get_by_text(t("lessons.done", lang))).to_be_visible()


ONLY = [i for i in os.environ.get("LESSON_IDS", "").split(",") if i]
CASES = ([(i, lang) for i in ONLY for lang in ("en", "zh")] if ONLY else
         [(i, "zh") for i in fmt.lesson_ids()] + [(i, "en") for i in fmt.lesson_ids()[::4]])


@pytest.mark.slow
@pytest.mark.parametrize(("lesson_id", "lang"), CASES, ids=[f"{i}-{lang}" for i, lang in CASES])
def test_lessons_play_in_the_browser(chromium, st_server, lesson_id, lang):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 1100}, locale="zh-CN" if lang == "zh" else "en-US")
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    try:
        _play(page, st_server, fmt.load(lesson_id, lang), lang)
    finally:
        ctx.close()


def test_some_lesson_asks_a_prediction():
    assert any(step.predict is not None for i in fmt.lesson_ids() for step in fmt.load(i).steps)
