"""go_quote is Go's strconv.Quote (``%q``), as upstream's messages quote names."""

import pytest

from kubesched.util.strconv import go_quote


@pytest.mark.parametrize("text, quoted", [
    ("", '""'),
    ("default-scheduler", '"default-scheduler"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("a\\b", '"a\\\\b"'),
    ("tab\tnew\nline\rret", '"tab\\tnew\\nline\\rret"'),
    ("\a\b\f\v", '"\\a\\b\\f\\v"'),
    ("nul\x00esc\x1bdel\x7f", '"nul\\x00esc\\x1bdel\\x7f"'),
    ("\x85", '"\\u0085"'),              # a C1 control: not printable, above 0x7f
    ("no\u00a0break", '"no\\u00a0break"'),  # NBSP is a space separator, not printable in Go
    ("line\u2028sep", '"line\\u2028sep"'),
    ("\ue000", '"\\ue000"'),            # private use
    ("\U000e0001", '"\\U000e0001"'),    # a format character beyond the BMP
    ("\ud800", '"\\ufffd"'),            # a lone surrogate: invalid UTF-8 in Go
    ("调度器 ü ☃ 😀", '"调度器 ü ☃ 😀"'),  # printable runes stay as they are
])
def test_go_quote(text, quoted):
    assert go_quote(text) == quoted
