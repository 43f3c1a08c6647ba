"""Safe YAML loading that keeps a position for every key and value.

PyYAML composes the text into nodes with a safe loader; this module builds plain data
from those nodes itself, so that it can refuse what PyYAML would silently accept
(duplicate keys), cap what could exhaust memory (alias bombs, deep nesting, huge files),
and remember where every key and value was written. Nothing here raises on a bad file:
every problem becomes a positioned `Y1xx` diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.diagnostics import Diagnostic, Position, Severity, define
# `Scalar` lives below, with the offsets it maps (importers may still take it from here)
from engine.rules.scalars import Scalar, scalar_offsets  # noqa: F401

Y_SYNTAX = define("Y100", "yaml-syntax", "the file is not valid YAML")
Y_TAB = define("Y101", "tab-indent", "a tab character in indentation")
Y_DUPLICATE = define("Y102", "duplicate-key", "a key appears twice in one mapping")
Y_IMPLICIT_BOOL = define(
    "Y103", "implicit-boolean", "`yes`/`no`/`on`/`off` read as a boolean", Severity.WARNING
)
Y_EMPTY = define("Y104", "empty-file", "the file holds no YAML document")
Y_ENCODING = define("Y105", "not-utf8", "the file is not valid UTF-8")
Y_TOO_MANY = define("Y106", "too-many-nodes", "too many nodes once aliases are expanded")
Y_TOO_LARGE = define("Y107", "file-too-large", "the file is larger than a ruleset can be")
Y_TOO_DEEP = define("Y108", "too-deep", "mappings and lists nested too deeply")
Y_TAG = define("Y109", "unsupported-tag", "a YAML tag or value type that rulesets do not use")
Y_NOT_MAPPING = define("Y110", "not-a-mapping", "the document is not a mapping of keys")
Y_UNREADABLE = define("Y111", "unreadable-file", "the file cannot be read")
Y_MERGE_KEY = define("Y112", "merge-key", "a YAML merge key `<<`")
Y_BAD_KEY = define("Y113", "bad-key", "a key that is not a plain string or integer")
Y_NUMBER = define("Y114", "number-too-large", "an integer of more digits than any ruleset value can have")

MAX_BYTES = 256_000  # a real ruleset is a few kilobytes; this bounds parse time
MAX_NODES = 20_000  # counted with aliases expanded: stops "billion laughs"
MAX_DEPTH = 64
MAX_DIGITS = 310  # 1024 bits, the expressions' bound; Python reads no int over 4,300 digits

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TRUTHY_WORDS = {"yes", "no", "on", "off", "y", "n"}
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_constructor = yaml.SafeLoader("")  # only its scalar constructors are used

Path_ = tuple  # a path into the data: keys and list indices


@dataclass
class Document:
    """A loaded YAML file: plain data plus the position of every key and value."""

    path: str
    text: str = ""
    data: Any = None
    values: dict[Path_, Position] = field(default_factory=dict)
    keys: dict[Path_, Position] = field(default_factory=dict)
    scalars: dict[Path_, Scalar] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.data is not None and not any(d.is_error for d in self.diagnostics)

    def where(self, *path) -> Position | None:
        """The position of the value at `path` (keys and list indices)."""
        return self.values.get(tuple(path))

    def key_where(self, *path) -> Position | None:
        """The position of the key that names the value at `path`."""
        return self.keys.get(tuple(path))

    def near(self, *path) -> Position:
        """The position of `path`, or of its nearest ancestor that exists."""
        path = tuple(path)
        while path and path not in self.values:
            path = path[:-1]
        return self.values.get(path) or Position(self.path)

    def locator(self, *path) -> Position | None:
        """A position for the scalar at `path` whose `shifted(offset, text)` lands exactly.

        Pass it as the `pos` of an expression: an offset into the scalar's value becomes
        the line and column of that character in the file, whatever the quoting style.
        """
        scalar = self.scalars.get(tuple(path))
        if scalar is None:
            return self.where(*path)
        return ScalarPosition(
            scalar.pos.path, scalar.pos.line, scalar.pos.col, _Located(self.text, scalar)
        )


class _Located:
    """Lazily maps value offsets of one scalar to file positions (see `scalar_offsets`)."""

    def __init__(self, text: str, scalar: Scalar):
        self.text = text
        self.scalar = scalar
        self._map: list[int] | None = None

    def position(self, offset: int) -> Position:
        if self._map is None:
            self._map = scalar_offsets(self.text, self.scalar)
        if not self._map:
            return Position.shifted(self.scalar.pos, offset, self.scalar.value)
        index = self._map[max(0, min(offset, len(self._map) - 1))]
        return position_at(self.text, index, self.scalar.pos.path)


@dataclass(frozen=True)
class ScalarPosition(Position):
    """A Position that knows the scalar it starts, so `shifted` follows its quoting."""

    located: Any = field(default=None, compare=False, repr=False)

    def shifted(self, offset: int, text: str) -> Position:
        if self.located is None:
            return Position.shifted(self, offset, text)
        return self.located.position(offset)

    def __call__(self, offset: int) -> Position:
        """The position of character `offset` of the scalar's value."""
        return self.shifted(offset, "")

    def plain(self) -> Position:
        return Position(self.path, self.line, self.col)


