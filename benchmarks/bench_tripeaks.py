"""Benchmark Tri Peaks on the generic engine: random playouts, and the generic solver.

- Random playouts per second (a random legal move until the game ends), per ruleset.
- The solver deciding seeded deals (seeds 0..N-1): the share that can be cleared, the
  time per deal (mean, median, 90th percentile, max) and positions searched. A deal whose
  search reaches the node limit is counted as undecided.
- `--full K`: the full solve (clearable, fewest steps, best score, no budget) of seeded
  deals 0..K-1, each in a fresh process, its CPU time and peak memory beside those of
  the hand-written yardstick (`../shared/yardsticks/tripeaks_solver.py solve DEAL`, run
  from where it lives, never copied) on the same deal, with both answers. The engine
  searches the ruleset's compiled program (as `solve` does); `--interpreter` its
  interpreter.

Rates are per second of CPU time of this process (time.process_time).

    python benchmarks/bench_tripeaks.py [--seconds 3] [--deals 100] [--max-nodes 100000]
        [--full 6 [--no-wrap] [--yardstick PATH] [--interpreter]] [--skip-playouts]

    python benchmarks/bench_tripeaks.py --full 6 --skip-playouts --deals 0   # the full solves only
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
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
    """Decide seeded deals 0..`deals`-1; figures per deal."""
    rows = []
    for seed in range(deals):
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


ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh process: CPU seconds and peak memory of one full solve by the engine.
ENGINE_SOLVE = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from engine.kernel import Game
from engine.players.solver import solve
from engine.rules import load_ruleset
from engine.rules.model import compile_model
game = Game(compile_model(load_ruleset({ref!r}, {overlays!r}))[0])
state = game.new_game(1, 0, deal={deal!r})
start = time.process_time()
found = solve(state, max_memory=None, compiled={compiled!r})
print(json.dumps({{"seconds": time.process_time() - start, "nodes": found.nodes,
    "clearable": found.reachable, "steps": found.steps, "best": found.best_score,
    "exhaustive": found.exhaustive,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

# The yardstick, run from its own folder: its output line and the process's figures.
YARDSTICK_SOLVE = """
import json, resource, runpy, sys, time, io, contextlib
sys.argv = ["tripeaks_solver.py", "solve", {deal!r}] + {flags!r}
out = io.StringIO()
start = time.process_time()
with contextlib.redirect_stdout(out):
    try:
        runpy.run_path("tripeaks_solver.py", run_name="__main__")
    except SystemExit:
        pass
print(json.dumps({{"seconds": time.process_time() - start, "line": out.getvalue().splitlines()[0],
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def find_yardstick(given: str | None) -> Path | None:
    """The yardstick's file: as given, or `../shared/yardsticks/` beside a checkout."""
    candidates = [Path(given)] if given else [
        ROOT.parent / "shared" / "yardsticks" / "tripeaks_solver.py",
        ROOT.parent.parent / "shared" / "yardsticks" / "tripeaks_solver.py"]
    return next((c for c in candidates if c.is_file()), None)


def run_json(code: str, cwd: Path | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def full_solves(ref: str, count: int, no_wrap: bool, yardstick: Path | None,
                compiled: bool | None = None) -> None:
    """The engine's full solve beside the yardstick's, deal by deal (seeds 0..count-1)."""
    from engine.pieces import format_deal

    overlays = ("no-wrap",) if no_wrap else ()
    game = load(ref, overlays)
    print(f"full solve (clearable, fewest steps, best score), {ref}"
          f"{' + no-wrap' if no_wrap else ''}: engine"
          f" ({'interpreter' if compiled is False else 'compiled program'}) beside the"
          " yardstick, CPU s and peak MB")
    ratios = []
    for seed in range(count):
        state = game.new_game(1, seed)
        deal = format_deal([game.pieces[u] for u in state.setup_chances[0]])
        mine = run_json(ENGINE_SOLVE.format(root=str(ROOT), ref=ref, overlays=overlays,
                                            deal=deal, compiled=compiled))
        if "error" in mine:
            print(f"  seed {seed}: engine failed: {mine['error']}")
            continue
        text = (f"  seed {seed:2}: engine {mine['seconds']:7.2f} s {mine['peak_mb']:7.0f} MB"
                f" {mine['nodes']:9,} positions; clearable {mine['clearable']},"
                f" steps {mine['steps']}, best {mine['best']}")
        if yardstick is not None:
            theirs = run_json(YARDSTICK_SOLVE.format(deal=deal, flags=["--no-wrap"] if no_wrap
                                                     else []), cwd=yardstick.parent)
            if "error" not in theirs:
                ratios.append(mine["seconds"] / max(theirs["seconds"], 1e-9))
                text += (f"\n           yardstick {theirs['seconds']:7.2f} s"
                         f" {theirs['peak_mb']:7.0f} MB; {theirs['line']}"
                         f"  (engine/yardstick {ratios[-1]:.1f}x)")
        print(text, flush=True)
    if ratios:
        print(f"  time ratio engine/yardstick: median {statistics.median(ratios):.1f}x,"
              f" max {max(ratios):.1f}x")
    elif yardstick is None:
        print("  (no yardstick found: give --yardstick PATH)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per playout figure")
    parser.add_argument("--deals", type=int, default=100, help="seeded deals for the solver")
    parser.add_argument("--max-nodes", type=int, default=100_000, help="per deal")
    parser.add_argument("--ruleset", default="tripeaks/aisleriot", help="for the solver")
    parser.add_argument("--full", type=int, default=0, help="full solves beside the yardstick")
    parser.add_argument("--no-wrap", action="store_true", help="the full solves with no-wrap")
    parser.add_argument("--yardstick", default=None, help="path of tripeaks_solver.py")
    parser.add_argument("--skip-playouts", action="store_true", help="no playout figures")
    parser.add_argument("--interpreter", action="store_true",
                        help="the full solves on the interpreter (default: the compiled program)")
    args = parser.parse_args()

    if args.full:
        full_solves(args.ruleset, args.full, args.no_wrap, find_yardstick(args.yardstick),
                    False if args.interpreter else None)
        if args.skip_playouts and not args.deals:
            return
    if not args.skip_playouts:
        print("random playouts (whole games, random legal moves)")
        for ref in RULESETS:
            games, moves = playouts_per_second(load(ref), args.seconds)
            print(f"  {ref:32} {games:8.0f} games/s {moves:10.0f} moves/s")
    if not args.deals:
        return

    print(f"solver, deciding seeded deals 0..{args.deals - 1} of {args.ruleset}"
          f" (limit {args.max_nodes:,} positions)")
    r = decide_deals(load(args.ruleset), args.deals, args.max_nodes)
    print(f"  cleared {r['cleared']}/{r['deals']} ({100 * r['cleared'] / r['deals']:.0f}%),"
          f" undecided {r['undecided']}")
    print(f"  time per deal: mean {r['mean']:.3f} s, median {r['median']:.3f} s,"
          f" 90% {r['p90']:.3f} s, max {r['max']:.3f} s")
    print(f"  positions per deal: mean {r['nodes']:,.0f}; {r['per_node_ms']:.3f} ms per position")


if __name__ == "__main__":
    main()
