"""Benchmark Tri Peaks on the generic engine: random playouts, and the generic solver.

- Random playouts per second (a random legal move until the game ends), per ruleset.
- The solver deciding seeded deals (seeds 1..N): the share that can be cleared, the time
  per deal (mean, median, 90th percentile, max) and positions searched. A deal whose
  search reaches the node limit is counted as undecided.

Rates are per second of CPU time of this process (time.process_time).

    python benchmarks/bench_tripeaks.py [--seconds 3] [--deals 100] [--max-nodes 100000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.players.solver import solve  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

RULESETS = ("tripeaks/aisleriot", "tripeaks/aisleriot-multiplier", "tripeaks/microsoft",
            "tripeaks/msc", "tripeaks/pysol-scored")


def load(ref: str, overlays: tuple[str, ...] = ()) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    if model is None:
        raise SystemExit("\n".join(map(str, diagnostics)))
    return Game(model)


def playouts_per_second(game: Game, seconds: float) -> tuple[float, float]:
    """(games per second, moves per second) of random play for about `seconds` of CPU."""
    rng = random.Random(1)
    start, games, moves = time.process_time(), 0, 0
    while time.process_time() - start < seconds:
        state = game.new_game(1, games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            moves += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, moves / elapsed


def decide_deals(game: Game, deals: int, max_nodes: int) -> dict:
    """Decide seeded deals 1..`deals`; figures per deal."""
    rows = []
    for seed in range(1, deals + 1):
        state = game.new_game(1, seed)
        start = time.process_time()
        found = solve(state, best=False, max_nodes=max_nodes)
        rows.append((found, time.process_time() - start))
        print(f"  seed {seed:3}: {'cleared' if found.reachable else 'no' if found.exhaustive else '?':7}"
              f" {found.nodes:8,} positions {rows[-1][1]:7.2f} s", file=sys.stderr)
    seconds = sorted(t for _, t in rows)
    return {
        "deals": deals,
        "cleared": sum(1 for f, _ in rows if f.reachable),
        "undecided": sum(1 for f, _ in rows if not f.reachable and not f.exhaustive),
        "mean": statistics.fmean(seconds),
        "median": statistics.median(seconds),
        "p90": seconds[int(0.9 * (len(seconds) - 1))],
        "max": seconds[-1],
        "nodes": statistics.fmean(f.nodes for f, _ in rows),
        "per_node_ms": 1000 * sum(seconds) / max(1, sum(f.nodes for f, _ in rows)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per playout figure")
    parser.add_argument("--deals", type=int, default=100, help="seeded deals for the solver")
    parser.add_argument("--max-nodes", type=int, default=100_000, help="per deal")
    parser.add_argument("--ruleset", default="tripeaks/aisleriot", help="for the solver")
    args = parser.parse_args()

    print("random playouts (whole games, random legal moves)")
    for ref in RULESETS:
        games, moves = playouts_per_second(load(ref), args.seconds)
        print(f"  {ref:32} {games:8.0f} games/s {moves:10.0f} moves/s")

    print(f"solver, deciding seeded deals 1..{args.deals} of {args.ruleset}"
          f" (limit {args.max_nodes:,} positions)")
    r = decide_deals(load(args.ruleset), args.deals, args.max_nodes)
    print(f"  cleared {r['cleared']}/{r['deals']} ({100 * r['cleared'] / r['deals']:.0f}%),"
          f" undecided {r['undecided']}")
    print(f"  time per deal: mean {r['mean']:.3f} s, median {r['median']:.3f} s,"
          f" 90% {r['p90']:.3f} s, max {r['max']:.3f} s")
    print(f"  positions per deal: mean {r['nodes']:,.0f}; {r['per_node_ms']:.3f} ms per position")


if __name__ == "__main__":
    main()
