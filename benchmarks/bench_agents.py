"""Benchmark the `mcts` agent against `greedy`: win rates with 95% intervals, seats swapped.

- Multi-player rulesets (Tri-Ominos Pressman, Triolet standard, dominoes draw when it is
  shipped): N games with mcts in seat 1, N with it in seat 2, the same seeds; a tie
  counts half. Also the mean time per mcts move (CPU seconds of this process).
- Tri Peaks: the share of seeded deals (seeds 0..N-1) each agent clears alone.

    python benchmarks/bench_agents.py [--games 200] [--deals 200] [--mcts mcts:1s]
        [--dominoes mcts:0.2s] [--tripeaks mcts:1s:greedy] [--only triolet/standard]

The full run takes hours: `--games 20 --mcts mcts:100 --tripeaks mcts:100:greedy` is a
quick check.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.players.agents import agent_seed, make_agent  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402
from engine.diagnostics import RulecraftError  # noqa: E402

MULTI = ("triominos/pressman", "triolet/standard", "dominoes/draw")


def load(ref: str) -> Game | None:
    """The game of a ruleset, or None when it is not shipped (yet)."""
    try:
        model, diagnostics = compile_model(load_ruleset(ref))
    except RulecraftError:
        return None
    return Game(model) if model is not None else None


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(game: Game, seed: int, specs: list[str], timing: dict) -> object:
    """One seeded game, seat s played by specs[s]; mcts moves are timed into `timing`
    (CPU seconds of this process: on a shared machine, close to what an idle core takes)."""
    state = game.new_game(len(specs), seed)
    agents = [make_agent(spec, agent_seed(seed, s)) for s, spec in enumerate(specs)]
    while not state.is_over:
        seat = state.to_move
        choices = len(state.legal_moves())
        start = time.process_time()
        move = agents[seat].choose(state)
        if specs[seat].startswith("mcts"):
            spent = time.process_time() - start
            timing["seconds"] += spent
            timing["moves"] += 1
            if choices > 1:  # a search was made (a forced move is played at once)
                timing["searched"] = timing.get("searched", 0) + 1
                timing["most"] = max(timing.get("most", 0.0), spent)
        state.apply(move)
    return state


def head_to_head(ref: str, game: Game, spec: str, games: int, first: int = 0) -> None:
    """mcts against greedy, `games` a seat arrangement (seeds first..), and print the
    figures."""
    timing = {"seconds": 0.0, "moves": 0}
    wins = 0.0
    for seed in range(first, first + games):
        for seat in (0, 1):
            specs = [spec, "greedy"] if seat == 0 else ["greedy", spec]
            state = play(game, seed, specs, timing)
            wins += 0.5 if state.winner is None else float(state.winner == seat)
        print(f"  {ref}: {seed + 1 - first}/{games} seeds, mcts {wins:g}/{2 * (seed + 1 - first)},"
              f" {timing['seconds']:.0f} s of mcts", file=sys.stderr, flush=True)
    n = 2 * games
    low, high = wilson(wins, n)
    print(f"  {ref:22} {spec} vs greedy: wins {wins:g}/{n} = {100 * wins / n:.1f}%"
          f" [95% {100 * low:.1f}-{100 * high:.1f}%], {per_move(timing)}")


def per_move(timing: dict) -> str:
    """The CPU time per mcts move: over all its moves, over those with a choice, the most."""
    searched = timing.get("searched", 0)
    return (f"{timing['seconds'] / max(1, timing['moves']):.3f} s per mcts move"
            f" ({timing['seconds'] / max(1, searched):.3f} s per move with a choice,"
            f" {searched} of {timing['moves']}; at most {timing.get('most', 0.0):.3f} s)")


def tripeaks(spec: str, deals: int) -> None:
    """The share of seeded Tri Peaks deals each agent clears."""
    game = load("tripeaks/aisleriot")
    for agent in ("greedy", spec):
        timing = {"seconds": 0.0, "moves": 0}
        cleared = 0
        for seed in range(deals):
            cleared += play(game, seed, [agent], timing).winner == 0
            print(f"  tripeaks {agent}: {seed + 1}/{deals} deals, {cleared} cleared",
                  file=sys.stderr, flush=True)
        low, high = wilson(cleared, deals)
        print(f"  tripeaks/aisleriot     {agent:>12} clears {cleared}/{deals} ="
              f" {100 * cleared / deals:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%]"
              + (f", {per_move(timing)}" if agent.startswith("mcts") else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per seat arrangement")
    parser.add_argument("--deals", type=int, default=200, help="Tri Peaks deals")
    parser.add_argument("--mcts", default="mcts:1s", help="the mcts spec (Tri-Ominos, Triolet)")
    parser.add_argument("--dominoes", default="mcts:0.2s", help="the mcts spec for dominoes")
    # Random playouts of Tri Peaks almost never clear (the floor eats every deal's cost),
    # so they tell moves apart badly: greedy ones do (docs/agents.md).
    parser.add_argument("--tripeaks", default="mcts:1s:greedy", help="the mcts spec for Tri Peaks")
    parser.add_argument("--only", default=None, help="one ruleset (or `tripeaks`)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the first seed (a long run split into processes: 0, 50, ...)")
    args = parser.parse_args()
    print(f"mcts against greedy, {args.games} games a seat arrangement (seats swapped),"
          f" seeds {args.seed}..{args.seed + args.games - 1}")
    for ref in MULTI:
        if args.only not in (None, ref):
            continue
        game = load(ref)
        if game is None:
            print(f"  {ref:22} not shipped: skipped")
            continue
        head_to_head(ref, game, args.dominoes if ref.startswith("dominoes") else args.mcts,
                     args.games, args.seed)
    if args.only in (None, "tripeaks"):
        tripeaks(args.tripeaks, args.deals)


if __name__ == "__main__":
    main()
