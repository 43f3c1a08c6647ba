"""A hand-written pure-Python Triolet, the yardstick of issue 4's speed target.

Standalone on purpose (the standard library only, nothing from `engine/`): it is what a
good programmer would write for this one game, to measure the generic engine against.
It plays exactly the rules of `rulesets/triolet/standard.yaml` (fact sheet:
`shared/rules/triolet.md`; `docs/games/triolet.md`):

- 81 tokens 0-15 (no jokers), a bag, racks of 3 refilled after every turn;
- the 15x15 board with its x2, x3, bis (play again) and star (x2) cells;
- a turn places 1 to 3 tokens in one row or column, within 3 consecutive cells, with
  no gap but cells that already hold tokens; the first play covers the star, every
  later one touches a token orthogonally; every run through a new token is at most 3
  long, a pair sums to at most 15 and a trio to exactly 15;
- scoring: each pair through a new token its sum, each trio 30; a lone first token
  its value; the token on a x2/x3 cell adds (m - 1) x 30 if it is in a trio, else
  (m - 1) x its value (once, not per line); three tokens placed +50, never multiplied;
- a token placed on a bis cell gives another turn (chaining); exchange 1 to 3 tokens
  while the bag holds more than 5, pass only when it holds 5 or fewer;
- the game ends, checked after each turn in this order: the bag and the mover's rack
  are empty (the mover gains the other racks' values); every player passed in a row;
  ten full rounds of turns in which no player could place; 1000 turns.

The legal moves are the same set the engine lists (`benchmarks/reference/check_triolet.py`
proves it on seeded games): a play is (cells in line order, values), distinct by both;
an exchange names a sub-multiset of the rack (None, values); a pass is (None, ()).
Random players choose with `rng.choice(legal)`; draws take a random token of the bag.
How: a flat board with sentinels; for each empty cell, the values each direction allows
as a bit set, and the anchors (empty cells next to a token that can still be filled),
kept up to date as plays are laid; per rack, tables of its pairs and trios by sum.

    python benchmarks/reference/triolet_standard.py [--seconds 2] [--repeat 3]

prints, in CPU time (`time.process_time`), the best of the runs of: random games per
second; legal moves generated per second on the mid-game position that
`benchmarks/bench_games.py` measures (the same board and rack, the whole legal list);
and plays per second for the 200 racks on 5 boards of 60 tokens that
`benchmarks/bench_square.py` measures (the same boards and racks: they are built the
same way from the same seed, which the check confirms).
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations, permutations

SIZE = 15
STRIDE = SIZE + 1  # one sentinel column: walking off a row's end meets it
EMPTY, EDGE = -1, -2
ALL = (1 << 16) - 1  # the values 0-15 as a bit set
COUNTS = {0: 9, 1: 9, 2: 8, 3: 8, 4: 7, 5: 8, 6: 6, 7: 6, 8: 4, 9: 4, 10: 3, 11: 3,
          12: 2, 13: 2, 14: 1, 15: 1}
TOKENS = [value for value, count in COUNTS.items() for _ in range(count)]
HAND, MAX_TURNS, EXCHANGE_ABOVE = 3, 1000, 5
LAYOUT = """
. . . . . . . B . . . . . . .
. B . . 3 . . . . . 3 . . B .
. . . . . . . . . . . . . . .
. . . . . . . 2 . . . . . . .
. 3 . . 2 . . . . . 2 . . 3 .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
B . . 2 . . . S . . . 2 . . B
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. 3 . . 2 . . . . . 2 . . 3 .
. . . . . . . 2 . . . . . . .
. . . . . . . . . . . . . . .
. B . . 3 . . . . . 3 . . B .
. . . . . . . B . . . . . . .
"""


def index(x: int, y: int) -> int:
    """The flat index of cell (x, y): a sentinel row above and below, a sentinel column."""
    return (y + 1) * STRIDE + x


CELLS = (SIZE + 2) * STRIDE
BLANK = [EDGE] * CELLS  # the values of an empty board
MULT = [1] * CELLS
BIS = [False] * CELLS
for _y, _row in enumerate(LAYOUT.split("\n")[1:-1]):
    for _x, _mark in enumerate(_row.split()):
        _i = index(_x, _y)
        BLANK[_i] = EMPTY
        MULT[_i] = {"2": 2, "3": 3, "S": 2}.get(_mark, 1)
        BIS[_i] = _mark == "B"
        if _mark == "S":
            STAR = _i
PASS = (None, ())


def cross_mask(n: int, total: int) -> int:
    """The values a new token may take when it joins `n` tokens summing to `total` in
    one direction (a run of n + 1), as a bit set."""
    if n == 0:
        return ALL
    if n == 1 and total <= 15:
        return (1 << (16 - total)) - 1
    if n == 2 and total <= 15:
        return 1 << (15 - total)
    return 0


# CROSS[n][total]: `cross_mask` for runs up to 3 long on each side
CROSS = [[cross_mask(n, total) for total in range(91)] for n in range(7)]


# ------------------------------------------------------------------------------- racks
_RACKS: dict[tuple, tuple] = {}


def rack_info(rack: list) -> tuple:
    """What the generator needs of a rack, kept by its values: (value bit set,
    singles, pairs by the sum they must make (index 16: any sum up to 15), trios summing
    to 15, exchanges)."""
    key = tuple(rack)  # (unsorted: a few more entries, no sort per call)
    info = _RACKS.get(key)
    if info is None:
        info = _RACKS[key] = _work_out_rack(tuple(sorted(key)))
    return info


def _work_out_rack(key: tuple) -> tuple:
    mask = 0
    for x in key:
        mask |= 1 << x
    singles = [(1 << x, (x,)) for x in sorted(set(key))]
    pairs = [[] for _ in range(17)]
    for x, y in sorted(set(permutations(key, 2))):
        if x + y <= 15:
            pairs[x + y].append((1 << x, 1 << y, (x, y)))
            pairs[16].append((1 << x, 1 << y, (x, y)))
    trios = [(1 << x, 1 << y, 1 << z, (x, y, z))
             for x, y, z in sorted(set(permutations(key, 3))) if x + y + z == 15]
    exchanges = [(None, combo) for size in range(1, min(3, len(key)) + 1)
                 for combo in sorted(set(combinations(key, size)))]
    return mask, singles, pairs, trios, exchanges


# ------------------------------------------------------------------------------ boards
def new_board() -> tuple:
    """(values, across masks, down masks, anchors) of an empty board. A mask is the
    values a new token may take given the run it joins that way; the anchors are the
    empty cells next to a token (before the first play: the star)."""
    return BLANK[:], [ALL] * CELLS, [ALL] * CELLS, {STAR}


def load_board(tokens) -> tuple:
    """A board holding `tokens`, (x, y, value) each, indexed from scratch."""
    v, mh, mv, anchors = new_board()
    for x, y, value in tokens:
        v[index(x, y)] = value
    if tokens:
        for c in range(CELLS):
            if v[c] == EMPTY:
                mh[c], mv[c] = _mask_at(v, c, 1), _mask_at(v, c, STRIDE)
                if not (mh[c] and mv[c]):
                    mh[c] = mv[c] = 0  # never to be filled (see `place`)
        anchors = set()
        for c in range(CELLS):
            if v[c] >= 0:
                for e in (c - 1, c + 1, c - STRIDE, c + STRIDE):
                    if v[e] == EMPTY and mh[e]:
                        anchors.add(e)
    return v, mh, mv, anchors


def _mask_at(v: list, c: int, d: int) -> int:
    """The mask of empty cell `c` along step `d`, from the runs on both sides."""
    n = total = 0
    i = c - d
    while v[i] >= 0:
        n, total, i = n + 1, total + v[i], i - d
    i = c + d
    while v[i] >= 0:
        n, total, i = n + 1, total + v[i], i + d
    return CROSS[n][total]


def find_plays(board: tuple, info: tuple) -> list:
    """Every legal play of the rack `info` describes, as (cells, values), each once.

    A play of two or more tokens is found from its first anchor in line order (the
    anchors before it in the play are skipped), so that none is listed twice; one token
    from the anchor it lies on. Only the cells next to a run are read: a run longer
    than 3 is never legal, so a few reads settle each line.
    """
    v, mh, mv, anchors = board
    hm, singles, pairs, trios, _ = info
    out = []
    add = out.append
    two = bool(pairs[16])
    dirs = ((1, mv), (STRIDE, mh))
    for a in anchors:
        # a value laid on the anchor keeps both its runs, whatever else is laid with it
        ma = mh[a] & mv[a] & hm
        if not ma:
            continue
        at = (a,)
        for bit, vals in singles:
            if ma & bit:
                add((at, vals))
        if not two:
            continue
        for d, cm in dirs:  # along d, the masks across
            p = v[a - d]  # the cell before the anchor
            e = a + d
            q = v[e]  # the cell after it
            if q == EMPTY:
                me = cm[e] & hm
                if me:
                    # the pair (a, e): the line takes one token before or after, not both
                    f = v[e + d]
                    if p >= 0:
                        fits = pairs[15 - p] if f < 0 and v[a - d - d] < 0 else None
                    elif f >= 0:
                        fits = pairs[15 - f] if v[e + d + d] < 0 else None
                    else:
                        fits = pairs[16]
                    if fits:
                        at = (a, e)
                        for bx, by, vals in fits:
                            if ma & bx and me & by:
                                add((at, vals))
                    # the trio (a, e, g): nothing before it or after it
                    if f == EMPTY and p < 0 and trios:
                        g = e + d
                        mg = cm[g] & hm
                        if mg and v[g + d] < 0:
                            at = (a, e, g)
                            for bx, by, bz, vals in trios:
                                if ma & bx and me & by and mg & bz:
                                    add((at, vals))
            elif q >= 0:
                # the pair (a, g) around the token at e: a trio with nothing outside
                g = e + d
                if v[g] == EMPTY and p < 0 and v[g + d] < 0:
                    mg = cm[g] & hm
                    if mg:
                        at = (a, g)
                        for bx, by, vals in pairs[15 - q]:
                            if ma & bx and mg & by:
                                add((at, vals))
            b = a - d
            if p != EMPTY or b in anchors:
                continue  # the plays that begin before the anchor are found from another
            # b is empty and no anchor, so no token touches it: nothing before it on the line
            mb = cm[b] & hm
            if not mb:
                continue
            if q >= 0:
                # the pair (b, a) before the token at e: a trio, nothing after it
                if v[e + d] < 0:
                    at = (b, a)
                    for bx, by, vals in pairs[15 - q]:
                        if mb & bx and ma & by:
                            add((at, vals))
                continue
            at = (b, a)  # the pair (b, a) alone on its line
            for bx, by, vals in pairs[16]:
                if mb & bx and ma & by:
                    add((at, vals))
            if not trios:
                continue
            if q == EMPTY and v[e + d] < 0:
                me = cm[e] & hm  # the trio (b, a, e)
                if me:
                    at = (b, a, e)
                    for bx, by, bz, vals in trios:
                        if mb & bx and ma & by and me & bz:
                            add((at, vals))
            c = b - d
            if v[c] == EMPTY and c not in anchors:
                mc = cm[c] & hm  # the trio (c, b, a)
                if mc:
                    at = (c, b, a)
                    for bx, by, bz, vals in trios:
                        if mc & bx and mb & by and ma & bz:
                            add((at, vals))
    return out


def place(board: tuple, cells: tuple, vals: tuple) -> tuple[int, bool]:
    """Lay a legal play and keep the board's masks and anchors; (its points, whether it
    covers a bis cell)."""
    v, mh, mv, anchors = board
    for c, x in zip(cells, vals):
        v[c] = x
    anchors.difference_update(cells)
    ends = []  # the empty cells at the ends of the runs through the new tokens
    points = 0
    if len(cells) == 1:
        c, x = cells[0], vals[0]
        nh, sh = _line(v, mh, c, 1, ends)
        nv, sv = _line(v, mv, c, STRIDE, ends)
        if nh > 1:
            points += 30 if nh == 3 else sh
        if nv > 1:
            points += 30 if nv == 3 else sv
        if nh == nv == 1:
            points += x  # a lone first token
        if MULT[c] > 1:
            points += (MULT[c] - 1) * (30 if nh == 3 or nv == 3 else x)
    else:
        if cells[1] - cells[0] < STRIDE:
            d, e, along, across = 1, STRIDE, mh, mv
        else:
            d, e, along, across = STRIDE, 1, mv, mh
        n, total = _line(v, along, cells[0], d, ends)
        points += 30 if n == 3 else total
        for c, x in zip(cells, vals):
            nc, sc = _line(v, across, c, e, ends)
            if nc > 1:
                points += 30 if nc == 3 else sc
            if MULT[c] > 1:
                points += (MULT[c] - 1) * (30 if n == 3 or nc == 3 else x)
        if len(cells) == 3:
            points += 50  # a Triolet, never multiplied
    for c in ends:
        # A cell whose mask is empty either way can never be filled (runs only grow):
        # both masks are cleared and it is no anchor, so the generator passes it at once.
        if mh[c] and mv[c]:
            anchors.add(c)  # (the cells next to a new token are among the ends)
        else:
            mh[c] = mv[c] = 0
            anchors.discard(c)
    return points, BIS[cells[0]] or BIS[cells[-1]] or BIS[cells[len(cells) // 2]]  # (<= 3)


def _line(v: list, masks: list, c: int, d: int, ends: list) -> tuple[int, int]:
    """(length, sum) of the run through the new token at `c` along step `d`; the masks
    that way of the empty cells at its ends (which are added to `ends`)."""
    n, total = 1, v[c]
    a = c - d
    while v[a] >= 0:
        n, total, a = n + 1, total + v[a], a - d
    b = c + d
    while v[b] >= 0:
        n, total, b = n + 1, total + v[b], b + d
    if v[a] == EMPTY:
        m, s, i = n, total, a - d
        while v[i] >= 0:
            m, s, i = m + 1, s + v[i], i - d
        masks[a] = CROSS[m][s]
        ends.append(a)
    if v[b] == EMPTY:
        m, s, i = n, total, b + d
        while v[i] >= 0:
            m, s, i = m + 1, s + v[i], i + d
        masks[b] = CROSS[m][s]
        ends.append(b)
    return n, total


# ------------------------------------------------------------------------------- games
def play_game(rng: random.Random, players: int = 2, bag: list | None = None) -> tuple:
    """A game of random players drawing from `bag` (all tokens): (scores, turns, end)."""
    if bag is None:
        bag = TOKENS[:]
    choice, randrange = rng.choice, rng.randrange
    board = new_board()
    racks = [[] for _ in range(players)]
    for rack in racks:
        while len(rack) < HAND:
            j = randrange(len(bag))
            rack.append(bag[j])
            bag[j] = bag[-1]  # (the last token fills the hole: no shift)
            bag.pop()
    scores = [0] * players
    player = turns = passes = unable = 0
    while True:
        rack = racks[player]
        info = rack_info(rack)
        plays = find_plays(board, info)
        if len(bag) > EXCHANGE_ABOVE:
            legal = plays + info[4]
        else:
            legal = plays + [PASS]
        cells, vals = choice(legal)
        extra = False
        if cells is not None:
            points, extra = place(board, cells, vals)
            scores[player] += points
            for x in vals:
                rack.remove(x)
            passes = 0
        elif vals:  # an exchange: the tokens go back first, then the rack is refilled
            for x in vals:
                rack.remove(x)
            bag.extend(vals)
            passes = 0
        else:
            passes += 1
        unable = 0 if plays else unable + 1
        turns += 1
        while len(rack) < HAND and bag:
            j = randrange(len(bag))
            rack.append(bag[j])
            bag[j] = bag[-1]
            bag.pop()
        if not bag and not rack:
            scores[player] += sum(sum(r) for r in racks)
            return scores, turns, "went_out"
        if passes >= players:
            return scores, turns, "all_passed"
        if unable >= 10 * players:
            return scores, turns, "nobody_can_place"
        if turns >= MAX_TURNS:
            return scores, turns, "turn_limit"
        if not extra:
            player = (player + 1) % players


def legal_moves(board: tuple, rack: list, in_bag: int) -> list:
    """Every legal move of `rack` (as `play_game` lists them) with `in_bag` tokens left."""
    info = rack_info(rack)
    return find_plays(board, info) + (info[4] if in_bag > EXCHANGE_ABOVE else [PASS])


# -------------------------------------------------------------------------- benchmarks
# The position `benchmarks/bench_games.py` measures (half-way through the engine's
# random game of seed 7): board, rack, tokens in the bag.
MID_GAME = ("B1=13 B2=2 C2=3 C3=11 C4=1 D4=2 D5=4 E5=10 E6=1 F6=3 F7=3 G7=3 G8=5 G13=6 "
            "G14=9 H8=3 H9=0 H13=5 H14=2 H15=8 I9=2 I10=4 I12=7 I13=4 I15=5 J10=0 J11=5 "
            "J14=8 J15=2 K11=1 K12=3 K14=2 L12=2 L13=8 L14=5 M13=1 N12=7 N13=6 O12=7",
            [4, 7, 14], 36)


def parse_tokens(text: str) -> list:
    """(x, y, value) of each `H8=4` of a dumped position."""
    return [(int(cell[1:]) - 1, ord(cell[0]) - 65, int(value))
            for cell, value in (word.split("=") for word in text.split())]


def crowded_boards(rng: random.Random, boards: int = 5, target: int = 60) -> list:
    """(board, tokens left) pairs: random legal plays from a shuffled bag until `target`
    tokens are down, built as `bench_square.py` builds its boards."""
    out = []
    for _ in range(boards):
        board, bag, laid, stuck = new_board(), TOKENS[:], 0, 0
        rng.shuffle(bag)
        while laid < target and stuck < 50:
            plays = sorted(find_plays(board, rack_info(bag[:3])))
            if not plays:
                rng.shuffle(bag)
                stuck += 1
                continue
            cells, vals = rng.choice(plays)
            place(board, cells, vals)
            for x in vals:
                bag.remove(x)
            laid += len(vals)
        out.append((board, bag))
    return out


def per_second(batch, seconds: float) -> tuple[float, float]:
    """(runs, units) per second of CPU time: `batch(i)` does some runs and returns
    (runs, units made), and is called until `seconds` have passed."""
    runs = units = i = 0
    start = time.process_time()
    while True:
        r, u = batch(i)
        runs, units, i = runs + r, units + u, i + 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return runs / elapsed, units / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is shown")
    args = parser.parse_args()

    def best(batch):
        runs = [per_second(batch, args.seconds) for _ in range(args.repeat)]
        return max(runs), ", ".join(f"{r[0]:,.1f}" for r in runs)

    (games, turns), runs = best(lambda i: (1, play_game(random.Random(i))[1]))
    print(f"random games: {games:,.1f} games/s, {turns / games:.1f} turns a game (runs: {runs})")
    text, rack, in_bag = MID_GAME
    board = load_board(parse_tokens(text))
    count = len(legal_moves(board, rack, in_bag))
    (gens, moves), runs = best(lambda i: (100, sum(len(legal_moves(board, rack, in_bag))
                                                   for _ in range(100))))
    print(f"bench_games.py's mid-game position ({len(text.split())} tokens, rack {rack}, "
          f"{count} legal moves): {moves:,.0f} moves/s, {gens:,.0f} generations/s (runs: {runs})")
    rng = random.Random(7)
    racks = [(board, rng.sample(bag, 3)) for board, bag in crowded_boards(rng) for _ in range(40)]
    (calls, plays), runs = best(lambda i: (len(racks), sum(len(find_plays(b, rack_info(r)))
                                                           for b, r in racks)))
    print(f"bench_square.py's 200 racks on 5 boards of 60 tokens: {plays:,.0f} plays/s, "
          f"{calls:,.0f} racks/s (runs: {runs})")


if __name__ == "__main__":
    main()
