"""Home: what kubesched is, the sample clusters, upload a cluster, the lessons."""

import streamlit as st

from kubesched.ui import session
from kubesched.ui.widget_text import uploader_css
from kubesched.ui.figures.cluster import sample_card
from kubesched.ui.figures.markup import md
from kubesched.ui.i18n import t

lang = session.lang()
st.title(t("home.title", lang))
st.markdown(t("home.intro", lang))

st.subheader(t("home.samples", lang))
columns = st.columns(3)
for i, name in enumerate(session.sample_clusters()):
    card = sample_card(session.SAMPLE_DIR / name, lang)
    with columns[i % 3].container(border=True):
        st.markdown(f"**{md(name)}**")
        st.text(card.headline)
        with st.expander(t("home.details", lang)):
            st.text(card.description)
        in_use = session.cluster_source() == name
        st.button(t("home.in_use" if in_use else "home.use", lang), key=f"use_{name}", disabled=in_use,
                  on_click=session.pick_sample, args=(name,), width="stretch")


def _on_upload() -> None:
    upload = st.session_state.get("upload")
    if upload is None:
        return
    text = upload.getvalue().decode("utf-8", errors="replace")
    session.load_cluster_text(text, upload.name)


st.html(uploader_css("upload", lang, limit_mb=st.get_option("server.maxUploadSize"), types="YAML"))
st.file_uploader(t("home.upload", lang), type=["yaml", "yml"], key="upload", on_change=_on_upload)
upload = st.session_state.get("upload")
if upload is not None:
    errors = session.cluster_errors()
    if errors:
        st.error(t("home.upload_errors", lang))
        st.code("\n".join(errors), language=None)
    elif session.cluster_source() == upload.name:
        st.success(t("home.upload_ok", lang, name=md(upload.name)))

st.subheader(t("home.lessons", lang))
st.markdown(t("home.lessons_text", lang))
if (session.SAMPLE_DIR.parent / "kubesched" / "ui" / "pages" / "lessons.py").exists():
    st.page_link("kubesched/ui/pages/lessons.py", label=t("home.lessons_open", lang))
st.markdown(t("home.next", lang))
if (session.SAMPLE_DIR.parent / "kubesched" / "ui" / "pages" / "cluster.py").exists():
    st.page_link("kubesched/ui/pages/cluster.py", label=t("home.open_cluster", lang))
