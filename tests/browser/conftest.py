"""Real-browser fixtures: a Streamlit server and Debian's Chromium driven by Playwright.

Without /usr/bin/chromium the browser tests are skipped with the reason printed, except
under CI (CI=true), where they fail.
"""

import contextlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
sys.path.insert(0, str(ROOT / "benchmarks"))
from ui_latency import (  # the benchmark's own server helper
    CHROMIUM_ARGS,
    ServerDidNotStart,
    serve,
)
from ui_latency import free_port as _free_port  # noqa: F401  (tests/browser/test_deploy_healthcheck.py)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def chromium():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} missing (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright
    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def st_server(chromium, tmp_path_factory):
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    with open(log_path, "w") as log:
        try:
            with serve(ROOT / "app.py", log=log) as url:
                yield url
        except ServerDidNotStart as err:
            pytest.fail(f"{err}:\n{log_path.read_text()}")


@contextlib.contextmanager
def screenshot_on_failure(page, name: str):
    """Run a test body; on any failure save a full-page screenshot under artifacts/ and re-raise."""
    try:
        yield
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        raise


@pytest.fixture
def page(chromium, st_server):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.goto(st_server)
    # the first script run of a fresh server imports the engine: allow for a busy machine
    pg.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=120_000)
    yield pg
    ctx.close()
