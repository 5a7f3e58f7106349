"""Line-tracking, bounded YAML reading for manifests.

Upstream: none in the scheduler; this replaces what ``kubectl apply -f`` does
with sigs.k8s.io/yaml (YAML → JSON) before the API server decodes a request.

Documents are composed with PyYAML's ``SafeLoader`` (never an unsafe loader)
and then built into plain Python data by walking the node tree ourselves, so
that every value keeps the line it came from and every plain scalar keeps the
text it was written as. Building it ourselves also lets us:

- reject duplicate mapping keys (YAML says keys are unique; PyYAML keeps the last);
- count alias expansions, so "billion laughs" documents fail fast;
- report non-string mapping keys (``yes:``, ``1.10:``) instead of converting them.

Limits, checked before anything is built (``check_limits``: one pass over the parser's
events, which costs little memory and stops at the first limit crossed): at most
``MAX_SOURCE_BYTES``, ``MAX_DOCUMENTS`` documents, ``MAX_NODES`` YAML values (scalars,
sequences, mappings, aliases) and ``MAX_DEPTH`` levels of nesting. A file past them is
refused in well under a second with the line where it crossed, whatever it holds; a server
may pass tighter limits (``kubesched.sim.limits``).

Deviation: go-yaml (used by kubectl) silently turns a ``yes:`` key into
``"true"``; here it is an error that suggests quoting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

MAX_SOURCE_BYTES = 5 * 1024 * 1024
"""Largest accepted source (5 MiB): bigger inputs are refused before parsing."""
MAX_ALIAS_NODES = 100_000
"""Most nodes that alias expansion may add to one source (billion-laughs guard)."""
MAX_DOCUMENTS = 5_000
"""Most YAML documents in one source (a 5,000-object cluster; a ``List`` may hold more)."""
MAX_NODES = 500_000
"""Most YAML values in one source, before alias expansion (some 10,000 objects)."""
MAX_DEPTH = 100
"""Deepest nesting of mappings and sequences (a Pod spec needs about 12)."""

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_TAG_NAMES = {
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "a timestamp",
}


class SourceError(Exception):
    """A problem that stops reading a source: syntax, size, alias bomb."""

    def __init__(self, message: str, line: int, document: int):
        super().__init__(message)
        self.message = message
        self.line = line
        self.document = document


@dataclass(frozen=True, slots=True)
class Trap:
    """A plain scalar that YAML 1.1 resolved to a non-string (``yes``, ``1.10``, ``0755``)."""

    raw: str
    type_name: str

    def message(self, what: str = "must be a string") -> str:
        return (f'{what}, but YAML read unquoted {self.raw} as {self.type_name}: '
                f'write "{self.raw}"')


@dataclass(slots=True)
class Document:
    """One YAML document: its data, the line of every field path, and YAML traps."""

    index: int
    line: int
    data: Any
    lines: dict[str, int] = field(default_factory=dict)
    traps: dict[str, Trap] = field(default_factory=dict)
    key_errors: list[tuple[str, str, int]] = field(default_factory=list)

    def line_of(self, path: str) -> int:
        """Line of ``path`` or of its nearest recorded ancestor (1-based)."""
        while path:
            if path in self.lines:
                return self.lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            if cut <= 0:
                break
            path = path[:cut]
        return self.lines.get(path, self.line)


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _Builder:
    """Turns one composed node tree into data, recording lines and traps."""

    def __init__(self, doc: Document, budget: list[int]):
        self.doc = doc
        self.budget = budget  # shared remaining alias-expansion budget
        self.seen: set[int] = set()
        self.active: set[int] = set()
        self.constructor = yaml.SafeLoader("")

    def build(self, node: yaml.Node, path: str, aliased: bool = False) -> Any:
        ident = id(node)
        if ident in self.active:
            raise SourceError("recursive alias: a node contains itself", _line(node), self.doc.index)
        if ident in self.seen:
            aliased = True
        self.seen.add(ident)
        if aliased:
            self.budget[0] -= 1
            if self.budget[0] < 0:
                raise SourceError(f"too many alias expansions (more than {MAX_ALIAS_NODES} nodes): "
                                  "refusing a possible alias bomb", _line(node), self.doc.index)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        self.active.add(ident)
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.item(child, f"{path}[{i}]", aliased)
                        for i, child in enumerate(node.value)]
            return self.mapping(node, path, aliased)
        finally:
            self.active.discard(ident)

    def item(self, node: yaml.Node, path: str, aliased: bool) -> Any:
        self.doc.lines.setdefault(path, _line(node))
        return self.build(node, path, aliased)

    def scalar(self, node: yaml.ScalarNode, path: str) -> Any:
        try:
            value = self.constructor.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as err:
            raise SourceError(f"{path or 'document'}: cannot read {node.value!r}: {_describe(err)}",
                              _line(node), self.doc.index) from None
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            raise SourceError(f"{path or 'document'}: cannot read {node.value!r}: {err}",
                              _line(node), self.doc.index) from None
        if not node.style and node.tag in _TAG_NAMES:
            if node.tag != "tag:yaml.org,2002:null":
                self.doc.traps.setdefault(path, Trap(node.value, _TAG_NAMES[node.tag]))
        if isinstance(value, bytes):
            return value.decode("latin-1")
        return value

    def mapping(self, node: yaml.MappingNode, path: str, aliased: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        merges: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            key = self.key(key_node, path)
            sub = join(path, key)
            if key in out:
                self.doc.key_errors.append((sub, f'duplicate key "{key}" (first at line '
                                                 f'{self.doc.lines[sub]})', _line(key_node)))
                continue
            self.doc.lines.setdefault(sub, _line(key_node))
            out[key] = self.build(value_node, sub, aliased)
        for value_node in merges:  # explicit keys win over merged ones ('<<', YAML 1.1)
            for key, value in self.merge(value_node, path, aliased).items():
                out.setdefault(key, value)
        return out

    def key(self, node: yaml.Node, path: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise SourceError(f"{path or 'document'}: a mapping key must be a scalar",
                              _line(node), self.doc.index)
        if node.tag != _STR_TAG:
            trap = Trap(node.value, _TAG_NAMES.get(node.tag, node.tag))
            self.doc.key_errors.append((join(path, node.value), trap.message("key must be a string"),
                                        _line(node)))
        return str(node.value)

    def merge(self, node: yaml.Node, path: str, aliased: bool) -> dict[str, Any]:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        out: dict[str, Any] = {}
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise SourceError(f"{path or 'document'}: '<<' must merge a mapping",
                                  _line(source), self.doc.index)
            for key, value in self.build(source, path, aliased).items():
                out.setdefault(key, value)
        return out


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _document_start(node: yaml.Node | None, fallback: int) -> int:
    return _line(node) if node is not None else fallback


def read_documents(text: str) -> tuple[list[Document], SourceError | None]:
    """All documents of ``text``, and the error that stopped reading, if any.

    Documents read before a syntax error are returned; empty documents are
    returned with ``data=None`` (the caller skips them but keeps the index).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        return [], SourceError(f"input is {size} bytes, larger than the "
                               f"{MAX_SOURCE_BYTES} bytes (5 MiB) limit", 1, 0)
    crossed = check_limits(text)
    if crossed is not None:
        return [], crossed
    documents: list[Document] = []
    budget = [MAX_ALIAS_NODES]
    loader = _LOADER(text)
    try:
        while loader.check_node():
            index = len(documents)
            node = loader.get_node()
            doc = Document(index, _document_start(node, _mark_line(loader)), None)
            if node is not None:
                doc.data = _Builder(doc, budget).build(node, "")
            documents.append(doc)
    except SourceError as err:
        return documents, err
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else 1
        column = f" (column {mark.column + 1})" if mark is not None else ""
        return documents, SourceError(f"YAML syntax error{column}: {_describe(err)}", line, len(documents))
    except yaml.reader.ReaderError as err:
        line, column = line_and_column(text, _char_offset(text, err.position))
        return documents, SourceError(f"YAML error (column {column}): unacceptable character "
                                      f"#x{err.character:04x}: {err.reason}", line, len(documents))
    except yaml.YAMLError as err:
        return documents, SourceError(f"YAML error: {err}", 1, len(documents))
    except RecursionError:
        return documents, SourceError("document is nested too deeply", _mark_line(loader),
                                      len(documents))
    finally:
        loader.dispose()
    return documents, None


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BREAKS = frozenset("\n\r\x85\u2028\u2029")  # YAML 1.1 line breaks, as PyYAML's reader counts them


