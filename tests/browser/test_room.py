"""The dashboard in the room, in a real Chromium: presenter mode, the shortcut sheet, autoplay by pod,
Back/Forward, ``?lang=``, links to edited runs, a reload that keeps the draft and the run, the Lessons
page's own cursor, the YAML editor, glyphs without an emoji font, and charts that fit at 1024–1440 px.

Expected cursors come from a Simulation run the same way in the test process.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kubesched.sim.simulation import Simulation
from kubesched.ui import charts, presenter
from kubesched.ui.i18n import t
from kubesched.ui.session import SAMPLE_DIR
from tests.browser.conftest import screenshot_on_failure

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_load import cluster_yaml

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
STATUS = ".st-key-stepper_status"
ERRORS = '[data-testid="stException"]'
# Glyphs the dashboard may show: Source Sans (the font Streamlit ships) has every one of them.
SOURCE_SANS_SYMBOLS = set("▶◀✓✗►◄▸✔●○◆■□▲▼‖◉→←↑↓·–—…×≠≤≥±∅−")
SYMBOL_RANGES = ((0x2190, 0x2BFF), (0x1F000, 0x1FAFF))


@pytest.fixture
def browser_context(chromium):
    contexts = []

    def make(width: int = 1280, height: int = 720, scheme: str = "light"):
        ctx = chromium.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        return pg

    yield make
    for ctx in contexts:
        ctx.close()


def settle(page) -> None:
    page.wait_for_selector(IDLE, timeout=120_000)
    page.wait_for_timeout(250)
    page.wait_for_selector(IDLE, timeout=120_000)


def open_url(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(STATUS + ", .st-key-lesson_pick", timeout=120_000)
    settle(page)


def status_step(page) -> int:
    text = page.locator(STATUS).first.inner_text()
    return int(re.search(r"step (\d+)/", text).group(1))


def click(page, key: str) -> None:
    settle(page)
    page.locator(f".st-key-{key} button").first.click()
    settle(page)


def open_editor(page, st_server: str):
    """The Cluster page's YAML tab; returns the editor's text area."""
    open_url(page, f"{st_server}/cluster")
    page.get_by_role("tab", name=t("cluster.tab_yaml", "en")).click()
    settle(page)
    return page.locator(".st-key-cluster_editor textarea")


def upload(page, name: str, nodes: int, pods: int) -> None:
    """Upload a generated cluster on Home (``bench_load.cluster_yaml``)."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/x-yaml", "buffer": cluster_yaml(nodes, pods).encode()}])


def expected_positions(name: str, unit: str, n: int) -> list[int]:
    sim = Simulation.from_yaml(SAMPLE_DIR / name, seed=0)
    return [sim.step(unit) for _ in range(n)]


# -- presenter mode -------------------------------------------------------------------------------
def test_presenter_mode_bar_type_sidebar_and_sheet(browser_context, st_server):
    page = browser_context(1280, 720)
    with screenshot_on_failure(page, "room_presenter"):
        open_url(page, f"{st_server}/schedule?present=1&step=238")
        expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
        bar = page.locator(f".st-key-{presenter.BAR_KEY}")
        expect(bar.locator(".st-key-next_pod button").first).to_be_visible()
        expect(bar.locator(STATUS)).to_contain_text("step 238/")
        header = page.locator('[data-testid="stHeader"]').bounding_box()
        page.locator('[data-testid="stMain"]').evaluate("m => m.scrollBy(0, 1400)")
        page.wait_for_timeout(300)
        box = bar.bounding_box()
        assert abs(box["y"] - header["height"]) <= 2, (box, header)          # stuck under the header
        assert bar.evaluate("e => getComputedStyle(e.parentElement).position") == "sticky"
        sizes = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot svg text')]
            .filter(t => t.textContent.trim()).map(t => parseFloat(getComputedStyle(t).fontSize))""")
        assert sizes and min(sizes) >= charts.PRESENTER_FONT
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == f"{presenter.ROOT_FONT_PX}px"
        page.wait_for_selector('[data-testid="stMain"] [data-testid="stDataFrame"] canvas')
        grid_font = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"] *')]
            .map(e => getComputedStyle(e).getPropertyValue('--gdg-base-font-style')).find(v => v)""")
        assert float(re.search(r"([\d.]+)px", grid_font).group(1)) >= 15, grid_font    # table text
        page.keyboard.press("?")
        expect(page.get_by_text(t("presenter.sheet", "en")).first).to_be_visible()
        expect(page.locator('[data-testid="stTable"]').get_by_text("Shift+Down")).to_be_visible()
        page.keyboard.press("?")                                             # ? again closes it
        expect(page.get_by_text(t("presenter.sheet", "en"))).to_have_count(0)
        assert page.locator(ERRORS).count() == 0


