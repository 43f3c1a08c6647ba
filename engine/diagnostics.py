"""Positions, diagnostics, the registry of diagnostic codes, and their formatters.

The bottom layer: everything else reports problems through these types. A layer
declares its own codes with `define` at import time; `docs/diagnostics.md` documents
every code and a test checks that each one has a failing fixture there.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Sequence


@dataclass(frozen=True, order=True)
class Position:
    """A place in a file: 1-based line and column."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def shifted(self, offset: int, text: str) -> "Position":
        """The position `offset` characters into `text`, a scalar that starts here."""
        before = text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return Position(self.path, self.line, self.col + offset)
        return Position(self.path, self.line + newlines, offset - before.rfind("\n"))


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Code:
    """A stable diagnostic code, e.g. `E302 unknown-name`."""

    code: str
    name: str
    summary: str
    severity: Severity = Severity.ERROR


CODES: dict[str, Code] = {}


def define(code: str, name: str, summary: str, severity: Severity = Severity.ERROR) -> Code:
    """Register a diagnostic code; redefining one with other words is a programming error."""
    entry = Code(code, name, summary, severity)
    existing = CODES.get(code)
    if existing is not None and existing != entry:
        raise ValueError(f"diagnostic code {code} defined twice differently")
    CODES[code] = entry
    return entry


@dataclass(frozen=True)
class Diagnostic:
    """One problem found, with where it is and, when one can be suggested, a fix."""

    code: str
    message: str
    pos: Position | None = None
    help: str | None = None
    severity: Severity | None = None  # None: the code's own severity

    @property
    def level(self) -> Severity:
        if self.severity is not None:
            return self.severity
        entry = CODES.get(self.code)
        return entry.severity if entry else Severity.ERROR

    @property
    def name(self) -> str:
        entry = CODES.get(self.code)
        return entry.name if entry else ""

    @property
    def is_error(self) -> bool:
        return self.level is Severity.ERROR

    def as_dict(self) -> dict:
        pos = self.pos
        return {
            "path": pos.path if pos else None,
            "line": pos.line if pos else None,
            "col": pos.col if pos else None,
            "severity": self.level.value,
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "help": self.help,
        }


@dataclass
class RulecraftError(Exception):
    """Raised at an API boundary, carrying every problem that was found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return format_text(self.diagnostics)


def has_errors(diagnostics: Iterable[Diagnostic], strict: bool = False) -> bool:
    """Whether any diagnostic fails a check (`strict`: warnings fail too)."""
    return any(d.is_error or strict for d in diagnostics)


def sort_key(d: Diagnostic):
    pos = d.pos or Position("")
    return (pos.path, pos.line, pos.col, d.code, d.message)


# What a terminal would obey rather than show: C0 (but the newline) and C1 controls, DEL,
# the soft hyphen, zero-width and bidirectional marks, line and paragraph separators, BOM.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f"
                      "\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = True) -> str:
    """`text` with every control character written as an escape (`\\x1b`, `\\u2028`), so
    that a string from a ruleset or a record cannot drive the user's terminal.

    >>> printable("a\x1b]0;PWNED\x07b")
    'a\\\\x1b]0;PWNED\\\\x07b'
    """
    text = str(text)
    if not newlines:
        text = text.replace("\n", "\\n")
    return _CONTROL.sub(_escaped, text)


def format_text(diagnostics: Sequence[Diagnostic]) -> str:
    """`path:line:col: severity[CODE] message`, then `  help: ...` when there is one."""
    lines = []
    for d in diagnostics:
        where = f"{d.pos}: " if d.pos else ""
        lines.append(printable(f"{where}{d.level.value}[{d.code}] {d.message}"))
        if d.help:
            lines.append(printable(f"  help: {d.help}"))
    return "\n".join(lines)


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([d.as_dict() for d in diagnostics], indent=2)


def _escape_github(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow annotation lines."""
    lines = []
    for d in diagnostics:
        kind = "error" if d.is_error else "warning"
        props = []
        if d.pos:
            props += [f"file={d.pos.path}", f"line={d.pos.line}", f"col={d.pos.col}"]
        props.append(f"title={d.code} {d.name}".rstrip())
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        lines.append(printable(f"::{kind} {','.join(props)}::{_escape_github(message)}"))
    return "\n".join(lines)


FORMATTERS = {"text": format_text, "json": format_json, "github": format_github}


MAX_CANDIDATES = 200  # names compared for one `did you mean`


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to a mistyped word, for a `did you mean` help line.

    Among many candidates only those sharing the word's first two characters are
    compared, at most MAX_CANDIDATES of them: difflib compares each one, and thousands of
    unknown names against thousands of definitions took minutes.
    """
    import difflib

    pool = list(candidates)
    if len(pool) > MAX_CANDIDATES:
        head = word[:2]
        pool = [c for c in pool if c.startswith(head)][:MAX_CANDIDATES]
    found = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return found[0] if found else None


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 game`, `2 games`: a count with its noun in the right number (every layer's
    messages use it, so that none prints "1 pieces")."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def file_reason(exc: OSError, path: object) -> str:
    """Why a file could not be read or written, in words ("there is no folder out"), not
    the C library's ("No such file or directory")."""
    import errno
    from pathlib import Path

    target = Path(str(path)).expanduser()
    if exc.errno == errno.ENOENT:
        parent = target.parent
        return (f"there is no folder {parent}" if not parent.exists()
                else f"there is no file {target}")
    words = {errno.EACCES: "permission denied", errno.EPERM: "permission denied",
             errno.EISDIR: "it is a folder", errno.ENOTDIR: "a part of the path is a file",
             errno.ENOSPC: "the disk is full", errno.EROFS: "the disk is read-only",
             errno.ENAMETOOLONG: "the name is too long"}
    return words.get(exc.errno, (exc.strerror or type(exc).__name__).lower())
