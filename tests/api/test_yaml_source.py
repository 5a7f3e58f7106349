"""Strict YAML reading: lines, duplicate keys, YAML 1.1 traps, limits, syntax errors."""

from __future__ import annotations

import time

import pytest

from kubesched.api.yaml_source import MAX_ALIAS_NODES, MAX_SOURCE_BYTES, read_documents
from tests.api.helpers import errors, load, problems


def test_lines_of_field_paths() -> None:
    docs, error = read_documents("a: 1\n---\nkind: Pod\nspec:\n  containers:\n  - name: c\n    image: x\n")
    assert error is None
    assert [(d.index, d.line) for d in docs] == [(0, 1), (1, 3)]
    assert docs[1].lines == {"kind": 3, "spec": 4, "spec.containers": 5, "spec.containers[0]": 6,
                             "spec.containers[0].name": 6, "spec.containers[0].image": 7}
    assert docs[1].line_of("spec.containers[0].resources.requests.cpu") == 6


@pytest.mark.parametrize("name,text,want", [
    ("duplicate top-level key",
     "apiVersion: v1\nkind: Pod\nkind: Node\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n",
     ['cluster.yaml:3: Pod default/a: kind: duplicate key "kind" (first at line 2)']),
    ("duplicate label key",
     "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: x\n    a: y\n",
     ['cluster.yaml:7: Node n: metadata.labels.a: duplicate key "a" (first at line 6)']),
    ("duplicate key in a flow mapping",
     "apiVersion: v1\nkind: Node\nmetadata: {name: n, name: m}\n",
     ['cluster.yaml:3: Node n: metadata.name: duplicate key "name" (first at line 3)']),
])
def test_duplicate_keys(name: str, text: str, want: list[str]) -> None:
    assert errors(text) == want


NODE_WITH = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    {label}\n"


@pytest.mark.parametrize("label,want", [
    ("enabled: yes", 'metadata.labels.enabled: must be a string, but YAML read unquoted yes as a boolean: write "yes"'),
    ("enabled: no", 'metadata.labels.enabled: must be a string, but YAML read unquoted no as a boolean: write "no"'),
    ("enabled: on", 'metadata.labels.enabled: must be a string, but YAML read unquoted on as a boolean: write "on"'),
    ("enabled: True", 'metadata.labels.enabled: must be a string, but YAML read unquoted True as a boolean: write "True"'),
    ("version: 1.10", 'metadata.labels.version: must be a string, but YAML read unquoted 1.10 as a number: write "1.10"'),
    ("mode: 0755", 'metadata.labels.mode: must be a string, but YAML read unquoted 0755 as an integer: write "0755"'),
    ("port: 8080", 'metadata.labels.port: must be a string, but YAML read unquoted 8080 as an integer: write "8080"'),
    ("day: 2020-01-01", 'metadata.labels.day: must be a string, but YAML read unquoted 2020-01-01 as a timestamp: '
                        'write "2020-01-01"'),
    ("yes: x", 'metadata.labels.yes: key must be a string, but YAML read unquoted yes as a boolean: write "yes"'),
    ("1.10: x", 'metadata.labels.1.10: key must be a string, but YAML read unquoted 1.10 as a number: write "1.10"'),
])
def test_yaml_11_traps(label: str, want: str) -> None:
    assert errors(NODE_WITH.replace("{label}", label)) == [f"cluster.yaml:6: Node n: {want}"]


@pytest.mark.parametrize("label", ['enabled: "yes"', "enabled: 'no'", 'version: "1.10"', "name: web"])
def test_quoted_scalars_are_strings(label: str) -> None:
    assert problems(NODE_WITH.replace("{label}", label)) == []


