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


def opener(s, hands, *, F, KEY, HAS_ALSO, ALSO, SITE, ERRORS, FAILURE, FROZENSET):
    """`flow.choose_opener`: the holder of the best piece by its opening rank (`KEY`,
    of the piece `_p` in the hand of `seat`; the lower uid on a tie) opens with it, or
    with any other piece of that hand that `ALSO` allows. Sets `found`: (the seat, the
    uids it may open with), None when no hand holds a piece."""
    best = None
    for seat in range(s[F.n]):
        for _p in hands[seat]:
            try:
                key = KEY
            except ERRORS as exc:
                raise FAILURE(SITE, exc) from exc
            if best is None or key > best[0] or (key == best[0] and _p.uid < best[2].uid):
                best = (key, seat, _p)
    found = None
    if best is not None:
        _, seat, _p = best
        allowed = {_p.uid}
        if HAS_ALSO:
            for _p in hands[seat]:
                try:
                    ok = ALSO
                except ERRORS as exc:
                    raise FAILURE(SITE, exc) from exc
                if ok:
                    allowed.add(_p.uid)
        found = (seat, FROZENSET(allowed))
    if found is not None:
        s[F.to_move], s[F.opening] = found


def deal_hands(s, order, *, F, HANDS, HELD, SIZES, BITS):
    """`flow.start_round`'s hands: `SIZES[n]` pieces each from the shuffled `order`, the
    first seat's first; `h`, how many pieces they took."""
    if HANDS:
        size = SIZES[s[F.n]]
        hands = s[F.hands]
        for x in range(s[F.n]):
            hands[x] = order[x * size:(x + 1) * size]
            if HELD:
                s[F.held][x] = BITS(hands[x])
        h = s[F.n] * size
    else:
        h = 0


def winner_by_keys(s, mv, *, F, BIND, KEYS, LOWEST, SITE, PICK, ERRORS, FAILURE):
    """`flow.choose_winner` by keys: each seat's keys (`KEYS`, read in a context of
    that seat, or of the mover `mv` when one is given), the single best seat by them
    (the lowest with `LOWEST`), None on a tie."""
    BIND
    keyed = []
    for x in range(s[F.n]):
        mover = x if mv is None else mv  # noqa: F841 (`KEYS` may read it)
        try:
            keyed.append(KEYS)
        except ERRORS as exc:
            raise FAILURE(SITE, exc) from exc
    return PICK(keyed, LOWEST)
