"""Go's ``strconv.Quote`` (the ``%q`` verb on a string), for messages that quote as upstream does.

Upstream: Go's standard library strconv/quote.go (Quote, appendQuotedWith, appendEscapedRune).

Printable characters stay as they are (Python's ``str.isprintable`` is Go's ``unicode.IsPrint``:
letters, marks, numbers, punctuation, symbols and the ASCII space); ``"`` and ``\\`` get a
backslash; the C escapes ``\\a \\b \\f \\n \\r \\t \\v`` are used where they apply; other control
characters become ``\\xNN``, other non-printable characters ``\\uNNNN`` or ``\\UNNNNNNNN``, and a
lone surrogate (invalid UTF-8 in Go) ``\\ufffd``.
"""

from __future__ import annotations

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
            "\t": "\\t", "\v": "\\v"}


def go_quote(text: str) -> str:
    """``strconv.Quote(text)``."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return '"' + "".join(_escape(ch) for ch in text) + '"'


def _escape(ch: str) -> str:
    escaped = _ESCAPES.get(ch)
    if escaped is not None:
        return escaped
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return "\\ufffd"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
