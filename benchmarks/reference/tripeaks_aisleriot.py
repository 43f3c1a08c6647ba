"""A hand-written pure-Python Tri Peaks, the yardstick of issue 5's speed target.

Standalone on purpose (the standard library only, nothing from `engine/`): what a good
programmer would write for this one game, to measure the generic engine against. It
plays exactly the rules of `rulesets/tripeaks/aisleriot.yaml` (fact sheet:
`shared/rules/tripeaks.md`; `docs/games/tripeaks.md`):

- 52 cards; 28 in three peaks (rows of 3, 6, 9 and 10 slots, a slot covered by the
  slots of the next row that overlap it), one to the waste, 23 in the stock, no redeal;
- a move plays an exposed card one rank above or below the waste card (A next to both
  2 and K), or deals the next stock card to the waste;
- a card scores its place in the current run (1, 2, 3, ...), a deal costs 5 with the
  score floored at 0, a peak pays 15 and the last of the three 30;
- the game ends when the tableau is cleared or no move is left.

The legal moves are the engine's, in the engine's order (exposed cards by slot, then the
deal): `benchmarks/reference/check_tripeaks.py` plays the engine's own deals with the
engine's own random choices and requires the same moves and the same final score. A
random player chooses with `rng.choice(legal)`.

    python benchmarks/reference/tripeaks_aisleriot.py [--seconds 2] [--repeat 3]

prints, in CPU time (`time.process_time`), the best of the runs of random games per
second (the shuffle included).
"""

from __future__ import annotations

import argparse
import random
import time
from bisect import insort

ROWS = [[1.5, 4.5, 7.5], [1, 2, 4, 5, 7, 8], [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5],
        list(range(10))]
X = [x for row in ROWS for x in row]
ROW = [r for r, row in enumerate(ROWS) for _ in row]
SLOTS = len(X)
PEAKS = 3  # slots 0-2
#: the slots lying on each slot, and those each slot lies on
COVERED_BY = [[t for t in range(SLOTS) if ROW[t] == ROW[s] + 1 and abs(X[t] - X[s]) < 1]
              for s in range(SLOTS)]
LIES_ON = [tuple(s for s in range(SLOTS) if t in COVERED_BY[s]) for t in range(SLOTS)]
COVER = [len(c) for c in COVERED_BY]
OPEN = [s for s in range(SLOTS) if not COVER[s]]
#: the ranks (1-13) playable on each waste rank
NEXT = [frozenset()] + [frozenset((r % 13 + 1, (r - 2) % 13 + 1)) for r in range(1, 14)]
DEAL = -1


def play(ranks: list[int], rng: random.Random, log: list | None = None) -> int:
    """One random game on the deal `ranks` (tableau slot by slot, the waste card, then
    the stock in the order dealt); returns the score. `log` collects the moves."""
    tableau = ranks[:SLOTS]
    waste = ranks[SLOTS]
    stock = ranks[:SLOTS:-1]  # the next card dealt is the last
    cover = COVER[:]
    exposed = OPEN[:]
    score = run = 0
    left = SLOTS
    below = rng._randbelow
    while True:
        near = NEXT[waste]
        legal = [s for s in exposed if tableau[s] in near]
        if stock:
            legal.append(DEAL)
        if not legal:
            return score
        move = legal[below(len(legal))]
        if log is not None:
            log.append(move)
        if move == DEAL:
            waste = stock.pop()
            run = 0
            score -= 5 if score >= 5 else score
            continue
        waste = tableau[move]
        run += 1
        score += run
        left -= 1
        exposed.remove(move)
        for under in LIES_ON[move]:
            cover[under] -= 1
            if not cover[under]:
                insort(exposed, under)
        if move < PEAKS:
            score += 30 if not left else 15
        if not left:
            return score


def games_per_second(seconds: float) -> float:
    """Random games per CPU second, each on a freshly shuffled deck."""
    deck = [rank for rank in range(1, 14) for _ in range(4)]
    start = time.process_time()
    games = 0
    while True:
        rng = random.Random(games)
        order = deck[:]
        rng.shuffle(order)
        play(order, rng)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs = [games_per_second(args.seconds) for _ in range(args.repeat)]
    print(f"hand-written Tri Peaks (Aisleriot): {max(runs):,.0f} random games/s "
          f"(best of {args.repeat}: {', '.join(f'{r:,.0f}' for r in runs)})")


if __name__ == "__main__":
    main()
