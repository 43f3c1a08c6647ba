"""The `exchange` action in a program: the exchanges a hand lists, and one applied.

An exchange gives back 1 to `max` pieces of the hand and draws as many (its long form
is `{kind: move, from: hand, to: pool, at: random, redraw: true, count: {up_to: N}}`).
These are what `generators.exchange_options` and `flow._exchange` do, on the program's
plain lists: the moves are the sub-multisets of the hand's piece names, by size, then
in the order of the sorted names; the pieces given back are the earliest in the hand
with those names; they go into the pool each at a random place (`insert_at_random`,
the interpreter's draws), and the hand draws as many from the pool's end.
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter

from engine.kernel.chance import insert_at_random

_NAME = attrgetter("name")
_BY_HAND: dict[tuple, list] = {}  # (most, names in hand order) -> the exchanges


def exchanges(hand: list, most: int | None) -> list[tuple]:
    """The names given back by each exchange of `hand`, in the interpreter's order."""
    return exchanges_of((most, *map(_NAME, hand)))


def exchanges_of(key: tuple) -> list[tuple]:
    """`exchanges` of the hand whose names in hand order follow `most` in `key` (a
    program writes the key out for its hands' usual size: reading three names as
    attributes costs less than `map` with `attrgetter`)."""
    most = key[0]
    found = _BY_HAND.get(key)
    if found is None:
        names = tuple(sorted(key[1:]))
        found, seen = [], set()
        for size in range(1, min(most or len(names), len(names)) + 1):
            for combo in combinations(names, size):
                if combo not in seen:
                    seen.add(combo)
                    found.append(combo)
        if len(_BY_HAND) > 100_000:
            _BY_HAND.clear()
        _BY_HAND[key] = found
    return found


def exchange(hand: list, pool: list, rng, names: tuple) -> list:
    """Give back the pieces of `hand` named `names` (the earliest of each name), each
    into `pool` at a random place, then draw as many; the pool's order afterwards."""
    returned = []
    for name in names:
        for i, piece in enumerate(hand):
            if piece.name == name:
                del hand[i]
                returned.append(piece)
                break
    insert_at_random(rng, pool, returned)
    order = pool[::-1]  # (first drawn first, as a record writes it)
    for _ in returned:
        hand.append(pool.pop())
    return order
