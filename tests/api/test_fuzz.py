"""Fuzzing: mutated manifests load or raise LoadError, never anything else.

The loader's contract is that it raises nothing but LoadError; its safety net
turns any other exception into an "internal error" problem, so these tests
also insist that no such problem appears.
"""

from __future__ import annotations

import pathlib
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubesched.api.load import LoadedCluster, LoadError, load_cluster

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "sample_clusters"
BASES = [list(yaml.safe_load_all((SAMPLES / name).read_text())) for name in
         ("default.yaml", "taints.yaml", "affinity.yaml", "spread.yaml", "preemption.yaml")]
SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["12x", "1e999999", "-1", "yes", "0755", "", "Exists", "In", "NoSchedule", "v1",
                     "Pod", "List", "2020-01-01T00:00:00Z", "a/b/c", "x" * 300, "1Ki", "system-x"]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=5), SCALARS,
                                                                           max_size=3))


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, prefix + (i,))
    return out


def mutate(docs: list[Any], path: tuple, action: str, value: Any) -> list[Any]:
    if not path:
        return docs if action == "delete" else [value] + docs
    parent: Any = docs
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "replace":
        parent[last] = value
    elif isinstance(parent[last], dict):
        parent[last]["extra"] = value
    elif isinstance(parent[last], list):
        parent[last].append(value)
    else:
        parent[last] = [parent[last], value]
    return docs


def window(data: st.DataObject) -> list[Any]:
    """A few consecutive documents of one sample (keeps each example fast)."""
    docs = BASES[data.draw(st.integers(0, len(BASES) - 1))]
    start = data.draw(st.integers(0, len(docs) - 1))
    return docs[start:start + data.draw(st.integers(1, 4))]


def check(text: str) -> None:
    try:
        result = load_cluster(text, filename="fuzz.yaml")
    except LoadError as err:
        assert not any(p.message.startswith("internal error") for p in err.problems), err
        assert all(isinstance(p.line, int) and p.line >= 1 for p in err.problems)
        return
    assert isinstance(result, LoadedCluster)


@SETTINGS
@given(st.data())
def test_structural_mutations(data: st.DataObject) -> None:
    docs = yaml.safe_load(yaml.safe_dump(window(data)))
    for _ in range(data.draw(st.integers(1, 4))):
        if len(paths(docs)) < 2:
            break
        path = data.draw(st.sampled_from(paths(docs)[1:]))
        action = data.draw(st.sampled_from(["delete", "replace", "replace", "grow"]))
        docs = mutate(docs, path, action, data.draw(VALUES))
    check(yaml.safe_dump_all(docs, sort_keys=False))


@SETTINGS
@given(st.data())
def test_text_mutations(data: st.DataObject) -> None:
    text = yaml.safe_dump_all(window(data), sort_keys=False)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["insert", "cut", "truncate"]))
        if kind == "insert":
            garbage = data.draw(st.one_of(st.text(max_size=8), st.sampled_from(
                [":", "- ", "&a ", "*a", "!!binary ", "{", "]", "\t", "---\n", "<<: ", "? ", "\x00", "'", '"'])))
            text = text[:at] + garbage + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 20)):]
        else:
            text = text[:at]
    check(text)


@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    check(text)
