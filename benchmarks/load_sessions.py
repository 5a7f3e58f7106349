"""A room on one server: N real browser sessions at once, each on its own cluster, checked for isolation.

Starts one Streamlit server (``app.py``) on 127.0.0.1 and drives N Chromium sessions against it
(Playwright, one Chromium process per learner, as in a room; N = 10 and 30 in the issue). Session ``i``
uploads its own cluster: a sample or lesson cluster (cycled) with a marker node ``sess-<i>`` put
first, so no two sessions run the same text. Then, for ``--duration`` seconds or ``--actions``
actions (whichever ends first, so the run stops by itself), each session repeats: ▶ event,
▶ pod, ◀ event, open the Cluster page (and every so often edit its YAML there: change the
marker's label and Apply), back to the Schedule page. One more learner (unless ``--no-heavy``)
uploads 2,400 nodes x 100 pods and runs it to idle again and again meanwhile: a huge run must not
stall the room (it is computed in slices).

Each session replays its own actions on a local ``Simulation`` of its text, as the dashboard does
(eager run to the end, cursor to 0, then ``step``/``step_back``), and after every action compares:

- the status line (``t = … · cycle … · step k/n``) with its own replay: a view showing another
  session's cursor or run, or not its own within ``CATCH_UP_S`` after the page settled, is a *leak*;
- the sidebar's cluster source (its own upload name) and, on the Cluster page, its own marker node
  with no other session's marker: another session's cluster is a *leak*;
- Streamlit exception boxes on the page, and tracebacks in the server log: *exceptions*.

Printed: sessions, actions, exceptions, leaks, step latency median and p95 (from click until the
status line shows the new cursor and the page settled) as ratios to a single session's (measured
first, alone, on the same server), and the server's RSS over time (baseline, after the sessions
loaded, at the end) with the cost of one session.

    .venv/bin/python benchmarks/load_sessions.py --sessions 10 --duration 180
    .venv/bin/python benchmarks/load_sessions.py --sessions 30 --duration 180

Needs /usr/bin/chromium. Exit status 1 when any exception or leak was seen.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
from bench_load import cluster_yaml
from session_memory import rss_mb
from ui_latency import CHROMIUM, CHROMIUM_ARGS, IDLE, STATUS, serve_process

from kubesched.sim.simulation import Simulation
from kubesched.ui.session import EAGER_LIMIT

SETTLED = """() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-stale="true"]')"""
STATUS_LINE = re.compile(r"t = (\S+) s · cycle (\d+) · step (\d+)/(\d+)")
MARKER = re.compile(r"\bsess-\d{3}\b")
# One browser per learner (pages of one browser beside each other stopped drawing: background
# tabs); none throttled in the background either, and every wait polls on a timer, not on frames.
BROWSER_ARGS = CHROMIUM_ARGS + ["--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                                "--disable-backgrounding-occluded-windows"]
POLL_MS = 100
TIMEOUT_MS = 240_000   # one action; longer counts as a failure of the room
UPLOAD_PAUSE_MS = 1000  # a learner's pause between seeing the uploader and dropping a file on it
CATCH_UP_S = 30        # how long a view may take to show the session's own state once the page settled
EDIT_EVERY = 4
ARRIVAL_GAP = 1.0       # seconds between two learners opening the dashboard
DOING: dict[str, str] = {}   # per learner, the action under way (named in its page errors)


def base_clusters() -> list[Path]:
    """The sample clusters, then the lesson clusters, in a fixed order."""
    samples = ROOT / "sample_clusters"
    return sorted(samples.glob("*.yaml")) + sorted((samples / "lessons").glob("*.yaml"))


def marker_node(i: int, edit: int) -> str:
    """A tainted node named after session ``i`` (no pod lands on it); ``edit`` counts YAML edits."""
    return (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: sess-{i:03d}\n"
            f"  labels: {{kubesched.io/session: \"{i:03d}\", kubesched.io/edit: \"{edit}\"}}\n"
            f"spec:\n  taints: [{{key: kubesched.io/session, value: \"{i:03d}\", effect: NoSchedule}}]\n"
            f"status:\n  capacity: {{cpu: \"1\", memory: 1Gi, pods: \"10\"}}\n---\n")


def session_text(i: int, edit: int = 0) -> str:
    bases = base_clusters()
    return marker_node(i, edit) + bases[i % len(bases)].read_text(encoding="utf-8")


class Replay:
    """What session ``i``'s dashboard must show: its own Simulation, moved as the dashboard moves it."""

    def __init__(self, text: str) -> None:
        self.sim = Simulation.from_text(text, seed=0)
        objects = self.sim.inputs.objects
        if sum(type(o).__name__ in ("Node", "Pod") for o in objects) <= EAGER_LIMIT:
            self.sim.run_until_idle()
            self.sim.seek(0)

    def move(self, unit: str, direction: int) -> None:
        if direction > 0:
            self.sim.step(unit)
        else:
            self.sim.step_back(unit)

    def status(self) -> tuple[str, int, int, int]:
        s = self.sim
        return f"{s.time:g}", s.cycle, s.cursor, len(s.trace)


@dataclass
class Tally:
    actions: int = 0
    exceptions: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    upload_retries: int = 0
    reloads: int = 0


async def settle(page: Page) -> None:
    await page.wait_for_timeout(100)
    await page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=POLL_MS)


