"""A compiled program's costs (`engine.program`): a move's apply against a copy of the
state (search support, issue #22), a new match, and the memory of one state.

    python benchmarks/bench_program.py [--ruleset tripeaks/aisleriot] [--games 300]
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/bench_program.py --only copy   (or apply, none: instructions)

Wall-clock figures are CPU time of this process (`time.process_time`); on a loaded
machine compare them within one run, or take instructions with `--only`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games import load  # noqa: E402


def positions(program, games: int) -> list:
    """Every position of `games` seeded random games, each with the move played there."""
    found = []
    for seed in range(games):
        s, rng = program.new(None, seed), random.Random(seed)
        while program.legal(s):
            code = rng.choice(program.legal(s))
            found.append((program.copy(s), code))
            program.apply(s, code)
    return found


def timed(fn, items) -> float:
    """CPU microseconds per item of `fn(item)`."""
    start = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - start) * 1e6 / len(items)


def state_bytes(program, make) -> float:
    """Bytes allocated for one state, on average over 200 (tracemalloc)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make(seed) for seed in range(200)]
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del kept
    return used / 200


def main() -> None:
    from engine.program import compile_program

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="tripeaks/aisleriot")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--only", choices=("copy", "search_copy", "apply", "none"))
    args = parser.parse_args()
    game = load(args.ruleset)
    program = compile_program(game)
    items = positions(program, args.games)
    copies = [(program.copy(s), code) for s, code in items]
    if args.only:  # instructions: one run per kind, `none` the set-up to subtract
        if args.only in ("copy", "search_copy"):
            copy = getattr(program, args.only)
            for s, _ in items:
                copy(s)
        elif args.only == "apply":
            for s, code in copies:
                program.apply(s, code)
        print(f"{len(items)} positions")
        return
    copy_us = timed(lambda item: program.copy(item[0]), items)
    search_us = timed(lambda item: program.search_copy(item[0]), items)
    apply_us = timed(lambda item: program.apply(*item), copies)
    clone_us = timed(lambda item: item.clone(), [game.new_game(None, s) for s in range(300)])
    print(f"{args.ruleset}: {len(items)} positions of {args.games} random games")
    print(f"  program apply   {apply_us:7.2f} us a move")
    print(f"  program copy    {copy_us:7.2f} us ({copy_us / apply_us:.2f} of an apply)")
    print(f"  search_copy     {search_us:7.2f} us ({search_us / apply_us:.2f} of an apply)")
    print(f"  State.clone     {clone_us:7.2f} us (the interpreter's, a new game's state)")
    print(f"  new match       {timed(lambda seed: program.new(None, seed), range(2000)):7.2f} us"
          f" (interpreter {timed(lambda seed: game.new_game(None, seed), range(2000)):.2f})")
    middle = [s for s, _ in items[len(items) // 2: len(items) // 2 + 200]]
    print(f"  memory a copy   {state_bytes(program, lambda i: program.copy(middle[i])):7.0f} B,"
          f" a search copy {state_bytes(program, lambda i: program.search_copy(middle[i])):.0f} B"
          " (mid-game positions)")
    print(f"  memory a state  {state_bytes(program, lambda seed: program.new(None, seed)):7.0f} B"
          f" (interpreter {state_bytes(program, lambda seed: game.new_game(None, seed)):.0f} B,"
          " tracemalloc, a new match)")


if __name__ == "__main__":
    main()
