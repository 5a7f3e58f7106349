"""kubesched.util.wait.poll: wait.Poll's timing on the event loop."""

from __future__ import annotations

import pytest

from kubesched.util.loop import EventLoop
from kubesched.util.wait import ERR_WAIT_TIMEOUT, WaitTimeoutError, poll


@pytest.mark.parametrize("timeout,answers,checks,outcome", [
    (10.0, [False, False, True], [1.0, 2.0, 3.0], (3.0, None)),
    (10.0, [False, "boom"], [1.0, 2.0], (2.0, "boom")),
    (2.5, [False] * 9, [1.0, 2.0], (2.5, ERR_WAIT_TIMEOUT)),
    (3.0, [False] * 9, [1.0, 2.0], (3.0, ERR_WAIT_TIMEOUT)),      # the timeout wins over the tick at 3
    (0.0, [False] * 4 + [True], [1.0, 2.0, 3.0, 4.0, 5.0], (5.0, None)),  # 0: no timeout
    (-1.0, [True], [], (0.0, ERR_WAIT_TIMEOUT)),
], ids=["holds", "error", "timeout-between-ticks", "timeout-on-a-tick", "no-timeout", "negative-timeout"])
def test_poll(timeout, answers, checks, outcome):
    loop = EventLoop()
    seen: list[float] = []
    results: list[tuple[float, object]] = []

    def condition():
        seen.append(loop.now())
        answer = answers[len(seen) - 1]
        return (False, RuntimeError(answer)) if isinstance(answer, str) else (answer, None)

    def done(err):
        assert err is None or isinstance(err, (RuntimeError, WaitTimeoutError))
        results.append((loop.now(), None if err is None else str(err)))

    poll(loop, 1.0, timeout, condition, done)
    loop.run()
    assert seen == checks
    assert results == [outcome]


def test_poll_rejects_a_non_positive_interval():
    with pytest.raises(ValueError, match="interval must be positive"):
        poll(EventLoop(), 0, 1, lambda: (True, None), lambda err: None)
