"""The board kinds' share of real games: placement generation and apply, replayed alone.

Random two-player games are played through the kernel once, recording every call the
kernel makes to its board (`iter_placements` with the hand, `apply_placement` of the
chosen placement). The benchmark then replays those calls on fresh boards, without the
kernel, reading the measures the ruleset's scoring reads on each applied placement; so
it times exactly the board code a game runs, and nothing else.

Each recorded game is replayed once, as in play: a replayed game met again would find
every cache a board kind keeps (by rack, by board pattern) already holding its answers,
which games do not. What a long run would have warm is warmed first, on other games
(seeds from 1000). The games are timed in sets of `--games`, each set once, and the rate
is the best set's (CPU time; other work on a shared machine only slows a set down).

    python benchmarks/bench_boards.py [--sets 5] [--games 20] [--only triominos]
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


def record(ref: str, games, until: str, game: Game | None = None) -> tuple[Game, list[list[tuple]]]:
    """Per round played, the calls made to its board: ("gen", hand, first, rules) and
    ("apply", index of the placement in the last generation). `games`: a count (seeds
    from 0) or the seeds."""
    game = game or Game(compile_model(load_ruleset(ref))[0])
    seeds = range(games) if isinstance(games, int) else games
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
        for seed in seeds:
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
    parser.add_argument("--sets", type=int, default=5, help="sets of games, each timed once")
    parser.add_argument("--games", type=int, default=20, help="games (rounds) per set")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for ref, until, fields in RUNS:
        if args.only not in ref:
            continue
        game, warm = record(ref, range(1000, 1000 + args.games), until)
        replay(game, warm, fields)  # what a long run has warm: the ruleset's shared tables
        best = None
        for k in range(args.sets):
            seeds = range(k * args.games, (k + 1) * args.games)
            rounds = record(ref, seeds, until, game)[1]
            gens = sum(1 for calls in rounds for c in calls if c[0] == "gen")
            start = time.process_time()
            made = replay(game, rounds, fields)
            spent = time.process_time() - start
            if best is None or spent < best[0]:
                best = (spent, made, gens)
        spent, made, gens = best
        print(f"{ref}: board code of {args.games} {until}s: {args.games / spent:,.1f} {until}s/s, "
              f"{made / spent:,.0f} placements/s, {gens / spent:,.0f} generations/s", flush=True)


if __name__ == "__main__":
    main()
