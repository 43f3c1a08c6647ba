"""What the opponent's last move says of the pieces it kept, if it plays greedily.

A search samples the other hand uniformly from the unseen pieces. Against a player
that takes the best immediate move, its last play says more: it held no pieces that
would have scored more. `infer` replays, in a sample of the position before that play
(what the searching seat saw, nothing more), each set of values the kept pieces may
have had, and keeps those with which the play was a best one (`Inference.accepts`);
samples are then drawn among those hands only (`mcts`'s `infer`).

Only after the simplest exchange of turns: two seats, the searcher's one move and the
opponent's one move that laid pieces seen now (not an exchange, nor an extra turn).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from engine.players.determinize import determinize, hidden_pieces, hidden_places
from engine.players.root_moves import gains

TRIES = 20  # samples drawn at most for one accepted (then the last is taken)


@dataclass(frozen=True)
class Inference:
    """The value sets the opponent's kept pieces may have had (`k` of them)."""

    seat: int
    k: int
    allowed: frozenset
    values: tuple  # each piece's value, by number (`Game.values`)

    def accepts(self, hands: list) -> bool:
        """Whether a sample's hands agree: its first `k` pieces dealt to the opponent
        (a random `k` of the hand, as the pieces are dealt at random) are allowed."""
        values = self.values
        return tuple(sorted(values[p.uid] for p in hands[self.seat][:self.k])) in self.allowed


def infer(before, mine: str, now, seat: int) -> Inference | None:
    """What `now` (after `seat` played `mine` at `before`, then the opponent one move)
    says of the opponent's kept pieces; None when there is nothing to infer."""
    if now.n != 2 or len(now.log) != len(before.log) + 2 or now.is_over:
        return None
    if now.log[len(before.log)][0].text != mine:  # (another line: an undo, say)
        return None
    other = 1 - seat
    seen_uids = _uids(hidden_pieces(now, hidden_places(now, seat)))
    mine_new = _uids(now.hands[seat]) - _uids(before.hands[seat])
    was_hidden = hidden_pieces(before, hidden_places(before, seat))
    played = [p for p in was_hidden if p.uid not in seen_uids and p.uid not in mine_new]
    k = len(before.hands[other]) - len(played)
    if not played or k <= 0:
        return None
    world = determinize(before, seat, random.Random(0))
    world.apply(mine)
    if world.to_move != other or world.is_over:
        return None
    unseen = [p for p in was_hidden if p.uid in seen_uids]
    allowed, tried = _consistent(world, other, played, unseen, k, now.log[-1][0].text)
    if not allowed or len(allowed) == tried:
        return None
    return Inference(other, k, frozenset(allowed), tuple(now.game.values))


def _consistent(world, other: int, played: list, unseen: list, k: int, text: str):
    """The value sets of `k` unseen pieces with which `text` was a best move for
    `other` at `world`; and how many sets were tried."""
    values = world.game.values
    by_values = {}
    for group in combinations(unseen, k):
        by_values.setdefault(tuple(sorted(values[p.uid] for p in group)), group)
    allowed = []
    for key, group in by_values.items():
        trial = world.search_clone()
        trial.hands[other] = list(played) + list(group)
        trial._invalidate()
        by_text = {move.text: gain for gain, _, move, _ in gains(trial)}
        if text in by_text and by_text[text] >= max(by_text.values()):
            allowed.append(key)
    return allowed, len(by_values)


def _uids(pieces) -> set:
    return {p.uid for p in pieces}
