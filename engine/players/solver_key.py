"""The solver's position keys: what a key must hold, read from the ruleset once, and a
key function made for that (`make_key`), the interpreter's
(`engine.players.solver_program` makes the program's).

Two positions with equal keys must have equal futures as far as the question can see.
The key holds the board kind's compact `search_key()`, the pool as its size while it can
only be what the root's pool left (no action puts a piece back into it), the pile as its
size and top (all that expressions read of it; its contents follow from the rest), the
hands when a piece can ever be in one, the counters and scores the question sees, the
zones a ruleset declares, and of the round's counters only those that some expression
reads. The turn number is kept out unless an expression reads it: then a line cut by
`limits.max_turns_per_round` makes the answer unproven (`Solver.cut`), since a position
reached late and cut may also be reached early.
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import Callable, Iterable, Mapping

#: the round's counters an expression may read (`round.<name>`), as the state holds them
ROUND_FIELDS = ("turns", "turns_without_place", "passes_in_row", "unable_in_row",
                "placed_any")
_ROUND_READ = re.compile(r"\bround\.(\w+)")
_TURN = attrgetter("draws", "placed", "actions")


def strings(value) -> Iterable[str]:
    """Every string inside a ruleset's data (mappings and lists walked)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def round_fields_read(data: Mapping) -> tuple[str, ...]:
    """The round counters (`ROUND_FIELDS`) some expression of the ruleset reads; with
    `placed_any` whenever the board takes placements (the first one is special)."""
    read = {m for text in strings(data) for m in _ROUND_READ.findall(text)}
    if any(isinstance(spec, Mapping) and spec.get("kind") == "place"
           for spec in (data.get("actions") or {}).values()):
        read.add("placed_any")
    return tuple(f for f in ROUND_FIELDS if f in read)


_PILE = re.compile(r"\bpile\b(\.top\b(?:\.(\w+))?|\.count\b)?")
#: the action kinds that never take a piece from the pile (nor look at it but its top)
_PILE_KEPT = frozenset({"play", "deal", "pass"})


def pile_top_fields(data: Mapping) -> tuple[str, ...] | None:
    """The fields of the pile's top that the expressions read, when they read nothing
    else of the pile but its size (`pile.top.rank`: `("rank",)`); None when some text
    reads more (the top itself, `pile` as a whole): then the top's piece is keyed.
    Texts that only name the zone (`to: pile`) and the ruleset's description are
    skipped; any other mention, in a label say, keeps the piece (never wrong)."""
    fields: set[str] = set()
    texts = strings({k: v for k, v in data.items() if k != "ruleset"})
    for text in texts:
        if text == "pile":
            continue
        for found in _PILE.finditer(text):
            if found.group(1) is None or (found.group(1).startswith(".top")
                                          and found.group(2) is None):
                return None
            if found.group(2):
                fields.add(found.group(2))
    return tuple(sorted(fields))


def top_classes(game, fields: tuple[str, ...] | None) -> tuple[int, ...] | None:
    """By piece uid, the least uid of a piece whose `fields` are the same: two
    positions whose piles' tops are of one class have the same futures when the
    expressions read only those fields of the top (`pile_top_fields`) and no action
    takes a piece from the pile (so its contents follow from the board and the pool).
    None when that is not so, or some piece lacks a field."""
    if fields is None or any(a.kind not in _PILE_KEPT for a in game.actions):
        return None
    pieces = sorted(game.pieces, key=lambda p: p.uid)
    if [p.uid for p in pieces] != list(range(len(pieces))):
        return None
    first: dict = {}
    try:
        return tuple(first.setdefault(tuple(getattr(p, f) for f in fields), p.uid)
                     for p in pieces)
    except AttributeError:
        return None


def pool_only_shrinks(game) -> bool:
    """Whether no action can put a piece into the pool (draws and deals only take its
    top; an exchange or a `move` to it may put pieces back)."""
    for action in game.actions:
        if action.kind == "exchange":
            return False
        if action.kind == "move" and action.move.target == "pool":
            return False
    return True


