"""The legal moves of each generic action kind (`GENERATORS`, by kind), and the small
functions the kernel's flow and compiled steps share with them (`move_view`,
`split_named`). A generator reads a `State` and returns its moves in the documented order.
"""

from __future__ import annotations

from itertools import combinations, permutations
from operator import attrgetter
from typing import TYPE_CHECKING

from engine.kernel.general_move import MoveRecord, move_moves
from engine.kernel.moves import Move, moves_of_data
from engine.kernel.views import ExchangeMove, PlayMove

_NAME = attrgetter("name")

if TYPE_CHECKING:  # pragma: no cover (for readers and checkers: nothing here needs the class)
    from engine.kernel.state import State


# -- move generators, one per action kind ------------------------------------------------
# A guard is evaluated once per candidate; the candidate's `move` and piece are put in
# the context only when the guard reads them (`Game` works out which names it reads).
def _place_moves(state: State, action) -> list[Move]:
    hand = state.hands[state.to_move]
    first = not state.round.placed_any
    if first and state.opening_pieces is not None:
        hand = [p for p in hand if p.uid in state.opening_pieces]
    placements = state.board.iter_placements(hand, first, action.rules)
    name = action.name
    guard = action.guard
    if guard is None:
        return moves_of_data(name, placements)
    ctx = state._decision_context()
    if action.guard_filter is not None:
        found = action.guard_filter(ctx, ((p, p.pieces[0]) for p in placements))
        return moves_of_data(name, [p for p, _ in found])
    evaluate = guard.evaluate
    uses_move, aliases = action.guard_move, action.guard_pieces
    out = []
    for placement in placements:
        if uses_move:
            ctx["move"] = state.game.place_view(placement, first)
        for alias in aliases:
            ctx[alias] = placement.pieces[0]
        if evaluate(ctx):
            out.append(Move(name, None, placement))
    ctx.pop("move", None)
    for alias in aliases:
        ctx.pop(alias, None)
    return out


def _guard_ok(state: State, action) -> bool:
    return action.guard is None or bool(action.guard.evaluate(state._decision_context()))


def _simple_moves(state: State, action) -> list[Move]:
    if action.needs_pool and not state.pool:
        return []
    guard = action.guard
    if guard is not None:
        ctx = state._ctx
        if ctx is None:
            ctx = state._decision_context()
        if not guard.evaluate(ctx):
            return []
    return [action.only_move]  # one Move per Game: moves are values


def _exchange_moves(state: State, action) -> list[Move]:
    if not state.pool or not _guard_ok(state, action):
        return []
    return exchange_options(state, action)


def exchange_options(state: State, action) -> list[Move]:
    """The exchanges of the mover's rack (its guard holding): every sub-multiset of up to
    `max` pieces, by size, then in the order of the sorted names."""
    # The moves depend only on the names in hand (the limit follows from their number),
    # so they are made once per rack, and found again by the names in the hand's order
    # without sorting them: the same list under each order of a small rack (a hand is
    # met in its different orders), or under the order met.
    cache = state.game.exchange_cache
    rack = (action.name, *map(_NAME, state.hands[state.to_move]))
    found = cache.get(rack)
    if found is None:
        names = tuple(sorted(rack[1:]))
        found = cache.get((action.name, names))
        if found is None:
            found = _rack_exchanges(cache, action, names)
        if len(cache) < 100_000:
            for order in permutations(names) if len(names) <= 4 else (rack[1:],):
                cache[(action.name, *order)] = found
    return found


def _rack_exchanges(cache: dict, action, names: tuple) -> list[Move]:
    """The exchanges of a rack of these (sorted) names, kept in `cache` (which holds at
    most 100,000 racks)."""
    found = []
    seen = set()
    for size in range(1, min(action.max or len(names), len(names)) + 1):
        for combo in combinations(names, size):
            if combo not in seen:
                seen.add(combo)
                found.append(Move(action.name, " ".join(combo), combo))
    if len(cache) < 100_000:
        cache[action.name, names] = found
    return found


def _play_moves(state: State, action) -> list[Move]:
    board = state.board
    guard = action.guard
    # A play move depends only on the slot and the piece: made once per Game and shared
    # (moves are values, never changed once made), found by an integer key.
    cache = action.play_moves
    width = action.key_width
    items = board.exposed_items()
    if guard is not None:
        ctx = state._ctx
        if ctx is None:
            ctx = state._decision_context()
        if action.guard_filter is not None:
            items = action.guard_filter(ctx, items)
        else:
            items = _guarded_items(ctx, board, action, items)
    out = []
    for slot, piece in items:
        move = cache.get(slot * width + piece.uid)
        out.append(move if move is not None else play_move(action, state, slot, piece))
    return out


def _guarded_items(ctx, board, action, items) -> list:
    """The (slot, piece) items for which the guard holds, evaluated one at a time."""
    evaluate = action.guard.evaluate
    uses_move, aliases = action.guard_move, action.guard_pieces
    out = []
    for slot, piece in items:
        if uses_move:
            ctx["move"] = PlayMove(board, slot, piece)
        for alias in aliases:
            ctx[alias] = piece
        if evaluate(ctx):
            out.append((slot, piece))
    ctx.pop("move", None)
    for alias in aliases:
        ctx.pop(alias, None)
    return out


def play_move(action, state: State, slot, piece) -> Move:
    """The Move of playing `piece` from `slot`, made once and kept (moves are values)."""
    arg = piece.name if state.game.unique_names else f"{piece.name}@{slot}"
    move = Move(action.name, arg, (slot, piece))
    action.play_moves[slot * action.key_width + piece.uid] = move
    return move


GENERATORS = {
    "place": _place_moves,
    "draw": _simple_moves,
    "pass": _simple_moves,
    "deal": _simple_moves,
    "exchange": _exchange_moves,
    "play": _play_moves,
    "move": move_moves,
}


def pieces_named(hand: list, names) -> list:
    """Pieces of `hand` with these names (one per name, the earliest first)."""
    return split_named(hand, names)[0]


def split_named(hand: list, names) -> tuple[list, list]:
    """(`pieces_named(hand, names)`, the other pieces of `hand` in their order)."""
    left = list(hand)
    out = []
    for name in names:
        for i, piece in enumerate(left):
            if piece.name == name:
                del left[i]  # (by place: `remove` would compare whole pieces)
                out.append(piece)
                break
        else:
            raise ValueError(f"no piece named `{name}` in the hand")
    return out, left


def move_view(state: State, action, move: Move):
    """The `move` record of a legal move, as scoring rules and effects see it."""
    if action.kind == "place":
        return state.game.place_view(move.data, not state.round.placed_any)
    if action.kind == "play":
        slot, piece = move.data
        view = PlayMove(state.board, slot, piece)
        view.slot  # noqa: B018 - read before the piece leaves the board
        return view
    if action.kind == "exchange":
        return ExchangeMove(pieces_named(state.hands[state.to_move], move.data))
    if action.kind == "move":
        record = MoveRecord(state.weak, move.data)
        record.slots  # noqa: B018 - read before the pieces leave the board
        return record
    return None

