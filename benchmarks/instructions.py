"""Instructions (callgrind) of a fixed run of random games, one ruleset of each family.

For each ruleset, two runs of this script's `--play` mode under
`valgrind --tool=callgrind` with `PYTHONHASHSEED=0` and address randomisation off
(`setarch -R`): one with `--games 0` (start-up: imports, loading and compiling the
ruleset, building the `Game`) and one with `--games N`; the difference is the work of
the N matches (seeds 0..N-1, random agents choosing with `random.Random(seed)`, two
players where the game allows, each match played to its end), printed per match and per
move. The figures do not depend on the machine's load; run it before and after a change.

    python benchmarks/instructions.py [--games 20] [--only triolet]
    python benchmarks/instructions.py --play triolet/standard --games 20   # the run itself
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_memory import FAMILIES, load, players_of  # noqa: E402  (the same rulesets)


def play(ref: str, games: int) -> int:
    """Play `games` seeded random matches of `ref`; the number of moves applied."""
    game = load(ref)
    players, moves = players_of(game), 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def counted(ref: str, games: int) -> tuple[int, int]:
    """(instructions, moves) of one `--play` run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = ["setarch", "-R", "valgrind", "--tool=callgrind",
                   f"--callgrind-out-file={out}", sys.executable, __file__,
                   "--play", ref, "--games", str(games)]
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
    return int(totals.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--only", default="", help="only rulesets whose id contains this")
    parser.add_argument("--play", metavar="RULESET", help="play the games (no callgrind)")
    args = parser.parse_args()
    if args.play:
        print(play(args.play, args.games))
        return
    print(f"| ruleset | start-up | {args.games} matches | moves | per match | per move |")
    print("|---|---|---|---|---|---|")
    for ref in (r for r in FAMILIES if args.only in r):
        start, _ = counted(ref, 0)
        total, moves = counted(ref, args.games)
        work = total - start
        print(f"| {ref} | {start:,} | {work:,} | {moves:,} | {work / args.games / 1e6:.2f} M "
              f"| {work / max(moves, 1) / 1e3:.1f} K |", flush=True)


if __name__ == "__main__":
    main()
