"""What a drawing marks on a board, as target ids (`2,1`, `H8`, `5`: the board kind's
names of cells or slots), and the (piece, target) pairs a move is made of."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Marks:
    """Target ids to draw as legal targets, as highlighted (a move asked about), and as
    the last move's."""

    targets: set[str] = field(default_factory=set)
    highlight: set[str] = field(default_factory=set)
    last: set[str] = field(default_factory=set)
    pieces: set[int] = field(default_factory=set)  # uids of highlighted pieces
    last_pieces: set[int] = field(default_factory=set)  # uids the last move(s) laid

    def classes(self, target: str, base: str) -> str:
        """`base` plus `target`, `highlight` and `last` as they apply to `target`."""
        out = [base]
        for name in ("targets", "highlight", "last"):
            if target in getattr(self, name):
                out.append(name.rstrip("s"))
        return " ".join(out)


def generic_pairs(move) -> list[tuple[int | None, str | None]]:
    """(piece uid, None) for each piece a move names (exchange, or an unknown kind); a
    move to a declared zone pairs each piece with the zone (`key:index`)."""
    data = getattr(move, "data", None)
    pieces = getattr(data, "pieces", None)
    target = getattr(data, "target", None)
    if pieces is not None and isinstance(target, str):
        return [(p.uid, f"{target}:{getattr(data, 'target_index', 0)}") for p in pieces]
    if pieces is None and isinstance(data, (tuple, list)):
        pieces = [p for p in data if hasattr(p, "uid")]
    return [(p.uid, None) for p in pieces or ()]