def hands_used(game) -> bool:
    """Whether a piece can ever be in a hand (dealt, drawn, refilled or moved there)."""
    model = game.model
    if any(size for size in model.hand_size.values()):
        return True
    return any(a.kind in ("draw", "exchange", "place")
               or (a.kind == "move" and a.move.target == "hand") for a in game.actions)


def make_key(game, round_fields: tuple[str, ...], counters: tuple[str, ...],
             scores: bool, root, classes: tuple[int, ...] | None = None) -> Callable:
    """`key(state)`: the position as far as the question can tell positions apart (see
    the module's docstring), for the positions of the round of `root` on.

    Made for this ruleset and question: the board's key, the pool's and pile's sizes
    and the pile's top packed into one integer when the board's key is an integer (a
    tuple hashes slower, and a memo hashes each key three times), the other parts after
    it only if the ruleset can change them. What stays fixed during a round is left
    out: the round's number and, alone at the table, the seat to move.
    """
    head = _head(game, root, classes)
    read, more = _parts(game, round_fields, counters, scores, root)
    if read is None and not more:
        return head
    if not more:  # (the usual case: a few counters, read in one call)
        return lambda state: (head(state), read(state))

    def key(state) -> tuple:
        return (head(state), read and read(state), *[part(state) for part in more])

    return key


def _head(game, root, classes) -> Callable:
    """The board's key, the pool, the pile's size and its top (`classes`: the top as
    its class, `top_classes`): packed into one int when the board's key is an int and
    the pool is keyed by its size."""
    size = len(game.pieces) + 1
    uids = [p.uid for p in game.pieces]
    tops = [0] * (max(uids, default=0) + 1)  # (by uid: the top's digit, 0 for none)
    for uid in uids:
        tops[uid] = (uid if classes is None else classes[uid]) + 1
    if not pool_only_shrinks(game):
        pool_code = _pool_code(list(root.pool))

        def head(state) -> tuple:
            pile = state.pile
            return (state.board.search_key(), pool_code(state.pool), len(pile),
                    tops[pile[-1].uid] if pile else 0)
    elif isinstance(root.board.search_key(), int):
        def head(state) -> int:
            pile = state.pile
            return ((state.board.search_key() * size + len(state.pool)) * size
                    + len(pile)) * size + (tops[pile[-1].uid] if pile else 0)
    else:
        def head(state) -> tuple:
            pile = state.pile
            return (state.board.search_key(), len(state.pool), len(pile),
                    tops[pile[-1].uid] if pile else 0)
    return head


def _parts(game, round_fields: tuple[str, ...], counters: tuple[str, ...],
           scores: bool, root) -> tuple[Callable | None, list[Callable]]:
    """The key's parts after its head (see `make_key`), each only if the ruleset can
    change it: `read(state)`, one `attrgetter` of the counters and round counters
    asked for and the seat to move (None if none); the functions of the state giving
    the hands, the turn's counts, the scores and the zones."""
    paths = [f"counters.{name}" for name in counters]
    paths += [f"round.{name}" for name in round_fields]
    if root.n > 1:
        paths.append("to_move")
    more: list[Callable] = []
    if hands_used(game):
        more.append(_hands)
    if not all(a.ends_turn for a in game.actions):  # (else 0 at every decision)
        more.append(lambda state: _TURN(state.turn))
    if scores:
        more.append(lambda state: tuple(state.scores))
    if game.model.zones is not None and game.model.zones.extra():
        more.append(lambda state: state.zones_key())
    return (attrgetter(*paths) if paths else None), more


def _hands(state) -> tuple:
    """The hands' pieces (uids, sorted), when any hand holds one."""
    return tuple(tuple(sorted(p.uid for p in h)) for h in state.hands) \
        if any(state.hands) else ()


def _pool_code(root_pool: list) -> Callable:
    """The pool as its size while it is what the root's pool left, else its pieces."""
    def code(pool) -> object:
        size = len(pool)
        return size if pool == root_pool[:size] else tuple(p.uid for p in pool)
    return code
