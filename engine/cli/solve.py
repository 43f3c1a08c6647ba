"""`rulecraft solve`: solve the round of a single-player ruleset for a known deal.

One deal (`--deal` names every piece in dealing order, or `--seed` deals at random):
whether the goal can be reached, in the fewest steps how, and the best score (the most
points, or the fewest under `match.objective: lowest`), with the lines of moves.
`--games N` decides N seeded deals (seeds 0 to N-1 unless `--seed` says where to start)
and reports the share reached. Exhaustive unless a budget stops it: `--max-nodes`
positions (default: none) or `--max-memory` (default: a quarter of the machine's).
"""

from __future__ import annotations

import json
import re
import statistics
from typing import Optional

import typer
from typing import Annotated

from engine.analysis.phrases import counted
from engine.analysis.refs import split_spec
from engine.cli.app import app
from engine.cli.common import DEFAULT_SEED, WithOption, usage_error
from engine.cli.games import load_game_or_exit
from engine.pieces import format_deal


@app.command("solve")
def solve_command(
    ruleset: Annotated[str, typer.Argument(
        help="A ruleset id, game name or file; overlays inline: `id+overlay1+overlay2`.")],
    with_: WithOption = None,
    deal: Annotated[Optional[str], typer.Option(
        "--deal", help="Every piece by name, in dealing order (e.g. `Ah Td ...`).")] = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", help="Deal at random from this seed (the first seed with --games).")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=1, help="Decide this many seeded deals and report the share reached.")] = None,
    goal: Annotated[Optional[str], typer.Option(
        "--goal", help="The round end to aim for (default: the first that names a winner).")] = None,
    decide: Annotated[bool, typer.Option(
        "--decide", help="Only decide whether the goal is reachable (faster).")] = False,
    max_nodes: Annotated[int, typer.Option(
        "--max-nodes", min=0, help="A budget of positions for each deal, shared by every search"
        " (reachability, fewest steps, best score); past it the figures are unproven and an"
        " unreached goal is undecided (0: no limit, the default).")] = 0,
    max_memory: Annotated[Optional[str], typer.Option(
        "--max-memory", help="A memory budget for each deal, e.g. `2G`, `500M` (default: a"
        " quarter of the machine's memory; 0: none); past it the figures are unproven.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Solve a single-player round exactly: reachable, fewest steps, best score."""
    if deal is not None and (seed is not None or games is not None):
        usage_error("give --deal, or --seed (and --games), not both")
    _, game = load_game_or_exit(*split_spec(ruleset, with_ or ()))
    low, high = game.model.players_min, game.model.players_max
    if high < 1 or low > 1:
        # Checked before the deal options: no --deal or --seed would make it solvable.
        span = f"{low} players" if low == high else f"{low} to {high} players"
        usage_error(f"`{ruleset}` is for {span}: the solver plays"
               f" single-player rulesets only (one that allows 1 player)")
    if deal is None and seed is None and games is None:
        usage_error("give --deal D or --seed S (or --games N)")
    budget = (max_nodes or None, _memory(max_memory))
    if games is not None:
        _many(game, ruleset, seed if seed is not None else DEFAULT_SEED, games, goal, budget, as_json)
    else:
        _one(game, ruleset, deal, seed, goal, not decide, budget, as_json)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _memory(text: str | None) -> int | None:
    """`--max-memory` in bytes (None: no budget); a usage error if it is not a size."""
    from engine.players.solver import default_memory

    if text is None:
        return default_memory()
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)B?\s*", text, re.IGNORECASE)
    if not found:
        usage_error(f"--max-memory `{text}` is not a size such as 2G, 500M or 0 (no budget)")
    size = int(float(found.group(1)) * _UNITS[found.group(2).upper()])
    return size or None


def _new_state(game, deal: str | None, seed: int | None):
    try:
        return game.new_game(1, seed or 0, deal=deal)
    except ValueError as exc:
        usage_error(f"bad deal: {exc}")


def _deal_text(game, state) -> str:
    first = state.setup_chances[0] if state.setup_chances else []
    return format_deal([game.pieces[uid] for uid in first])


def _one(game, ref, deal, seed, goal, best, budget, as_json) -> None:
    from engine.players.solver import solve

    state = _new_state(game, deal, seed)
    found = _solve(solve, state, goal, best, budget)
    result = {"ruleset": ref, "seed": seed, "deal": _deal_text(game, state), **found.as_dict()}
    result["steps"] = found.steps  # JSON has no infinity; None when not reached
    # Not reached within the budget is not "not reachable": say whether it is decided.
    result["decided"] = found.reachable or found.exhaustive
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    typer.echo(f"{ref}{'' if seed is None else f', seed {seed}'}")
    typer.echo(f"deal: {result['deal']}")
    proven = found.exhaustive
    if not proven:
        typer.echo(stopped_text(found.stopped))
    reach = "reachable" if found.reachable else ("not reachable" if proven else "undecided")
    steps = ""
    if found.steps is not None:
        steps = f" in {'' if proven else 'at most '}{counted(found.steps, 'step')}"
    typer.echo(f"goal `{found.goal}`: {reach}{steps}")
    if found.line:
        typer.echo("  " + ", ".join(found.line))
    if found.best_score is not None:
        typer.echo(best_score_text(game.model, found.best_score, proven))
        typer.echo("  " + ", ".join(found.best_line))
    typer.echo(f"searched {counted(found.nodes, 'position')} in {found.seconds:.2f} s")


#: why a search is not exhaustive, by `Solution.stopped`
_STOPPED = {
    "memory": "search stopped by the memory budget (--max-memory)",
    "nodes": "search stopped by the position budget (--max-nodes)",
    "turns": ("the turn limit (limits.max_turns_per_round) cut some lines, and positions"
              " are told apart without the turn number"),
}


def stopped_text(stopped: str | None) -> str:
    """The plain sentence for a search a budget stopped (`Solution.stopped`)."""
    return (f"{_STOPPED.get(stopped, 'search stopped')}: the figures below are the best"
            " met, not proven")


def best_score_text(model, score: int, proven: bool) -> str:
    """`best score: 62`, or in the ruleset's words under `objective: lowest`
    (`fewest cards left: 1`); `at least`/`at most` when a budget stopped the search."""
    lowest = model.objective == "lowest"
    bound = "" if proven else ("at most " if lowest else "at least ")
    if model.score_name:
        return f"{'fewest' if lowest else 'most'} {model.score_name}: {bound}{score}"
    return f"best score{' (lowest wins)' if lowest else ''}: {bound}{score}"


def _solve(solve, state, goal, best, budget):
    max_nodes, max_memory = budget
    try:
        return solve(state, goal, best=best, max_nodes=max_nodes, max_memory=max_memory)
    except ValueError as exc:
        usage_error(str(exc))


def _many(game, ref, first, count, goal, budget, as_json) -> None:
    from engine.cli.progress import progress_bar
    from engine.players.solver import solve

    rows = []
    with progress_bar(count, "solving deals", quiet=as_json) as advance:
        for seed in range(first, first + count):
            found = _solve(solve, _new_state(game, None, seed), goal, False, budget)
            rows.append((seed, found))
            if advance is not None:
                advance(1)
    summary = _summary(ref, rows)
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    seeds = f"seed {first}" if count == 1 else f"seeds {first} to {first + count - 1}"
    typer.echo(f"{ref}: {counted(count, 'seeded deal')} ({seeds})")
    undecided = [d["seed"] for d in summary["deals"] if not (d["reachable"] or d["exhaustive"])]
    typer.echo(f"goal `{summary['goal']}` reachable: {summary['reached']} of {count}"
               f" ({100 * summary['share']:.1f}%)"
               + (f"; undecided (a budget stopped it): {summary['undecided']}"
                  f" (seeds {', '.join(map(str, undecided))})" if summary["undecided"] else ""))
    typer.echo(f"time per deal: mean {summary['mean_seconds']:.3f} s, median"
               f" {summary['median_seconds']:.3f} s, max {summary['max_seconds']:.3f} s;"
               f" positions per deal: mean {summary['mean_nodes']:,.0f}")


def _summary(ref: str, rows: list) -> dict:
    seconds = [f.seconds for _, f in rows]
    decided = [f for _, f in rows if f.exhaustive or f.reachable]
    reached = sum(1 for f in decided if f.reachable)
    return {
        "ruleset": ref,
        "goal": rows[0][1].goal if rows else None,
        "games": len(rows),
        "reached": reached,
        "share": reached / len(rows) if rows else 0.0,
        "undecided": len(rows) - len(decided),
        "mean_seconds": statistics.fmean(seconds) if seconds else 0.0,
        "median_seconds": statistics.median(seconds) if seconds else 0.0,
        "max_seconds": max(seconds, default=0.0),
        "mean_nodes": statistics.fmean(f.nodes for _, f in rows) if rows else 0.0,
        "deals": [{"seed": s, "reachable": f.reachable, "exhaustive": f.exhaustive,
                   "stopped": f.stopped, "nodes": f.nodes, "seconds": round(f.seconds, 4)}
                  for s, f in rows],
    }
