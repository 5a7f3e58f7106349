"""Small pieces of browser-side behaviour Streamlit has no widget for (``st.components.v2``).

Upstream: no counterpart (dashboard plumbing). Each is trusted code of ours; no learner text is
ever put into the HTML or JavaScript (data goes through the component's ``data`` channel and is
written with ``textContent`` or to local storage only).

- ``collapse_sidebar()``: collapse the sidebar once (presenter mode).
- ``question_mark_opens(key)``: the ? key opens the popover with that key (the shortcut sheet).
- ``line_numbers(key)``: a line-number gutter beside the text area with that key (YAML editor).
- ``local_store(save)``: this browser's local storage: returns what was saved there (``None``
  until the browser answered) and saves ``save`` when given.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

STORE_NAME = "kubesched.session"

_COLLAPSE_JS = """
export default function(component) {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  if (sidebar && sidebar.getAttribute('data-collapsed') !== 'true') {
    const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (button) button.click();
  }
}
"""

_QUESTION_JS = """
export default function(component) {
  window.__kubeschedSheet = component.data;
  if (window.__kubeschedSheetKey) return;
  window.__kubeschedSheetKey = true;
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const typing = target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
    if (event.key !== '?' || typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const button = document.querySelector('.st-key-' + window.__kubeschedSheet + ' button');
    if (button) { event.preventDefault(); button.click(); }   // a second ? closes it again
  });
}
"""

_GUTTER_JS = """
export default function(component) {
  const key = component.data;
  const font = 'font-family: "Source Code Pro", monospace; font-size: 0.85rem; line-height: 1.5;';
  const attach = () => {
    const area = document.querySelector('.st-key-' + key + ' textarea');
    if (!area || area.dataset.gutter === '1') return;
    area.dataset.gutter = '1';
    area.style.cssText += font + 'padding-left: 4em; white-space: pre; overflow-wrap: normal; overflow-x: auto;';
    const box = area.parentElement;
    box.style.position = 'relative';
    const gutter = document.createElement('pre');
    gutter.className = 'kubesched-gutter';
    gutter.setAttribute('aria-hidden', 'true');
    gutter.style.cssText = font + 'position: absolute; left: 0; top: 0; bottom: 0; width: 3.2em; margin: 0;'
      + 'overflow: hidden; text-align: right; padding: ' + getComputedStyle(area).paddingTop + ' 0.4em 0 0;'
      + 'color: rgba(128,128,128,0.95); pointer-events: none; z-index: 1; background: rgba(128,128,128,0.10);'
      + 'border-right: 1px solid rgba(128,128,128,0.35); box-sizing: border-box;';
    box.insertBefore(gutter, area);
    let drawn = -1;
    const draw = () => {
      const lines = area.value.split('\\n').length;
      if (lines !== drawn) {
        drawn = lines;
        gutter.textContent = Array.from({length: lines}, (_, i) => String(i + 1)).join('\\n') + '\\n';
      }
      gutter.scrollTop = area.scrollTop;
    };
    area.addEventListener('input', draw);
    area.addEventListener('scroll', draw);
    new MutationObserver(draw).observe(area, {attributes: true, childList: true, characterData: true});
    draw();
  };
  attach();
  const timer = setInterval(attach, 400);
  return () => clearInterval(timer);
}
"""

_STORE_JS = """
export default function(component) {
  const { data, setStateValue } = component;
  const name = 'STORE_NAME';
  if (data && data.save) {
    try { localStorage.setItem(name, JSON.stringify(data.save)); } catch (e) { /* storage full or off */ }
  }
  if (!window.__kubeschedStoreRead) {
    window.__kubeschedStoreRead = true;
    let saved = {};
    try { saved = JSON.parse(localStorage.getItem(name) || '{}') || {}; } catch (e) { saved = {}; }
    setStateValue('stored', saved);
  }
}
""".replace("STORE_NAME", STORE_NAME)

_collapse = st.components.v2.component("kubesched_collapse_sidebar", js=_COLLAPSE_JS)
_question = st.components.v2.component("kubesched_question_mark", js=_QUESTION_JS)
_gutter = st.components.v2.component("kubesched_line_numbers", js=_GUTTER_JS)
_store = st.components.v2.component("kubesched_local_store", js=_STORE_JS)


def collapse_sidebar() -> None:
    _collapse(key="collapse_sidebar", height=0)


def question_mark_opens(popover_key: str) -> None:
    _question(key="question_mark", data=popover_key, height=0)


def line_numbers(text_area_key: str) -> None:
    _gutter(key=f"line_numbers_{text_area_key}", data=text_area_key, height=0)


def local_store(save: dict[str, Any] | None, on_change: Any = None) -> dict[str, Any] | None:
    """What this browser has saved (``None`` until it answered); saves ``save`` when not ``None``."""
    result = _store(key="local_store", data={"save": save}, height=0, on_stored_change=on_change or (lambda: None))
    stored = getattr(result, "stored", None)
    return stored if isinstance(stored, dict) else None
