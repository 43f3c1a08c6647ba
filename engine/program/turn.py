"""Templates of a program's turn (`engine.program.template`): real functions over the
program's state, one list `s`, whose bodies a program's `apply` holds with the rules'
numbers written in.

Each keyword-only parameter is a constant of the ruleset: a field's index in `s`
(`TURNS`), a switch (`SEARCH`: the step of a search, which keeps no log), a tuple of
move codes, or a namespace object (`HAND_SIZES`: `K_hand`, by player count). The
positional parameters are the locals of `apply` where the body goes.
"""

from __future__ import annotations


def end_turn(s, m, mover, extra, hands, pool, *, SEARCH, TURNS, TURNS_TOTAL, N, TO_MOVE, LOG,
             WITHOUT_PLACE, PASSES, UNABLE, T_PLACED, T_COULD, T_DRAWS, T_ACTIONS,
             PASS_CODES, EXTRA_TURNS, REFILL, HAND_SIZES, HELD, BITS):
    """`flow.end_turn` up to the round-end conditions: the round's counters (a field
    index of None: not kept), the mover's hand refilled, a fresh turn, the next
    player; the match's turn count and the log unless `SEARCH`."""
    s[TURNS] += 1
    if not SEARCH:
        s[TURNS_TOTAL] += 1
    if WITHOUT_PLACE is not None:
        s[WITHOUT_PLACE] = 0 if s[T_PLACED] else s[WITHOUT_PLACE] + 1
    if PASSES is not None:
        s[PASSES] = s[PASSES] + 1 if m in PASS_CODES else 0
    if UNABLE is not None:
        s[UNABLE] = 0 if s[T_COULD] else s[UNABLE] + 1
    if REFILL:
        size = HAND_SIZES[s[N]]
        hand = hands[mover]
        while len(hand) < size and pool:
            hand.append(pool.pop())
        if HELD is not None:
            s[HELD][mover] = BITS(hand)
    if T_DRAWS is not None:
        s[T_DRAWS] = 0
    if T_PLACED is not None:
        s[T_PLACED] = 0
    if T_ACTIONS is not None:
        s[T_ACTIONS] = 0
    if T_COULD is not None:
        s[T_COULD] = True
    if EXTRA_TURNS:
        s[TO_MOVE] = mover if extra else (mover + 1) % s[N]
    else:
        s[TO_MOVE] = (mover + 1) % s[N]
    if not SEARCH:
        s[LOG].append(m)