async def shown_status(page: Page) -> tuple[str, int, int, int] | None:
    text = await page.locator(STATUS).first.inner_text()
    m = STATUS_LINE.search(text)
    return (m[1], int(m[2]), int(m[3]), int(m[4])) if m else None


async def shown_after(page: Page, want: tuple[str, int, int, int]) -> tuple[str, int, int, int] | None:
    """The status line once it shows ``want``, or as it is after ``CATCH_UP_S`` (the page may have looked
    settled before a busy server began the rerun a click asked for)."""
    end = time.monotonic() + CATCH_UP_S
    while (shown := await shown_status(page)) != want and time.monotonic() < end:
        await page.wait_for_timeout(POLL_MS)
    return shown


async def check(page: Page, i: int, name: str, replay: Replay, tally: Tally, what: str) -> None:
    """Compare what the page shows with session ``i``'s own replay; count exceptions."""
    shown, want = await shown_after(page, replay.status()), replay.status()
    errors = await page.locator('[data-testid="stException"]').all_inner_texts()
    tally.exceptions += [f"session {i} after {what}: {e.splitlines()[0] if e else ''}" for e in errors]
    if shown != want:
        tally.leaks.append(f"session {i} after {what}: status {shown} after {CATCH_UP_S} s, its own run is at {want}")
    sidebar = await page.locator('[data-testid="stSidebar"]').inner_text()
    if name not in sidebar:
        tally.leaks.append(f"session {i} after {what}: the sidebar does not name its cluster {name}")


async def click(page: Page, selector: str) -> None:
    await page.locator(selector).first.click()
    await settle(page)


async def step(page: Page, i: int, name: str, replay: Replay, tally: Tally, unit: str, direction: int) -> None:
    DOING[f"session {i}"] = f"{'▶' if direction > 0 else '◀'} {unit}"
    before = await page.locator(STATUS).first.inner_text()
    replay.move(unit, direction)
    changes = replay.status() != (await shown_status(page))
    start = time.perf_counter()
    await page.locator(f".st-key-{'next' if direction > 0 else 'back'}_{unit} button").first.click()
    if changes:
        await page.wait_for_function("([sel, text]) => { const e = document.querySelector(sel);"
                                     " return e && e.innerText !== text; }", arg=[STATUS, before], timeout=TIMEOUT_MS,
                                     polling=POLL_MS)
    await settle(page)
    tally.steps.append(time.perf_counter() - start)
    tally.actions += 1
    await check(page, i, name, replay, tally, f"{'▶' if direction > 0 else '◀'} {unit}")


