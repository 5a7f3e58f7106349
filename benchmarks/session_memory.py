"""Server memory over dropped dashboard sessions: is a dropped run given back?

Starts one Streamlit server on 127.0.0.1, then N browser sessions (Playwright + /usr/bin/chromium) one
after the other; each uploads a generated cluster (run eagerly on load), steps once and closes its tab.
Prints the server's RSS after a warm-up session, after the N sessions, and once the disconnected
sessions have expired (Streamlit keeps a closed tab's session ``server.disconnectedSessionTTL``
seconds for a reconnect, default 120; the script sets it with ``--ttl``; two visits that upload
nothing let the server drop them).

    .venv/bin/python benchmarks/session_memory.py --sessions 20 --ttl 5

Bounded: N sessions, each with a 60 s timeout; the server is always stopped.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
from bench_load import cluster_yaml
from ui_latency import CHROMIUM, CHROMIUM_ARGS, IDLE, serve_process


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_session(browser, url: str, upload: Path | None) -> None:
    """Open the dashboard; with ``upload``: upload it, step once; then close the tab."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.set_default_timeout(180_000)
        page.goto(url)
        page.wait_for_selector(IDLE)
        if upload is None:
            return
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
        page.wait_for_timeout(500)
        page.wait_for_selector(IDLE)
        page.locator('[data-testid="stSidebar"] .st-key-next_pod button').first.click()
        page.wait_for_timeout(300)
        page.wait_for_selector(IDLE)
    finally:
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--ttl", type=int, default=5, help="server.disconnectedSessionTTL (seconds)")
    parser.add_argument("--nodes", type=int, default=50)
    parser.add_argument("--pods", type=int, default=300)
    parser.add_argument("--app", default="app.py", help="the Streamlit script (relative to the repository)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        upload = Path(tmp) / "cluster.yaml"
        upload.write_text(cluster_yaml(args.nodes, args.pods))
        with open(Path(tmp) / "server.log", "w") as log, serve_process(
                ROOT / args.app, log, ("--server.disconnectedSessionTTL", str(args.ttl))) as (url, proc), \
                sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            one_session(browser, url, upload)
            time.sleep(args.ttl + 1)
            one_session(browser, url, upload)  # a visit lets the server drop expired sessions
            start = rss_mb(proc.pid)
            print(f"after a warm-up session: {start:.0f} MB "
                  f"({args.nodes} nodes × {args.pods} pods uploaded per session)")
            t0 = time.monotonic()
            for _ in range(args.sessions):
                one_session(browser, url, upload)
            took = time.monotonic() - t0
            after = rss_mb(proc.pid)
            print(f"after {args.sessions} closed sessions: {after:.0f} MB "
                  f"(+{after - start:.0f}; {took / args.sessions:.1f} s per session)")
            for _ in range(2):  # a visit after the TTL lets the server drop the expired sessions
                time.sleep(args.ttl + 1)
                one_session(browser, url, None)
            time.sleep(2)
            expired = rss_mb(proc.pid)
            print(f"once they expired ({args.ttl} s TTL): {expired:.0f} MB (+{expired - start:.0f})")
            browser.close()


if __name__ == "__main__":
    main()
