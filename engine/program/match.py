"""Templates of a program's match (`engine.program.template`): a new state, its copies,
the fixed part of a round's start, and the readers. Real functions over the program's
state `s`, one list, whose bodies the generated module holds with the layout written
in.

`F` is the state's layout (`layout(plan)`): field name -> index in `s`, None for a field
this program does not keep (a counter no rule reads, in a search's step; the clock of
a ruleset that never reads it), so that `if F.clock is not None:` folds away where it is not kept.
"""

from __future__ import annotations

#: fields that a program keeps only when the ruleset reads the clock (`plan.CLOCK_FIELDS`)
OPTIONAL = ("clock", "marks")


def layout(fields: dict, absent=()) -> dict:
    """`F` for the templates: `fields`, with None for each optional field it lacks and
    for each name of `absent` (a field the program does not keep up to date)."""
    out = dict.fromkeys(OPTIONAL)
    out.update(fields)
    out.update(dict.fromkeys(absent))
    return out

def new_state(n, seed, *, F, SIZE, RANDOM, COUNTERS):
    """`new(n, seed)` up to the board: a match's state before its first round
    (`Game.new_game`): no scores, no log, the counters at their starting values."""
    s = [None] * SIZE
    s[F.n] = n
    s[F.seed] = seed
    s[F.rng] = RANDOM(seed)
    s[F.rng_shared] = False
    s[F.scores] = [0] * n
    s[F.counters] = list(COUNTERS)
    s[F.over] = False
    s[F.round] = 0
    s[F.turns_total] = 0
    s[F.events] = []
    s[F.log] = []
    s[F.chances] = []
    s[F.ended] = []
    s[F.pool] = []
    s[F.pile] = []
    s[F.hands] = [[] for _ in range(n)]
    s[F.held] = [0] * n
    s[F.turned] = 0
    if F.clock is not None:
        s[F.clock] = 0
    if F.marks is not None:
        s[F.marks] = []


def first_moves(s, out, *, F, NO_MOVES, END_ROUND):
    """The end of `new`: the first position's moves kept (`out`), the round ended at
    once when the first player has none (`flow.settle`)."""
    s[F.legal] = out
    if not out:
        END_ROUND(s, NO_MOVES, None, s[F.to_move])
    return s


def round_reset(s, number, *, F, COUNTERS, COPY_RNG, SHUFFLE, PIECES):
    """`flow.start_round` up to the hands: the round's and turn's counters afresh, the
    counters at their starting values, and the pieces shuffled into `order` by the
    state's own generator (a copy shares it until it shuffles: it takes its own)."""
    s[F.round] = number
    s[F.turns] = 0
    s[F.reason] = None
    s[F.round_winner] = None
    s[F.placed_any] = False
    s[F.without_place] = 0
    s[F.passes] = 0
    s[F.unable] = 0
    s[F.t_draws] = 0
    s[F.t_placed] = 0
    s[F.t_actions] = 0
    s[F.t_could] = True
    s[F.opening] = None
    s[F.counters][:] = COUNTERS
    rng = s[F.rng]
    if s[F.rng_shared]:
        rng = s[F.rng] = COPY_RNG(rng)
        s[F.rng_shared] = False
    order = list(PIECES)
    SHUFFLE(rng, order)  # (`random.shuffle`'s order, as `flow.shuffled`)
    s[F.chances].append((len(s[F.log]) - 1, order))


def copy_state(s, *, F, HANDS, HELD):
    """`copy(s)` but for the board's and the zones' fields: `c`, with its own lists,
    each one level deep (the pieces are immutable and shared); both share the random
    generator until one of them shuffles (`round_reset`, an exchange)."""
    c = s[:]
    c[F.scores] = s[F.scores][:]
    c[F.counters] = s[F.counters][:]
    c[F.pool] = s[F.pool][:]
    c[F.pile] = s[F.pile][:]
    c[F.events] = s[F.events][:]
    c[F.log] = s[F.log][:]
    c[F.chances] = s[F.chances][:]
    c[F.ended] = s[F.ended][:]
    if F.marks is not None:
        c[F.marks] = s[F.marks][:]
    if HANDS:
        c[F.hands] = [hand[:] for hand in s[F.hands]]
    if HELD:
        c[F.held] = s[F.held][:]
    s[F.rng_shared] = c[F.rng_shared] = True


def search_lists(s, c, *, F, HANDS, HELD):
    """The lists a search's step changes, copied into `c` (`search_copy`, and
    `search_fork`, which shares the rest): the scores, counters, pool, pile, hands."""
    c[F.scores] = s[F.scores][:]
    c[F.counters] = s[F.counters][:]
    c[F.pool] = s[F.pool][:]
    c[F.pile] = s[F.pile][:]
    if HANDS:
        c[F.hands] = [hand[:] for hand in s[F.hands]]
    if HELD:
        c[F.held] = s[F.held][:]


def search_records(s, c, *, F):
    """`search_copy(s)`'s own record of the match, empty: a search only looks ahead
    (copying the log would cost as the match is long); the generator shared."""
    c[F.events] = []
    c[F.log] = []
    c[F.chances] = []
    c[F.ended] = []
    if F.marks is not None:
        c[F.marks] = []
    s[F.rng_shared] = c[F.rng_shared] = True