def _char_offset(text: str, position: int) -> int:
    """libyaml (the C loader) counts UTF-8 bytes; the pure-Python reader counts characters."""
    if _LOADER is yaml.SafeLoader:
        return position
    return len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "ignore"))


def line_and_column(text: str, position: int) -> tuple[int, int]:
    """1-based line and column of a character offset (``\r\n`` is one break)."""
    line, start = 1, 0
    for i, ch in enumerate(text[:position]):
        if ch in _BREAKS and not (ch == "\r" and text[i + 1:i + 2] == "\n"):
            line, start = line + 1, i + 1
    return line, position - start + 1


_STEP = {yaml.DocumentStartEvent: 0, yaml.SequenceStartEvent: 1, yaml.MappingStartEvent: 1,
         yaml.ScalarEvent: 2, yaml.AliasEvent: 2, yaml.SequenceEndEvent: 3, yaml.MappingEndEvent: 3}


def check_limits(text: str, *, max_documents: int = MAX_DOCUMENTS, max_nodes: int = MAX_NODES,
                 max_depth: int = MAX_DEPTH, what: str = "") -> SourceError | None:
    """The first limit ``text`` crosses, as a SourceError at its line; None when within them.

    ``what`` starts the message of a crossed document or value limit (a server's words; by
    default the reader's). A syntax error ends the check quietly: reading the text reports it.
    """
    documents = nodes = depth = 0
    parser = _LOADER(text)
    step = _STEP.get
    try:
        while (event := parser.get_event()) is not None:
            kind = step(type(event))
            if kind == 0:
                documents += 1
                if documents > max_documents:
                    return _crossed(what, f"has more than {max_documents:,} documents", event, documents - 1)
            elif kind == 3:
                depth -= 1
            elif kind is not None:
                nodes += 1
                if nodes > max_nodes:
                    return _crossed(what, f"has more than {max_nodes:,} YAML values", event, documents - 1)
                if kind == 1:
                    depth += 1
                    if depth > max_depth:
                        return _crossed("", f"is nested more than {max_depth} levels deep", event, documents - 1)
    except yaml.YAMLError:
        return None
    finally:
        parser.dispose()
    return None


def _crossed(what: str, limit: str, event: yaml.Event, document: int) -> SourceError:
    message = f"{what}: {limit.removeprefix('has ')}" if what else f"input {limit}: refused before reading"
    return SourceError(message, event.start_mark.line + 1, max(document, 0))


def _describe(err: yaml.MarkedYAMLError) -> str:
    parts = [p for p in (err.context, err.problem) if p]
    return ", ".join(parts) if parts else "invalid YAML"


def _mark_line(loader: Any) -> int:
    get_mark = getattr(loader, "get_mark", None)
    return get_mark().line + 1 if get_mark is not None else 1