def test_leaving_presenter_mode(browser_context, st_server):
    page = browser_context(1280, 720)
    with screenshot_on_failure(page, "room_presenter_off"):
        open_url(page, f"{st_server}/schedule?present=1")
        switch = page.locator(f".st-key-{presenter.BAR_KEY} .st-key-present_toggle_1 input").first
        expect(switch).to_be_checked()
        track = page.locator(f".st-key-{presenter.BAR_KEY} .st-key-present_toggle_1 label").first
        track.click(position={"x": 12, "y": 10})    # on the switch itself (waits until it is drawn)
        expect(page).not_to_have_url(re.compile(r"present=1"))
        settle(page)
        expect(page.locator(f".st-key-{presenter.BAR_KEY}")).to_have_count(0)
        expect(page.locator('[data-testid="stSidebar"] .st-key-next_pod button').first).to_be_visible()


def test_autoplay_by_pod(browser_context, st_server):
    pods = expected_positions("default.yaml", "pod", 2)
    page = browser_context(1280, 720)
    with screenshot_on_failure(page, "room_autoplay"):
        open_url(page, f"{st_server}/?present=1")
        bar = page.locator(f".st-key-{presenter.BAR_KEY}")
        bar.locator(".st-key-play_unit").click()
        page.get_by_role("option", name=t("stepper.unit_pod", "en"), exact=True).click()
        settle(page)
        bar.locator(".st-key-play_speed").click()
        page.get_by_role("option", name="0.5 s", exact=True).click()
        settle(page)
        click(page, "play")
        expect(bar.locator(STATUS)).to_contain_text(f"step {pods[1]}/", timeout=60_000)
        click(page, "play")                                       # pause
        assert status_step(page) in (pods[1], *expected_positions("default.yaml", "pod", 4)[2:])


# -- URL state ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("gap_ms", [0, 150])
def test_a_step_clicked_while_a_page_loads_keeps_the_page(browser_context, st_server, gap_ms):
    """▶ clicked while the Schedule page's full run is still under way (or just after it, when the
    browser has not yet pruned that run): each click moves the cursor once, the page keeps drawing
    (no "Bad delta path" blank page), rounds after rounds."""
    page = browser_context()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    rounds = 4
    positions = expected_positions("default.yaml", "event", rounds)
    with screenshot_on_failure(page, f"room_step_while_loading_{gap_ms}"):
        open_url(page, f"{st_server}/schedule")
        for k in range(rounds):
            page.locator('[data-testid="stSidebarNav"] a[href$="/cluster"]').click()
            settle(page)
            page.locator('[data-testid="stSidebarNav"] a[href$="/schedule"]').click()
            page.wait_for_timeout(gap_ms)
            page.locator(".st-key-next_event button").first.click()
            expect(page.locator(STATUS).first).to_contain_text(f"step {positions[k]}/", timeout=60_000)
            settle(page)
            assert errors == []
            expect(page.locator('[data-testid="stMain"] h1').first).to_have_text(t("schedule.title", "en"))
            assert page.locator(ERRORS).count() == 0
            assert page.locator('[data-testid="stMain"] [data-testid="stElementContainer"]').count() >= 5


@pytest.mark.parametrize("gap_ms", [0, 60])
def test_quick_clicks_on_next_move_once_each(browser_context, st_server, gap_ms):
    """▶ pressed several times faster than a rerun: every click counts (the slider value a click
    carries, read before the last step drew, is not taken for a drag back)."""
    clicks = 5
    page = browser_context()
    with screenshot_on_failure(page, f"room_quick_clicks_{gap_ms}"):
        open_url(page, f"{st_server}/schedule")
        for _ in range(clicks):
            page.locator(".st-key-next_event button").first.click()
            page.wait_for_timeout(gap_ms)
        settle(page)
        page.wait_for_timeout(500)
        settle(page)
        assert status_step(page) == expected_positions("default.yaml", "event", clicks)[-1]


def test_back_and_forward_restore_the_step(browser_context, st_server):
    first, second = expected_positions("default.yaml", "pod", 2)
    page = browser_context()
    with screenshot_on_failure(page, "room_history"):
        open_url(page, f"{st_server}/schedule")
        click(page, "next_pod")
        click(page, "next_pod")
        assert status_step(page) == second
        page.go_back()
        expect(page.locator(STATUS).first).to_contain_text(f"step {first}/")
        expect(page).to_have_url(re.compile(rf"step={first}\b"))
        page.go_forward()
        expect(page.locator(STATUS).first).to_contain_text(f"step {second}/")


