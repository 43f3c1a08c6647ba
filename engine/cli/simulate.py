"""`rulecraft simulate`: many seeded games between agents, with per-seat statistics.

Game i is seeded `seed + i`; each seat's agent is seeded from the game's seed and the
seat, so the figures are the same whatever `--jobs` is.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Optional

import typer

from engine.analysis.phrases import counted
from engine.analysis.refs import spec_name
from engine.cli.app import app
from engine.cli.common import WithOption
from engine.cli.games import check_players, load_game_or_exit, record_ref, save_record_or_exit

_WORKER: dict = {}
MAX_GAMES = 1_000_000  # the seeds are listed up front; a million games take hours anyway


def _cap_jobs(jobs: int) -> int:
    """At most one worker per core: more only share the cores (the figures are the same)."""
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cores and jobs > cores:
        typer.echo(f"note: --jobs {jobs} is more than the {counted(cores, 'core')} here;"
                   f" using {cores}", err=True)
        return cores
    return jobs


def play_one(game, players: int, seed: int, agent_names: list[str], keep: bool = False,
             deal=None):
    """One game: (scores, winner, turns, rounds[, state])."""
    from engine.players.agents import agent_seed, make_agent, play_out

    agents = [make_agent(agent_names[s % len(agent_names)], agent_seed(seed, s))
              for s in range(players)]
    state = play_out(game.new_game(players, seed, deal=deal), agents)
    result = (list(state.scores), state.winner, state.turns_total, state.round.number)
    return result + (state,) if keep else result


def _init_worker(ref: str, overlays: list[str]) -> None:
    from engine.cli.games import compile_game

    _WORKER["game"] = compile_game(ref, overlays)[1]


def _run_chunk(args) -> list:
    players, seeds, agents, deal = args
    return [play_one(_WORKER["game"], players, s, agents, deal=deal) for s in seeds]


def run_games(game, ref, overlays, players, seeds, agents, jobs, progress=None,
              deal=None) -> list:
    """Results in seed order, played here or in `jobs` worker processes."""
    if jobs <= 1:
        out = []
        for seed in seeds:
            out.append(play_one(game, players, seed, agents, deal=deal))
            if progress:
                progress(1)
        return out
    size = max(1, len(seeds) // (jobs * 4))
    chunks = [(players, seeds[i : i + size], agents, deal) for i in range(0, len(seeds), size)]
    out = []
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(ref, overlays)) as pool:
        for results in pool.map(_run_chunk, chunks):
            out.extend(results)
            if progress:
                progress(len(results))
    return out


def summarize(results: list, players: int, agents: list[str]) -> dict:
    """Per-seat mean score and win rate, mean turns and rounds."""
    n = len(results) or 1
    seats = []
    for s in range(players):
        seats.append({
            "seat": s + 1,
            "agent": agents[s % len(agents)],
            "mean_score": round(sum(r[0][s] for r in results) / n, 2),
            "win_rate": round(sum(1 for r in results if r[1] == s) / n, 4),
        })
    return {
        "games": len(results),
        "seats": seats,
        "no_winner": round(sum(1 for r in results if r[1] is None) / n, 4),
        "mean_turns": round(sum(r[2] for r in results) / n, 2),
        "mean_rounds": round(sum(r[3] for r in results) / n, 2),
    }


@app.command("simulate")
def simulate_command(
    ruleset: str = typer.Argument(..., help="A ruleset id, game name or file."),
    overlays: WithOption = None,
    games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES, help="How many games."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game (game i: seed + i)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players per game."),
    agents: str = typer.Option(
        "random", "--agents", help="Agents by seat, e.g. greedy,random; a shorter list repeats,"
        " a longer one than the players is refused (exit 2)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the first game's record."),
    deal: Optional[str] = typer.Option(
        None, "--deal", help="Every game starts from this deal (piece names, first dealt first)."
    ),
    coverage: bool = typer.Option(False, "--coverage", help="Also report how often each rule fired."),
) -> None:
    """Play seeded games between agents and print per-seat statistics."""
    from engine.kernel import RuleFailure

    jobs = _cap_jobs(jobs)
    ruleset_obj, game = load_game_or_exit(ruleset, overlays)
    n = check_players(game, players)
    names = _agent_names(agents, n, game.model.players_max)
    _check_deal(game, deal)
    seeds = list(range(seed, seed + games))
    start = time.perf_counter()
    try:
        results = _run(game, ruleset, list(overlays or []), n, seeds, names, jobs, deal,
                       bar=sys.stderr.isatty() and not as_json)
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    elapsed = time.perf_counter() - start
    summary = summarize(results, n, names)
    summary["ruleset"] = ruleset_obj.id
    summary["overlays"] = list(overlays or [])
    # What was simulated: the resolved id (not a game name) with its overlays.
    name = spec_name(ruleset_obj.id, overlays or [])
    summary["games_per_second"] = round(games / elapsed, 1) if elapsed > 0 else None
    if record:
        _write_record(game, ruleset_obj, overlays, n, seed, names, record, ruleset, deal)
    report = None
    if coverage:  # engine.analysis replays the same seeded games, counting rule by rule
        from engine.analysis.coverage import coverage_report

        report = coverage_report(ruleset, overlays, n, seeds, names, jobs, deal, title=name)
        summary["coverage"] = report.data
    _print(summary, as_json, name)
    if report is not None and not as_json:
        typer.echo(report.text)


def _agent_names(agents: str, players: int, most: int) -> list[str]:
    from engine.players.agents import AGENTS

    names = [a.strip() for a in agents.split(",") if a.strip()]
    bad = [a for a in names if a not in AGENTS]
    if not names or bad:
        what = f"unknown {'agent' if len(bad) == 1 else 'agents'} {', '.join(bad)}" if bad else "--agents names no agent"
        typer.echo(f"error: {what}; agents: {', '.join(AGENTS)}", err=True)
        raise typer.Exit(2)
    if len(names) > players:
        # The extra names would be dropped without a word: the user meant more players.
        more = f" (or --players {len(names)})" if len(names) <= most else ""
        typer.echo(f"error: --agents names {counted(len(names), 'agent')} for"
                   f" {counted(players, 'player')}; give at most {players}{more}",
                   err=True)
        raise typer.Exit(2)
    return names


def _check_deal(game, deal) -> None:
    if deal is not None:
        try:
            game.parse_deal(deal)
        except ValueError as exc:
            typer.echo(f"error: --deal: {exc}", err=True)
            raise typer.Exit(2)


def _run(game, ref, overlays, n, seeds, names, jobs, deal, bar: bool) -> list:
    if not bar:
        return run_games(game, ref, overlays, n, seeds, names, jobs, deal=deal)
    with typer.progressbar(length=len(seeds), label="simulating", file=sys.stderr) as progress:
        return run_games(game, ref, overlays, n, seeds, names, jobs, progress.update, deal)


def _write_record(game, ruleset, overlays, n, seed, names, path, ref, deal=None) -> None:
    from engine.kernel.record import make_record

    *_, state = play_one(game, n, seed, names, keep=True, deal=deal)
    agents = [names[s % len(names)] for s in range(n)]
    record = make_record(state, ruleset.id, list(overlays or []), ruleset.hash, agents,
                         ref=record_ref(ref))
    save_record_or_exit(path, record)


def _print(summary: dict, as_json: bool, name: str) -> None:
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(f"{name}: {counted(summary['games'], 'game')}")
    typer.echo(f"{'seat':>4}  {'agent':<8} {'mean score':>11} {'win rate':>9}")
    for s in summary["seats"]:
        typer.echo(f"{s['seat']:>4}  {s['agent']:<8} {s['mean_score']:>11.2f} "
                   f"{s['win_rate'] * 100:>8.1f}%")
    if summary["no_winner"]:
        typer.echo(f"no winner: {summary['no_winner'] * 100:.1f}%")
    typer.echo(f"mean turns: {summary['mean_turns']:.2f}   mean rounds: {summary['mean_rounds']:.2f}")
    typer.echo(f"games/s: {summary['games_per_second']}")
