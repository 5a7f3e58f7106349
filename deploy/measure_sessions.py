"""The measurement behind the resource requests/limits in deploy/kubernetes/: server RSS and CPU.

Starts ``streamlit run app.py`` on 127.0.0.1 (the container's flags), then drives real Chromium
sessions with Playwright: first one session, then (on a fresh server) five at once, each on a
different sample cluster. Each session steps the cursor, runs to idle and opens every page.
The server's RSS and CPU are read from /proc every 0.2 s; the script prints baseline RSS, peak
RSS, RSS with the sessions still open, CPU seconds used and the peak CPU over 1 s windows.
It stops by itself (bounded by a deadline). The full load test (10 and 30 sessions for 3 minutes)
is ``benchmarks/load_sessions.py``; this is only the sizing sample.

Usage (repository root): ``python deploy/measure_sessions.py``
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _free_port, _healthy  # noqa: E402

DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'
ONE = ("default.yaml",)
FIVE = ("default.yaml", "affinity.yaml", "preemption.yaml", "spread.yaml", "taints.yaml")
TICK = os.sysconf("SC_CLK_TCK")
DEADLINE_S = 600


class Sampler(threading.Thread):
    """RSS (MiB) and CPU seconds of one process, sampled every ``period`` seconds."""

    def __init__(self, pid: int, period: float = 0.2):
        super().__init__(daemon=True)
        self.pid, self.period, self.samples, self.stopped = pid, period, [], threading.Event()

    def read(self) -> tuple[float, float, float]:
        with open(f"/proc/{self.pid}/status") as f:
            rss_kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return time.monotonic(), rss_kib / 1024, (int(fields[11]) + int(fields[12])) / TICK

    def run(self) -> None:
        while not self.stopped.is_set():
            self.samples.append(self.read())
            self.stopped.wait(self.period)

    def peak_cpu(self, since: float, window: float = 1.0) -> float:
        """The highest CPU use (cores) over any ``window`` seconds after ``since``."""
        rows = [s for s in self.samples if s[0] >= since]
        best = 0.0
        for i, (t0, _, c0) in enumerate(rows):
            later = [r for r in rows[i:] if r[0] - t0 >= window]
            if later:
                best = max(best, (later[0][2] - c0) / (later[0][0] - t0))
        return best


async def settle(page) -> None:
    try:
        await page.wait_for_selector(RUNNING, timeout=1500)
    except Exception:  # the rerun was over before we looked
        pass
    await page.wait_for_selector(DONE, timeout=120_000)


async def walk(browser, url: str, cluster: str):
    """One learner: open ``cluster``, step by pod three times, run to idle, open every page.

    Returns the browser context, still open (its session stays alive on the server).
    """
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await ctx.new_page()
    await page.goto(f"{url}/?cluster={cluster}")
    await page.wait_for_selector(DONE, timeout=120_000)
    sidebar = page.locator('[data-testid="stSidebar"]')
    for _ in range(3):
        await sidebar.locator(".st-key-next_pod button").first.click()
        await settle(page)
    await sidebar.locator(".st-key-run_to_idle button").first.click()
    await settle(page)
    links = page.locator('[data-testid="stSidebarNav"] a')
    for i in range(await links.count()):
        await links.nth(i).click()
        await settle(page)
    return ctx


async def drive(url: str, clusters: tuple[str, ...]) -> list:
    from playwright.async_api import async_playwright
    p = await async_playwright().start()
    browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    contexts = await asyncio.gather(*(walk(browser, url, c) for c in clusters))
    await asyncio.sleep(3)  # sessions still open: let the server settle
    return [p, browser, contexts]


def start_server() -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not _healthy(url):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("streamlit did not start")
        time.sleep(0.2)
    urllib.request.urlopen(f"{url}/", timeout=5).read()  # the static index, as a browser would
    return proc, url


def measure(clusters: tuple[str, ...]) -> dict[str, float]:
    proc, url = start_server()
    sampler = Sampler(proc.pid)
    try:
        time.sleep(2)
        _, base_rss, base_cpu = sampler.read()
        sampler.start()
        t0 = time.monotonic()
        loop = asyncio.new_event_loop()
        held = loop.run_until_complete(asyncio.wait_for(drive(url, clusters), DEADLINE_S))
        _, open_rss, cpu = sampler.read()
        wall = time.monotonic() - t0
        p, browser, contexts = held
        loop.run_until_complete(browser.close())
        loop.run_until_complete(p.stop())
        loop.close()
    finally:
        sampler.stopped.set()
        proc.terminate()
        proc.wait(timeout=15)
    return {"sessions": len(clusters), "baseline_rss_mib": base_rss,
            "peak_rss_mib": max(s[1] for s in sampler.samples), "open_rss_mib": open_rss,
            "cpu_s": cpu - base_cpu, "wall_s": wall, "peak_cpu_cores": sampler.peak_cpu(t0)}


def main() -> None:
    for clusters in (ONE, FIVE):
        m = measure(clusters)
        print(f"{m['sessions']} session(s) {', '.join(clusters)}: baseline RSS {m['baseline_rss_mib']:.0f} MiB, "
              f"peak RSS {m['peak_rss_mib']:.0f} MiB, RSS with sessions open {m['open_rss_mib']:.0f} MiB, "
              f"CPU {m['cpu_s']:.1f} s over {m['wall_s']:.1f} s wall, peak {m['peak_cpu_cores']:.2f} cores (1 s)",
              flush=True)


if __name__ == "__main__":
    main()
