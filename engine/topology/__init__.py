"""Board kinds. Each has a module that registers it in `BOARD_KINDS` (helpers may sit in
sibling modules named after it, such as `square_board.py`)."""

from __future__ import annotations

import importlib

from engine.topology.base import BOARD_KINDS, Board, Placement, Topology, register

# A new board kind is one new module here, named in this tuple.
_KIND_MODULES: tuple[str, ...] = ("triangular", "square", "tableau", "chain", "nothing")

for _name in _KIND_MODULES:
    importlib.import_module(f"engine.topology.{_name}")

__all__ = ["BOARD_KINDS", "Board", "Placement", "Topology", "register"]