@pytest.mark.parametrize("field,value,want", [
    ("image", "1.10", 'spec.containers[0].image: must be a string, but YAML read unquoted 1.10 as a number: '
                      'write "1.10"'),
    ("name", "yes", 'spec.containers[0].name: must be a string, but YAML read unquoted yes as a boolean: '
                    'write "yes"'),
])
def test_traps_in_container_fields(field: str, value: str, want: str) -> None:
    text = f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers:\n  - {field}: {value}\n"
    if field != "name":
        text += "    name: c\n"
    assert errors(text)[0] == f"cluster.yaml:6: Pod default/p: {want}"


def test_trap_in_toleration_value_and_node_selector() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {ssd: true}\n"
            "  tolerations: [{key: k, value: off}]\n  containers: [{name: c}]\n")
    assert errors(text) == [
        'cluster.yaml:5: Pod default/p: spec.nodeSelector.ssd: must be a string, but YAML read unquoted true '
        'as a boolean: write "true"',
        'cluster.yaml:6: Pod default/p: spec.tolerations[0].value: must be a string, but YAML read unquoted '
        'off as a boolean: write "off"',
    ]


@pytest.mark.parametrize("name,text,want", [
    ("bad indentation", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n name: b\n",
     "cluster.yaml:5: document 0: YAML syntax error (column 2): while parsing a block mapping, did not find "
     "expected key"),
    ("mapping value in plain scalar", "a: b: c\n",
     "cluster.yaml:1: document 0: YAML syntax error (column 5): mapping values are not allowed in this context"),
    ("error in second document", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\n[unclosed\n",
     "cluster.yaml:6: document 1: YAML syntax error (column 1): while parsing a flow sequence, "
     "did not find expected ',' or ']'"),
    ("unknown tag", "apiVersion: v1\nkind: Node\nmetadata: {name: !!python/object a}\n",
     "cluster.yaml:3: document 0: metadata.name: cannot read 'a': could not determine a constructor for "
     "the tag 'tag:yaml.org,2002:python/object'"),
    ("control character on line 3", "a: 1\nb: 2\nc: \x07\n",
     "cluster.yaml:3: document 0: YAML error (column 4): unacceptable character #x0007: control characters "
     "are not allowed"),
    ("control character after CRLF and non-ASCII text", "a: é\r\nb: [\r\n  x\x00]\n",
     "cluster.yaml:3: document 0: YAML error (column 4): unacceptable character #x0000: control characters "
     "are not allowed"),
    ("control character after a line separator", "a: 1\u2028b: \x1b\n",
     "cluster.yaml:2: document 0: YAML error (column 4): unacceptable character #x001b: control characters "
     "are not allowed"),
    ("recursive alias", "a: &x [*x]\n",
     "cluster.yaml:1: document 0: recursive alias: a node contains itself"),
])
def test_syntax_errors(name: str, text: str, want: str) -> None:
    assert errors(text) == [want]


def test_size_cap() -> None:
    text = "# " + "x" * MAX_SOURCE_BYTES + "\n"
    assert errors(text) == [f"cluster.yaml:1: document 0: input is {len(text)} bytes, larger than the "
                            f"{MAX_SOURCE_BYTES} bytes (5 MiB) limit"]


def billion_laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_fails_fast() -> None:
    start = time.process_time()
    got = errors(billion_laughs())
    assert got == [f"cluster.yaml:1: document 0: too many alias expansions (more than {MAX_ALIAS_NODES} "
                   "nodes): refusing a possible alias bomb"]
    assert time.process_time() - start < 5  # generous: a real expansion would never finish


def test_aliases_and_merge_keys_are_read() -> None:
    cluster = load("""
        apiVersion: v1
        kind: Node
        metadata:
          name: n
          labels: &common {zone: a, tier: web}
          annotations:
            <<: *common
            tier: explicit
        """)
    node = cluster.objects[0]
    assert (dict(node.metadata.labels), dict(node.metadata.annotations)) == (
        {"zone": "a", "tier": "web"}, {"tier": "explicit", "zone": "a"})


def test_empty_documents_are_skipped_but_counted() -> None:
    text = "---\n---\n# only a comment\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\n  bad: indent\n"
    assert [e.split(": ")[1] for e in errors(text)] == ["document 2"]
