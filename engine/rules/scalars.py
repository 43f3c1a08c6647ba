"""Offsets inside a YAML scalar: which character of the file each value character came from.

So that an error at offset 7 of an expression lands on its character in the file, even
when the scalar is quoted, escaped, folded over several lines or a block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.diagnostics import Position


@dataclass(frozen=True)
class Scalar:
    """Where a scalar's text lies in the file, to map offsets in its value to positions."""

    start: int  # character index of the scalar's first character (quote or indicator)
    end: int
    style: str | None  # None plain, "'", '"', "|", ">"
    pos: Position
    value: str = ""  # the scalar's text as YAML read it


_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}


def scalar_offsets(text: str, scalar: Scalar) -> list[int]:
    """For each character of the scalar's value, the index in `text` it was written at.

    Folding (line breaks read as spaces), quoting and escapes are followed. An extra
    entry at the end stands for the position just after the value.
    """
    source = text[scalar.start : scalar.end]
    style = scalar.style
    if style in ("|", ">"):
        pairs = _block_pairs(source, style)
    else:
        quoted = style in ("'", '"')
        body = source[1:-1] if quoted and len(source) >= 2 else source
        pairs = _flow_pairs(body, style, 1 if quoted else 0)
    if len(pairs) not in (len(scalar.value), len(scalar.value.rstrip("\n"))):
        return []  # a layout not followed here: callers fall back to the scalar's start
    index = [scalar.start + i for _, i in pairs]
    end = scalar.end - (1 if style in ("'", '"') else 0)
    return index + [end]


def _flow_pairs(body: str, style: str | None, base: int) -> list[tuple[str, int]]:
    """(character, index) for a plain or quoted scalar, folding its line breaks."""
    out: list[tuple[str, int]] = []
    lines = body.split("\n")
    offset = base
    blank_run = 0
    for number, line in enumerate(lines):
        stripped_left = line if number == 0 else line.lstrip(" \t")
        lead = len(line) - len(stripped_left)
        content = stripped_left if number == len(lines) - 1 else stripped_left.rstrip(" \t")
        if number > 0:
            if not content and number < len(lines) - 1:
                blank_run += 1
                offset += len(line) + 1
                continue
            joined_by_escape = style == '"' and out and out[-1][0] == "\\escaped-break"
            if joined_by_escape:
                out.pop()
            elif blank_run:
                out += [("\n", offset - 1)] * blank_run
            else:
                out.append((" ", offset - 1))
            blank_run = 0
        out += _line_pairs(content, style, offset + lead)
        offset += len(line) + 1
    return out


def _line_pairs(content: str, style: str | None, start: int) -> list[tuple[str, int]]:
    if style == "'":
        out, i = [], 0
        while i < len(content):
            out.append(("'" if content.startswith("''", i) else content[i], start + i))
            i += 2 if content.startswith("''", i) else 1
        return out
    if style == '"':
        out, i = [], 0
        while i < len(content):
            if content[i] == "\\" and i + 1 < len(content):
                size = 2 + _ESCAPE_LENGTH.get(content[i + 1], 0)
                out.append(("?", start + i))
                i += size
            elif content[i] == "\\":
                out.append(("\\escaped-break", start + i))
                i += 1
            else:
                out.append((content[i], start + i))
                i += 1
        return out
    return [(ch, start + i) for i, ch in enumerate(content)]


_INDICATOR = re.compile(r"[|>][0-9+-]*[^\n]*\n")


def _block_pairs(source: str, style: str) -> list[tuple[str, int]]:
    """(character, index) for a literal or folded block scalar's content."""
    header = _INDICATOR.match(source)
    if not header:
        return []
    lines = source[header.end() :].split("\n")
    indent = next((len(l) - len(l.lstrip(" ")) for l in lines if l.strip()), 0)
    out: list[tuple[str, int]] = []
    offset = header.end()
    blanks = 0
    previous_normal = False
    for line in lines:
        content = line[indent:] if line.strip() else ""
        if not content:
            blanks += 1
            offset += len(line) + 1
            continue
        normal = not content.startswith((" ", "\t"))
        if out:
            if style == ">" and previous_normal and normal:
                out += [(" ", offset - 1)] if blanks == 0 else [("\n", offset - 1)] * blanks
            else:
                out += [("\n", offset - 1)] * (blanks + 1)
        out += [(ch, offset + indent + i) for i, ch in enumerate(content)]
        previous_normal, blanks = normal, 0
        offset += len(line) + 1
    return out
