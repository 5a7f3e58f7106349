"""Streamlit's own widget texts in the learner's language.

Upstream: no counterpart. ``st.file_uploader`` draws "Upload" and
"<size> per file • <types>" with no parameter to set them; ``uploader_css`` replaces them, by
CSS on the widget's key, with catalog texts (``widgets.*``), so every language reads its own.
"""

from __future__ import annotations

import json

from kubesched.ui.i18n import t


def _css_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def uploader_css(key: str, lang: str, *, limit_mb: int, types: str) -> str:
    """A <style> block giving the uploader with widget key ``key`` its button and limit texts in ``lang``."""
    box = f'.st-key-{key} [data-testid="stFileUploaderDropzone"]'
    button = _css_string(t("widgets.upload", lang))
    limit = _css_string(t("widgets.upload_limit", lang, mb=limit_mb, types=types))
    return f"""<style>
{box} button [data-testid="stMarkdownContainer"] p {{ font-size: 0; }}
{box} button [data-testid="stMarkdownContainer"] p::after {{ content: {button}; font-size: 1rem; }}
{box} [data-testid="stFileUploaderDropzoneInstructions"] span {{ font-size: 0; }}
{box} [data-testid="stFileUploaderDropzoneInstructions"] span::after {{ content: {limit}; font-size: 0.875rem; }}
</style>"""
