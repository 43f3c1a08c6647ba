"""Templates of a program's rounds (`engine.program.template`): a round's end, the next
round's start, the match's end, and the winner chosen by keys. Real functions over the
program's state `s`, one list; the generator fills their holes with the text it writes
from the ruleset (its scoring rules, its `match.end_if`, the move listing) and writes
the layout `F` in.
"""

from __future__ import annotations


def end_round(s, reason, winner, mover, *, F, BIND, SCORING, HAS_MATCH_END, MAX_ROUNDS,
              MATCH_END, MATCH_SITE, MATCH_WINNER, LISTING, NO_MOVES, REASONS, START_ROUND,
              BOOL, ERRORS, FAILURE):
    """`flow.end_round`: the round's reason and winner kept, its `round_end` scoring
    rules (`SCORING`), then the match's end (after `MAX_ROUNDS` rounds or when
    `MATCH_END` holds: a match without `end_if` ends after one round) or the next
    round, dealt; again while the player to move in a new round has no move."""
    while True:
        BIND
        s[F.reason] = REASONS[reason]
        s[F.ended].append(REASONS[reason])
        s[F.round_winner] = winner
        SCORING
        s[F.last_winner] = winner
        seat = winner if winner is not None else mover
        if HAS_MATCH_END:
            over = s[F.round] >= MAX_ROUNDS
            if not over:
                try:
                    over = BOOL(MATCH_END)
                except ERRORS as exc:
                    raise FAILURE(MATCH_SITE, exc) from exc
        else:
            over = True
        if over:
            s[F.over] = True
            s[F.winner] = MATCH_WINNER
            s[F.legal] = []
            return
        START_ROUND(s, s[F.round] + 1)
        BIND
        LISTING
        s[F.legal] = out  # noqa: F821 (`LISTING` sets `out`, the new round's moves)
        if out:  # noqa: F821
            return
        reason, winner, mover = NO_MOVES, None, s[F.to_move]
