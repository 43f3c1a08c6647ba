"""What one step of a search costs, on the interpreter and on the compiled program.

For each family, at every third position with a choice of seeded greedy games (the
positions `bench_agents.py --timing` uses), in a sample of what the mover cannot see,
every legal move is stepped on a copy, `--reps` times: the interpreter's greedy preview
(`State.clone` and the step, as `objective.best_index` does it), and the program's copy
alone (`search_fork`), a copy and `preview_apply` (a greedy preview: the step without
the next moves listed) and a copy and `search_apply` (a play-out's step: the next moves
listed). CPU microseconds a move (`time.process_time`), each kind timed in turn over
the same moves.

    python benchmarks/bench_search_steps.py [--reps 20] [--only triolet/standard]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_agents import load, positions  # noqa: E402
from engine.players.determinize import determinize  # noqa: E402
from engine.players.program_playout import ProgramPlayout  # noqa: E402

FAMILIES = ("triominos/pressman", "triolet/standard", "dominoes/draw", "tripeaks/aisleriot")


def interpreter_previews(samples: list) -> None:
    for world, _ in samples:
        steps = world.game.steps
        for move in world.legal_moves():
            trial = world.clone()
            trial.previewing = True
            steps[move.action](trial, move)


def program_steps(playout: ProgramPlayout, step) -> callable:
    fork = playout.fork

    def run(samples: list) -> None:
        for _, s in samples:
            for code in s[playout.legal]:
                trial = fork(s)
                if step is not None:
                    step(trial, code)
    return run


def measure(ref: str, reps: int) -> None:
    game = load(ref)
    playout = ProgramPlayout.of(game)
    rng, samples = random.Random(1), []
    for _, state in positions(game):
        world = determinize(state, state.to_move, rng)
        samples.append((world, playout.program.from_state(world)))
    moves = sum(len(world.legal_moves()) for world, _ in samples)
    kinds = [("interpreter preview (clone + step)", interpreter_previews),
             ("program copy (search_fork)", program_steps(playout, None)),
             ("program copy + preview_apply", program_steps(playout, playout.program.preview_apply)),
             ("program copy + search_apply", program_steps(playout, playout.program.search_apply))]
    print(f"{ref}: {len(samples)} positions, {moves} moves")
    for name, run in kinds:
        run(samples)  # (warm)
        start = time.process_time()
        for _ in range(reps):
            run(samples)
        spent = (time.process_time() - start) / (reps * moves)
        print(f"  {name:38} {1e6 * spent:7.1f} us a move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    for ref in FAMILIES:
        if args.only in (None, ref):
            measure(ref, args.reps)


if __name__ == "__main__":
    main()
