"""kubesched dashboard: a short st.navigation router with the shared sidebar controls.

Run with ``streamlit run app.py``. Shared controls live here so they survive page switches:
the language, the cluster picker, the stepper (one cursor for every page but Lessons, which has
its own) and the exports. In presenter mode the stepper is a sticky bar over the page instead.
Each page script under ``kubesched/ui/pages/`` is listed only when it exists.
"""

from pathlib import Path

import pandas  # noqa: F401  (import eagerly: plotly reads sys.modules["pandas"] during reruns)
import plotly.express  # noqa: F401
import streamlit as st

from kubesched.ui import (
    fragments,
    persistence,
    presenter,
    session,
    shortcuts,
    stepper,
    url_state,
)
from kubesched.ui.i18n import LANGUAGE_NAMES, LANGUAGES, t
from kubesched.ui.pages._exports import render_exports
from kubesched.ui.widget_default import index_of

PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")
OWN_CURSOR = frozenset({"lessons"})   # pages that step their own simulation
PAGE_DIR = Path(__file__).resolve().parent / "kubesched" / "ui" / "pages"
ICON = PAGE_DIR.parent / "icon.png"   # a file, not ":material/…": that one is fetched from fonts.gstatic.com

presenter.init()
url_state.remember_start()
st.set_page_config(page_title="kubesched", page_icon=str(ICON), layout="wide",
                   initial_sidebar_state="collapsed" if presenter.active() else 360)
lang = session.init_language()
session.finish_interrupted_load()
sim = session.ensure()
restored = url_state.history_step()
if restored is not None:
    sim.seek(restored)
pages = [st.Page(f"kubesched/ui/pages/{name}.py", title=t(f"nav.{name}", lang), default=name == "home",
                 url_path=name) for name in PAGES if (PAGE_DIR / f"{name}.py").exists()]
current = st.navigation(pages)
page = current.url_path or "home"
fragments.begin_page()
presenter.render_styles()
with st.sidebar:
    if not presenter.active():
        presenter.render_toggle(lang)
    if not presenter.active() and page not in OWN_CURSOR:
        stepper.render_stepper()
    st.divider()
    st.radio(t("app.language", lang), LANGUAGES, format_func=LANGUAGE_NAMES.get, key="lang", horizontal=True,
             index=index_of("lang", LANGUAGES),
             on_change=url_state.write_lang)
    session.render_picker()
    persistence.render(lang)
    render_exports()
if presenter.active():
    with st.container(key=presenter.BAR_KEY):
        bar, tools = st.columns([14, 3], vertical_alignment="top")
        with bar:
            if page not in OWN_CURSOR:
                stepper.render_stepper(bar=True)
        with tools:
            presenter.render_toggle(lang)
            shortcuts.render_sheet(lang)
current.run()
fragments.end_page()
