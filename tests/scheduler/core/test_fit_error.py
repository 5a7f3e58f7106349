"""FitError.Error(): reason histogram, sorted as strings, and the no-nodes error."""

import pytest

from kubesched.scheduler.core.generic_scheduler import NO_NODES_AVAILABLE, FitError, NoNodesAvailableError
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status


def _st(*reasons, code=Code.UNSCHEDULABLE):
    return Status(code, tuple(reasons))


@pytest.mark.parametrize("num_all, statuses, message", [
    (3, {"a": _st("Insufficient cpu"), "b": _st("node(s) didn't match node selector"),
         "c": _st("node(s) didn't match node selector")},
     "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match node selector."),
    # "10 y" sorts before "2 x": the strings are sorted, not the counts.
    (12, {**{f"x{i}": _st("x") for i in range(2)}, **{f"y{i}": _st("y") for i in range(10)}},
     "0/12 nodes are available: 10 y, 2 x."),
    # one node contributes each of its reasons
    (2, {"a": _st("Insufficient cpu", "Insufficient memory"), "b": _st("Insufficient memory")},
     "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory."),
    # the code does not matter, only the reasons
    (2, {"a": _st("r", code=Code.UNSCHEDULABLE_AND_UNRESOLVABLE), "b": _st("r")},
     "0/2 nodes are available: 2 r."),
    # uppercase sorts before lowercase (byte order)
    (2, {"a": _st("b reason"), "b": _st("B reason")}, "0/2 nodes are available: 1 B reason, 1 b reason."),
    # more nodes than statuses (nodes not examined contribute nothing); no status at all
    (5, {"a": _st("r")}, "0/5 nodes are available: 1 r."),
    (0, {}, "0/0 nodes are available: ."),
])
def test_fit_error_message(num_all, statuses, message):
    err = FitError(object(), num_all, statuses)
    assert str(err) == message
    assert err.num_all_nodes == num_all
    assert err.filtered_nodes_statuses == statuses


def test_no_nodes_available_text():
    assert str(NoNodesAvailableError()) == NO_NODES_AVAILABLE == "no nodes available to schedule pods"
