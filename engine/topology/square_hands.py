"""The hand plans of the `square` generator: what it reads of a hand, whatever the board.

A plan is kept by the hand's ranked values and joker flags (and the rules' numbers it
depends on), and a hand's ranking (its pieces by value, equal values in hand order, as
the plan's arrangements index them) by its values and joker flags in hand order: a
game meets new racks all the time, but few lists of values. `square_moves.py` reads
them (moved out of it whole: the code is unchanged).
"""

from __future__ import annotations

from itertools import permutations
from operator import attrgetter, itemgetter
from typing import Sequence

from engine.pieces import Piece


class HandPlan:
    """What the generator reads of a hand, whatever the board and the order of its pieces:
    the arrangements, the bit set of its values, whether it has no joker, and for
    `plain_along` the sum ranges, the arrangements coded as bits, and their caches.

    `arrs[k]` lists the distinct orders of k pieces of the hand: (values, indices into
    the ranked hand, joker flags or None, sum). Equal pieces are interchangeable, so each
    order of values is given once, with the equal pieces taken in hand order along the
    line. A game meets a new hand at almost every turn, so a plan works out what it
    holds when first read (most hands of a game are met once or twice).
    """

    __slots__ = ("kinds", "maxk", "pattern", "mask", "plain", "sums", "singles", "_arrs",
                 "_coded")

    def __init__(self, kinds, maxk, rules):
        # kinds: (value, joker) of the ranked pieces
        self.kinds, self.maxk = kinds, maxk
        self.pattern = pattern = tuple([kinds.index(kind) for kind in kinds])
        self.mask = _value_mask(kinds, rules)
        self.plain = not any(joker for _, joker in kinds)  # bit tests stand for intervals
        self._arrs, self._coded = None, [None] * (maxk + 1)
        values = [value for value, _ in kinds]
        # k pieces sum from the k lowest values to the k highest (the ranked hand)
        ranges = [(sum(values[:k]), sum(values[len(values) - k:])) for k in range(maxk + 1)]
        self.sums = (ranges, {}, {})
        # a single of each value, as `arrs[1]` orders them: each kind's first piece
        self.singles = [(1 << values[i], (values[i],), i) for i, first in enumerate(pattern)
                        if first == i] if self.plain and maxk >= 1 else []

    @property
    def arrs(self) -> list[list[tuple]]:
        if self._arrs is None:
            self._arrs = _arrangements(self.kinds, self.maxk, self.pattern)
        return self._arrs

    def coded(self, n: int) -> list[tuple]:
        """(sum, (bits, values, take)) of each arrangement of `n` >= 2 pieces of a plain
        hand, in order, where `bits` has, in the field of each cell (`mask.bit_length()`
        bits, the first cell highest), the bit of the value laid there, and `take` picks
        the arrangement's pieces (a tuple) from the ranked hand."""
        found = self._coded[n]
        if found is None:
            width, values = self.mask.bit_length(), [value for value, _ in self.kinds]
            found = self._coded[n] = []
            for idx, take in _by_pattern(self.pattern, self.maxk)[n]:
                vals = take(values)
                m = 0
                for x in vals:
                    m = m << width | 1 << x
                found.append((sum(vals), (m, vals, take)))
        return found


_PLANS: dict[tuple, HandPlan] = {}  # (values and joker flags of the ranked hand, ...) -> plan
_ORDERS: dict[tuple, tuple] = {}  # ((value, joker) in hand order, ...) -> (plan, ranking)


_VALUE_JOKER = attrgetter("value", "joker")  # (a piece's attributes, read in C)
_VALUE, _JOKER = attrgetter("value"), attrgetter("joker")


def hand_plan(hand: Sequence[Piece], maxk: int, rules) -> tuple[HandPlan, Sequence[Piece]]:
    """The hand's plan and its pieces ranked by value, then hand order, as the
    arrangements index them. Kept by the hand's values and joker flags (a game meets new
    racks all the time, but few lists of values), and shared by the orders of the same
    values."""
    try:
        kinds = tuple(map(_VALUE_JOKER, hand))
    except AttributeError:  # a piece with no joker attribute is no joker
        kinds = tuple([(p.attrs["value"], p.attrs.get("joker")) for p in hand])
    # (a joker's plan depends on the values it may take)
    key = (kinds, maxk, rules.joker_lo, rules.joker_hi)
    found = _ORDERS.get(key)
    if found is None:
        values = tuple([value for value, _ in kinds])
        found = _remember(_ORDERS, key, _rank(values, [joker for _, joker in kinds], maxk,
                                               rules))
    return found[0], found[1](hand)


def _rank(values: tuple, jokers: list, maxk: int, rules) -> tuple:
    """(the plan, a function that ranks a hand of these values in this order)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    # (a stable sort: equal values in hand order)
    plan = _plan([(values[i], jokers[i]) for i in order], maxk, rules)
    return plan, itemgetter(*order) if len(order) > 1 else list


def _plan(kinds, maxk: int, rules) -> HandPlan:
    """The plan of a ranked hand of these (value, joker) (kept by them and the rules'
    numbers the plan depends on)."""
    kinds = tuple([(value, bool(joker)) for value, joker in kinds])
    key = (kinds, maxk, rules.joker_lo, rules.joker_hi)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _remember(_PLANS, key, HandPlan(kinds, maxk, rules))
    return plan


def _remember(cache: dict, key, value):
    if len(cache) > 20000:  # bounded: a long run meets many hands
        cache.clear()
    cache[key] = value
    return value


def _arrangements(kinds: tuple, maxk: int, pattern: tuple) -> list[list[tuple]]:
    """Per k up to `maxk`: (values, hand indices, joker flags or None, sum) for each
    distinct order of k of the hand's kinds (`pattern`: see `_by_pattern`)."""
    out = []
    for orders in _by_pattern(pattern, maxk):
        arrs = []
        for idx, _ in orders:
            key = [kinds[i] for i in idx]
            vals, flags = tuple([value for value, _ in key]), tuple([joker for _, joker in key])
            arrs.append((vals, idx, flags if True in flags else None, sum(vals)))
        out.append(arrs)
    return out


_PATTERNS: dict[tuple, list] = {}  # (pattern, maxk) -> per k, (index tuple, itemgetter)


def _by_pattern(pattern: tuple, maxk: int) -> list[list[tuple]]:
    """Per k up to `maxk`, the index tuples of the distinct orders of k kinds and their
    itemgetters (k >= 2). Index tuples come in increasing order, so the first one met for
    an order of kinds takes equal pieces in hand order. Which they are depends only on
    which kinds are equal (`pattern`: each kind's first index), so they are kept by it."""
    found = _PATTERNS.get((pattern, maxk))
    if found is None:
        found = _PATTERNS[(pattern, maxk)] = []
        for k in range(maxk + 1):
            seen: dict[tuple, tuple] = {}
            for idx in permutations(range(len(pattern)), k):
                seen.setdefault(tuple([pattern[i] for i in idx]), idx)
            found.append([(idx, itemgetter(*idx) if k >= 2 else None) for idx in seen.values()])
    return found


def _value_mask(facts, rules) -> int:
    """Bit v is set when some piece of the hand (its (value, joker)) may be laid with
    value v."""
    mask = 0
    for value, joker in facts:
        if joker:
            mask |= ((1 << (rules.joker_hi + 1)) - 1) >> rules.joker_lo << rules.joker_lo
        else:
            mask |= 1 << value
    return mask
