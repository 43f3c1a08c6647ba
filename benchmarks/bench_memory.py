"""Memory per game state, in bytes (tracemalloc), for one ruleset of each family.

What is measured, for each seed (0 to --seeds - 1), two players where the game allows
(one for the solitaires):

- **fresh**: the `State` that `game.new_game(players, seed)` returns (the first round
  dealt, and whatever the engine has listed or cached on it by then);
- **mid-game**: the state after k random moves (a `random.Random(seed)` choosing among
  `legal_moves()`), k half the length of that seed's random first round, as play leaves
  it (its history, events and cached move lists included);
- **clone**: `clone()` of that mid-game state, the original kept alive (so what the
  copy shares with it, pieces, move lists, the generator until either side draws, is
  not counted);
- **search clone**: `search_clone()` of it, the same way (no log or events).

Each figure is the traced memory still allocated after the object is built, minus the
traced memory before (a `gc.collect()` before both readings): the bytes the object keeps
alive that did not exist before. What the `Game` shares between all its states (the
compiled model, the board kind's catalogue, move caches kept across games) is not
counted: each build is done once untraced-for-the-figure first, with the same seed, so
that every lazily filled shared cache already holds what the measured build would add.
The table gives the median over the seeds (and the smallest and largest).

    python benchmarks/bench_memory.py [--seeds 10] [--only tripeaks]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

FAMILIES = (
    "tripeaks/aisleriot",
    "triominos/pressman",
    "triolet/standard",
    "dominoes/draw",
    "pyramid/pysol",
    "klondike/aisleriot",
)


def load(ref: str) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref))
    if model is None:
        raise SystemExit("\n".join(map(str, diagnostics)))
    return Game(model)


def players_of(game: Game) -> int:
    """Two players where the ruleset allows them, else its nearest count."""
    return max(game.model.players_min, min(2, game.model.players_max))


def retained(build) -> tuple[int, object]:
    """(bytes the result of `build()` keeps alive, the result), built twice: the first
    build fills any shared cache, the second is measured."""
    build()
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    result = build()
    gc.collect()
    return tracemalloc.get_traced_memory()[0] - before, result


def first_round_length(game: Game, players: int, seed: int) -> int:
    state, rng, moves = game.new_game(players, seed), random.Random(seed), 0
    while not state.is_over and state.round.number == 1:
        state.apply(rng.choice(state.legal_moves()))
        moves += 1
    return moves


def played(game: Game, players: int, seed: int, moves: int):
    state, rng = game.new_game(players, seed), random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_moves()))
    return state


def measure_seed(game: Game, players: int, seed: int) -> dict:
    """The four figures of one seed, in bytes, and the moves played to mid-game."""
    k = first_round_length(game, players, seed) // 2
    fresh, _ = retained(lambda: game.new_game(players, seed))
    mid, state = retained(lambda: played(game, players, seed, k))
    clone, _ = retained(state.clone)
    search, _ = retained(state.search_clone)
    return {"fresh": fresh, "mid": mid, "clone": clone, "search": search, "k": k}


def bench(ref: str, seeds: int) -> dict:
    game = load(ref)
    players = players_of(game)
    tracemalloc.start()
    try:
        rows = [measure_seed(game, players, seed) for seed in range(seeds)]
    finally:
        tracemalloc.stop()
    out = {"ruleset": ref, "players": players}
    for key in ("fresh", "mid", "clone", "search", "k"):
        values = [row[key] for row in rows]
        out[key] = (statistics.median(values), min(values), max(values))
    return out


def cell(figure: tuple) -> str:
    median, low, high = figure
    return f"{median:,.0f} ({low:,}-{high:,})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 per ruleset")
    parser.add_argument("--only", default="", help="only rulesets whose id contains this")
    args = parser.parse_args()
    print("bytes per state: median (min-max) over seeds; k = moves played to mid-game")
    print("| ruleset | players | fresh | mid-game | k | clone | search clone |")
    print("|---|---|---|---|---|---|---|")
    for ref in (r for r in FAMILIES if args.only in r):
        r = bench(ref, args.seeds)
        print(f"| {r['ruleset']} | {r['players']} | {cell(r['fresh'])} | {cell(r['mid'])} "
              f"| {r['k'][0]:.0f} | {cell(r['clone'])} | {cell(r['search'])} |", flush=True)


if __name__ == "__main__":
    main()
