"""Benchmark the `mcts` agent against `greedy`: win rates with 95% intervals, seats swapped.

- Multi-player rulesets (Tri-Ominos Pressman, Triolet standard, dominoes draw when it is
  shipped): N games with mcts in seat 1, N with it in seat 2, the same seeds; a tie
  counts half. Also the mean time per mcts move (CPU seconds of this process).
- Tri Peaks: the share of seeded deals (seeds 0..N-1) each agent clears alone.

    python benchmarks/bench_agents.py [--games 100] [--deals 200] [--mcts SPEC]
        [--triolet SPEC] [--dominoes SPEC] [--tripeaks SPEC] [--only triolet/standard]
        [--seed 0] [--timing]

`--timing` only times each family's spec on positions of greedy games (CPU seconds a
move with a choice), apart from the matches; a halving spec (and a plain one, tuned to
halving) is timed on the ruleset's compiled program and on the interpreter
(`:interpreter`), with the iterations a CPU second of each.

The defaults are the specs of the figures in docs/agents.md. The full run takes hours
of CPU; split it with `--only` and `--seed` (one process per family and seed range).
`--games 5 --deals 10` is a quick check.
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


def tripeaks(spec: str, deals: int, first: int = 0) -> None:
    """The share of seeded Tri Peaks deals (`first`, `first` + 1, ...) each agent clears."""
    game = load("tripeaks/aisleriot")
    for agent in ("greedy", spec):
        timing = {"seconds": 0.0, "moves": 0}
        cleared = 0
        for done, seed in enumerate(range(first, first + deals), 1):
            cleared += play(game, seed, [agent], timing).winner == 0
            print(f"  tripeaks {agent}: {done}/{deals} deals, {cleared} cleared",
                  file=sys.stderr, flush=True)
        low, high = wilson(cleared, deals)
        print(f"  tripeaks/aisleriot     {agent:>12} clears {cleared}/{deals} (deals {first}..{first + deals - 1}) ="
              f" {100 * cleared / deals:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%]"
              + (f", {per_move(timing)}" if agent.startswith("mcts") else ""))


def positions(game: Game, games: int = 3) -> list:
    """Every third position with a choice of `games` seeded greedy-against-greedy games
    (seeds 1000..), their first 40 moves (copies, in order)."""
    players = 1 if game.model.players_max == 1 else 2
    out = []
    for seed in range(games):
        state = game.new_game(players, 1000 + seed)
        greedy = make_agent("greedy", seed)
        for count in range(40):
            if state.is_over:
                break
            if len(state.legal_moves()) > 1 and count % 3 == 0:
                out.append((count, state.clone()))
            state.apply(greedy.choose(state))
    return out


def time_moves(ref: str, game: Game, spec: str, games: int = 3) -> None:
    """The CPU time of `spec`'s move at each of `positions`: the time per move by
    itself, apart from any match; and, for a halving spec, the same searches on the
    interpreter (`:interpreter`): iterations a CPU second on each (the same moves)."""
    kernels = [("", "")]
    plain = all(p.replace(".", "").rstrip("s").isdigit() for p in spec.split(":")[1:])
    if "halving" in spec or plain:
        kernels = [("program", ""), ("interpreter", ":interpreter")]
    rates = []
    for kernel, suffix in kernels:
        times, iterations = [], 0
        for count, state in positions(game, games):
            agent = make_agent(spec + suffix, count)
            start = time.process_time()
            agent.choose(state)
            times.append(time.process_time() - start)
            iterations += agent.iterations
        rates.append(iterations / max(1e-9, sum(times)))
        times.sort()
        print(f"  {ref:22} {spec + suffix}: {len(times)} moves with a choice, CPU s a move: mean"
              f" {sum(times) / max(1, len(times)):.3f}, median {times[len(times) // 2]:.3f},"
              f" most {times[-1]:.3f}; {rates[-1]:.0f} iterations a CPU second")
    if len(rates) == 2:
        print(f"  {'':22} the program: {rates[0] / rates[1]:.2f}x the interpreter's iterations a second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100,
                        help="seeds, each played twice (seats swapped)")
    parser.add_argument("--deals", type=int, default=200, help="Tri Peaks deals")
    # The specs of docs/agents.md's figures: iteration budgets, each under 1 s a move
    # (0.2 s in dominoes) of CPU (`--timing`).
    parser.add_argument("--mcts", default="mcts:300:greedy:halving:w=1:depth=6:held=1",
                        help="the mcts spec for Tri-Ominos")
    parser.add_argument("--triolet", default="mcts:300:greedy:halving:w=1:plies=2:next=0.5",
                        help="the mcts spec for Triolet")
    parser.add_argument("--dominoes", default="mcts:100:random", help="the mcts spec for dominoes")
    # Random playouts of Tri Peaks almost never clear (the floor eats every deal's cost),
    # so they tell moves apart badly: greedy ones do (docs/agents.md).
    parser.add_argument("--tripeaks", default="mcts:100:greedy:halving:win",
                        help="the mcts spec for Tri Peaks")
    parser.add_argument("--only", default=None, help="one ruleset (or `tripeaks`)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the first seed (a long run split into processes: 0, 50, ...)")
    parser.add_argument("--timing", action="store_true",
                        help="only time each spec's moves (CPU seconds), no matches")
    args = parser.parse_args()
    if args.timing:
        timed(args)
        return
    if args.only != "tripeaks":
        print(f"mcts against greedy, {args.games} seeds, each twice (seats swapped),"
              f" seeds {args.seed}..{args.seed + args.games - 1}")
    for ref in MULTI:
        if args.only not in (None, ref):
            continue
        game = load(ref)
        if game is None:
            print(f"  {ref:22} not shipped: skipped")
            continue
        head_to_head(ref, game, spec_of(ref, args), args.games, args.seed)
    if args.only in (None, "tripeaks"):
        tripeaks(args.tripeaks, args.deals, args.seed)


def timed(args) -> None:
    """`--timing`: the time per move of each family's spec."""
    print("CPU seconds per mcts move with a choice (positions of greedy games)")
    for ref in (*MULTI, "tripeaks/aisleriot"):
        if args.only not in (None, ref) and not (args.only == "tripeaks" and "tripeaks" in ref):
            continue
        game = load(ref)
        if game is not None:
            time_moves(ref, game, spec_of(ref, args))


def spec_of(ref: str, args) -> str:
    """The mcts spec for a ruleset's family."""
    family = ref.split("/")[0]
    return {"dominoes": args.dominoes, "triolet": args.triolet,
            "tripeaks": args.tripeaks}.get(family, args.mcts)


if __name__ == "__main__":
    main()
