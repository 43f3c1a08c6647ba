"""The board of a program's state as its kind's own `Board` (engine/topology), for a
view (`engine.program.views`): one builder per board kind, by kind name.

- `triangular` and `chain`: the program keeps the kind's board object itself (one
  field): the view hands it out;
- `tableau`: a `TableauBoard` laid out from the program's cards in the slots its mask
  says hold one (`lay_out`: the faces follow from what remains), its deal
  (`deal_uids`, what `key` reads) the cards right after the round's deal, which a
  replay of the log sees (`TableauWatch`);
- `square`: a `SquareBoard` laid out from the program's cell values and joker cells
  (`lay_out`); the piece on each cell, which the program does not keep, is the one a
  replay of the log sees laid there (`SquareWatch`); without a replay, the first free
  piece of the cell's value (the same value and name, maybe another uid);
- `none`: the kind's empty board.
"""

from __future__ import annotations


def board_of(view):
    """The board of the position `view` reads, as its kind's `Board`."""
    return _BUILDERS[view.game.model.topology.kind](view)


def _kept(view):
    """The kind's own board, one field of the state (`triangular`, `chain`)."""
    return view.s[view.tables.f["board"]]


def _empty(view):
    return view.game.model.topology.new_board()


def _tableau(view):
    """The cards of the slots the mask says hold one (a search's step leaves a taken
    card in `cards`, which its forks share: `TableauCode.remove_lines`)."""
    f, s = view.tables.f, view.s
    mask = s[f["mask"]]
    cards = [card if mask >> slot & 1 else None for slot, card in enumerate(s[f["cards"]])]
    board = view.game.model.topology.new_board()
    replay = view.replay()
    board.lay_out(cards, replay.watch.deal if replay is not None else None)
    return board


def _square(view):
    f, s = view.tables.f, view.s
    values = s[f["board"]][0]  # (`SquareBoard.v`: a cell's value, -1 empty, -2 off the board)
    jokers = s[f["jokers"]] if "jokers" in f else 0
    cells = [(c, x, bool(jokers >> c & 1)) for c, x in enumerate(values) if x >= 0]
    replay = view.replay()
    pieces = replay.watch.pieces if replay is not None else _first_free(view, cells)
    board = view.game.model.topology.new_board()
    board.lay_out([(c, x, joker, pieces[c]) for c, x, joker in cells])
    return board


def _first_free(view, cells: list) -> dict:
    """cell -> the first piece (by uid) of the cell's value, or a joker for a joker
    cell, among those in no hand, pool, pile or zone (`SquareBoard.load_position`)."""
    held = {id(p) for hand in view.hands for p in hand}
    held.update(id(p) for p in view.pool)
    held.update(id(p) for p in view.pile)
    held.update(id(p) for p in view.zone_pieces())
    free = [p for p in sorted(view.game.pieces, key=lambda p: p.uid) if id(p) not in held]
    found = {}
    for c, x, joker in cells:
        piece = next(p for p in free if bool(p.attrs.get("joker")) == joker
                     and (joker or p.value == x))
        free.remove(piece)
        found[c] = piece
    return found


_BUILDERS = {"triangular": _kept, "chain": _kept, "tableau": _tableau, "square": _square,
             "none": _empty}


# -- what a replay of the log sees (engine.program.view_replay) ----------------------------
class TableauWatch:
    """The cards of the latest round's deal, slot by slot, as uids (`deal_uids`)."""

    def __init__(self, program):
        self.cards = program.fields["cards"]
        self.deal: tuple = ()

    def round(self, s: list) -> None:
        self.deal = tuple(c.uid if c is not None else -1 for c in s[self.cards])

    def before(self, s: list, code: int):
        return None


class SquareWatch:
    """The piece laid on each cell this round: of the pieces a play takes from the
    mover's hand, in hand order, the first of each cell's value (a joker for a joker
    cell), cell by cell in the play's order."""

    def __init__(self, program):
        self.f = program.fields
        self.span = next((base, base + program.plan.board.width("place"))
                         for action, base in program.plan.actions if action.kind == "place")
        self.pieces: dict = {}

    def round(self, s: list) -> None:
        self.pieces = {}

    def before(self, s: list, code: int):
        """(the mover, the play, the mover's hand) before a play, else None."""
        if not self.span[0] <= code < self.span[1]:
            return None
        mover = s[self.f["to_move"]]
        return mover, s[self.f["places"]][code - self.span[0]], list(s[self.f["hands"]][mover])

    def after(self, s: list, token) -> None:
        mover, play, before = token
        kept = {id(p) for p in s[self.f["hands"]][mover]}
        taken = [p for p in before if id(p) not in kept]
        flags = play[3] if len(play) > 3 else (False,) * len(play[0])
        for c, x, joker in zip(play[0], play[1], flags):
            piece = next((p for p in taken if bool(p.attrs.get("joker")) == bool(joker)
                          and (joker or p.value == x)), None)
            if piece is not None:
                taken.remove(piece)
                self.pieces[c] = piece


_WATCHERS = {"tableau": TableauWatch, "square": SquareWatch}


def watcher(program):
    """A new watcher of the program's board kind for a replay, or None."""
    made = _WATCHERS.get(program.game.model.topology.kind)
    return made(program) if made is not None else None
