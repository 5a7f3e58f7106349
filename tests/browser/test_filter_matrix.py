"""The Filter matrix in a real Chromium, and every page of the navigation without a Streamlit error.

Steps the default cluster with the sidebar's ▶ phase button until the first Filter phase has
ended, opens *Schedule one pod* and reads the ✓ / ✗ / · cells plotly.js drew (SVG text, placed by
row and column), compared with the matrix built from a Simulation run the same way.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from kubesched.sim.simulation import Simulation
from kubesched.trace import Kind
from kubesched.ui import theme
from kubesched.ui.figures import schedule as sfig
from kubesched.ui.i18n import t
from kubesched.ui.session import SAMPLE_DIR
from tests.browser.conftest import screenshot_on_failure

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
MATRIX = ".st-key-schedule_matrix .js-plotly-plot"
ERRORS = '[data-testid="stException"], [data-testid="stAlertContentError"]'
GLYPH = {code: glyph for code, (glyph, _) in theme.FILTER_OUTCOMES.items()}


def _phase_positions_to_first_filter_end() -> tuple[list[int], Simulation]:
    """The cursor after each ▶ phase click, until the first Filter PHASE_END is visible."""
    sim = Simulation.from_yaml(SAMPLE_DIR / "default.yaml", seed=0)
    positions = []
    while True:
        positions.append(sim.step("phase"))
        last = sim.trace[sim.cursor - 1]
        if last.kind is Kind.PHASE_END and last.data.phase == "Filter":
            return positions, sim
        assert len(positions) < 50, "no Filter phase in the default cluster"


def _drawn_cells(page) -> tuple[list[str], list[str], list[list[str]]]:
    """(row labels top→bottom, column labels left→right, cell glyphs) as plotly.js drew them.

    Tick labels give the order of rows and columns (the column labels are rotated, so their boxes
    are not above their cells); the cells are placed by their own centres.
    """
    return page.evaluate("""() => {
        const plot = document.querySelector('.st-key-schedule_matrix .js-plotly-plot');
        const box = t => { const r = t.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
        const ticks = sel => [...plot.querySelectorAll(sel)].map(t => [box(t), t.textContent]);
        const ys = ticks('g.ytick text').sort((a, b) => a[0][1] - b[0][1]);
        const xs = ticks('g.xtick text').sort((a, b) => a[0][0] - b[0][0]);
        const cells = [...plot.querySelectorAll('g.heatmaplayer text, g.hm text, text')]
            .filter(t => ['✓', '✗', '·', '–'].includes(t.textContent)).map(t => [box(t), t.textContent]);
        // every cell holds a glyph, so the distinct cell centres are the columns and the rows
        const groups = k => cells.map(c => c[0][k]).sort((a, b) => a - b)
            .reduce((g, v) => (g.length && v - g[g.length - 1] < 4 ? g : [...g, v]), []);
        const index = (v, g) => g.filter(start => start <= v + 0.001).length - 1;
        const cols = groups(0), lines = groups(1);
        const grid = lines.map(() => cols.map(() => ''));
        for (const [[x, y], glyph] of cells) { grid[index(y, lines)][index(x, cols)] = glyph; }
        return [ys.map(y => y[1]), xs.map(x => x[1]), grid];
    }""")


def test_filter_matrix_cells_after_stepping_to_the_first_filter_phase(page):
    positions, sim = _phase_positions_to_first_filter_end()
    cycle = sim.cycle
    records = sfig.cycle_records(sim.trace[:sim.cursor], cycle)
    start = next(r for r in records if r.kind is Kind.CYCLE_START)
    matrix = sfig.filter_matrix(records, sfig.profile_filters(sim.trace, start.profile))
    assert theme.FILTER_FAIL in {c for row in matrix.codes for c in row}  # the tainted GPU node
    with screenshot_on_failure(page, "test_filter_matrix_cells"):
        sidebar = page.locator('[data-testid="stSidebar"]')
        for position in positions:
            page.wait_for_selector(IDLE)  # a click during a script run can be lost under load
            sidebar.locator(".st-key-next_phase button").first.click()
            expect(page.get_by_text(re.compile(rf"step {position}/"))).to_be_visible()
        page.get_by_role("link", name=t("nav.schedule", "en")).click()
        page.wait_for_selector(IDLE)
        page.wait_for_selector(f"{MATRIX} g.heatmaplayer, {MATRIX} .hm")
        rows, columns, cells = _drawn_cells(page)
        assert rows == list(matrix.nodes)
        assert columns == list(matrix.plugins)
        assert cells == [[GLYPH[c] for c in row] for row in matrix.codes]
        assert cells[rows.index("zone-c-gpu-1")][columns.index("TaintToleration")] == "✗"
        assert page.locator(ERRORS).count() == 0


def test_every_page_renders_without_a_streamlit_error(page, st_server):
    with screenshot_on_failure(page, "test_every_page_renders"):
        page.goto(f"{st_server}/?cluster=preemption.yaml&step=119")
        page.wait_for_selector(IDLE)
        links = page.locator('[data-testid="stSidebarNav"] a')
        names = [links.nth(i).inner_text() for i in range(links.count())]
        assert t("nav.schedule", "en") in names and t("nav.preemption", "en") in names
        for name in names:
            page.get_by_role("link", name=name, exact=True).click()
            page.wait_for_selector(IDLE)
            page.wait_for_timeout(300)
            page.wait_for_selector(IDLE)
            errors = page.locator(ERRORS)
            if errors.count():
                pytest.fail(f"{name}: {errors.first.inner_text()[:500]}")
