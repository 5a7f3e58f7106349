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
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def cluster(nodes: int, pods: int) -> str:
    parts = [f"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-{i}\n  labels: {{kubernetes.io/hostname: "
             f"node-{i}, topology.kubernetes.io/zone: zone-{i % 3}}}\nstatus:\n  capacity: {{cpu: '32', "
             f"memory: 128Gi, pods: '110'}}\n" for i in range(nodes)]
    parts += [f"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{j}\n  namespace: default\n  labels: "
              f"{{app: app-{j % 7}}}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n"
              f"      requests: {{cpu: 100m, memory: 100Mi}}\n" for j in range(pods)]
    return "".join(parts)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("streamlit did not start")


def one_session(browser, url: str, upload: Path | None) -> None:
    """Open the dashboard; with ``upload``: upload it, step once; then close the tab."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.set_default_timeout(180_000)
        page.goto(url)
        page.wait_for_selector(DONE)
        if upload is None:
            return
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
        page.wait_for_timeout(500)
        page.wait_for_selector(DONE)
        page.locator('[data-testid="stSidebar"] .st-key-next_pod button').first.click()
        page.wait_for_timeout(300)
        page.wait_for_selector(DONE)
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

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        upload = Path(tmp) / "cluster.yaml"
        upload.write_text(cluster(args.nodes, args.pods))
        log = open(Path(tmp) / "server.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / args.app),
                                 "--server.headless", "true", "--server.port", str(port),
                                 "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
                                 "--server.fileWatcherType", "none",
                                 "--server.disconnectedSessionTTL", str(args.ttl)],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_healthy(url, proc)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                one_session(browser, url, upload)
                time.sleep(args.ttl + 1)
                one_session(browser, url, upload)  # a visit lets the server drop expired sessions
                start = rss_mb(proc.pid)
                print(f"after a warm-up session: {start:.0f} MB "
                      f"({args.nodes} nodes × {args.pods} pods uploaded per session)")
                t0 = time.monotonic()
                for i in range(args.sessions):
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
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()


if __name__ == "__main__":
    main()
