"""Status, codes and merging (framework/v1alpha1/interface.go)."""

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import (Code, Status, code_of, is_success,
                                                              merge_statuses)


def test_success_is_none():
    assert Status.new(Code.SUCCESS) is None
    assert is_success(None) and code_of(None) == Code.SUCCESS


@pytest.mark.parametrize("codes, want_code, want_reasons", [
    ([Code.UNSCHEDULABLE, Code.UNSCHEDULABLE], Code.UNSCHEDULABLE, ("r0", "r1")),
    ([Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE], Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("r0", "r1")),
    ([Code.ERROR, Code.UNSCHEDULABLE_AND_UNRESOLVABLE], Code.ERROR, ("r0", "r1")),
    ([Code.WAIT], Code.WAIT, ("r0",)),
])
def test_merge(codes, want_code, want_reasons):
    merged = merge_statuses({f"p{i}": Status(c, (f"r{i}",)) for i, c in enumerate(codes)})
    assert (merged.code, merged.reasons) == (want_code, want_reasons)
    assert merged.message() == ", ".join(want_reasons)


def test_code_names_match_upstream():
    assert [str(c) for c in Code] == ["Success", "Error", "Unschedulable",
                                      "UnschedulableAndUnresolvable", "Wait", "Skip"]


class Counter:
    def __init__(self, n):
        self.n = n

    def clone(self):
        return Counter(self.n)


def test_cycle_state_read_write_clone():
    state = CycleState()
    with pytest.raises(StateNotFoundError) as err:
        state.read("k")
    assert str(err.value) == "not found"
    state.write("k", Counter(1))
    copy = state.clone()
    copy.read("k").n = 2
    assert state.read("k").n == 1
    state.delete("k")
    assert state.keys() == []
