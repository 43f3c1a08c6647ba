"""Profile random games of a ruleset: where does the time go?

    python benchmarks/profile_game.py tripeaks --games 200 [--with OVERLAY] [--top 20]

Prints the CPU time per game, then the functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402


def play(game: Game, games: int, players: int | None) -> None:
    """Random games, seeded 0..games-1, to the end of the match."""
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--with", dest="overlays", action="append", default=[])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    model, problems = compile_model(load_ruleset(args.ruleset, tuple(args.overlays)))
    if model is None:
        sys.exit("\n".join(str(p) for p in problems))
    game = Game(model)
    start = time.process_time()
    play(game, args.games, args.players)
    per_game = (time.process_time() - start) / args.games
    print(f"{model.id}: {per_game * 1000:.2f} ms of CPU per random game "
          f"({1 / per_game:,.0f} games/s)")
    profile = cProfile.Profile()
    profile.runcall(play, game, args.games, args.players)
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
