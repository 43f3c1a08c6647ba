"""Seeded chance, fast: `shuffle(rng, items)` puts `items` in exactly the order
`rng.shuffle(items)` would, drawing the same random bits, at about half the cost.

`random.Random.shuffle` calls `_randbelow` (a Python method) once per item; for a deck of
52 that is most of the cost of dealing a game. The same Fisher-Yates steps with the same
rejection sampling, written in one loop with `getrandbits` bound once, give the same
permutation and leave the generator in the same state (the tests compare both on many
seeds and sizes). Records stay valid: they store outcomes, not the method.
"""

from __future__ import annotations

import random


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle `items` in place as `rng.shuffle(items)` does."""
    if type(rng) is not random.Random:  # a subclass may sample its own way
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_STEPS: dict[int, tuple] = {}


def _steps(size: int) -> tuple:
    """Fisher-Yates from the back: (position, how many to draw from, bits to draw)."""
    found = _STEPS.get(size)
    if found is None:
        found = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
        if len(_STEPS) < 1024:
            _STEPS[size] = found
    return found


def insert_at_random(rng: random.Random, items: list, new) -> None:
    """Insert each of `new`, in turn, at a uniformly random place of `items` (one of its
    length + 1). If `items` was in a uniformly random order, the result is too: mixing a
    few pieces into a shuffled pool costs one draw each, not a shuffle of the whole."""
    if type(rng) is not random.Random:  # a subclass may sample its own way
        for item in new:
            items.insert(rng.randrange(len(items) + 1), item)
        return
    getrandbits = rng.getrandbits
    for item in new:
        n = len(items) + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items.insert(j, item)
