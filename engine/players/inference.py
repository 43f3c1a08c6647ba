"""What the other seat holds, believed from its moves as a greedy player's (`mcts`'s `infer`).

A search samples the other hand uniformly from the unseen pieces (`determinize`). Against
a player who takes the best immediate move, each of its moves says more: with the hand
it held, no other move scored more (nor as much, earlier in the legal order). For two
seats, `HandBelief` keeps a weight for every hand the other seat may hold, as the sorted
names of its pieces (at first, how many ways the unseen pieces make it), and at each of
the searcher's turns follows what happened since its last one (`follow`):

1. the hands that the searcher's own draws left impossible are dropped;
   (and those that make them less likely weigh less);
2. for each move of the other seat, each hand with which that move was legal is weighed
   by whether greedy, holding it, makes that move (1, else `SLIP`: a player who is not
   greedy does not empty the belief), in a sample of the position before the move (what
   the searcher saw, nothing more); the pieces the move took leave it (`kept`), and the
   draws that refill it are dealt from what the searcher cannot see, by their chances.

A token kept turn after turn so gathers every turn's evidence. Samples then deal the
other hand from the belief (`draw`), the rest of the unseen pieces at random. Where the
hands to weigh pass `MOST` (hands of many distinct pieces), there is no belief.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import accumulate
from math import comb

from engine.players.determinize import (arrange, deal, determinize, hidden_pieces,
                                         hidden_places)
from engine.players.objective import best_index

SLIP = 0.05  # the weight kept by a hand with which the move seen was not greedy's
MOST = 3000  # hands to weigh at most (beyond: no belief)


class HandBelief:
    """Weights of the hands (sorted piece names) the other seat may hold now; `kept`:
    after its last move followed, the weights of what it kept of its hand."""

    def __init__(self, seat: int, weights: dict, kept: dict | None = None):
        self.seat, self.weights, self.kept = seat, weights, kept or {}
        self._hands, self._totals = list(weights), list(accumulate(weights.values()))

    def draw(self, rng: random.Random) -> tuple:
        """A hand, by weight."""
        return self._hands[_index(self._totals, rng.random() * self._totals[-1])]

    def __eq__(self, other) -> bool:
        return isinstance(other, HandBelief) and (self.seat, self.weights, self.kept) == (
            other.seat, other.weights, other.kept)


def start(state, seat: int) -> HandBelief | None:
    """The belief before any evidence: every hand of the other seat's size from what
    `seat` cannot see, by the ways its pieces make it (two seats only)."""
    if state.n != 2:
        return None
    other = 1 - seat
    weights = hands_of(unseen(state, seat), len(state.hands[other]))
    return HandBelief(other, weights) if weights else None


def follow(belief: HandBelief | None, before, mine: str, now, seat: int) -> HandBelief | None:
    """`belief` (held at `before`, where `seat` played `mine`) brought to `now`; a fresh
    start where the line since is not the simple one it follows (another round, a
    move not its own first, more than a handful of moves)."""
    log = now.log[len(before.log):]
    if (belief is None or now.n != 2 or now.round.number != before.round.number or not log
            or log[0][0].text != mine or len(log) > 8 or now.is_over):
        return start(now, seat)
    world = determinize(before, seat, random.Random(0))
    world.apply(mine)
    _give(world, seat, now.hands[seat])
    weights = _drew(belief.weights, before, now, seat)
    kept = {}
    for move, _, _ in log[1:]:
        if world.to_move != belief.seat or not weights:
            return start(now, seat)
        weights, kept, world = _after_move(weights, world, seat, move.text)
    weights = _possible(weights, unseen(now, seat))
    return HandBelief(belief.seat, weights, kept) if weights else start(now, seat)


def _after_move(weights: dict, world, seat: int, text: str) -> tuple[dict, dict, object]:
    """The other seat's move `text` at `world`: the hands' weights after it and its
    refill, the weights of what it kept, and `world` after it (in some hand's sample)."""
    other, kept, after, taken = 1 - seat, {}, None, None
    for hand, weight in weights.items():
        if taken is not None and +(taken - Counter(hand)):
            continue  # (the move takes pieces this hand has not)
        trial = world.search_clone()
        _deal(trial, seat, hand)
        moves = trial.legal_moves()
        move = next((m for m in moves if m.text == text), None)
        if move is None:
            continue
        greedy = moves[best_index(trial, moves)].text == text
        held = {id(p) for p in trial.hands[other]}
        trial.apply(move)
        left = tuple(sorted(p.name for p in trial.hands[other] if id(p) in held))
        taken = Counter(hand) - Counter(left)
        kept[left] = kept.get(left, 0.0) + weight * (1.0 if greedy else SLIP)
        after = trial
    if after is None:
        return {}, {}, world
    draws = len(after.hands[other]) - len(next(iter(kept)))
    return _refilled(kept, unseen(after, seat), draws), kept, after


def _refilled(kept: dict, hidden: Counter, draws: int) -> dict:
    """The hands after each kept part draws `draws` pieces from the unseen pieces but
    it (`hidden` counts them with it), by the draw's chance."""
    out: dict = {}
    for part, weight in kept.items():
        bag = hidden - Counter(part)
        for drawn, ways in hands_of(bag, draws).items():
            hand = tuple(sorted(part + drawn))
            out[hand] = out.get(hand, 0.0) + weight * ways
    return out


def _drew(weights: dict, before, now, seat: int) -> dict:
    """The hands weighed by the chance of what `seat` drew since `before` (from a bag
    of what it could not see then, and what it gave back, but the other hand): a hand
    holding pieces it drew weighs less, or nothing."""
    had, has = {id(p) for p in before.hands[seat]}, {id(p) for p in now.hands[seat]}
    drawn = Counter(p.name for p in now.hands[seat] if id(p) not in had)
    hidden = {id(p) for p in hidden_pieces(now, hidden_places(now, seat))}
    bag = unseen(before, seat) + Counter(
        p.name for p in before.hands[seat] if id(p) not in has and id(p) in hidden)
    out = {}
    for hand, weight in weights.items():
        held = Counter(hand)
        for name, n in drawn.items():
            weight *= comb(bag[name] - held[name], n) if bag[name] >= held[name] else 0
        if weight:
            out[hand] = weight
    return out


def _possible(weights: dict, hidden: Counter) -> dict:
    """The hands that the unseen pieces `hidden` can still make."""
    return {hand: w for hand, w in weights.items()
            if all(hidden[name] >= n for name, n in Counter(hand).items())}


def hands_of(counts: Counter, size: int) -> dict | None:
    """Every hand of `size` pieces from `counts` (name: how many are unseen), each with
    the number of ways the pieces make it; None when more than `MOST`."""
    names = sorted(name for name, n in counts.items() if n)
    hands: dict = {(): 1}
    for at, name in enumerate(names):
        grown: dict = {}
        for hand, ways in hands.items():
            for n in range(0, min(counts[name], size - len(hand)) + 1):
                grown[hand + (name,) * n] = ways * comb(counts[name], n)
        hands = grown
        if len(hands) > MOST * 4:
            return None
    full = {hand: float(w) for hand, w in hands.items() if len(hand) == size}
    return full if len(full) <= MOST else None


def unseen(state, seat: int) -> Counter:
    """The names of the pieces `seat` cannot see, counted."""
    return Counter(p.name for p in hidden_pieces(state, hidden_places(state, seat)))


def _deal(world, seat: int, hand: tuple) -> None:
    """Give the other seat of `world` the hand named `hand`, from the pieces `seat`
    cannot see there (the pool keeps the rest, in order)."""
    places = hidden_places(world, seat)
    deal(world, places, arrange(hidden_pieces(world, places), hand))


def _give(world, seat: int, real: list) -> None:
    """Make `seat`'s hand in `world` (a sample) the pieces it really holds, swapping
    each with the piece of its sample that stands in for it."""
    want = {id(p) for p in real}
    spare = [p for p in world.hands[seat] if id(p) not in want]
    missing = [p for p in real if all(p is not q for q in world.hands[seat])]
    swaps = dict(zip(map(id, missing), spare))
    world.hands[seat] = list(real)
    world.hands[1 - seat] = [swaps.get(id(p), p) for p in world.hands[1 - seat]]
    world.pool = [swaps.get(id(p), p) for p in world.pool]
    world._invalidate()


def _index(total: list, x: float) -> int:
    lo, hi = 0, len(total) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if total[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo
