"""What the URL carries: a scenario as compressed text, refused when it is not one."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from kubesched.ui import url_state

SAMPLES = Path(__file__).resolve().parents[3] / "sample_clusters"


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_a_sample_round_trips_and_fits_in_a_url(name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    value = url_state.encode_scenario(text)
    assert url_state.decode_scenario(value) == text
    assert len(value) <= url_state.URL_SCENARIO_LIMIT
    assert set(value) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize("value", [
    "not base64 !!",                                                  # not base64url
    _b64(b"plain bytes, not zlib"),                                   # not a zlib stream
    _b64(zlib.compress("é".encode("latin-1"))),                      # not UTF-8
    _b64(zlib.compress(b"a" * (url_state.MAX_SCENARIO_BYTES + 1))),   # a zip bomb: bigger than 5 MiB inflated
])
def test_what_is_not_a_scenario_is_refused(value):
    assert url_state.decode_scenario(value) is None


def test_exactly_the_limit_is_accepted():
    text = "a" * url_state.MAX_SCENARIO_BYTES
    assert url_state.decode_scenario(url_state.encode_scenario(text)) == text


@pytest.mark.parametrize(("history", "url_step", "written", "expected"), [
    (True, "5", "9", 5),        # Back to the entry of step 5
    (True, "9", "9", None),     # the entry this session wrote last: nothing to restore
    (True, None, "9", None),    # an entry without ?step=
    (True, "x", "9", None),     # not a number
    (True, "5", None, None),    # nothing written yet: the opening URL is read elsewhere (start_step)
    (False, "5", "9", None),    # a click sent before ?step=9 reached the browser: a stale URL, not a move
])
def test_only_back_and_forward_move_the_cursor(monkeypatch, history, url_step, written, expected):
    monkeypatch.setattr(url_state.st, "query_params", {} if url_step is None else {"step": url_step})
    monkeypatch.setattr(url_state.st, "session_state", {} if written is None else {"_url_step_written": written})
    monkeypatch.setattr(url_state, "get_script_run_ctx", lambda: SimpleNamespace(is_history_navigation=history))
    assert url_state.history_step() == expected
