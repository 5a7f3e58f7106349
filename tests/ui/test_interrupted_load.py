"""A load or Restart whose run Streamlit stops midway is finished by the next run, never dropped.

Streamlit stops a script run at any read or write of the session state once the learner has
clicked elsewhere (``runner.fastReruns``), a callback's included: here the session state is a dict
that raises at its ``n``-th access after the load began, for every ``n`` the load makes, then the
next run's ``finish_interrupted_load`` must leave exactly what an uninterrupted load leaves.
"""

from __future__ import annotations

import pytest

from kubesched.ui import session

OLD, NEW = "default.yaml", "taints.yaml"
NEW_TEXT = (session.SAMPLE_DIR / NEW).read_text(encoding="utf-8")
BROKEN = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n"  # no image


class Stopped(Exception):
    """Stands for Streamlit's StopException."""


class StoppingState(dict):
    """Session state that raises ``Stopped`` at its ``stop_at``-th access once armed (None: never)."""

    def __init__(self) -> None:
        super().__init__()
        self.stop_at: int | None = None
        self.accesses = 0

    def _tick(self) -> None:
        if self.stop_at is not None:
            self.accesses += 1
            if self.accesses == self.stop_at:
                self.stop_at = None
                raise Stopped

    def __getitem__(self, key):
        self._tick()
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        self._tick()
        super().__setitem__(key, value)

    def __delitem__(self, key):
        self._tick()
        super().__delitem__(key)

    def get(self, key, default=None):
        self._tick()
        return super().get(key, default)


@pytest.fixture()
def state(monkeypatch) -> StoppingState:
    fake = StoppingState()
    monkeypatch.setattr(session.st, "session_state", fake)
    session.load_sample(OLD)
    return fake


def _accesses_of_one_load(state: StoppingState) -> int:
    state.stop_at, state.accesses = 10 ** 9, 0
    session.load_cluster_text(NEW_TEXT, NEW)
    count, state.stop_at = state.accesses, None
    session.load_sample(OLD)
    return count


def _loaded_new(state: StoppingState) -> None:
    assert session.PENDING not in state
    assert state[session.SOURCE] == NEW
    assert state[session.VALID_TEXT] == state[session.TEXT] == NEW_TEXT
    assert state[session.SIM].cursor == 0 and len(state[session.SIM].trace) > 0
    assert state[session.ERRORS] == []


def test_a_load_stopped_at_any_access_is_finished_by_the_next_run(state) -> None:
    total = _accesses_of_one_load(state)
    assert total >= 10                              # the load touches the state that often
    old_sim = state[session.SIM]
    for n in range(1, total + 1):
        state.stop_at, state.accesses = n, 0
        with pytest.raises(Stopped):
            session.load_cluster_text(NEW_TEXT, NEW)
        assert session.finish_interrupted_load() == []
        if n <= 3:                                      # stopped before the load was written down
            assert state[session.SIM] is old_sim        # (1: the draft not kept yet, 2 and 3: kept)
            assert (state[session.TEXT] == NEW_TEXT) == (n >= 2)
        else:
            _loaded_new(state)
        session.load_sample(OLD)
        old_sim = state[session.SIM]


def test_an_uninterrupted_load_leaves_nothing_pending(state) -> None:
    assert session.load_cluster_text(NEW_TEXT, NEW) == []
    _loaded_new(state)
    assert session.finish_interrupted_load() == []


def test_a_pending_load_that_does_not_load_keeps_the_run_and_says_why(state) -> None:
    old_sim = state[session.SIM]
    session._write_down((BROKEN, "broken.yaml", BROKEN))
    errors = session.finish_interrupted_load()
    assert errors and any("image" in e for e in errors)
    assert state[session.SIM] is old_sim and state[session.ERRORS] == errors
    assert session.PENDING not in state


DRAFT = "# an unapplied draft\n"


def _moved_with_a_draft(state: StoppingState):
    sim = state[session.SIM]
    sim.seek(5)
    session.set_cluster_text(DRAFT)
    return sim


def _restarted(state: StoppingState, before) -> None:
    assert session.PENDING not in state
    sim = state[session.SIM]
    assert sim is not before and sim.cursor == 0 and sim.inputs is before.inputs
    assert len(sim.trace) == len(before.trace)         # run to its end again (a small cluster)
    assert state[session.TEXT] == DRAFT                # Restart keeps the draft
    assert state[session.SOURCE] == OLD


def test_a_restart_stopped_at_any_access_is_finished_by_the_next_run(state) -> None:
    before = _moved_with_a_draft(state)
    state.stop_at, state.accesses = 10 ** 9, 0
    session.reset()
    total, state.stop_at = state.accesses, None
    assert total >= 4
    for n in range(1, total + 1):
        before = _moved_with_a_draft(state)
        state.stop_at, state.accesses = n, 0
        with pytest.raises(Stopped):
            session.reset()
        assert session.finish_interrupted_load() == []
        if n <= 3:                                     # stopped before it was written down
            assert state[session.SIM] is before and before.cursor == 5
        else:
            _restarted(state, before)


def test_a_restart_while_a_load_is_pending_finishes_the_load(state) -> None:
    session._write_down((NEW_TEXT, NEW, NEW_TEXT))
    session.reset()
    _loaded_new(state)


@pytest.mark.parametrize("work", ["load", "restart"])
def test_work_installed_but_not_crossed_off_is_not_done_again(state, work) -> None:
    """Stopped at its last access (crossing it off), the work is done: the next run keeps the very
    Simulation it installed, with the steps taken on it since (a Run to idle in slices is tied to it)."""
    def do() -> None:
        session.load_cluster_text(NEW_TEXT, NEW) if work == "load" else session.reset()

    state.stop_at, state.accesses = 10 ** 9, 0
    do()
    last, state.stop_at = state.accesses, None
    state.stop_at, state.accesses = last, 0
    with pytest.raises(Stopped):
        do()
    assert session.PENDING in state
    installed = state[session.SIM]
    installed.seek(3)
    assert session.finish_interrupted_load() == []
    assert session.PENDING not in state
    assert state[session.SIM] is installed and installed.cursor == 3


def test_a_step_after_a_stopped_restart_acts_on_the_restarted_run(state) -> None:
    """A callback that follows a Restart stopped before its install (Run to idle, ▶) gets the
    restarted run from ``current()``, not the old one (a Run to idle tied to the old run did nothing)."""
    before = _moved_with_a_draft(state)
    state.stop_at, state.accesses = 4, 0               # the first access after it was written down
    with pytest.raises(Stopped):
        session.reset()
    assert state[session.SIM] is before
    sim = session.current()
    _restarted(state, before)
    assert sim is state[session.SIM]
