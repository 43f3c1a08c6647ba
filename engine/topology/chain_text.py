"""The text forms of the `chain` board: moves (`5-0@E`) and positions for scenarios.

A position lists the set, then each arm from the centre outward, every tile written
`inner-outer` (the number touching first), a spinner marked `*`:

    set: 5-5*
    E: 5-0 0-0
    W: 5-6
    N: 5-4

Lines may also be separated by `;`. The tiles are laid in the order written, so an arm
that a spinner opens comes after the arms that cover its sides. Without any `*`, which
doubles spin follows the board's `spinners` rule in that order; with one, exactly the
marked tiles spin. A spinner with a line for its arms (`0-0.N:`, empty or not) keeps
arms named after it; the other first to open gets `N` and `S`.
"""

from __future__ import annotations

import re
from typing import Sequence

from engine.pieces import Piece
from engine.topology.base import Board  # (a ChainBoard: the chain module imports this one)


_MOVE_RE = re.compile(r"^\s*([0-9]+)\s*-\s*([0-9]+)\s*(?:@\s*(\S+))?\s*$")
_TILE_RE = re.compile(r"^([0-9]+)-([0-9]+)(\*?)$")
_LINE_RE = re.compile(r"^\s*([A-Za-z0-9.\-]+)\s*:\s*(.*)$")


def parse_move(text: str) -> tuple[tuple[int, int], str | None]:
    """`5-0@E` -> ((5, 0), "E"); `5-5` -> ((5, 5), None). ValueError if malformed."""
    match = _MOVE_RE.match(text)
    if not match:
        raise ValueError(f"expected TILE@END (e.g. 5-0@E) or, for the first tile, TILE (e.g. 5-5); got {text!r}")
    a, b, arm = match.groups()
    return (int(a), int(b)), arm


def parse_position(text: str) -> list[tuple[str, list[tuple[int, int, bool]]]]:
    """The lines of a position: (arm, [(inner, outer, spinner mark)]). ValueError names the line."""
    out = []
    for number, line in enumerate(re.split(r"[;\n]", text), 1):
        if not line.strip():
            continue
        match = _LINE_RE.match(line)
        if not match:
            raise ValueError(f"line {number} ({line.strip()!r}): expected `ARM: TILE TILE ...` such as `E: 5-2 2-2`")
        tiles = []
        for word in match.group(2).replace(",", " ").split():
            tile = _TILE_RE.match(word)
            if not tile:
                raise ValueError(f"line {number}: cannot read {word!r}: tiles are written inner-outer, e.g. 5-2")
            tiles.append((int(tile.group(1)), int(tile.group(2)), bool(tile.group(3))))
        out.append((match.group(1), tiles))
    return out


def load_position(board: "Board", text: str, pieces: Sequence[Piece]) -> list[Piece]:
    """Lay out a position on an empty board, taking pieces from `pieces`; the pieces used."""
    lines = parse_position(text)
    if not lines:
        return []
    if lines[0][0].lower() != "set" or len(lines[0][1]) != 1:
        raise ValueError("the first line must be the set, one tile: `set: 3-5`")
    if any(arm.lower() == "set" for arm, _ in lines[1:]):
        raise ValueError("the set is given twice")
    marked = any(mark for _, tiles in lines for *_, mark in tiles)
    board.later = frozenset(arm.rsplit(".", 1)[0] for arm, _ in lines if "." in arm)
    free: dict[tuple[int, int], Piece] = {}
    for piece in pieces:
        free.setdefault(tuple(sorted(piece.corners)), piece)
    used = []
    for arm, tiles in lines:
        for inner, outer, mark in tiles:
            where = f"{arm}: {inner}-{outer}"
            piece = free.pop(tuple(sorted((inner, outer))), None)
            if piece is None:
                raise ValueError(f"{where}: tile {inner}-{outer} is not in the set or is used twice")
            name = _arm_name(board, arm, where) if used else "set"
            if used and board.end_items() and dict(board.end_items())[name] != inner:
                raise ValueError(f"{where}: end {name} shows {dict(board.end_items())[name]}, not {inner}")
            spins = mark if marked else board._spins(inner == outer)
            if spins and inner != outer:
                raise ValueError(f"{where}: only a double can be a spinner")
            board.lay(piece, name, inner, outer, spins)
            used.append(piece)
    return used


def _arm_name(board: "Board", arm: str, where: str) -> str:
    names = {name.lower(): name for name in board.arms}
    if arm.lower() not in names:
        raise ValueError(f"{where}: there is no open end {arm} (open: {', '.join(board.arms)}); a spinner's "
                         "N and S open once both its sides are covered")
    return names[arm.lower()]


def dump_position(board: "Board") -> str:
    """The position as `load_position` reads it."""
    if not board.tiles:
        return ""
    lines = [f"set: {_tile(board.tiles[0])}"]
    # A later spinner's arms are listed even when empty: they say which spinner is not first.
    lines += [f"{arm}: {' '.join(map(_tile, laid))}".rstrip() for arm, laid in board.arms.items()
              if laid or "." in arm]
    return "\n".join(lines)


def _tile(t) -> str:
    return f"{t.inner}-{t.outer}{'*' if t.spinner else ''}"