def test_lang_survives_a_reload(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_lang"):
        open_url(page, st_server)
        page.locator('[data-testid="stSidebar"] .st-key-lang').get_by_text("中文").click()
        settle(page)
        expect(page).to_have_url(re.compile(r"lang=zh"))
        page.reload()
        settle(page)
        expect(page.get_by_role("heading", name=t("home.title", "zh"))).to_be_visible()


def test_a_two_replica_run_is_reproduced_by_its_link(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_link"):
        open_url(page, f"{st_server}/startup")
        click(page, "startup_reload")
        expect(page.get_by_text(t("startup.replicas", "en", n=2), exact=True)).to_be_visible()
        expect(page).to_have_url(re.compile(r"scenario="))
        assert "cluster=" not in page.url
        step = status_step(page)
        other = browser_context()
        open_url(other, page.url)
        expect(other.get_by_text(t("startup.replicas", "en", n=2), exact=True)).to_be_visible()
        assert status_step(other) == step


def test_a_reload_keeps_the_draft_and_a_big_run(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_reload"):
        editor = open_editor(page, st_server)
        draft = editor.input_value() + "\n# my unsaved note\n"
        editor.fill(draft)
        page.get_by_role("heading", name=t("cluster.title", "en")).click()        # blur: the draft is kept
        settle(page)
        page.reload()
        settle(page)
        page.get_by_role("tab", name=t("cluster.tab_yaml", "en")).click()
        settle(page)
        expect(page.locator(".st-key-cluster_editor textarea")).to_have_value(draft)
        expect(page.get_by_text(t("cluster.draft", "en"))).to_be_visible()
        # a run too big for the URL comes back from this browser, not in another one
        page.goto(st_server)
        settle(page)
        upload(page, "big.yaml", 1500, 2)
        expect(page.get_by_text(t("persist.too_big", "en"))).to_be_visible(timeout=120_000)
        expect(page).to_have_url(re.compile(r"run=[0-9a-f]{16}"))
        click(page, "next_pod")
        step = status_step(page)
        url = page.url
        page.reload()
        settle(page)
        expect(page.locator('[data-testid="stSidebar"]').get_by_text("big.yaml")).to_be_visible(timeout=120_000)
        expect(page.locator(STATUS).first).to_contain_text(f"step {step}/")
        other = browser_context()
        open_url(other, url)
        expect(other.get_by_text(t("persist.lost", "en"))).to_be_visible()


# -- Lessons --------------------------------------------------------------------------------------------
def test_the_right_arrow_continues_the_lesson_and_moves_its_cursor(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_lesson"):
        open_url(page, f"{st_server}/lessons?lesson=01-first-pod&lstep=1")
        expect(page.locator(".st-key-lesson_continue button")).to_be_visible(timeout=120_000)
        assert page.locator('[data-testid="stSidebar"] .st-key-next_event').count() == 0
        before = page.locator(STATUS).first.inner_text()
        page.mouse.click(640, 700)                               # focus the page, not a widget
        page.keyboard.press("ArrowRight")
        expect(page).to_have_url(re.compile(r"lstep=2\b"))
        settle(page)
        assert page.locator(STATUS).first.inner_text() != before


# -- details a teacher notices ----------------------------------------------------------------------------
def test_the_yaml_editor_is_monospace_with_line_numbers(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_editor"):
        area = open_editor(page, st_server)
        gutter = page.locator(".st-key-cluster_editor .kubesched-gutter")
        expect(gutter).to_be_attached()
        assert "Source Code Pro" in area.evaluate("e => getComputedStyle(e).fontFamily")
        lines = area.input_value().count("\n") + 1
        assert gutter.inner_text().split() == [str(i) for i in range(1, lines + 1)]
        area.press("Control+End")
        area.type("\n# one\n# two")
        page.wait_for_timeout(300)
        assert gutter.inner_text().split()[-1] == str(lines + 2)


def test_only_png_download_on_the_chart_toolbar(browser_context, st_server):
    page = browser_context()
    open_url(page, f"{st_server}/queues")
    chart = page.locator(".st-key-queues_counts .js-plotly-plot").first
    chart.hover()
    buttons = chart.locator(".modebar-btn")
    expect(buttons).to_have_count(1)
    assert buttons.first.get_attribute("data-title") == "Download plot as a PNG"


def _upload_slow(page, st_server) -> None:
    open_url(page, st_server)
    # 2,400 nodes x 100 pods (under the dashboard's 250,000 pairs): running it to idle takes well over
    # the spinner's 0.5 s delay even on an idle machine (about 1.3 s there), and more than one slice.
    upload(page, "slow.yaml", 2400, 100)
    expect(page.get_by_text("slow.yaml").first).to_be_visible(timeout=180_000)
    settle(page)


def test_a_slow_run_to_idle_computes_in_slices_with_progress(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_computing"):
        _upload_slow(page, st_server)
        # a status shown for less than a poll interval still counts: watch the DOM from before the click
        page.evaluate("""texts => { window.__computing = false;
            new MutationObserver(() => { const body = document.body.innerText;
                if (texts.some(t => body.includes(t))) window.__computing = true; })
              .observe(document.body, {subtree: true, childList: true, characterData: true}); }""",
                      [t("app.computing", "en"), t("stepper.computing_run", "en").split("…")[0]])
        page.locator(".st-key-run_to_idle button").first.click()
        page.wait_for_function("() => window.__computing === true", timeout=120_000)
        # the end is the status at step N/N; the Stop button alone can leave the DOM for a moment while
        # its fragment redraws under load
        page.wait_for_function("""sel => { const m = document.querySelector(sel)?.innerText.match(/step (\\d+)\\/(\\d+)/);
                                          return !!m && m[1] === m[2] && Number(m[2]) > 1000; }""",
                               arg=STATUS, timeout=300_000)
        settle(page)
        shown = re.search(r"step (\d+)/(\d+)", page.locator(STATUS).first.inner_text())
        assert shown and shown[1] == shown[2] and int(shown[2]) > 1000
        expect(page.locator(".st-key-stop_run")).to_have_count(0)


def test_stop_computing_keeps_the_cursor(browser_context, st_server):
    page = browser_context()
    with screenshot_on_failure(page, "room_stop"):
        open_url(page, st_server)
        # 1 node x 1,000 pods: 890 never fit and are retried to the horizon, a run of many seconds
        upload(page, "long.yaml", 1, 1000)
        expect(page.get_by_text("long.yaml").first).to_be_visible(timeout=180_000)
        settle(page)
        page.locator(".st-key-run_to_idle button").first.click()
        page.locator(".st-key-stop_run button").click(timeout=120_000)
        page.locator(".st-key-stop_run").wait_for(state="detached", timeout=120_000)
        settle(page)
        assert re.search(r"step 0/", page.locator(STATUS).first.inner_text())


PAGES = ("", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration", "events")


def _symbols(page) -> set[str]:
    text = page.evaluate("""() => document.body.innerText + [...document.querySelectorAll('svg text')]
        .map(t => t.textContent).join(' ')""")
    return {ch for ch in text if any(lo <= ord(ch) <= hi for lo, hi in SYMBOL_RANGES)}


def _clipped_ticks(page) -> list[str]:
    """Tick labels of every chart that stick out of their chart, and phase labels drawn rotated."""
    return page.evaluate("""() => {
        const bad = [];
        for (const plot of document.querySelectorAll('.js-plotly-plot')) {
            const svg = plot.querySelector('svg.main-svg').getBoundingClientRect();
            for (const tick of plot.querySelectorAll('g.xtick text, g.ytick text')) {
                const r = tick.getBoundingClientRect();
                if (!tick.textContent.trim() || r.width === 0) continue;
                if (r.left < svg.left - 1 || r.right > svg.right + 1 || r.top < svg.top - 1 || r.bottom > svg.bottom + 1)
                    bad.push(tick.textContent);
            }
        }
        for (const text of document.querySelectorAll('.st-key-schedule_timeline g.textpoint text'))
            if ((text.getAttribute('transform') || '').includes('rotate')) bad.push('rotated ' + text.textContent);
        return bad; }""")


@pytest.mark.parametrize("width, scheme", [(1024, "light"), (1280, "dark"), (1440, "light")])
def test_every_page_fits_its_charts_and_needs_no_emoji_font(browser_context, st_server, width, scheme):
    page = browser_context(width, 900, scheme)
    for name in PAGES:
        cluster = "preemption.yaml" if name == "preemption" else "default.yaml"
        step = 330 if name == "preemption" else 238
        with screenshot_on_failure(page, f"room_fit_{name or 'home'}_{width}"):
            open_url(page, f"{st_server}/{name}?cluster={cluster}&step={step}")
            page.wait_for_timeout(500)
            assert page.locator(ERRORS).count() == 0, name
            assert _symbols(page) <= SOURCE_SANS_SYMBOLS, (name, _symbols(page) - SOURCE_SANS_SYMBOLS)
            assert _clipped_ticks(page) == [], (name, width)
            if scheme == "dark" and page.locator(".js-plotly-plot").count():
                paper = page.locator(".js-plotly-plot .main-svg").first.evaluate("e => e.style.background")
                assert paper.replace(" ", "") == "rgb(23,22,20)", (name, paper)
