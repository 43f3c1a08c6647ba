"""A hand-written pure-Python Tri-Ominos, to measure the engine against (issue 3).

What it is: the fastest straightforward program for one game that we could honestly write,
with no engine code (the standard library only). Issue 3 quotes such a program ("about
1,600 rounds per second ... about 145,000 legal moves per second") as the yardstick for
the generic engine; this is that program, written so that the figure can be measured on
these machines instead of taken on trust.

Rules: exactly those of `rulesets/triominos/pressman.yaml` (fact sheet
shared/rules/triominos.md), one round:
- the 56 tiles 0-5 (every multiset of three numbers, read clockwise); hands of 9 (2
  players), 7 (3-4) or 6 (5-6); the rest is the well;
- the holder of the highest tile (triples first, then value, then the numbers high to
  low) opens with it on (0,0) pointing up or (1,0) pointing down, in any rotation; the
  same player may open with 0-0-0 instead; a triple opening scores +10, 0-0-0 +40 in all;
- a tile goes on an empty cell sharing an edge with a tile, every corner equal to the
  number already at its lattice point (through an edge or a point); never mirrored;
- a placement scores the tile's value, +50 per hexagon completed (a corner whose five
  other cells were occupied), and +40 once for a bridge (reading R2: an occupied edge
  neighbour whose facing corner touches a tile at a point only), not with a hexagon;
- unable to place: draw (-5 a tile, unlimited) until a tile fits, then place; with the
  well empty, pass for -10;
- the round ends when the mover goes out (+25 and the opponents' hands) or when the well
  is empty and a full circle of turns passed without a placement (the fewest tiles, then
  the lowest value, wins the opponents' hands minus their own; a full tie: nobody).
Random players choose uniformly from the full list of legal moves (`rng.choice(legal)`),
drawing and passing included, exactly as `benchmarks/bench_games.py` drives the engine.

How: cells and lattice points are ints on one grid (`cell_id`); a placement is an int too
(`cell << 9 | entry`). The board keeps, per point, how many tiles touch it and its number
(`cnt`, `pts`), per cell whether it holds a tile (`occ`), and the frontier: the empty
cells sharing an edge with a tile, each with a key saying which numbers its corners must
show, updated as tiles go down. Tables list, for every key, the tile rotations that fit
it, and which count of the mover's hand (`have`: its tiles, and its pairs of numbers
clockwise) says whether any of its tiles does; so the legal moves are one loop over the
frontier. They are generated in full at every decision (after a draw only the drawn tile
can fit, so only it is tried). The same games as the engine's for a seed, if the moves
are taken in the engine's order (`sorted(legal_moves())`); `play_round` does not sort.

It prints random rounds per second (CPU time, best of `--runs` runs of `--seconds`) and
the legal moves generated per second, and generations per second, on the mid-game
position bench_games.py measures the engine on (the same position: see `mid_game`).

    python benchmarks/reference/triominos_pressman.py [--seconds 2] [--runs 3]

`benchmarks/reference/check_triominos.py` plays the engine and this program side by side
and checks that they list the same moves and keep the same scores.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations_with_replacement, compress

# -- the grid ------------------------------------------------------------------------
# Cell (c, r) and lattice point (X, Y) share one numbering. The width is odd, so an id's
# parity is that of c + r: even ids point up. A round lays at most 56 tiles, each sharing
# an edge with an earlier one, from (0, 0) or (1, 0): so |c| <= 56, and |r| <= 28 (two
# tiles a row: an up cell's edge below leads to a down cell, which must step sideways to
# an up cell before going further down). The ids read are at most two cells or points
# further (neighbours, their corners, the cells round a corner): |c| <= 60, |r| <= 30.
WIDTH, COL0, ROW0 = 123, 61, 31
SIZE = WIDTH * (2 * ROW0 + 1)
W1, W2 = WIDTH + 1, WIDTH + 2


def cell_id(c: int, r: int) -> int:
    """The id of cell (or lattice point) (c, r)."""
    return (r + ROW0) * WIDTH + c + COL0


def id_cell(i: int) -> tuple[int, int]:
    """The cell (or lattice point) of id `i`."""
    r, c = divmod(i, WIDTH)
    return c - COL0, r - ROW0


# Corner points M, L, R and the edge neighbour across the horizontal edge, as id deltas;
# index 0 up, 1 down (an id's parity). Up (c, r): M (c+1, r), L (c, r+1), R (c+2, r+1),
# MIDDLE (c, r+1); down: M (c+1, r+1), L (c, r), R (c+2, r), MIDDLE (c, r-1).
POINTS = ((1, WIDTH, W2), (W1, 0, 2))
MIDDLE = (WIDTH, -WIDTH)
# A key is 2 * (m * 49 + l * 7 + r) + down, where m, l, r are 0 for a free corner and the
# number + 1 for a known one. Around point (X, Y) the six cells and the corner each has
# there: (X-2, Y-1) up R, (X-1, Y-1) down M, (X, Y-1) up L, (X-2, Y) down R, (X-1, Y) up M,
# (X, Y) down L. A number v at a point adds these to their keys (R, M, L):
INC = tuple((2 * (v + 1), 98 * (v + 1), 14 * (v + 1)) for v in range(6))

# -- the tiles -------------------------------------------------------------------------
TILES = list(combinations_with_replacement(range(6), 3))  # clockwise, the engine's order
VALUE = [sum(t) for t in TILES]
NAME = ["-".join(map(str, t)) for t in TILES]
# Opening rank: triples first, then value, then the highest number, then the middle one.
RANK = [(len(set(t)) == 1, sum(t), t[2], t[1]) for t in TILES]
ZERO_TRIPLE = 0
BY_ORDER = sorted(range(56), key=RANK.__getitem__)  # the tiles, the best opening last
ORDER = [BY_ORDER.index(t) for t in range(56)]      # tile -> its place in that order
HAND_SIZE = {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}
DRAW, PASS = -1, -2


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` does (the same random bits,
    the same order), in one loop instead of a method call per item, as the engine does."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def rotations(t: int, down: int) -> list[tuple[int, tuple[int, int, int]]]:
    """(k, numbers at M, L, R) for each distinct rotation k of tile `t` (corners[k] at M,
    then clockwise: M, R, L on an up cell, M, L, R on a down cell)."""
    out, seen = [], set()
    a = TILES[t]
    for k in range(3):
        m, x, y = a[k], a[(k + 1) % 3], a[(k + 2) % 3]
        nums = (m, x, y) if down else (m, y, x)
        if nums not in seen:
            seen.add(nums)
            out.append((k, nums))
    return out


# A placement entry e = (tile * 3 + k) * 2 + down; ENTRY[e] = (tile, k, m, l, r).
ENTRY: list = [None] * (56 * 6)
FITS: list = [0] * 686       # key -> the tiles (as bits) with a rotation that fits it
# What a hand offers, as counts: `have[x * 6 + y]` (0-35) counts its tiles showing y just
# clockwise after x, `have[36 + t]` is 1 if it holds tile t, `have[92]` is always 0. A cell
# knowing two corners takes exactly the tiles with that clockwise pair, one knowing three
# the one tile showing them: `have[NEED[key]]` says whether the hand fits it, with no
# big-int arithmetic in the move loop.
NEED: list = [92] * 686
CHOICES: list = [()] * 686   # key -> ((36 + tile, entry), ...) of the rotations that fit
HAS: list = []               # tile -> the `have` slots it counts in: 3 pairs, then itself
ONE: list = []               # tile -> the `have` of a hand holding only that tile


def _clockwise_pair(down: int, known: int, numbers: tuple) -> int:
    """The pair slot of a cell knowing two corners (bits 1, 2, 4: M, L, R): the number at
    one of them, then the number clockwise after it (M, R, L round an up cell, M, L, R
    round a down cell)."""
    ring = (0, 1, 2) if down else (0, 2, 1)
    for i in range(3):
        first, second = ring[i], ring[(i + 1) % 3]
        if known == 1 << first | 1 << second:
            return numbers[first] * 6 + numbers[second]
    raise ValueError(known)


def _build_tables() -> None:
    for t, (a, b, c) in enumerate(TILES):
        HAS.append((a * 6 + b, b * 6 + c, c * 6 + a, 36 + t))
        ONE.append([0] * 93)
        for slot in HAS[t]:
            ONE[t][slot] += 1
    for t in range(56):
        for down in (0, 1):
            for k, (m, l, r) in rotations(t, down):
                e = (t * 3 + k) * 2 + down
                ENTRY[e] = (t, k, m, l, r)
                for known in range(8):  # which corners the cell already knows
                    key = 2 * ((m + 1) * 49 * (known & 1) + (l + 1) * 7 * (known >> 1 & 1)
                               + (r + 1) * (known >> 2)) + down
                    FITS[key] |= 1 << t
                    CHOICES[key] += ((36 + t, e),)
                    if known == 7:
                        NEED[key] = 36 + t
                    elif known in (3, 5, 6):
                        NEED[key] = _clockwise_pair(down, known, (m, l, r))
    # The pair rule must say exactly what the rotations say.
    for key in range(686):
        if FITS[key] and NEED[key] != 92:
            slot = NEED[key]
            assert FITS[key] == sum(1 << t for t in range(56) if slot in HAS[t]), key


_build_tables()
# Tile -> its opening placements: on (0, 0) pointing up, or (1, 0) pointing down.
OPENINGS = [[cell_id(c, 0) << 9 | (t * 3 + k) * 2 + down for c, down in ((0, 0), (1, 1))
             for k, _ in rotations(t, down)] for t in range(56)]


class Round:
    """One round in progress. `legal_moves()` lists the moves of the player to move
    (ints: a placement `cell << 9 | entry`, or DRAW, PASS); `apply(move)` plays one."""

    def __init__(self, hands: list[list[int]], pool: list[int]):
        """Start a round from the dealt hands (lists of tiles) and the well (drawn from the end)."""
        self.n = len(hands)
        self.pool = pool
        self.scores = [0] * self.n
        self.cnt = bytearray(SIZE)   # point -> how many tiles touch it
        self.pts = bytearray(SIZE)   # point -> its number + 1 (0: no tile touches it)
        self.occ = bytearray(SIZE)   # cell -> 1 if it holds a tile
        # The frontier: empty cells sharing an edge with a tile -> the key of their known
        # corners. A cell no tile of the set fits (FITS 0) is left out: it never will.
        self.frontier = {}
        self.held = [len(tiles) for tiles in hands]  # per player: how many tiles
        self.have = []               # per player: what the hand offers (`NEED`)
        for tiles in hands:
            have = [0] * 93
            for t in tiles:
                p1, p2, p3, x = HAS[t]
                have[p1] += 1
                have[p2] += 1
                have[p3] += 1
                have[x] = 1
            self.have.append(have)
        self.drawn = 0               # this turn's drawn tile: its `ONE` (0 if none)
        self.idle = 0                # turns in a row without a placement
        self.over = False
        self.reason = self.winner = None
        top = self.to_move = -1  # plain loops: a generator here costs more than the rest
        for s, tiles in enumerate(hands):
            for t in tiles:
                if ORDER[t] > top:
                    top, self.to_move = ORDER[t], s
        best = BY_ORDER[top]
        self.opening = OPENINGS[best]  # the opening moves, until the first placement
        if best != ZERO_TRIPLE and ZERO_TRIPLE in hands[self.to_move]:
            self.opening = self.opening + OPENINGS[ZERO_TRIPLE]

    @classmethod
    def deal(cls, rng: random.Random, players: int = 2) -> "Round":
        """A round dealt as the engine deals it: the tiles in order, shuffled, hands first."""
        tiles = list(range(56))
        shuffle(rng, tiles)
        size = HAND_SIZE[players]
        hands = [tiles[s * size:(s + 1) * size] for s in range(players)]
        return cls(hands, tiles[:players * size - 1:-1])

    @property
    def hands(self) -> list[list[int]]:
        """The tiles each player holds."""
        return [list(compress(range(56), have[36:92])) for have in self.have]

    def hand_values(self) -> list[int]:
        """The sum of the numbers on each player's tiles."""
        return [sum(map(VALUE.__getitem__, tiles)) for tiles in self.hands]

    def legal_moves(self) -> list[int]:
        """Every legal move of the player to move (`sorted()`, in the engine's order)."""
        if self.opening:
            return self.opening[:]
        have = self.drawn or self.have[self.to_move]  # after a draw, only that tile can fit
        need, choices = NEED, CHOICES
        moves = []  # a loop, not a comprehension: no function made and called each time
        for c, k in self.frontier.items():
            if have[need[k]]:
                for x, e in choices[k]:
                    if have[x]:
                        moves.append(c << 9 | e)
        if moves:
            return moves
        return [DRAW] if self.pool else [PASS]

    def apply(self, move: int) -> None:
        """Play a legal move: place, draw or pass, and end the round if it is over."""
        if move < 0:
            if move == DRAW:
                t = self.pool.pop()
                self.drawn = ONE[t]
                self.held[self.to_move] += 1
                have = self.have[self.to_move]
                p1, p2, p3, x = HAS[t]
                have[p1] += 1
                have[p2] += 1
                have[p3] += 1
                have[x] = 1
                self.scores[self.to_move] -= 5
                return
            self.scores[self.to_move] -= 10
            self.drawn = 0
            self.idle += 1
            if self.idle >= self.n:  # a pass means the well is empty
                self._end_blocked()
            else:
                self.to_move = (self.to_move + 1) % self.n
            return
        c, e = move >> 9, move & 511
        t, _, m, l, r = ENTRY[e]
        down = e & 1
        cnt, occ, pts, frontier = self.cnt, self.occ, self.pts, self.frontier
        dm, dl, dr = POINTS[down]
        pm, pl, pr = c + dm, c + dl, c + dr
        cm, cl, cr = cnt[pm], cnt[pl], cnt[pr]
        mid = c + MIDDLE[down]
        left, right, middle = occ[c - 1], occ[c + 1], occ[mid]
        points = VALUE[t]
        if cm == 5 or cl == 5 or cr == 5:  # five tiles round a corner: a hexagon
            points += 50 * ((cm == 5) + (cl == 5) + (cr == 5))
        elif (middle and cm > left + right) or (right and cl > left + middle) or (
                left and cr > right + middle):
            points += 40  # a bridge: the corner facing a shared edge touches a point-only tile
        if self.opening:
            self.opening = None
            if RANK[t][0]:
                points += 40 if t == ZERO_TRIPLE else 10
        mover = self.to_move
        self.scores[mover] += points
        occ[c] = 1
        frontier.pop(c, None)  # (the opening cell was never in it)
        cnt[pm], cnt[pl], cnt[pr] = cm + 1, cl + 1, cr + 1
        # A new number at a point changes the keys of the frontier cells around it.
        if not cm:
            pts[pm] = m + 1
            _learn(frontier, pm, INC[m])
        if not cl:
            pts[pl] = l + 1
            _learn(frontier, pl, INC[l])
        if not cr:
            pts[pr] = r + 1
            _learn(frontier, pr, INC[r])
        # The empty edge neighbours join the frontier (they point the other way).
        up = 1 - down
        nm, nl, nr = POINTS[up]
        x = c - 1
        if not left and x not in frontier:
            k = 2 * (pts[x + nm] * 49 + pts[x + nl] * 7 + pts[x + nr]) + up
            if FITS[k]:
                frontier[x] = k
        x = c + 1
        if not right and x not in frontier:
            k = 2 * (pts[x + nm] * 49 + pts[x + nl] * 7 + pts[x + nr]) + up
            if FITS[k]:
                frontier[x] = k
        if not middle and mid not in frontier:
            k = 2 * (pts[mid + nm] * 49 + pts[mid + nl] * 7 + pts[mid + nr]) + up
            if FITS[k]:
                frontier[mid] = k
        have = self.have[mover]
        p1, p2, p3, x = HAS[t]
        have[p1] -= 1
        have[p2] -= 1
        have[p3] -= 1
        have[x] = 0
        self.drawn = self.idle = 0
        self.held[mover] -= 1
        if not self.held[mover]:
            self.over, self.reason, self.winner = True, "went_out", mover
            self.scores[mover] += 25 + sum(self.hand_values())
        else:
            self.to_move = (mover + 1) % self.n

    def _end_blocked(self) -> None:
        self.over, self.reason = True, "blocked"
        keyed = list(zip(self.held, self.hand_values()))
        best = min(keyed)
        if keyed.count(best) == 1:
            self.winner = winner = keyed.index(best)
            self.scores[winner] += sum(v for _, v in keyed) - 2 * best[1]


