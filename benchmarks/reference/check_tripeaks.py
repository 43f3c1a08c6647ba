"""Check that the hand-written Tri Peaks plays the engine's game: on each seeded deal,
the engine (`tripeaks/aisleriot`) and `tripeaks_aisleriot.play` are given the same deal
and the same random choices; they must list the same moves in the same order (else the
choices would part) and end with the same score.

    python benchmarks/reference/check_tripeaks.py [--games 2000]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402
from tripeaks_aisleriot import DEAL, play  # noqa: E402


def engine_game(game: Game, seed: int) -> tuple[list[int], list[int], int]:
    """The engine's deal (ranks in deal order), its moves (slot, or DEAL) and score."""
    state = game.new_game(None, seed)
    order = state.setup_chances[0]
    ranks = [game.pieces[uid].rank for uid in order]
    rng = random.Random(seed)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move.data[0] if move.action == "play" else DEAL)
        state.apply(move)
    return ranks, moves, state.scores[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    game = Game(compile_model(load_ruleset("tripeaks/aisleriot"))[0])
    bad = 0
    moves_checked = 0
    for seed in range(args.games):
        ranks, moves, score = engine_game(game, seed)
        log: list[int] = []
        mine = play(ranks, random.Random(seed), log)
        moves_checked += len(moves)
        if (log, mine) != (moves, score):
            bad += 1
            print(f"seed {seed}: engine {score} after {moves}; hand-written {mine} after {log}")
    print(f"{args.games} games, {moves_checked} moves: "
          f"{args.games - bad} agree, {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
