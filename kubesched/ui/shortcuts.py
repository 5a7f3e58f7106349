"""The keyboard shortcuts of the stepper, and the "?" sheet that lists them.

Upstream: no counterpart (dashboard plumbing). Streamlit buttons take one key with modifiers
(``shortcut=``); "?" is not a key Streamlit accepts, so ``browser.question_mark_opens`` makes the ?
key open the sheet. The Lessons page uses ← and → for its own Back and Continue.
"""

from __future__ import annotations

import streamlit as st

from kubesched.ui import browser
from kubesched.ui.i18n import t

SHEET_KEY = "shortcuts_sheet"
SHORTCUTS = {
    ("event", -1): "Left", ("event", 1): "Right",
    ("phase", -1): "Shift+Left", ("phase", 1): "Shift+Right",
    ("pod", -1): "Shift+Up", ("pod", 1): "Shift+Down",
}
IDLE_SHORTCUT = "End"
PLAY_SHORTCUT = "P"


def shortcut_rows(lang: str) -> list[dict[str, str]]:
    """Every keyboard shortcut of the stepper and the lessons, as (keys, what it does) rows."""
    rows = [(keys, t(f"stepper.{'next' if d > 0 else 'back'}_{unit}", lang).split(" (")[0].split("（")[0])
            for (unit, d), keys in SHORTCUTS.items()]
    rows += [(IDLE_SHORTCUT, t("stepper.run_to_idle", lang)), (PLAY_SHORTCUT, t("stepper.play", lang)),
             ("?", t("presenter.sheet", lang))]
    return [{t("presenter.col_keys", lang): keys, t("presenter.col_does", lang): does} for keys, does in rows]


def render_sheet(lang: str) -> None:
    """The "?" button: a popover listing the shortcuts (the ? key opens it too)."""
    with st.popover("?", key=SHEET_KEY, help=t("presenter.sheet", lang)):
        st.markdown(f"**{t('presenter.sheet', lang)}**")
        st.table(shortcut_rows(lang), hide_index=True)
        st.caption(t("presenter.lessons_keys", lang))
    browser.question_mark_opens(SHEET_KEY)
