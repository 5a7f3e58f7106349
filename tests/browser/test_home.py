"""The dashboard in a real Chromium: it opens on the default cluster and ▶ steps the cursor."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kubesched.sim.simulation import Simulation
from kubesched.ui.session import SAMPLE_DIR

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
STATUS = re.compile(r"t = (\S+) s · cycle (\d+) · step (\d+)/(\d+)")


@pytest.fixture
def shot_on_failure(page, request):
    """The page; a full-page screenshot lands in artifacts/ when the test body raises."""
    try:
        yield page
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        raise


def _status(page) -> tuple[str, int, int]:
    text = page.get_by_text(STATUS).first.inner_text()
    time, cycle, cursor, _total = STATUS.search(text).groups()
    return time, int(cycle), int(cursor)


def test_step_forward_with_the_next_pod_button(shot_on_failure):
    page = shot_on_failure
    expected = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    expected.step("pod")
    expect(page.get_by_role("heading", name="kubesched — kube-scheduler v1.18.5, step by step")).to_be_visible()
    assert _status(page) == ("0", 0, 0)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator(".st-key-next_pod button").first.click()
    expect(page.get_by_text(re.compile(rf"step {expected.cursor}/"))).to_be_visible()
    assert _status(page) == (f"{expected.time:g}", expected.cycle, expected.cursor)
    assert f"step={expected.cursor}" in page.url