async def open_page(page: Page, name: str) -> None:
    await click(page, f'[data-testid="stSidebarNav"] a[href$="/{name}"]')


async def cluster_page(page: Page, i: int, name: str, replay: Replay, tally: Tally, edit: int) -> Replay:
    """Open the Cluster page, check the markers; with ``edit`` > 0 change the YAML and Apply (a new run)."""
    DOING[f"session {i}"] = "open the Cluster page"
    await open_page(page, "cluster")
    own = f"sess-{i:03d}"
    try:  # the node cards are a fragment: they may draw a moment after the page's own run
        await page.wait_for_function("n => document.querySelector('[data-testid=\"stMain\"]')?.innerText.includes(n)",
                                     arg=own, timeout=30_000, polling=POLL_MS)
    except Exception:
        pass
    text = await page.locator('[data-testid="stMain"]').inner_text()
    markers = set(MARKER.findall(text))
    if markers != {own}:
        tab = await page.locator('[role="tab"][aria-selected="true"]').all_inner_texts()
        tally.leaks.append(f"session {i}: the Cluster page shows markers {sorted(markers)} (open tab: {tab})")
    tally.actions += 1
    if edit:
        DOING[f"session {i}"] = "edit the YAML"
        await page.get_by_role("tab").nth(2).click()
        await settle(page)
        new_text = session_text(i, edit)
        await page.locator(".st-key-cluster_editor textarea").fill(new_text)
        await page.locator(".st-key-cluster_editor textarea").press("Tab")
        await settle(page)
        await click(page, ".st-key-cluster_apply button")
        replay = Replay(new_text)
        tally.actions += 1
        await page.get_by_role("tab").nth(0).click()
        await settle(page)
    await check(page, i, name, replay, tally, "Cluster page" + (" edit" if edit else ""))
    DOING[f"session {i}"] = "open the Schedule page"
    await open_page(page, "schedule")
    return replay


async def open_app(page: Page, url: str, tally: Tally) -> None:
    """Open the dashboard; reload (as a learner would) when it has not drawn within a minute, at most
    twice (counted)."""
    for attempt in range(3):
        await page.goto(url)
        try:
            await page.wait_for_selector('[data-testid="stSidebarNav"]', timeout=60_000)
            break
        except Exception:
            if attempt == 2:
                raise
            tally.reloads += 1
    await settle(page)


async def upload(page: Page, name: str, text: str, tally: Tally) -> None:
    """Upload ``text`` as ``name`` on Home; once more if the sidebar does not name it within a minute
    (counted: a learner would have to upload again)."""
    dropzone = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    for attempt in range(2):
        # a file set on the input while the page's first runs are still drawing it is dropped without a
        # request (the browser never uploads it): pick it once the uploader has been drawn and stayed
        await dropzone.wait_for(state="attached")
        await settle(page)
        await page.wait_for_timeout(UPLOAD_PAUSE_MS)
        await settle(page)
        await dropzone.set_input_files(
            files=[{"name": name, "mimeType": "application/x-yaml", "buffer": text.encode()}])
        try:
            await page.locator('[data-testid="stSidebar"]').get_by_text(name).first.wait_for(timeout=60_000)
            break
        except Exception:
            if attempt:
                raise
            tally.upload_retries += 1
            await page.reload()
            await settle(page)
    await settle(page)


@contextlib.asynccontextmanager
async def own_page(p: Any, who: str) -> AsyncIterator[Page]:
    """A page in its own Chromium process (closed after); its errors are logged under ``who``."""
    browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
    try:
        ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
        page = await ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("crash", lambda: log(f"{who}: the page crashed"))
        page.on("pageerror", lambda err: log(f"{who}: page error during {DOING.get(who)} on {page.url}: {err}"))
        page.on("requestfailed", lambda r: log(f"{who}: request failed: {r.url[:200]} {r.failure}"))
        yield page
    finally:
        await browser.close()


