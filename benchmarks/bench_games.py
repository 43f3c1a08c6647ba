"""Benchmark every shipped ruleset on the generic kernel.

For each ruleset (rulesets/<game>/<name>.yaml; overlays are not benchmarked): random-agent
rounds per second (play until the first round ends) with the CPU time per applied move
(dealing included), and full matches per second, legal-move
generation on a mid-game position (moves generated per second, and generations per
second), and the peak memory of one match (tracemalloc) and of the process (ru_maxrss).
Rates are per second of CPU time of this process.

    python benchmarks/bench_games.py [--seconds 2] [--only triominos] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.paths import rulesets_dir  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402


def load(ref: str) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref))
    if model is None:
        raise SystemExit("\n".join(map(str, diagnostics)))
    return Game(model)


def random_play(state, rng, until_round_end: bool) -> int:
    moves = 0
    number = state.round.number
    while not state.is_over and not (until_round_end and state.round.number != number):
        state.apply(rng.choice(state.legal_moves()))
        moves += 1
    return moves


def program_random_play(program, players, seed: int) -> int:
    """`random_play(..., until_round_end=True)` of a new match on a compiled program
    (`engine.program`): the same deal and the same random choices, to the end of the
    first round (the whole match when it has one round). `rng.choice(seq)` is
    `seq[rng._randbelow(len(seq))]` (CPython's `random.py`), written so here as the
    hand-written references write it; `apply` returns the next position's moves."""
    state = program.new(players, seed)
    below = random.Random(seed)._randbelow
    apply = program.apply
    legal = program.legal(state)
    at = program.fields["round"]
    moves = 0
    while legal and state[at] == 1:
        legal = apply(state, legal[below(len(legal))])
        moves += 1
    return moves


def per_second(fn, seconds: float) -> tuple[float, int, float]:
    """(runs per second, runs, CPU microseconds per unit) of `fn(i)` repeated for about
    `seconds` of CPU time (process time, so that other work on a shared machine does not
    skew the figure); `fn` returns how many units (moves) a run made."""
    start = time.process_time()
    runs = units = 0
    while True:
        units += fn(runs)
        runs += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return runs / elapsed, runs, elapsed * 1e6 / max(units, 1)


def mid_game(game: Game, players: int, seed: int = 7):
    """A position about half-way through a random first round."""
    rng = random.Random(seed)
    probe = game.new_game(players, seed)
    length = random_play(probe.clone(), random.Random(seed), True)
    state = game.new_game(players, seed)
    for _ in range(length // 2):
        state.apply(rng.choice(state.legal_moves()))
    return state


def movegen(state, seconds: float) -> tuple[float, float, int]:
    """(moves generated per second, generations per second, moves in the position).

    Each generation runs on its own fresh copy of the position, so that no cache kept by
    a board between calls can answer it; the copies are made before the clock starts.
    """
    count = len(state.legal_moves())
    copies = _fresh_copies(state)
    done, spent = 0, 0.0
    while spent < seconds:
        start = time.process_time()
        for copy in copies:
            copy.legal_moves()
        spent += time.process_time() - start
        done += len(copies)
        copies = _fresh_copies(state)
    rate = done / spent
    return rate * count, rate, count


def _fresh_copies(state, n: int = 500) -> list:
    """Copies of the position that have not generated their moves (a clone shares its
    parent's move lists, so they are dropped)."""
    copies = [state.clone() for _ in range(n)]
    for copy in copies:
        copy._invalidate()
    return copies


def peak_memory(game: Game, players: int) -> float:
    tracemalloc.start()
    random_play(game.new_game(players, 1), random.Random(1), False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def bench(ref: str, players: int | None, seconds: float) -> dict:
    game = load(ref)
    n = players or game.model.players_default
    n = max(game.model.players_min, min(n, game.model.players_max))
    rounds, _, per_move = per_second(
        lambda i: random_play(game.new_game(n, i), random.Random(i), True), seconds)
    matches, _, _ = per_second(
        lambda i: random_play(game.new_game(n, i), random.Random(i), False), seconds)
    gen_moves, gens, count = movegen(mid_game(game, n), seconds)
    return {"ruleset": ref, "players": n, "rounds_s": rounds, "us_move": per_move,
            "matches_s": matches,
            "moves_s": gen_moves, "gens_s": gens, "mid_moves": count,
            "peak_mb": peak_memory(game, n)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--only", default="", help="only rulesets whose id contains this")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    refs = [f"{p.parent.name}/{p.stem}" for p in sorted(rulesets_dir().glob("*/*.yaml"))]
    refs = [r for r in refs if args.only in r]
    print(f"{'ruleset':<30} {'pl':>2} {'rounds/s':>9} {'us/move':>7} {'matches/s':>9} {'moves/s':>9} "
          f"{'gens/s':>8} {'moves':>5} {'peak MB':>7}")
    for ref in refs:
        r = bench(ref, args.players, args.seconds)
        print(f"{r['ruleset']:<30} {r['players']:>2} {r['rounds_s']:>9.1f} {r['us_move']:>7.1f} "
              f"{r['matches_s']:>9.1f} "
              f"{r['moves_s']:>9.0f} {r['gens_s']:>8.0f} {r['mid_moves']:>5} {r['peak_mb']:>7.2f}",
              flush=True)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS: {rss:.1f} MB")


if __name__ == "__main__":
    main()