def _learn(frontier: dict, p: int, inc: tuple) -> None:
    """Point `p` shows a number for the first time: the frontier cells around it learn it
    (`inc`: what it adds to the key of a cell with its corner R, M or L there)."""
    ir, im, il = inc  # unrolled: this runs for most placements
    x = p - W2
    if x in frontier:
        k = frontier[x] + ir
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]
    x = p - W1
    if x in frontier:
        k = frontier[x] + im
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]
    x = p - WIDTH
    if x in frontier:
        k = frontier[x] + il
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]
    x = p - 2
    if x in frontier:
        k = frontier[x] + ir
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]
    x = p - 1
    if x in frontier:
        k = frontier[x] + im
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]
    x = p
    if x in frontier:
        k = frontier[x] + il
        if FITS[k]:
            frontier[x] = k
        else:
            del frontier[x]


def move_text(move: int) -> str:
    """A move as the engine writes it: `place 2-3-4@1,0r0`, `draw`, `pass`."""
    if move == DRAW:
        return "draw"
    if move == PASS:
        return "pass"
    t, k, _, _, _ = ENTRY[move & 511]
    c, r = id_cell(move >> 9)
    return f"place {NAME[t]}@{c},{r}r{k}"


def play_round(seed: int, players: int = 2) -> Round:
    """A round between random players, dealt and played as bench_games.py plays the engine."""
    game = Round.deal(random.Random(seed), players)
    choice, legal_moves, apply = random.Random(seed).choice, game.legal_moves, game.apply
    while not game.over:
        apply(choice(legal_moves()))
    return game


