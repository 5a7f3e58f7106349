"""Learner text is only ever text (issue 15): ``<script>``, ``<img onerror>``, markdown links to
``javascript:`` and ``**bold**`` put into pod and node names, labels, annotations, a profile's
scheduler name, plugin names, an extender's error (which becomes the pods' event messages), an
upload's file name and the Cluster editor (the sandbox) appear as the characters typed on every
page: no element is made from them and no script runs. Checked in Chromium's DOM."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kubesched.extender.sample import SampleExtender, run_sample_extender
from tests.browser.conftest import screenshot_on_failure

DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
SCRIPT = "<script>window.__xss='script'</script>"
IMG = "<img src=x onerror=\"window.__xss='img'\">"
LINK = "[click me](javascript:window.__xss='link')"
BOLD = "**bold-marker**"
PAYLOAD = f"{SCRIPT} {IMG} {LINK} {BOLD}"
FILE_NAME = "<img src=x onerror=window.__xss=1> **bold-marker**.yaml"  # browsers send quotes as %22
PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")


def quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def hostile_cluster(extender_url: str) -> str:
    return f"""apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {{kubernetes.io/hostname: n1}}
  annotations: {{note: "{quoted(PAYLOAD)}"}}
status:
  capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
  annotations: {{note: "{quoted(PAYLOAD)}"}}
spec:
  containers: [{{name: c, image: nginx}}]
---
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: "{quoted(PAYLOAD)}"
extenders:
- {{urlPrefix: "{extender_url}", filterVerb: filter}}
"""


BAD_TEXT = f"""apiVersion: v1
kind: Pod
metadata:
  name: "{quoted(PAYLOAD)}"
  labels: {{"{quoted(IMG)}": "{quoted(BOLD)}"}}
spec:
  containers: [{{name: c, image: nginx}}]
"""
BAD_CONFIG = f"""apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled: [{{name: "{quoted(PAYLOAD)}", weight: 1}}]
"""

MARKUP = """() => {
  const bold = [...document.querySelectorAll('strong, b')].filter(e => e.textContent.includes('bold-marker'));
  const links = [...document.querySelectorAll('a[href]')].filter(a => /^\\s*javascript:/i.test(a.getAttribute('href')));
  const imgs = [...document.querySelectorAll('img')].filter(i => i.hasAttribute('onerror') || i.getAttribute('src') === 'x');
  const scripts = [...document.querySelectorAll('script')].filter(s => s.textContent.includes('__xss'));
  return {xss: window.__xss || null, bold: bold.length, links: links.length, imgs: imgs.length, scripts: scripts.length};
}"""
CLEAN = {"xss": None, "bold": 0, "links": 0, "imgs": 0, "scripts": 0}


def settle(page: Page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(DONE)


def go(page: Page, name: str) -> None:
    page.locator('[data-testid="stSidebarNav"] a').nth(PAGES.index(name)).click()
    settle(page)


def pick(page: Page, key: str, text: str) -> None:
    """Choose the option holding ``text`` of selectbox ``key`` (again when a rerun closed the list)."""
    for attempt in range(3):
        settle(page)
        page.locator(f".st-key-{key} input").click()
        option = page.get_by_role("option").filter(has_text=text)
        try:
            option.click(timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    settle(page)


def text_of(page: Page) -> str:
    return page.locator('[data-testid="stApp"]').text_content() or ""


def test_hostile_text_stays_text_on_every_page(page: Page, tmp_path: Path):
    server = SampleExtender(errors={"filter": PAYLOAD})
    with run_sample_extender(extender=server) as url, screenshot_on_failure(page, "hostile_text"):
        upload = tmp_path / FILE_NAME
        upload.write_text(hostile_cluster(url))
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
        expect(page.locator('[data-testid="stSidebar"]')).to_contain_text(FILE_NAME)  # loaded; the name as typed
        settle(page)
        assert page.evaluate(MARKUP) == CLEAN
        page.locator(".st-key-run_to_idle button").click()
        expect(page.locator('[data-testid="stSidebar"]')).to_contain_text(re.compile(r"step (\d+)/\1(?!\d)"))  # at the end
        settle(page)
        for name in PAGES:
            go(page, name)
            assert page.evaluate(MARKUP) == CLEAN, name
            if name in ("schedule", "events"):  # the extender's error is every pod's FailedScheduling
                expect(page.locator('[data-testid="stApp"]')).to_contain_text(PAYLOAD)  # message, as typed

        go(page, "configuration")
        pick(page, "config_profile", "bold-marker")
        assert page.evaluate(MARKUP) == CLEAN
        assert page.locator(".st-key-config_profile input").input_value() == PAYLOAD  # the profile, as named
        editor = page.locator('[data-testid="stTextArea"] textarea').nth(1)
        editor.fill(BAD_CONFIG)
        editor.press("Control+Enter")
        settle(page)
        assert page.evaluate(MARKUP) == CLEAN
        go_quoted = PAYLOAD.replace('"', '\\"')  # %q, as upstream's error prints it
        assert f'ScorePlugin "{go_quoted}" does not exist' in text_of(page)

        go(page, "cluster")
        page.get_by_role("tab").nth(2).click()
        editor = page.locator('.st-key-cluster_editor textarea')
        editor.fill(BAD_TEXT)
        editor.press("Control+Enter")
        settle(page)
        page.locator(".st-key-cluster_apply button").click()
        settle(page)
        assert page.evaluate(MARKUP) == CLEAN
        problems = page.locator('[data-testid="stCode"]').last.text_content() or ""
        assert f"Pod default/{PAYLOAD}: metadata.name: Invalid value: " in problems  # the name, as typed
        assert f'metadata.labels.{IMG}: Invalid value: "{BOLD}"' in problems
        for name in PAGES:
            go(page, name)
            assert page.evaluate(MARKUP) == CLEAN, name
