"""▶ pod on default.yaml in a real Chromium: "Why (not) on node X?" says what is true where ▶ pod stops
(the picked node is "selected; binding pending", in English and 中文), the score table and the
score chart hold no "None", and the cycle picker's entry carries no number that could lag the header.

The expected sentences come from a Simulation stepped the same way (explain + the catalog).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from kubesched.explain import explain_pod
from kubesched.explain.text import focus_phrase, words
from kubesched.sim.simulation import Simulation
from kubesched.ui.i18n import t
from kubesched.ui.session import SAMPLE_DIR
from tests.browser.conftest import screenshot_on_failure

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
ERRORS = '[data-testid="stException"], [data-testid="stAlertContentError"]'
WHY = ".st-key-schedule_why_text"


def _expected(cursor: int, node: str, lang: str) -> str:
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    sim.seek(cursor)
    e = explain_pod(sim.trace[:cursor], sim.state(), "default/api-1", node)
    return words(focus_phrase(e, node), lambda key: t(f"why.{key}", lang))


def _pick_node(page, node: str) -> None:
    box = page.locator(".st-key-schedule_why_node input")
    box.scroll_into_view_if_needed()
    box.click()
    box.fill(node)
    page.keyboard.press("Enter")
    page.wait_for_selector(IDLE)


def test_pod_step_then_why_and_scores(page, st_server):
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    cursor = sim.step("pod")
    selected = explain_pod(sim.trace[:cursor], sim.state(), "default/api-1").pick.selected
    with screenshot_on_failure(page, "test_why_at_cursor"):
        page.get_by_role("link", name=t("nav.schedule", "en")).click()
        page.wait_for_selector(IDLE)
        page.locator('[data-testid="stSidebar"] .st-key-next_pod button').first.click()
        expect(page.get_by_text(re.compile(rf"step {cursor}/"))).to_be_visible()
        page.wait_for_selector(IDLE)
        main = page.locator('[data-testid="stMain"]')
        expect(page.locator(".st-key-schedule_cycle input")).to_have_value(t("schedule.pick.follow", "en"))
        expect(main.locator("h3").first).to_contain_text("Cycle 1 ·")
        _pick_node(page, selected)
        sentence = _expected(cursor, selected, "en")
        assert sentence.startswith(f"{selected} selected; binding pending: ")
        expect(page.locator(WHY)).to_have_text(sentence)
        page.locator(".st-key-schedule_score_open summary").click()
        page.wait_for_selector(IDLE)
        page.wait_for_selector('.st-key-schedule_score_open [role="gridcell"]', state="attached")  # drawn once opened
        chart = page.locator(".st-key-schedule_scores .js-plotly-plot").inner_text()
        assert "None" not in chart and " = " in chart          # "total = common + differing part"
        cells = page.locator('.st-key-schedule_score_open [role="gridcell"]').all_inner_texts()
        assert cells and "None" not in cells
        assert "None" not in main.inner_text()
        assert page.locator(ERRORS).count() == 0

        page.goto(f"{st_server}/schedule?lang=zh&step={cursor}")
        page.wait_for_selector(IDLE)
        expect(page.locator(".st-key-schedule_cycle input")).to_have_value(t("schedule.pick.follow", "zh"))
        _pick_node(page, selected)
        expect(page.locator(WHY)).to_have_text(_expected(cursor, selected, "zh"))
        assert page.locator(WHY).inner_text().startswith(f"已选中 {selected}，等待绑定：")
        assert page.locator(ERRORS).count() == 0
