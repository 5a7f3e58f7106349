"""helper.snapshot: the Score plugins' node lookup and the error texts upstream's Score methods give."""

import pytest

from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.plugins.noderesources import least_allocated, most_allocated
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.plugin_builders import handle, node, pod

MISSING = 'getting node "gone" from Snapshot: nodeinfo not found for node name "gone"'


def test_lookup_finds_the_node_info_or_none():
    h = handle([node("n1")])
    assert get_node_info(h.snapshot, "n1") is h.snapshot.get("n1")
    assert get_node_info(h.snapshot, "gone") is None


@pytest.mark.parametrize("name, node_is_nil, text", [
    ("gone", False, MISSING),
    ("gone", True, MISSING + ", node is nil: true"),
    ("bare", False, 'getting node "bare" from Snapshot: <nil>'),  # a NodeInfo without its Node
    ("bare", True, 'getting node "bare" from Snapshot: <nil>, node is nil: true'),
])
def test_lookup_error(name, node_is_nil, text):
    h = handle([])
    h.snapshot.node_info_map["bare"] = NodeInfo()
    assert lookup_error(h.snapshot, name, node_is_nil) == text


def test_plugins_read_the_lister_once_at_new_and_word_their_errors():
    h = handle([node("n1", allocatable={"cpu": "1", "memory": "1Gi"})])
    assert node_infos_of(h) is h.snapshot and node_infos_of(None) is None
    assert least_allocated.new(None, h).score(CycleState(), pod(), "gone") == (0, Status(Code.ERROR, (MISSING,)))
    assert most_allocated.new(None, h).score(CycleState(), pod(), "gone") == (
        0, Status(Code.ERROR, (MISSING + ", node is nil: true",)))
