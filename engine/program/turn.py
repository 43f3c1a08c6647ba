"""Templates of a program's turn (`engine.program.template`): real functions over the
program's state, one list `s`, whose bodies a program's `apply` holds with the rules'
numbers written in.

Each keyword-only parameter is a constant of the ruleset: the state's layout `F`
(`match.layout`: a field's index in `s`, None for a counter a search's step does not
keep, `steps.kept_counters`),
a switch (`SEARCH`: the step of a search, which keeps no log), a tuple of move codes, or
a namespace object (`HAND_SIZES`: `K_hand`, by player count). The positional
parameters are the locals of `apply` where the body goes.
"""

from __future__ import annotations


def end_turn(s, m, mover, extra, hands, pool, *, F, SEARCH, PASS_CODES, EXTRA_TURNS,
             REFILL, HELD, HAND_SIZES, BITS):
    """`flow.end_turn` up to the round-end conditions: the round's counters (those the
    program keeps: `F.<name>` None for the others), the mover's hand refilled, a fresh
    turn, the next player; the match's turn count and the log unless `SEARCH`."""
    s[F.turns] += 1
    if not SEARCH:
        s[F.turns_total] += 1
    if F.without_place is not None:
        s[F.without_place] = 0 if s[F.t_placed] else s[F.without_place] + 1
    if F.passes is not None:
        s[F.passes] = s[F.passes] + 1 if m in PASS_CODES else 0
    if F.unable is not None:
        s[F.unable] = 0 if s[F.t_could] else s[F.unable] + 1
    if REFILL:
        size = HAND_SIZES[s[F.n]]
        hand = hands[mover]
        while len(hand) < size and pool:
            hand.append(pool.pop())
        if HELD:
            s[F.held][mover] = BITS(hand)
    if F.t_draws is not None:
        s[F.t_draws] = 0
    if F.t_placed is not None:
        s[F.t_placed] = 0
    if F.t_actions is not None:
        s[F.t_actions] = 0
    if F.t_could is not None:
        s[F.t_could] = True
    if EXTRA_TURNS:
        s[F.to_move] = mover if extra else (mover + 1) % s[F.n]
    else:
        s[F.to_move] = (mover + 1) % s[F.n]
    if not SEARCH:
        s[F.log].append(m)


def deal(pile, pool):
    """`flow._deal`: the top of the pool onto the pile."""
    pile.append(pool.pop())


def draw(s, mover, hands, pool, *, F, HELD):
    """`flow._draw`: the top of the pool into the mover's hand (and its bit set, when
    the program keeps one), counted in `turn.draws` (but in a search's step when no
    rule reads it)."""
    if HELD:
        drawn = pool.pop()
        hands[mover].append(drawn)
        s[F.held][mover] += 1 << drawn.uid  # (not held before)
    else:
        hands[mover].append(pool.pop())
    if F.t_draws is not None:
        s[F.t_draws] += 1


def exchange(s, m, mover, hands, pool, *, F, BASE, HELD, COPY_RNG, EXCHANGE, BITS):
    """`flow._exchange`: the pieces of the exchange listed at `m - BASE` back into the
    pool, each at a random place, and as many drawn (`exchange.exchange`); the pool's
    new order is a chance outcome of the move, kept for the record."""
    rng = s[F.rng]
    if s[F.rng_shared]:  # (a copy shares it: take one of its own)
        rng = s[F.rng] = COPY_RNG(rng)
        s[F.rng_shared] = False
    order = EXCHANGE(hands[mover], pool, rng, s[F.exchanges][m - BASE])
    s[F.chances].append((len(s[F.log]), order))
    if HELD:
        s[F.held][mover] = BITS(hands[mover])


def pay(scores, events, *, WHO, GUARD, POINTS, RULE, EVENTS):
    """One scoring rule paying one seat (`flow.score_trigger`, `WHO`: the mover, or
    `seat` in a loop over the receivers): when its `if:` holds (`GUARD`), its points
    (`POINTS` sets `p`) added to the seat's score and, unless a search's step, recorded
    as an event naming the rule (`RULE`, an index of `K_rules`)."""
    if GUARD:
        POINTS
        if p:  # noqa: F821 (`POINTS` sets `p`)
            scores[WHO] += p  # noqa: F821
            if EVENTS:
                events.append((WHO, p, RULE))  # noqa: F821


def pay_each(*, RECEIVERS, PAY):
    """A scoring rule paying each of its receivers (`flow.receivers`) in turn."""
    for seat in RECEIVERS:
        PAY


def settle(s, mover, *, F, LISTING, NO_MOVES, END_ROUND):
    """`flow.settle`: the next position's moves (`LISTING` sets `out`, unless listed
    already) kept; a round in which the player to move has none ends."""
    LISTING
    s[F.legal] = out  # noqa: F821 (`LISTING` sets `out`)
    if not out:  # noqa: F821
        END_ROUND(s, NO_MOVES, None, mover)


def could_place(s, *, F, FIRST_END, OTHERS, TEST, HAS, BOOL):
    """`turn.could_place` on a turn's first action (`flow.apply_move`): whether the
    position listed a placement, kept for `round.unable_in_row`: a code below
    `FIRST_END` when the first action's placements come first in a listing (None
    otherwise), or one that `TEST` finds of the others' (`c`, `OTHERS`: any)."""
    if not s[F.t_actions]:
        if FIRST_END is not None:
            legal = s[F.legal]
            could = legal and legal[0] < FIRST_END
            if OTHERS:
                could = could or HAS(legal, lambda c: TEST)
            s[F.t_could] = BOOL(could)
        else:
            s[F.t_could] = HAS(s[F.legal], lambda c: TEST)


def round_end_test(*, FIRST, COND, INDEX, SITE, ERRORS, FAILURE):
    """One round-end condition (`flow.end_turn`), tested when none before it held:
    `ended` becomes its index when `COND` holds."""
    if FIRST or ended < 0:  # noqa: F821 (`ended` is set before the first)
        try:
            if COND:
                ended = INDEX
        except ERRORS as exc:
            raise FAILURE(SITE, exc) from exc


def ending(s, mover, *, INDEX, WINNER, END_ROUND, REST):
    """The round ended by the condition of index `INDEX` (its winner chosen by
    `WINNER`), else what `REST` says (the next condition's ending, the turn limit)."""
    if ended == INDEX:  # noqa: F821
        END_ROUND(s, INDEX, WINNER, mover)
    else:
        REST


def turn_limit(s, mover, *, F, MOST, INDEX, END_ROUND, SETTLE):
    """`limits.max_turns` of a round reached: the round ends (reason `INDEX`), else
    the game goes on (`SETTLE`)."""
    if s[F.turns] >= MOST:
        END_ROUND(s, INDEX, None, mover)
    else:
        SETTLE
