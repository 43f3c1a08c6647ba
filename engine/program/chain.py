"""The `chain` board kind's part of a generated program (engine/topology/chain.py).

The board is the kind's own `ChainBoard` (one field of the state: the arms and their
open numbers are already small lists) and the placements listed for the position (a
second field, `places`): the listing is `ChainBoard.iter_placements` over the mover's
hand (the opening's pieces alone while the round opens, as `generators._place_moves`),
and a placement's code is its index there, as on the square board. Laying a tile takes
it from the mover's hand by identity (`flow._place`) and calls `apply_placement`. What
the program leaves out is everything round the board: moves, views, contexts.

Not covered (NotCompiled, `for_game`): a condition on the place action (its moves
would need the placement's view for each candidate).
"""

from __future__ import annotations

from engine.topology.chain import Chain

#: how many codes a place action spans: more placements than any hand lists
_WIDTH = 1 << 16


class ChainCode:
    """What the generator writes for a chain board."""

    kind = "chain"
    #: the state fields the board owns, in order
    fields = ("board", "places")
    #: action kinds whose moves are the board's (a tile laid from the hand)
    move_kinds = frozenset({"place"})
    size = 0  # (nothing is dealt onto it)

    @classmethod
    def for_game(cls, game) -> ChainCode:
        """The board's code for `game`; ValueError naming what is not covered."""
        for action in game.model.actions:
            if action.kind == "place" and action.guard is not None:
                raise ValueError(f"a condition on the chain board's place action `{action.name}`")
        return cls(game.model.topology)

    def __init__(self, topology: Chain):
        self.topology = topology

    def constants(self) -> dict:
        """The board's constants (`B_*`) the lines read."""
        return {"B_new": self.topology.new_board}

    def width(self, kind: str) -> int:
        return _WIDTH

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board (`Chain.new_board`), nothing listed."""
        return [f"s[{f['board']}] = B_new()", f"s[{f['places']}] = ()"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a chain board)

    def listing_lines(self, f: dict, action, index: int, seat: str) -> list[str]:
        """Lines setting `pls` (and the state's `places`) to the placements of `seat`'s
        hand: the opening's pieces alone while the round opens (`_place_moves`)."""
        return [
            f"hand = hands[{seat}]", f"first = not s[{f['placed_any']}]",
            f"if first and s[{f['opening']}] is not None:",
            f"    allowed = s[{f['opening']}]",
            "    hand = [p for p in hand if p.uid in allowed]",
            f"pls = s[{f['places']}] = k_list(s[{f['board']}].iter_placements(hand, first, None))",
        ]

    def direct(self, action) -> bool:
        """Whether the listing gives codes itself (always: a code is an index)."""
        return True

    def codes_lines(self, f: dict, index: int, target: str, base: int) -> list[str]:
        """The codes of the placements `pls`, appended to `target`."""
        return [f"{target} = k_list(range({base}, {base} + len(pls)))"]

    def place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """Lay the placement of code `code` (its index in the listing), its tile taken from the mover's hand by
        identity (`flow._place`); the placement stays in the local `pl`."""
        return [
            f"pl = s[{f['places']}][{code}]", f"{piece} = pl.piece",
            "hand = hands[mover]",
            "for i, held in enumerate(hand):",
            f"    if held is {piece}:", "        del hand[i]", "        break",
            f"s[{f['board']}].apply_placement(pl)",
            f"s[{f['t_placed']}] += 1", f"s[{f['placed_any']}] = True",
        ]

    def names(self, f: dict) -> dict[str, str]:
        """`board.<field>` -> its text (`Chain.board_fields`, the count)."""
        board = f"s[{f['board']}]"
        return {"board.count": f"{board}.count", "board.ends": f"{board}.ends",
                "board.open_ends": f"{board}.open_ends", "board.spinners": f"{board}.spinners"}

    def move_names(self, placement: str, applied: bool) -> dict[str, str]:
        """`move.<field>` of `placement` (`PlaceMove`, `chain.MOVE_FIELDS`); `first` is
        the local saying whether it opens the round."""
        names = {"move.opening": "first", "move.count": "1",
                 "move.value": f"{placement}.piece.value",
                 "move.pieces": f"k_list({placement}.pieces)"}
        for name in ("end", "inner", "outer", "double", "crosswise", "spinner"):
            names[f"move.{name}"] = f"{placement}.{name}"
        return names

    def move_arg(self, s: list, f: dict, code: int, game) -> str:
        """The text of the placement of code `code` (its index in the listing) (`5-0@E`, `ChainPlacement.text`)."""
        return s[f["places"]][code].text

    def values(self, board) -> dict:
        """The board's fields for the interpreter's `board` (`Program.from_state`): a
        clone; the listing is made again (`relist`)."""
        return {"board": board.clone(), "places": ()}

    def relist(self, s: list, f: dict, module: dict, hand: list) -> None:
        """The position's placements (`Program.from_state`), which the codes index."""
        first = not s[f["placed_any"]]
        if first and s[f["opening"]] is not None:
            hand = [p for p in hand if p.uid in s[f["opening"]]]
        s[f["places"]] = list(s[f["board"]].iter_placements(hand, first, None))

    def copy_lines(self, f: dict) -> list[str]:
        """The board cloned into the copy `c` of `s` (the listing is shared: never
        changed in place, a new listing replaces it)."""
        return [f"c[{f['board']}] = s[{f['board']}].clone()"]
