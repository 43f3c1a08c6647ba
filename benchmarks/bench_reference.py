"""The engine against the hand-written programs of `benchmarks/reference/`, side by side.

Each issue sets its speed target as half of what a hand-written pure-Python program for
that one game does. `benchmarks/reference/` holds such programs, each checked to play
exactly the engine's game (`check_*.py`). This script times the engine's random games
and the reference's in turns (engine, reference, engine, ...), so that the drift of a
shared machine falls on both alike, and prints the best rate of each, the engine's share
of the reference's (best against best), the median of the shares of each turn (a side's
rate against the reference's in the same turn: the drift between turns cancels), and the
issue's target (half the figure the issue quotes). Where the ruleset has a
compiled program (`engine.program`), its random games (`bench_games.program_random_play`:
the same deals and choices) are timed in the same turns, on a line of their own.

    python benchmarks/bench_reference.py [--seconds 2] [--repeat 3] [--only tripeaks]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "reference"))

from bench_games import load, per_second, program_random_play, random_play  # noqa: E402


def engine_games(ref: str, players: int | None):
    """`run(i)`: random game i of the ruleset to the end of its first round."""
    game = load(ref)
    return lambda seed: random_play(game.new_game(players, seed), random.Random(seed), True)


def program_games(ref: str, players: int | None):
    """`run(i)` on the ruleset's compiled program, or None when it has none."""
    from engine.program import program_for
    program = program_for(load(ref))
    if program is None:
        return None
    return lambda seed: program_random_play(program, players, seed)


def reference_tripeaks():
    from tripeaks_aisleriot import play
    deck = [rank for rank in range(1, 14) for _ in range(4)]

    def run(seed: int) -> None:
        rng = random.Random(seed)
        order = deck[:]
        rng.shuffle(order)
        play(order, rng)
    return run


def reference_triominos():
    from triominos_pressman import play_round
    return play_round


def reference_triolet():
    from triolet_standard import play_game
    return lambda seed: play_game(random.Random(seed))


#: name, ruleset, players, the reference program, the issue's target (games a second)
GAMES = [
    ("tripeaks", "tripeaks/aisleriot", None, reference_tripeaks, 10_000),
    ("triominos", "triominos/pressman", 2, reference_triominos, 800),
    ("triolet", "triolet/standard", 2, reference_triolet, 185),
]


def rate(run, seconds: float) -> float:
    """Games a second of CPU time, over about `seconds` (`bench_games.per_second`)."""
    def one(seed: int) -> int:
        run(seed)
        return 1
    return per_second(one, seconds)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="tripeaks, triominos or triolet")
    args = parser.parse_args()
    print(f"{'ruleset':32} {'engine/s':>9} {'reference/s':>12} {'share':>6} {'paired':>7} "
          f"{'target/s':>9} {'met':>4}")
    for name, ref, players, reference, target in GAMES:
        if args.only and args.only != name:
            continue
        sides = {"engine": engine_games(ref, players), "program": program_games(ref, players),
                 "reference": reference()}
        sides = {side: run for side, run in sides.items() if run is not None}
        for run in sides.values():
            run(10_000)  # warm each (tables, caches) on another seed
        rates: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(args.repeat):
            for side, run in sides.items():
                rates[side].append(rate(run, args.seconds))
        ref_best = max(rates["reference"])
        for side in ("engine", "program"):
            if side in rates:
                best = max(rates[side])
                paired = statistics.median(
                    [mine / theirs for mine, theirs in zip(rates[side], rates["reference"])])
                label = ref if side == "engine" else f"{ref} (program)"
                print(f"{label:32} {best:9,.0f} {ref_best:12,.0f} {best / ref_best:6.1%} "
                      f"{paired:7.1%} {target:9,} {'yes' if best >= target else 'no':>4}")

if __name__ == "__main__":
    main()
