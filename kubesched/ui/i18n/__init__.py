"""One ``t(key, **kw)`` catalog for all UI text, English and Chinese.

Each page keeps its strings in its own module here (``kubesched/ui/i18n/<page>.py``) as two
dicts, ``EN`` and ``ZH``, with the same keys; they are merged at import. Identifiers (plugin,
queue, function and field names) stay as upstream spells them in both languages. Learner text
(names, labels, messages) is never put in the catalog and never rendered as HTML.
"""

from __future__ import annotations

import importlib
import pkgutil

LANGUAGES = ("en", "zh")
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
CATALOG: dict[str, dict[str, str]] = {"en": {}, "zh": {}}


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for lang, table in (("en", module.EN), ("zh", module.ZH)):
            clash = set(CATALOG[lang]) & set(table)
            if clash:
                raise KeyError(f"i18n keys defined twice ({info.name}): {sorted(clash)}")
            CATALOG[lang].update(table)


_load()


def t(key: str, lang: str = "en", **kw: object) -> str:
    """The text for ``key`` in ``lang`` (English when missing), formatted with ``kw``.

    Plurals: with ``count=1`` a ``<key>.one`` text is used when the catalog has one
    ("1 error", not "1 error(s)"); in Chinese it reads as the other form.
    """
    if kw.get("count") == 1 and f"{key}.one" in CATALOG["en"]:
        key = f"{key}.one"
    text = CATALOG.get(lang, {}).get(key) or CATALOG["en"].get(key)
    if text is None:
        raise KeyError(f"no UI text for {key!r}")
    return text.format(**kw) if kw else text


def missing_keys() -> dict[str, set[str]]:
    """Keys present in one language but not the other (a test keeps this empty)."""
    en, zh = set(CATALOG["en"]), set(CATALOG["zh"])
    return {"zh": en - zh, "en": zh - en}
