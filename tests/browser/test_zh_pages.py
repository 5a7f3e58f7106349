"""Every page in 中文 (``?lang=zh``), in a real Chromium: no run of three or more English words in
the visible text (expanders opened) outside code, identifiers and user data (tests/browser/zh_text.py)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot_on_failure
from tests.browser.zh_text import english_on_page

PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")
SETTLED = """() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-stale="true"]')"""


def _open_expanders(page) -> None:
    page.evaluate("() => document.querySelectorAll('[data-testid=\"stMain\"] details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(300)


@pytest.mark.slow
@pytest.mark.parametrize("name", PAGES)
def test_the_page_has_no_english_sentence_in_chinese(page, st_server, name):
    page.goto(f"{st_server}/{name}?lang=zh")
    page.wait_for_function(SETTLED, timeout=180_000)
    page.wait_for_timeout(500)
    page.wait_for_function(SETTLED, timeout=180_000)
    _open_expanders(page)
    with screenshot_on_failure(page, f"test_zh_pages_{name}"):
        assert english_on_page(page) == []