def rounds_per_second(seconds: float) -> float:
    """Random rounds per second of CPU time, over about `seconds`."""
    start, runs = time.process_time(), 0
    while True:
        play_round(runs)
        runs += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return runs / elapsed


def mid_game(seed: int = 7, players: int = 2) -> Round:
    """The position bench_games.py measures the engine on: half-way (in moves) through a
    random round. The moves are sorted into the engine's order (cell by row then column,
    tile, rotation: a placement's int sorts that way) so that `choice` picks what the
    engine's random player picks: the same game, the same position."""
    def play(moves: int | None) -> tuple[Round, int]:
        game, done = Round.deal(random.Random(seed), players), 0
        choice = random.Random(seed).choice
        while not game.over and done != moves:
            game.apply(choice(sorted(game.legal_moves())))
            done += 1
        return game, done

    return play(play(None)[1] // 2)[0]


def generations_per_second(game: Round, seconds: float) -> float:
    """How often per CPU second the legal moves of `game` are generated (500 at a time)."""
    legal, done, spent = game.legal_moves, 0, 0.0
    while spent < seconds:
        start = time.process_time()
        for _ in range(500):
            legal()
        spent += time.process_time() - start
        done += 500
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the best is kept)")
    args = parser.parse_args()
    rates = [rounds_per_second(args.seconds) for _ in range(args.runs)]
    print(f"random rounds/s: {max(rates):,.0f} (best of {args.runs}: "
          + ", ".join(f"{x:,.0f}" for x in rates) + ")")
    position = mid_game()
    count = len(position.legal_moves())
    gens = [generations_per_second(position, args.seconds) for _ in range(args.runs)]
    print(f"bench_games' mid-game position (seed 7): {count} legal moves; best of {args.runs}: "
          f"{max(gens) * count:,.0f} moves/s, {max(gens):,.0f} generations/s")


if __name__ == "__main__":
    main()
