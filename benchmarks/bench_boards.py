"""The board kinds' share of real games: placement generation and apply, replayed alone.

Random two-player games are played through the kernel once, recording every call the
kernel makes to its board (`iter_placements` with the hand, `apply_placement` of the
chosen placement). The benchmark then replays those calls on fresh boards, without the
kernel, reading the measures the ruleset's scoring reads on each applied placement; so
it times exactly the board code a game runs, and nothing else. Rates come from the
fastest replay in CPU time (other work on a shared machine only slows a replay down).
Every replay meets the same racks again: a cache kept by rack across boards would make
the figures flattering (in a game, racks are almost always new).

    python benchmarks/bench_boards.py [--seconds 2] [--games 20] [--only triominos]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

RUNS = [("triominos/pressman", "round", ("hexagons", "bridges")),
        ("triominos/club", "round", ("hexagons", "bridges")),
        ("triolet/standard", "game", ("lines", "placed"))]


def record(ref: str, games: int, until: str) -> tuple[Game, list[list[tuple]]]:
    """Per round played, the calls made to its board: ("gen", hand, first, rules) and
    ("apply", index of the placement in the last generation)."""
    game = Game(compile_model(load_ruleset(ref))[0])
    rounds: dict[int, list] = {}
    cls = type(game.topology.new_board())
    real_iter, real_apply = cls.iter_placements, cls.apply_placement
    last: dict[int, list] = {}

    def iter_placements(board, hand, first, rules):
        found = list(real_iter(board, hand, first, rules))
        rounds.setdefault(id(board), [board]).append(("gen", tuple(hand), first, rules))
        last[id(board)] = [p.text for p in found]
        return iter(found)

    def apply_placement(board, placement):
        rounds[id(board)].append(("apply", last[id(board)].index(placement.text)))
        real_apply(board, placement)

    cls.iter_placements, cls.apply_placement = iter_placements, apply_placement
    try:
        for seed in range(games):
            state, rng = game.new_game(2, seed), random.Random(seed)
            number = state.round.number
            while not state.is_over and not (until == "round" and state.round.number != number):
                state.apply(rng.choice(state.legal_moves()))
    finally:
        cls.iter_placements, cls.apply_placement = real_iter, real_apply
    return game, [calls[1:] for calls in rounds.values() if len(calls) > 1]


def replay(game: Game, rounds: list[list[tuple]], fields: tuple[str, ...]) -> int:
    """Replays every recorded round on a fresh board; returns the placements generated."""
    # The game's board kind: what its boards share (a ruleset's piece rotations) is
    # warm, as in any run longer than a round or two.
    topology = game.topology
    made = 0
    for calls in rounds:
        board, found = topology.new_board(), []
        for call in calls:
            if call[0] == "gen":
                found = list(board.iter_placements(call[1], call[2], call[3]))
                made += len(found)
            else:
                placement = found[call[1]]
                board.apply_placement(placement)
                for name in fields:
                    getattr(placement, name)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for ref, until, fields in RUNS:
        if args.only not in ref:
            continue
        game, rounds = record(ref, args.games, until)
        gens = sum(1 for calls in rounds for c in calls if c[0] == "gen")
        replay(game, rounds, fields)  # warm the caches shared by a ruleset's boards
        best, made, deadline = float("inf"), 0, time.process_time() + args.seconds
        while time.process_time() < deadline or best == float("inf"):
            start = time.process_time()
            made = replay(game, rounds, fields)
            best = min(best, time.process_time() - start)
        # the best replay: other work on a shared machine only ever slows one down
        print(f"{ref}: board code of {args.games} {until}s: {args.games / best:,.1f} {until}s/s, "
              f"{made / best:,.0f} placements/s, {gens / best:,.0f} generations/s", flush=True)


if __name__ == "__main__":
    main()
