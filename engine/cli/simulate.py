"""`rulecraft simulate`: many seeded games between agents, with per-seat statistics.

Game i is seeded `seed + i`; each seat's agent is seeded from the game's seed and the
seat, so the figures are the same whatever `--jobs` is.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import Enum
from typing import Optional

import typer

from engine.analysis.phrases import counted
from engine.analysis.refs import spec_name
from engine.cli.app import app
from engine.analysis.rows import rows_format
from engine.cli.common import (DEFAULT_JOBS, DEFAULT_SEED, JOBS_HELP, WithOption, jobs_or_cores,
                               record_folder, require_plots, ruleset_heading, write_text_or_exit)
from engine.cli.games import check_players, load_game_or_exit, record_ref, save_record_or_exit
from engine.cli.progress import progress_bar

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


class Backend(str, Enum):
    local = "local"
    ray = "ray"


@dataclass(frozen=True)
class Where:
    """Where games go and run: a results file (`--db`, `--resume`) and a backend."""

    db: Optional[str] = None
    resume: bool = False
    backend: str = "local"
    address: Optional[str] = None

    @property
    def swept(self) -> bool:
        """Whether the games go through `engine.cli.sweep` (stored, or on Ray)."""
        return bool(self.db or self.resume or self.backend != "local")


def play_one(game, players: int, seed: int, agent_names: list[str], keep: bool = False,
             deal=None, seconds_per_move: int = 0):
    """One game: its row (`engine.analysis.rows.game_row`), and its state when `keep`
    (`seconds_per_move`: the clock's step, `agents.play_out`)."""
    from engine.analysis.rows import game_row
    from engine.players.agents import agent_seed, make_agent, play_out

    start = time.perf_counter()
    agents = [make_agent(agent_names[s % len(agent_names)], agent_seed(seed, s))
              for s in range(players)]
    state = play_out(game.new_game(players, seed, deal=deal), agents,
                     seconds_per_move=seconds_per_move)
    row = game_row(seed, agent_names, state, time.perf_counter() - start)
    return (row, state) if keep else row


def _init_worker(ref: str, overlays: list[str], roots: list[str]) -> None:
    from engine.cli.games import compile_game
    from engine.rules import files

    files.set_user_roots(roots)  # a spawned worker does not inherit the parent's --rulesets
    _WORKER["game"] = compile_game(ref, overlays)[1]


def _run_chunk(args) -> list:
    players, seeds, agents, deal, records, step = args
    return [_played(_WORKER["game"], players, s, agents, deal, records, step) for s in seeds]


def _played(game, players, seed, agents, deal, records, step: int = 0):
    """(row, record or None): the record is built where the game was played (`step`:
    the clock's seconds per move)."""
    if records is None:
        return play_one(game, players, seed, agents, deal=deal, seconds_per_move=step), None
    from engine.kernel.record import make_record

    row, state = play_one(game, players, seed, agents, keep=True, deal=deal,
                          seconds_per_move=step)
    rid, overlays, digest, ref = records
    return row, make_record(state, rid, overlays, digest, row["agents"], ref=ref)


def run_games(game, ref, overlays, players, seeds, agents, jobs, progress=None,
              deal=None, records=None, step: int = 0) -> list:
    """(row, record) pairs in seed order, played here or in `jobs` worker processes;
    `records`: (id, overlays, hash, ref) to build each game's record, or None; `step`:
    the clock's seconds per move (`--seconds-per-move`)."""
    from engine.rules import files

    if jobs <= 1:
        out = []
        for seed in seeds:
            out.append(_played(game, players, seed, agents, deal, records, step))
            if progress:
                progress(1)
        return out
    size = max(1, len(seeds) // (jobs * 4))
    chunks = [(players, seeds[i : i + size], agents, deal, records, step)
              for i in range(0, len(seeds), size)]
    out = []
    roots = [str(r) for r in files.user_roots()]
    with ProcessPoolExecutor(jobs, initializer=_init_worker,
                             initargs=(ref, overlays, roots)) as pool:
        for results in pool.map(_run_chunk, chunks):
            out.extend(results)
            if progress:
                progress(len(results))
    return out


def summarize(rows: list[dict], players: int, agents: list[str]) -> dict:
    """Per-seat mean score and win rate, mean turns and rounds, from the games' rows."""
    n = len(rows) or 1
    seats = []
    for s in range(players):
        seats.append({
            "seat": s,
            "agent": agents[s % len(agents)],
            "mean_score": round(sum(r["scores"][s] for r in rows) / n, 2),
            "win_rate": round(sum(1 for r in rows if r["winner"] == s) / n, 4),
        })
    return {
        "games": len(rows),
        "seats": seats,
        "no_winner": round(sum(1 for r in rows if r["winner"] is None) / n, 4),
        "mean_turns": round(sum(r["turns"] for r in rows) / n, 2),
        "mean_rounds": round(sum(r["rounds"] for r in rows) / n, 2),
    }


@app.command("simulate")
def simulate_command(
    ruleset: str = typer.Argument(..., help="A ruleset id, game name or file."),
    overlays: WithOption = None,
    games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES, help="How many games."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", help="Seed of the first game (game i: seed + i)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players per game."),
    agents: str = typer.Option(
        "random", "--agents", help="Agents by seat, e.g. greedy,random; a shorter list repeats,"
        " a longer one than the players is refused (exit 2)."),
    jobs: int = typer.Option(DEFAULT_JOBS, "--jobs", "-j", min=0, help=JOBS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts: the totals and one row per game."),
    out: Optional[str] = typer.Option(
        None, "--out", metavar="FILE", help="Write one row per game to FILE (.jsonl or .csv)."),
    record: Optional[str] = typer.Option(
        None, "--record", metavar="FILE|DIR",
        help="Write the first game's record to FILE, or every game's to DIR (an existing folder,"
        " or a name ending in /)."),
    deal: Optional[str] = typer.Option(
        None, "--deal", help="Every game starts from this deal (piece names, first dealt first)."
    ),
    coverage: bool = typer.Option(False, "--coverage", help="Also report how often each rule fired."),
    html: Optional[str] = typer.Option(
        None, "--html", metavar="FILE", help="Also write a self-contained HTML report with plots"
        " (needs the `plots` extra)."),
    db: Optional[str] = typer.Option(
        None, "--db", metavar="FILE", help="Append one row per game to this results file (DuckDB)."),
    resume: bool = typer.Option(False, "--resume", help="Finish the interrupted run of the same"
                                " command in --db, without playing a stored game again."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="Where games run: here and in"
                                    " --jobs processes, or on a Ray cluster."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray: an existing cluster"
                                          " (default: a local Ray with the machine's cores)."),
    seconds_per_move: int = typer.Option(
        0, "--seconds-per-move", min=0, metavar="S", help="The clock (`clock.seconds`) reads"
        " k x S at the k-th move (default 0: the clock is never set and reads 0)."),
) -> None:
    """Play seeded games between agents and print per-seat statistics."""
    if out is not None and rows_format(out) is None:
        _usage(f"--out {out}: give a file name ending in .jsonl or .csv")
    if html is not None:
        require_plots()
    jobs = _cap_jobs(jobs)
    ruleset_obj, game = load_game_or_exit(ruleset, overlays)
    n = check_players(game, players)
    names = _agent_names(agents, n, game.model.players_max)
    _check_deal(game, deal)
    seeds = list(range(seed, seed + games))
    folder = record_folder(record, games)
    records = ((ruleset_obj.id, list(overlays or []), ruleset_obj.hash, record_ref(ruleset))
               if record else None)
    where = Where(db, resume, backend.value, address)
    if where.swept and folder is not None:
        _usage("--record DIR writes records of games played here: not with --db or --backend ray")
    if seconds_per_move and (where.swept or coverage or html):
        _usage("--seconds-per-move sets the clock of games played here: not with --db,"
               " --backend ray, --coverage or --html")
    start = time.perf_counter()
    played = _play_all(ruleset_obj, game, ruleset, overlays, n, seeds, names, jobs_or_cores(jobs),
                       deal, records if folder else None, where, as_json, seconds_per_move)
    elapsed = time.perf_counter() - start
    rows = [row for row, _ in played]
    summary = summarize(rows, n, names)
    summary["ruleset"] = ruleset_obj.id
    summary["title"] = ruleset_obj.title
    summary["overlays"] = list(ruleset_obj.overlays)
    # What was simulated: the resolved id (not a game name) with its overlays.
    name = spec_name(ruleset_obj.id, overlays or [])
    summary["games_per_second"] = round(games / elapsed, 1) if elapsed > 0 else None
    _write_outputs(played, folder, record, out, n, game, names, seed, deal, records, as_json,
                   seconds_per_move)
    report = None
    if coverage or html:  # engine.analysis replays the same seeded games, counting rule by rule
        from engine.analysis.coverage import coverage_report

        report = coverage_report(ruleset, overlays, n, seeds, names, jobs_or_cores(jobs), deal,
                                 title=name)
        if coverage:
            summary["coverage"] = report.data
    if html:
        _write_html(html, summary, rows, name, report)
    if as_json:
        summary["rows"] = rows  # one per game, as --out writes them
    _print(summary, as_json, name, ruleset_obj)
    if report is not None and coverage and not as_json:
        typer.echo(report.text)


def _play_all(ruleset_obj, game, ref, overlays, n, seeds, names, jobs, deal, records,
              where: Where, quiet: bool, step: int = 0) -> list:
    """(row, record or None) per game, in seed order: here and in worker processes, or
    through the store / on Ray; a failing rule is its message and exit 1."""
    from engine.kernel import RuleFailure

    try:
        if where.swept:
            return _sweep(ruleset_obj, ref, overlays, n, seeds, names, jobs, deal, where,
                          show=not quiet)
        with progress_bar(len(seeds), "simulating", quiet=quiet) as advance:
            return run_games(game, ref, list(overlays or []), n, seeds, names, jobs, advance,
                             deal, records, step)
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)


def _sweep(ruleset_obj, ref, overlays, n, seeds, names, jobs, deal, where: Where,
           show: bool) -> list:
    """(row, None) pairs through `engine.cli.sweep` (stored, resumable, or on Ray): the
    rows `game_row` makes for the same games; a game that failed stops with its error."""
    from engine.analysis.rows import FIELDS, stored_row
    from engine.analysis.runs import Spec
    from engine.cli.sweep import Target, run_sweep

    target = Target(Spec(ref, tuple(overlays or ())), ruleset_obj.id, ruleset_obj.hash)
    games = run_sweep([target], n, seeds, names, jobs, "simulate", deal, where.db,
                      where.resume, where.backend, where.address, show)[0]
    for g in games:
        if g.error:
            typer.echo(f"error: game seeded {g.seed}: {g.error}", err=True)
            raise typer.Exit(1)
    rows = [stored_row(g, ruleset_obj.id, ruleset_obj.hash, overlays or (), names) for g in games]
    return [({k: row[k] for k in FIELDS}, None) for row in rows]


def _usage(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _write_outputs(played, folder, record, out, n, game, names, seed, deal, records,
                   quiet: bool = False, step: int = 0) -> None:
    if folder is not None:
        for row, rec in played:
            save_record_or_exit(str(folder / f"game-{row['seed']}.json"), rec)
    elif record:
        _write_record(game, n, seed, names, record, deal, records, step)
        if len(played) > 1 and not quiet:  # one who meant every game would not notice
            typer.echo(f"note: {record} holds the first game's record; for every game's,"
                       f" give a folder: --record {record.removesuffix('.json')}/", err=True)
    if out:
        from engine.analysis.rows import format_rows

        write_text_or_exit(out, format_rows((row for row, _ in played), rows_format(out), n))


def _write_html(path: str, summary: dict, rows: list[dict], name: str, report) -> None:
    from engine.analysis.report_html import simulation_report

    coverage = report.data if report is not None and isinstance(report.data, list) else []
    write_text_or_exit(path, simulation_report(name, summary, rows, coverage))


def _agent_names(agents: str, players: int, most: int) -> list[str]:
    from engine.players.agents import AGENTS, check_agent

    names = [a.strip() for a in agents.split(",") if a.strip()]
    bad = [a for a in names if check_agent(a) is not None]  # (`mcts:800` has parameters)
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


def _write_record(game, n, seed, names, path, deal, records, step: int = 0) -> None:
    from engine.kernel.record import make_record

    row, state = play_one(game, n, seed, names, keep=True, deal=deal, seconds_per_move=step)
    rid, overlays, digest, ref = records
    save_record_or_exit(path, make_record(state, rid, overlays, digest, row["agents"], ref=ref))


def _print(summary: dict, as_json: bool, name: str, ruleset) -> None:
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(f"{name}: {counted(summary['games'], 'game')}")
    typer.echo(f"  {ruleset_heading(ruleset)}")
    typer.echo(f"{'seat':>4}  {'agent':<8} {'mean score':>11} {'win rate':>9}")
    for s in summary["seats"]:
        typer.echo(f"{s['seat']:>4}  {s['agent']:<8} {s['mean_score']:>11.2f} "
                   f"{s['win_rate'] * 100:>8.1f}%")
    if summary["no_winner"]:
        typer.echo(f"no winner: {summary['no_winner'] * 100:.1f}%")
    typer.echo(f"mean turns: {summary['mean_turns']:.2f}   mean rounds: {summary['mean_rounds']:.2f}")
    typer.echo(f"games/s: {summary['games_per_second']}")
