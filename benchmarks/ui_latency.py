"""How fast the dashboard answers a click, in a real Chromium, as ratios against a bare Streamlit rerun.

Starts two Streamlit servers on loopback: a bare app (one button, one ``st.write``) and ``app.py``.
Every figure is the median of ``--clicks`` clicks (at least 10), timed from the click until the
page has settled: the script run is over, the status line shows the new cursor, and the browser
has painted two frames. Printed, with the issue-16 targets:

- ▶ event and ▶ pod on default.yaml (Schedule page) ÷ the bare rerun (target ≤ 1.5×), at a
  presenter's pace: the first click comes more than ``fragments.SETTLE_S`` after the page opened, so
  every step reruns only the stepper and the views; also ▶ event clicked at once after the page
  opened and again as soon as it settled, when each click reruns the whole app (``fragments``: a step
  within ``SETTLE_S`` of a full run's end is one, or the browser may lose the page), and ▶ event inside
  the run (after the ▶ pods), where most events change the page's charts;
- ▶ pod on a generated 1000-node cluster (Schedule page) ÷ ▶ pod on default.yaml (≤ 3×);
- opening the Cluster page on 1000 nodes ÷ opening it on default.yaml (≤ 3×);
- first page interactive on a warm server: a new browser tab until the stepper answers (≤ 3 s).

``--phases`` also prints where a step's time goes (medians, ms after the click): the browser hears
the script run start, the run end, the last change to the page, the page settled. The gap from
the run's start to its end is the server's script run plus the browser applying each element it
sends; the gap after it is the browser drawing.

Run from the repository root: ``python benchmarks/ui_latency.py`` (``--clicks 10 --nodes 1000``).
Needs /usr/bin/chromium. Figures move with the machine's load; the ratios are measured in one run.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
from bench_load import cluster_yaml

from kubesched.ui.fragments import SETTLE_S

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
STATUS = ".st-key-stepper_status"
BARE_APP = """\
import streamlit as st
st.button("rerun", key="go")
st.write(st.session_state.setdefault("n", 0))
st.session_state["n"] += 1
"""
TARGETS = {"event": 1.5, "pod": 1.5, "large_pod": 3.0, "large_cluster": 3.0, "first_load": 3.0}


class ServerDidNotStart(RuntimeError):
    pass


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(script: Path, log: Any = subprocess.DEVNULL) -> Iterator[str]:
    """``streamlit run script`` on a free loopback port (output to ``log``); yields the URL, stops the
    server after. The browser tests use it too (tests/browser/conftest.py)."""
    with serve_process(script, log) as (url, _proc):
        yield url


@contextlib.contextmanager
def serve_process(script: Path, log: Any = subprocess.DEVNULL, options: Sequence[str] = (),
                  ) -> Iterator[tuple[str, subprocess.Popen]]:
    """``serve`` with more ``streamlit run`` options; yields the URL and the server process
    (benchmarks/session_memory.py reads its RSS)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true", "--server.port",
         str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none", *options], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise ServerDidNotStart(f"streamlit did not start for {script}")
            time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def settle(page: Page) -> None:
    """Wait until the script run is over and the browser painted two frames after it."""
    page.wait_for_selector(IDLE, timeout=600_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def timed(action: Callable[[], None], done: Callable[[], None]) -> float:
    start = time.perf_counter()
    action()
    done()
    return time.perf_counter() - start


def click_until_changed(page: Page, selector: str, watch: str) -> float:
    """Seconds from clicking ``selector`` until the text of ``watch`` changed and the page settled."""
    page.wait_for_selector(IDLE)
    before = page.locator(watch).first.inner_text()

    def done() -> None:
        page.wait_for_function("([sel, text]) => { const e = document.querySelector(sel);"
                               " return e && e.innerText !== text; }", arg=[watch, before], timeout=600_000)
        settle(page)

    return timed(lambda: page.locator(selector).first.click(), done)


def open_page(page: Page, name: str) -> float:
    """Seconds from clicking the sidebar link to page ``name`` ("" for Home) until it settled."""
    page.wait_for_selector(IDLE)

    def done() -> None:
        page.wait_for_url(lambda url: urllib.parse.urlsplit(url).path.rstrip("/").endswith(f"/{name}".rstrip("/")),
                          timeout=600_000)
        settle(page)

    return timed(lambda: page.locator(f'[data-testid="stSidebarNav"] a[href$="/{name}"]').first.click(), done)


PHASES = ("run started", "run ended", "last change", "settled")
_OBSERVE_JS = """() => { window.__ks = {states: [], last: 0}; const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(ms => { for (const m of ms) {
    if (m.attributeName === 'data-test-script-state')
      window.__ks.states.push([app.getAttribute('data-test-script-state'), performance.now()]);
    else window.__ks.last = performance.now(); } })
  .observe(app, {attributes: true, subtree: true, childList: true, characterData: true}); }"""


def phase_times(page: Page, selector: str) -> tuple[float, ...]:
    """One click on ``selector``: ms after it until each of ``PHASES`` (an observer must be attached)."""
    page.wait_for_selector(IDLE)
    page.evaluate("() => { window.__ks.states = []; window.__ks.last = 0; }")
    start = page.evaluate("() => performance.now()")
    page.locator(selector).first.click()
    page.wait_for_function("() => window.__ks.states.some(s => s[0] === 'notRunning')", timeout=600_000)
    settle(page)
    states, last, settled = page.evaluate("() => [window.__ks.states, window.__ks.last, performance.now()]")
    began = next((at for state, at in states if state == "running"), start)
    ended = [at for state, at in states if state == "notRunning"][-1]
    return tuple(at - start for at in (began, ended, max(last, ended), settled))


def phase_breakdown(ctx: Any, url: str, unit: str, clicks: int) -> str:
    """``clicks`` steps by ``unit`` from the start of the run, in a new tab (a session of its own)."""
    page = ctx.new_page()
    page.goto(url)
    settle(page)
    pause_after_page_run(page)
    page.evaluate(_OBSERVE_JS)
    rows = [phase_times(page, f".st-key-next_{unit} button") for _ in range(clicks)]
    page.close()
    medians = [median(list(column)) for column in zip(*rows)]
    return f"▶ {unit}: " + " · ".join(f"{name} {ms:.0f}" for name, ms in zip(PHASES, medians))


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def steps(page: Page, unit: str, clicks: int) -> list[float]:
    return [click_until_changed(page, f".st-key-next_{unit} button", STATUS) for _ in range(clicks)]


def pause_after_page_run(page: Page) -> None:
    """Wait out ``SETTLE_S`` after the page's full run, as a presenter does before the first ▶."""
    page.wait_for_timeout(int((SETTLE_S + 0.2) * 1000))


def page_switches(page: Page, name: str, clicks: int) -> list[float]:
    """Open ``name`` ``clicks`` times, going back to Home in between (not timed)."""
    samples = []
    for _ in range(clicks):
        open_page(page, "")
        samples.append(open_page(page, name))
    return samples


def upload(page: Page, text: str, name: str) -> None:
    open_page(page, "")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/x-yaml", "buffer": text.encode()}])
    page.get_by_text(name).first.wait_for(timeout=600_000)
    settle(page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=10, help="clicks per figure (at least 10)")
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--pods", type=int, default=30)
    parser.add_argument("--phases", action="store_true", help="also print where a step's time goes")
    args = parser.parse_args()
    clicks = max(10, args.clicks)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        bare_script = Path(tmp) / "bare.py"
        bare_script.write_text(BARE_APP)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with serve(bare_script) as bare_url, serve(ROOT / "app.py") as url:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            page.goto(bare_url)
            settle(page)
            bare = [click_until_changed(page, ".st-key-go button", '[data-testid="stMarkdown"]')
                    for _ in range(clicks)]
            page.goto(f"{url}/schedule?cluster=default.yaml")
            settle(page)
            event_at_once = steps(page, "event", clicks)
            pause_after_page_run(page)
            event = steps(page, "event", clicks)
            pod = steps(page, "pod", clicks)
            event_mid = steps(page, "event", clicks)
            phases = [phase_breakdown(ctx, f"{url}/schedule?cluster=default.yaml", unit, clicks)
                      for unit in ("event", "pod")] if args.phases else []
            cluster_small = page_switches(page, "cluster", clicks)
            first = []
            for _ in range(clicks):
                tab = ctx.new_page()
                first.append(timed(lambda tab=tab: tab.goto(url), lambda tab=tab: (
                    tab.locator(".st-key-next_event button").first.wait_for(), settle(tab))))
                tab.close()
            upload(page, cluster_yaml(args.nodes, args.pods), f"generated-{args.nodes}.yaml")
            open_page(page, "schedule")
            pause_after_page_run(page)
            large_pod = steps(page, "pod", clicks)
            cluster_large = page_switches(page, "cluster", clicks)
            ctx.close()
        browser.close()
    results = {"bare": median(bare), "event": median(event), "event_at_once": median(event_at_once),
               "event_mid": median(event_mid), "pod": median(pod),
               "cluster_small": median(cluster_small), "large_pod": median(large_pod),
               "large_cluster": median(cluster_large), "first_load": median(first)}
    report(results, clicks, args.nodes)
    for line in phases:
        print(f"{line} (medians, ms after the click)")


def report(r: dict[str, float], clicks: int, nodes: int) -> None:
    def line(label: str, ratio: float, unit: str, target: float) -> str:
        verdict = "met" if ratio <= target else "NOT met"
        return f"{label:<46} {ratio:6.2f}{unit}  (target ≤ {target:g}{unit}: {verdict})"

    print(f"medians of {clicks} clicks, seconds: bare rerun {r['bare']:.3f} · ▶ event {r['event']:.3f} · "
          f"▶ pod {r['pod']:.3f} · Cluster page {r['cluster_small']:.3f} · {nodes} nodes: ▶ pod "
          f"{r['large_pod']:.3f}, Cluster page {r['large_cluster']:.3f} · first load {r['first_load']:.3f}")
    print(line("▶ event, default.yaml ÷ bare rerun", r["event"] / r["bare"], "×", TARGETS["event"]))
    print(line("  clicked at once after the page opened", r["event_at_once"] / r["bare"], "×", TARGETS["event"]))
    print(line("  inside the run, after the ▶ pods", r["event_mid"] / r["bare"], "×", TARGETS["event"]))
    print(line("▶ pod, default.yaml ÷ bare rerun", r["pod"] / r["bare"], "×", TARGETS["pod"]))
    print(line(f"▶ pod, {nodes} nodes ÷ default.yaml", r["large_pod"] / r["pod"], "×", TARGETS["large_pod"]))
    print(line(f"Cluster page, {nodes} nodes ÷ default.yaml", r["large_cluster"] / r["cluster_small"], "×",
               TARGETS["large_cluster"]))
    print(line("first page interactive, warm server", r["first_load"], " s", TARGETS["first_load"]))


if __name__ == "__main__":
    main()