async def learner(p: Any, url: str, i: int, deadline: float, max_actions: int, tally: Tally,
                  loaded: asyncio.Event | None = None) -> None:
    """One browser session: upload its cluster, then step, seek, edit and switch pages until the deadline."""
    async with own_page(p, f"session {i}") as page:
        await _learn(page, url, i, deadline, max_actions, tally, loaded)


async def _learn(page: Page, url: str, i: int, deadline: float, max_actions: int, tally: Tally,
                 loaded: asyncio.Event | None) -> None:
    try:
        await asyncio.sleep(i * ARRIVAL_GAP)
        await open_app(page, url, tally)
        name = f"session-{i:03d}.yaml"
        text = session_text(i)
        await upload(page, name, text, tally)
        replay = Replay(text)
        await open_page(page, "schedule")
        await check(page, i, name, replay, tally, "upload")
        if loaded is not None:
            loaded.set()
        rounds = 0
        while time.monotonic() < deadline and tally.actions < max_actions:
            for unit, direction in (("event", 1), ("pod", 1), ("event", -1)):
                await step(page, i, name, replay, tally, unit, direction)
            rounds += 1
            edit = rounds // EDIT_EVERY if rounds % EDIT_EVERY == 0 else 0
            replay = await cluster_page(page, i, name, replay, tally, edit)
    except Exception as err:  # a timeout or a vanished element is a failure of the room, counted
        log(f"session {i}: {type(err).__name__}: {str(err).splitlines()[0]}")
        await page.screenshot(path=f"{tempfile.gettempdir()}/load-session-{i}.png")
        tally.exceptions.append(f"session {i}: {type(err).__name__}: {str(err).splitlines()[0]}")
    finally:
        log(f"session {i}: {tally.actions} actions, done")


async def heavy_learner(p: Any, url: str, deadline: float, tally: Tally) -> None:
    """A learner on the biggest cluster the dashboard takes (2,400 nodes x 100 pods): Run to idle,
    Restart, again, until the deadline; the others must not stall meanwhile."""
    async with own_page(p, "heavy session") as page:
        await _heavy(page, url, deadline, tally)


async def _heavy(page: Page, url: str, deadline: float, tally: Tally) -> None:
    try:
        await open_app(page, url, tally)
        await upload(page, "heavy.yaml", cluster_yaml(2400, 100), tally)
        await open_page(page, "schedule")
        while time.monotonic() < deadline:
            before = await page.locator(STATUS).first.inner_text()
            await page.locator(".st-key-run_to_idle button").first.click()
            await page.wait_for_function("([sel, text]) => { const e = document.querySelector(sel);"
                                         " return e && e.innerText !== text; }", arg=[STATUS, before],
                                         timeout=TIMEOUT_MS, polling=POLL_MS)   # the run reached its end: the cursor moved
            await settle(page)
            await click(page, ".st-key-reset_sim button")
            tally.actions += 1
            log(f"heavy session: run {tally.actions} to idle done")
        errors = await page.locator('[data-testid="stException"]').all_inner_texts()
        tally.exceptions += [f"heavy session: {e.splitlines()[0] if e else ''}" for e in errors]
    except Exception as err:
        log(f"heavy session: {type(err).__name__}: {str(err).splitlines()[0]}")
        await page.screenshot(path=f"{tempfile.gettempdir()}/load-heavy.png")
        tally.exceptions.append(f"heavy session: {type(err).__name__}: {str(err).splitlines()[0]}")


