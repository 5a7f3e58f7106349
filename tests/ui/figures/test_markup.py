"""kubesched.ui.figures.markup: learner text made inert for Markdown, upstream code links."""

from __future__ import annotations

import pytest

from kubesched.trace.upstream import permalink
from kubesched.ui.figures.markup import code_link, links_line, md, section_link


@pytest.mark.parametrize(("text", "expected"), [
    ("node-1", "node\\-1"),
    ("default/web_0", "default/web\\_0"),
    ("**bold** [x](http://e)", "\\*\\*bold\\*\\* \\[x\\]\\(http://e\\)"),
    ("<b>html</b>", "\\<b\\>html\\</b\\>"),
    ("a`b|c~d$e#f+g.h!i{j}\\", "a\\`b\\|c\\~d\\$e\\#f\\+g\\.h\\!i\\{j\\}\\\\"),
    (3, "3"),
    ("", ""),
])
def test_md_escapes_every_markdown_special(text: object, expected: str) -> None:
    assert md(text) == expected


def test_code_link_and_links_line_drop_repeats() -> None:
    assert code_link("Scheduler.scheduleOne", "https://u/s.go") == "[`Scheduler.scheduleOne`](https://u/s.go)"
    line = links_line([("A", "u1"), ("B", "u2"), ("A", "u1"), ("A", "u3")])
    assert line == "[`A`](u1) · [`B`](u2) · [`A`](u3)"
    assert links_line([]) == ""


def test_section_link_reads_the_page_table() -> None:
    table = {"pick": ("pkg/scheduler/core/generic_scheduler.go", "genericScheduler.selectHost")}
    assert section_link(table, "pick") == (
        f"[`genericScheduler.selectHost`]({permalink('pkg/scheduler/core/generic_scheduler.go')})")
    with pytest.raises(KeyError):
        section_link(table, "missing")