def position_at(text: str, index: int, path: str) -> Position:
    """The 1-based line and column of character `index` of `text`."""
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return Position(path, line + 1, index - start + 1)


def _mark_pos(path: str, mark) -> Position:
    return Position(path, mark.line + 1, mark.column + 1)


def read_text(path: str | Path, display: str | None = None) -> Document:
    """Read a file as UTF-8 text, capping its size; problems become diagnostics."""
    shown = display or str(path)
    doc = Document(shown)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        doc.diagnostics.append(
            Diagnostic(Y_UNREADABLE.code, f"cannot read file: {exc.strerror or exc}", Position(shown))
        )
        return doc
    if len(raw) > MAX_BYTES:
        doc.diagnostics.append(
            Diagnostic(
                Y_TOO_LARGE.code,
                f"file is larger than {MAX_BYTES:,} bytes; a ruleset is a few kilobytes",
                Position(shown),
                help="split it, or check that this is the file you meant",
            )
        )
        return doc
    return parse_bytes(raw, shown, doc)


def parse_bytes(raw: bytes, path: str, doc: Document | None = None) -> Document:
    """Decode UTF-8 (a BOM is allowed) and parse; see `parse_text`."""
    doc = doc or Document(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        pos = position_at(good, len(good), path)
        doc.diagnostics.append(
            Diagnostic(
                Y_ENCODING.code,
                f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                pos,
                help="save the file as UTF-8",
            )
        )
        return doc
    return parse_text(text, path, doc)


def parse_text(text: str, path: str, doc: Document | None = None) -> Document:
    """Parse YAML text into a Document; never raises on bad input."""
    doc = doc or Document(path)
    doc.text = text
    tabs = _tab_diagnostics(text, path)
    doc.diagnostics += tabs
    node, problem = _compose(text, path)
    if problem is not None:
        # A tab usually causes the syntax error too; report the cause only.
        if not any(d.pos.line == problem.pos.line for d in tabs):
            doc.diagnostics.append(problem)
        return doc
    if node is None:
        doc.diagnostics.append(
            Diagnostic(Y_EMPTY.code, "the file is empty", Position(path), help="a ruleset is a mapping")
        )
        return doc
    if not isinstance(node, yaml.MappingNode):
        doc.diagnostics.append(Diagnostic(
            Y_NOT_MAPPING.code, "the document must be a mapping of keys to values",
            _mark_pos(path, node.start_mark),
            help="write `key: value` lines starting at column 1 (`ruleset:`, `players:`, ...)"))
        return doc
    try:
        data = _Builder(doc).build(node, (), 0)
    except _Abort:
        return doc
    # Kept even after errors (a duplicate key keeps its first value) so that later
    # checks can still report what else is wrong; `Document.ok` says whether to trust it.
    doc.data = data
    return doc


def _compose(text: str, path: str):
    """(the root node, None) or (None, the diagnostic saying why it cannot be parsed)."""
    try:
        return yaml.compose(text, Loader=_Loader), None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _mark_pos(path, mark) if mark else Position(path)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        return None, Diagnostic(Y_SYNTAX.code, f"YAML syntax error: {problem}", pos,
                                help=_syntax_help(exc))
    except RecursionError:
        return None, Diagnostic(Y_TOO_DEEP.code, "nesting too deep to parse", Position(path))
    except yaml.reader.ReaderError as exc:
        message = (f"character 0x{exc.character:x} is not allowed in YAML"
                   if isinstance(exc.character, int) else f"YAML reader error: {exc.reason}")
        return None, Diagnostic(Y_SYNTAX.code, message, position_at(text, exc.position, path))
    except (yaml.YAMLError, ValueError) as exc:
        return None, Diagnostic(Y_SYNTAX.code, f"YAML error: {exc}", Position(path))


# PyYAML's names for the constructs, in an author's words.
_PLAIN_NAMES = {"flow sequence": "list `[`", "flow mapping": "mapping `{`",
                "quoted scalar": "quoted string", "block mapping": "mapping",
                "block collection": "list or mapping"}


def _syntax_help(exc: yaml.MarkedYAMLError) -> str | None:
    """Where the construct that failed began (the error itself is often at the end of
    the file), or the usual cause of a stray `:`."""
    if "mapping values are not allowed" in (exc.problem or ""):
        return "a value holding `: ` must be quoted"
    mark, problem = exc.context_mark, exc.problem_mark
    if exc.context and mark is not None and (problem is None or mark.line != problem.line
                                             or mark.column != problem.column):
        what = exc.context.split(" a ", 1)[-1].split(" an ", 1)[-1]
        what = _PLAIN_NAMES.get(what, what)
        return f"check the {what} that starts at line {mark.line + 1}, column {mark.column + 1}"
    return None


def _tab_diagnostics(text: str, path: str) -> list[Diagnostic]:
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        indent = len(line) - len(line.lstrip(" \t"))
        col = line.find("\t", 0, indent)
        if col >= 0:
            out.append(
                Diagnostic(
                    Y_TAB.code,
                    "tab character in indentation; YAML indents with spaces",
                    Position(path, number, col + 1),
                    help="replace the tab with spaces",
                )
            )
            if len(out) >= 20:
                break
    return out


class _Abort(Exception):
    """Stop building: a cap was hit and reported."""


class _Builder:
    """Turns composed nodes into plain data, recording positions and enforcing caps."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.count = 0
        self.active: set[int] = set()

    def build(self, node, path: tuple, depth: int):
        self.count += 1
        if self.count > MAX_NODES:
            self._fail(Y_TOO_MANY, f"more than {MAX_NODES:,} values once aliases are expanded", node)
        if depth > MAX_DEPTH or id(node) in self.active:
            self._fail(Y_TOO_DEEP, f"nested more than {MAX_DEPTH} levels deep (or recursive)", node)
        pos = _mark_pos(self.doc.path, node.start_mark)
        self.doc.values[path] = pos
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path, pos)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                self._check_tag(node, "tag:yaml.org,2002:seq")
                return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
            self._check_tag(node, "tag:yaml.org,2002:map")
            return self._mapping(node, path, depth)
        finally:
            self.active.discard(id(node))

    def _mapping(self, node, path: tuple, depth: int) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key is None:
                continue
            kpos = _mark_pos(self.doc.path, key_node.start_mark)
            if key in out:
                first = self.doc.keys[path + (key,)]
                self.doc.diagnostics.append(
                    Diagnostic(
                        Y_DUPLICATE.code,
                        f"duplicate key `{key}` (first at line {first.line})",
                        kpos,
                        help="remove one of them; YAML would silently keep only the last",
                    )
                )
                continue
            self.doc.keys[path + (key,)] = kpos
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out

    def _key(self, node):
        pos = _mark_pos(self.doc.path, node.start_mark)
        if not isinstance(node, yaml.ScalarNode):
            self._report(Y_BAD_KEY, "a key must be a plain string or integer, not a list or mapping", pos)
            return None
        if node.tag == "tag:yaml.org,2002:merge":
            self._report(Y_MERGE_KEY, "YAML merge keys (`<<`) are not supported", pos,
                         "use `extends` or an overlay to share content")
            return None
        if node.tag == "tag:yaml.org,2002:int" and not node.style:
            value = self._construct(node, pos)
            if isinstance(value, int):
                return value
        if node.tag not in _PLAIN_TAGS:
            self._report(Y_TAG, f"unsupported tag `{node.tag}` on a key", pos)
            return None
        # `on:`, `yes:`, `null:` as keys are names in a ruleset, never booleans or null.
        return node.value

    def _scalar(self, node, path: tuple, pos: Position):
        start, end = node.start_mark.index, node.end_mark.index
        self.doc.scalars[path] = Scalar(start, end, node.style or None, pos, node.value)
        tag = node.tag
        if tag == "tag:yaml.org,2002:timestamp" and not node.style:
            return node.value  # a date-like word is kept as the text written
        if tag not in _PLAIN_TAGS:
            self._report(Y_TAG, f"unsupported tag `{tag}`", pos, "rulesets use plain values")
            return node.value
        value = self._construct(node, pos)
        if tag == "tag:yaml.org,2002:bool" and not node.style:
            if node.value.lower() in _TRUTHY_WORDS:
                self._report(
                    Y_IMPLICIT_BOOL,
                    f"`{node.value}` is read as the boolean {str(value).lower()}",
                    pos,
                    f"quote it (\"{node.value}\") for a string, or write {str(value).lower()}",
                )
        return value

    def _construct(self, node, pos: Position):
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > MAX_DIGITS:
            self._report(Y_NUMBER, f"a number of {len(node.value):,} characters; the limit is"
                         f" {MAX_DIGITS}", pos, "no ruleset value needs a number this large")
            return 0
        try:
            # The tag's constructor directly: `construct_object` would remember every node
            # in the shared loader and keep them all alive.
            return _constructor.yaml_constructors[node.tag](_constructor, node)
        except (yaml.YAMLError, ValueError, OverflowError, KeyError) as exc:
            self._report(Y_TAG, f"cannot read value `{node.value[:40]}`: {exc}", pos)
            return node.value

    def _check_tag(self, node, expected: str) -> None:
        if node.tag != expected:
            self._report(Y_TAG, f"unsupported tag `{node.tag}`",
                         _mark_pos(self.doc.path, node.start_mark))

    def _report(self, code, message: str, pos: Position, help: str | None = None) -> None:
        self.doc.diagnostics.append(Diagnostic(code.code, message, pos, help=help))

    def _fail(self, code, message: str, node) -> None:
        self._report(code, message, _mark_pos(self.doc.path, node.start_mark))
        raise _Abort()