class RssLog(threading.Thread):
    """The server's RSS every ``period`` seconds (MiB), until stopped."""

    def __init__(self, pid: int, period: float = 2.0) -> None:
        super().__init__(daemon=True)
        self.pid, self.period, self.samples = pid, period, []
        self.stop = threading.Event()

    def run(self) -> None:
        start = time.monotonic()
        while not self.stop.is_set():
            self.samples.append((time.monotonic() - start, rss_mb(self.pid)))
            self.stop.wait(self.period)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def room(url: str, sessions: int, duration: float, max_actions: int, rss: RssLog, heavy: bool,
               ) -> tuple[Tally, list[Tally], float, float]:
    async with async_playwright() as p:
        alone = Tally()
        await learner(p, url, 0, time.monotonic() + 120, 30, alone)
        base_rss = rss_mb(rss.pid)
        tallies = [Tally() for _ in range(sessions)]
        loaded = [asyncio.Event() for _ in range(sessions)]
        deadline = time.monotonic() + duration
        tasks = [asyncio.create_task(learner(p, url, i + 1, deadline, max_actions, tallies[i], loaded[i]))
                 for i in range(sessions)]
        if heavy:
            tallies.append(Tally())
            tasks.append(asyncio.create_task(heavy_learner(p, url, deadline, tallies[-1])))
        for ev in loaded:
            with_timeout = asyncio.wait_for(ev.wait(), timeout=max(1.0, deadline - time.monotonic()))
            try:
                await with_timeout
            except asyncio.TimeoutError:
                break
        loaded_rss = rss_mb(rss.pid)
        await asyncio.gather(*tasks)
    return alone, tallies, base_rss, loaded_rss


def report(alone: Tally, tallies: list[Tally], base: float, loaded: float, end: float, rss: RssLog,
           log_text: str, sessions: int) -> int:
    steps = [s for t in tallies for s in t.steps]
    exceptions = [e for t in tallies for e in t.exceptions] + alone.exceptions
    tracebacks = log_text.count("Traceback (most recent call last)")
    leaks = [x for t in tallies for x in t.leaks] + alone.leaks
    heavy = len(tallies) > sessions
    print(f"sessions {sessions}{' + 1 running 2,400 x 100 to idle over and over' if heavy else ''} · "
          f"actions {sum(t.actions for t in tallies)} · steps {len(steps)}")
    print(f"Streamlit exceptions on pages: {len(exceptions)} · server tracebacks: {tracebacks} · leaks: {len(leaks)}"
          f" · uploads repeated: {sum(t.upload_retries for t in tallies)}"
          f" · reloads of a page that had not drawn: {sum(t.reloads for t in tallies)}")
    for line in (exceptions + leaks)[:20]:
        print("  ", line)
    if alone.steps and steps:
        m1, p1 = statistics.median(alone.steps), pct(alone.steps, 0.95)
        mn, pn = statistics.median(steps), pct(steps, 0.95)
        print(f"step latency, one session alone: median {m1:.3f} s, p95 {p1:.3f} s ({len(alone.steps)} steps)")
        print(f"step latency, {sessions} sessions: median {mn:.3f} s ({mn / m1:.2f}×), p95 {pn:.3f} s ({pn / p1:.2f}×)")
    else:
        print(f"step latency: not measured ({len(alone.steps)} steps alone, {len(steps)} with {sessions} sessions)")
    print(f"server RSS: after one session {base:.0f} MiB · {sessions} sessions loaded {loaded:.0f} MiB · "
          f"end {end:.0f} MiB · per session {(max(loaded, end) - base) / sessions:.1f} MiB")
    timeline = rss.samples[:: max(1, len(rss.samples) // 12)]
    print("RSS over time (s: MiB): " + ", ".join(f"{t:.0f}: {m:.0f}" for t, m in timeline))
    return 1 if exceptions or leaks or tracebacks else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of actions after the start")
    parser.add_argument("--actions", type=int, default=400, help="at most this many actions per session")
    parser.add_argument("--no-heavy", action="store_true", help="leave out the learner running 2,400 x 100 to idle")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("w") as log, serve_process(ROOT / "app.py", log) as (url, proc):
            rss = RssLog(proc.pid)
            rss.start()
            alone, tallies, base, loaded = asyncio.run(room(url, args.sessions, args.duration, args.actions, rss,
                                                          not args.no_heavy))
            end = rss_mb(proc.pid)
            rss.stop.set()
        code = report(alone, tallies, base, loaded, end, rss, log_path.read_text(errors="replace"), args.sessions)
    sys.exit(code)


if __name__ == "__main__":
    main()
