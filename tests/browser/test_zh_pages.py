"""Every page in 中文 (``?lang=zh``), in a real Chromium, on default.yaml at three cursors (start,
mid-run, end): no run of three or more English words in the visible text (expanders opened,
dialogs included) outside code, identifiers and user data (the rule of tests/browser/zh_text.py).
Dataframes are drawn on a canvas: their texts are checked without a browser
(tests/ui/figures/test_startup_figures.py and the pages' own tests)."""

from __future__ import annotations

import functools

import pytest

from kubesched.sim.simulation import Simulation
from kubesched.ui.session import SAMPLE_DIR
from tests.browser.conftest import screenshot_on_failure
from tests.browser.zh_text import english_on_page

PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")
SETTLED = """() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-stale="true"]')"""
OPEN_EXPANDERS = "() => document.querySelectorAll('[data-testid=\"stMain\"] details').forEach(d => { d.open = true; })"


@functools.cache
def cursors() -> dict[str, int]:
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    for _ in range(3):
        sim.step("pod")
    sim.step("phase")
    mid = sim.cursor
    sim.run_until_idle()
    return {"start": 0, "mid": mid, "end": sim.cursor}


@pytest.mark.slow
@pytest.mark.parametrize("at", ["start", "mid", "end"])
@pytest.mark.parametrize("name", PAGES)
def test_the_page_has_no_english_sentence_in_chinese(page, st_server, name, at):
    path = "" if name == "home" else name
    page.goto(f"{st_server}/{path}?lang=zh&step={cursors()[at]}")
    page.wait_for_function(SETTLED, timeout=180_000)
    page.wait_for_timeout(500)
    page.wait_for_function(SETTLED, timeout=180_000)
    page.evaluate(OPEN_EXPANDERS)
    page.wait_for_timeout(300)
    with screenshot_on_failure(page, f"test_zh_pages_{name}_{at}"):
        assert page.locator('[data-testid="stException"]').count() == 0
        assert english_on_page(page) == []
