"""Instructions per random game, for `valgrind --tool=callgrind` (docs/performance.md).

Plays `--games` seeded random games of one side after one warm-up game, so that a run
with `--games 0` measures the start-up to subtract:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/count_program.py --side program --games 200
    (sides: program, engine, reference; the reference of Tri Peaks, or with
    `--ruleset triominos/pressman` (two players) Tri-Ominos'; each game to the end of
    its first round, as `bench_reference.py` times them; `--ruleset triolet/standard`:
    Triolet's)
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "reference"))

from bench_games import load, program_random_play, random_play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", choices=("program", "engine", "reference"), default="program")
    parser.add_argument("--ruleset", default="tripeaks/aisleriot")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, help="default: the ruleset's (2 for Tri-Ominos)")
    args = parser.parse_args()
    tri = args.ruleset.startswith("triominos")
    players = args.players or (2 if tri else None)
    if args.side == "reference":
        from bench_reference import (
            reference_triolet,
            reference_triominos,
            reference_tripeaks,
        )
        run = reference_triominos() if tri else reference_triolet() if \
            args.ruleset.startswith("triolet") else reference_tripeaks()
    elif args.side == "program":
        from engine.program import compile_program
        program = compile_program(load(args.ruleset))

        def run(seed: int) -> None:
            program_random_play(program, players, seed)
    else:
        game = load(args.ruleset)

        def run(seed: int) -> None:
            random_play(game.new_game(players, seed), random.Random(seed), True)
    run(10_000)
    for seed in range(args.games):
        run(seed)


if __name__ == "__main__":
    main()
