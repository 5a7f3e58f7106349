"""kubesched dashboard: a short st.navigation router with the shared sidebar controls.

Run with ``streamlit run app.py``. Shared controls live here so they survive page switches:
the language, the cluster picker, the stepper (one cursor for every page) and the exports.
Each page script under ``kubesched/ui/pages/`` is listed only when it exists.
"""

from pathlib import Path

import pandas  # noqa: F401  (import eagerly: plotly reads sys.modules["pandas"] during reruns)
import plotly.express  # noqa: F401
import streamlit as st

from kubesched.ui import session, stepper
from kubesched.ui.i18n import LANGUAGE_NAMES, LANGUAGES, t
from kubesched.ui.pages._exports import render_exports

PAGES = ("home", "cluster", "startup", "queues", "schedule", "preemption", "binding", "configuration",
         "lessons", "events")
PAGE_DIR = Path(__file__).resolve().parent / "kubesched" / "ui" / "pages"

st.set_page_config(page_title="kubesched", page_icon="⎈", layout="wide", initial_sidebar_state=360)
lang = session.init_language()
session.ensure()
pages = [st.Page(f"kubesched/ui/pages/{name}.py", title=t(f"nav.{name}", lang), default=name == "home",
                 url_path=name) for name in PAGES if (PAGE_DIR / f"{name}.py").exists()]
current = st.navigation(pages)
with st.sidebar:
    stepper.render_stepper()
    st.divider()
    st.radio(t("app.language", lang), LANGUAGES, format_func=LANGUAGE_NAMES.get, key="lang", horizontal=True)
    session.render_picker()
    render_exports()
current.run()
