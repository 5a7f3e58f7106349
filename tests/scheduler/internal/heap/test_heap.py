"""Keyed heap: upstream heap_test.go scenarios, Go tie order, invariants."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.scheduler.internal.heap import Heap, HeapError


@dataclass(frozen=True)
class Obj:
    name: str
    val: int


def new_heap() -> Heap[Obj]:
    return Heap(lambda o: o.name, lambda a, b: a.val < b.val)


def apply(h: Heap[Obj], ops):
    """Run (op, name, val) tuples; collect popped values."""
    popped = []
    for op, name, val in ops:
        if op == "add":
            h.add(Obj(name, val))
        elif op == "add_if_not_present":
            h.add_if_not_present(Obj(name, val))
        elif op == "update":
            h.update(Obj(name, val))
        elif op == "delete":
            try:
                h.delete(Obj(name, val))
            except HeapError:
                popped.append("not found")
        elif op == "pop":
            popped.append(h.pop().val)
    return popped


# Ported from heap_test.go (TestHeap_Add, _AddIfNotPresent, _Delete).
SCENARIOS = [
    ("Add", [("add", "foo", 10), ("add", "bar", 1), ("add", "baz", 11), ("add", "zab", 30),
             ("add", "foo", 13), ("pop", "", 0), ("pop", "", 0), ("delete", "baz", 11),
             ("add", "foo", 14), ("pop", "", 0), ("pop", "", 0)],
     [1, 11, "not found", 14, 30]),
    ("AddIfNotPresent", [("add_if_not_present", "foo", 10), ("add_if_not_present", "bar", 1),
                         ("add_if_not_present", "baz", 11), ("add_if_not_present", "zab", 30),
                         ("add_if_not_present", "foo", 13), ("pop", "", 0), ("pop", "", 0),
                         ("add_if_not_present", "bar", 14), ("pop", "", 0), ("pop", "", 0)],
     [1, 10, 11, 14]),
    ("Delete", [("add", "foo", 10), ("add", "bar", 1), ("add", "bal", 31), ("add", "baz", 11),
                ("delete", "bar", 200), ("pop", "", 0), ("add", "zab", 30), ("add", "faz", 30),
                ("delete", "non-existent", 10), ("delete", "bal", 31), ("delete", "zab", 30),
                ("pop", "", 0), ("pop", "", 0)],
     [10, "not found", 11, 30]),
]


@pytest.mark.parametrize("name,ops,expected", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_upstream_scenarios(name, ops, expected):
    h = new_heap()
    assert apply(h, ops) == expected
    if name == "Delete":
        assert len(h) == 0


def test_basic_500_ascending():
    h = new_heap()
    for i in range(500, 0, -1):
        h.add(Obj(f"a{i}", i))
    assert [h.pop().val for _ in range(500)] == list(range(1, 501))


def test_update_moves_to_head_and_back():
    h = new_heap()
    for name, val in [("foo", 10), ("bar", 1), ("bal", 31), ("baz", 11)]:
        h.add(Obj(name, val))
    h.update(Obj("baz", 0))
    assert h.keys()[0] == "baz"
    assert h.pop().val == 0
    h.update(Obj("bar", 100))
    assert h.keys()[0] == "foo"


def test_get_and_get_by_key_and_list():
    h = new_heap()
    items = {"foo": 10, "bar": 1, "bal": 30, "baz": 11, "faz": 30}
    for name, val in items.items():
        h.add(Obj(name, val))
    assert h.get(Obj("baz", 0)) == Obj("baz", 11)
    assert h.get(Obj("non-existing", 0)) is None
    assert h.get_by_key("baz") == Obj("baz", 11)
    assert h.get_by_key("non-existing") is None
    assert {o.name: o.val for o in h.list()} == items
    assert h.list()[0] == h.peek()


def test_empty_heap():
    h = new_heap()
    assert h.peek() is None and h.list() == [] and len(h) == 0
    with pytest.raises(HeapError):
        h.pop()


# Equal items: Go's container/heap. Adding a..e (all equal) never sifts up, so the array
# is [a b c d e]. Pop swaps the head with the last element and sifts it down only on a
# strict "less", so: pop a -> [e b c d]; pop e -> [d b c]; pop d -> [c b]; pop c; pop b.
TIE_CASES = [
    ("five equal", ["a", "b", "c", "d", "e"], ["a", "e", "d", "c", "b"]),
    ("three equal", ["x", "y", "z"], ["x", "z", "y"]),
    ("two equal", ["p", "q"], ["p", "q"]),
]


@pytest.mark.parametrize("name,added,popped", TIE_CASES, ids=[c[0] for c in TIE_CASES])
def test_tie_order_matches_go_container_heap(name, added, popped):
    h = new_heap()
    for key in added:
        h.add(Obj(key, 7))
    assert [h.pop().name for _ in added] == popped


def test_tie_order_after_remove_in_middle():
    # [a b c d e] equal; delete c: swap c<->e -> [a b e d c], down/up do nothing, drop c.
    h = new_heap()
    for key in "abcde":
        h.add(Obj(key, 1))
    h.delete(Obj("c", 1))
    assert h.keys() == ["a", "b", "e", "d"]


OPS = st.lists(st.tuples(st.sampled_from(["add", "update", "delete", "pop", "add_if_not_present"]),
                         st.sampled_from(list("abcdefgh")), st.integers(0, 5)), max_size=60)


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_invariants_hold_after_any_operations(ops):
    h = new_heap()
    for op, name, val in ops:
        if op == "pop" and len(h) == 0:
            continue
        if op == "delete" and h.get_by_key(name) is None:
            continue
        apply(h, [(op, name, val)])
        keys = h.keys()
        assert len(set(keys)) == len(keys) == len(h)
        assert all(h._items[k].index == i for i, k in enumerate(keys))
        vals = [h.get_by_key(k).val for k in keys]
        assert all(vals[(i - 1) // 2] <= vals[i] for i in range(1, len(vals)))
    drained = [h.pop().val for _ in range(len(h))]
    assert drained == sorted(drained)
