"""The `none` board kind's part of a generated program (engine/topology/nothing.py): a
board that holds nothing, every piece lying in a zone (`engine.program.zones`)."""

from __future__ import annotations


class NoBoardCode:
    """What the generator writes for a board of kind `none`: no field, no move."""

    kind = "none"
    fields = ()
    move_kinds = frozenset()
    size = 0

    def __init__(self, topology):
        self.topology = topology

    def constants(self) -> dict:
        return {}

    def width(self, kind: str) -> int:
        return 0

    def empty_lines(self, f: dict) -> list[str]:
        return []

    def names(self, f: dict) -> dict[str, str]:
        """`board.count` is always 0."""
        return {"board.count": "0"}

    def copy_lines(self, f: dict) -> list[str]:
        return []

    def values(self, board) -> dict:
        return {}
