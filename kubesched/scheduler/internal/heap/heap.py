"""A keyed binary heap: the structure behind activeQ and podBackoffQ.

Upstream: pkg/scheduler/internal/heap/heap.go (Heap.Add, AddIfNotPresent, Update,
Delete, Peek, Pop, Get, GetByKey, List, Len) on top of Go's container/heap
(Push, Pop, Remove, Fix, up, down).

The sift-up / sift-down steps are Go's, on a list of keys, so items that compare equal
come out in exactly the order upstream would give for the same sequence of operations
(``heapq`` would not: it compares differently and re-heapifies differently).

Deviation: ``List`` returns the items in heap-array order; upstream ranges over a Go
map, whose order is random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Optional, TypeVar

T = TypeVar("T")

KeyFunc = Callable[[T], str]
LessFunc = Callable[[T, T], bool]


class HeapError(LookupError):
    """An operation on an item that is not there (upstream returns an error)."""


@dataclass(slots=True)
class _HeapItem(Generic[T]):
    obj: T
    index: int


class Heap(Generic[T]):
    """Items keyed by ``key_func``; ``less_func(a, b)`` puts ``a`` before ``b``."""

    __slots__ = ("_items", "_queue", "_key_func", "_less_func")

    def __init__(self, key_func: KeyFunc[T], less_func: LessFunc[T]) -> None:
        self._items: dict[str, _HeapItem[T]] = {}
        self._queue: list[str] = []
        self._key_func = key_func
        self._less_func = less_func

    # -- public API (heap.go) -----------------------------------------------------
    def add(self, obj: T) -> None:
        """Insert ``obj``, or replace the item with the same key and re-fix its place."""
        key = self._key_func(obj)
        item = self._items.get(key)
        if item is not None:
            item.obj = obj
            self._fix(item.index)
        else:
            self._push(key, obj)

    def add_if_not_present(self, obj: T) -> None:
        """Insert ``obj`` only when no item has its key."""
        key = self._key_func(obj)
        if key not in self._items:
            self._push(key, obj)

    def update(self, obj: T) -> None:
        """Same as ``add`` (upstream ``Update``)."""
        self.add(obj)

    def delete(self, obj: T) -> None:
        """Remove the item with ``obj``'s key; HeapError("object not found") if absent."""
        item = self._items.get(self._key_func(obj))
        if item is None:
            raise HeapError("object not found")
        self._remove(item.index)

    def peek(self) -> Optional[T]:
        """The head without removing it, or None when empty."""
        if not self._queue:
            return None
        return self._items[self._queue[0]].obj

    def pop(self) -> T:
        """Remove and return the head; HeapError when empty."""
        if not self._queue:
            raise HeapError("object was removed from heap data")
        n = len(self._queue) - 1
        self._swap(0, n)
        self._down(0, n)
        return self._pop_last()

    def get(self, obj: T) -> Optional[T]:
        """The stored item with ``obj``'s key, or None."""
        return self.get_by_key(self._key_func(obj))

    def get_by_key(self, key: str) -> Optional[T]:
        item = self._items.get(key)
        return None if item is None else item.obj

    def list(self) -> list[T]:
        """Every item, in heap-array order (see Deviation)."""
        return [self._items[key].obj for key in self._queue]

    def __len__(self) -> int:
        return len(self._queue)

    def __contains__(self, obj: object) -> bool:
        return self._key_func(obj) in self._items  # type: ignore[arg-type]

    def keys(self) -> list[str]:
        """The keys in heap-array order (index 0 is the head)."""
        return list(self._queue)

    # -- heap.Interface on the data (heap.go ``data``) ----------------------------
    def _less(self, i: int, j: int) -> bool:
        return self._less_func(self._items[self._queue[i]].obj, self._items[self._queue[j]].obj)

    def _swap(self, i: int, j: int) -> None:
        queue = self._queue
        queue[i], queue[j] = queue[j], queue[i]
        self._items[queue[i]].index = i
        self._items[queue[j]].index = j

    def _pop_last(self) -> T:
        key = self._queue.pop()
        return self._items.pop(key).obj

    # -- container/heap algorithms ------------------------------------------------
    def _push(self, key: str, obj: T) -> None:
        self._items[key] = _HeapItem(obj, len(self._queue))
        self._queue.append(key)
        self._up(len(self._queue) - 1)

    def _remove(self, i: int) -> T:
        n = len(self._queue) - 1
        if n != i:
            self._swap(i, n)
            if not self._down(i, n):
                self._up(i)
        return self._pop_last()

    def _fix(self, i: int) -> None:
        if not self._down(i, len(self._queue)):
            self._up(i)

    def _up(self, j: int) -> None:
        while j > 0:
            parent = (j - 1) // 2
            if not self._less(j, parent):
                break
            self._swap(parent, j)
            j = parent

    def _down(self, i0: int, n: int) -> bool:
        i = i0
        while True:
            j1 = 2 * i + 1
            if j1 >= n:
                break
            j = j1
            j2 = j1 + 1
            if j2 < n and self._less(j2, j1):
                j = j2
            if not self._less(j, i):
                break
            self._swap(i, j)
            i = j
        return i > i0
