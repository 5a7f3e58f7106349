"""The dashboard in a real Chromium: it opens on the default cluster and ▶ steps the cursor."""

import re

from playwright.sync_api import expect

from kubesched.sim.simulation import Simulation
from kubesched.ui.session import SAMPLE_DIR
from tests.browser.conftest import screenshot_on_failure

STATUS = re.compile(r"t = \S+ s · cycle \d+ · step \d+/\d+")
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def status_text(time: float, cycle: int, cursor: int) -> re.Pattern:
    return re.compile(rf"^t = {re.escape(f'{time:g}')} s · cycle {cycle} · step {cursor}/\d+$")


def test_step_forward_with_the_next_pod_button(page):
    expected = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    expected.step("pod")
    with screenshot_on_failure(page, "test_home_step_forward"):
        expect(page.get_by_role("heading", name="kubesched — kube-scheduler v1.18.5, step by step")).to_be_visible()
        status = page.locator('[data-testid="stSidebar"]').get_by_text(STATUS)
        expect(status).to_have_text(status_text(0, 0, 0))
        page.locator('[data-testid="stSidebar"] .st-key-next_pod button').first.click()
        expect(status).to_have_text(status_text(expected.time, expected.cycle, expected.cursor))
        page.wait_for_selector(DONE)
        expect(page).to_have_url(re.compile(rf"[?&]step={expected.cursor}\b"))
