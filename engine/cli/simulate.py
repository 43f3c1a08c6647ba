"""`rulecraft simulate`: many seeded games between agents, with per-seat statistics.

Game i is seeded `seed + i`; each seat's agent is seeded from the game's seed and the
seat, so the figures are the same whatever `--jobs` is.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional

import typer

from engine.analysis.phrases import counted
from engine.analysis.refs import spec_name
from engine.cli.app import app
from engine.analysis.rows import rows_format
from engine.cli.common import (DEFAULT_JOBS, DEFAULT_SEED, DbOption, HtmlOption, JobsOption,
                               PlayersOption, WithOption, agent_names, jobs_or_cores,
                               record_folder, require_plots, ruleset_heading, usage_error,
                               write_text_or_exit)
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


# The options of `simulate`, one alias each, so that the command reads as what it does.
RulesetArg = Annotated[str, typer.Argument(help="A ruleset id, game name or file.")]
GamesOption = Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                          help="How many games.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the first game (game i: seed + i).")]
AgentsOption = Annotated[str, typer.Option(
    "--agents", help="Agents by seat, e.g. greedy,random; a shorter list repeats,"
    " a longer one than the players is refused (exit 2).")]
JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print JSON for scripts: the totals and one row per game.")]
OutOption = Annotated[Optional[str], typer.Option(
    "--out", metavar="FILE", help="Write one row per game to FILE (.jsonl or .csv).")]
RecordOption = Annotated[Optional[str], typer.Option(
    "--record", metavar="FILE|DIR",
    help="Write the first game's record to FILE, or every game's to DIR (an existing folder,"
    " or a name ending in /).")]
DealOption = Annotated[Optional[str], typer.Option(
    "--deal", help="Every game starts from this deal (piece names, first dealt first).")]
CoverageOption = Annotated[bool, typer.Option("--coverage",
                                              help="Also report how often each rule fired.")]
ResumeOption = Annotated[bool, typer.Option(
    "--resume", help="Finish the interrupted run of the same command in --db, without"
    " playing a stored game again.")]
BackendOption = Annotated[Backend, typer.Option(
    "--backend", help="Where games run: here and in --jobs processes, or on a Ray cluster.")]
AddressOption = Annotated[Optional[str], typer.Option(
    "--address", help="Ray: an existing cluster (default: a local Ray with the machine's cores).")]
SecondsOption = Annotated[int, typer.Option(
    "--seconds-per-move", min=0, metavar="S", help="The clock (`clock.seconds`) reads"
    " k x S at the k-th move (default 0: the clock is never set and reads 0).")]


@dataclass(frozen=True)
class Run:
    """A checked `simulate` command: the ruleset and its game, the seats' agents, the
    seeds, and where the games and their records go."""

    ruleset: object  # engine.rules.Ruleset
    game: object  # engine.kernel.Game
    players: int
    agents: list
    seeds: list
    jobs: int
    folder: object  # the --record folder (a Path), or None
    records: Optional[tuple]  # (id, overlays, hash, ref) when records are written
    where: Where
    step: int = 0  # --seconds-per-move: the clock's seconds per move


@app.command("simulate")
def simulate_command(
    ruleset: RulesetArg,
    overlays: WithOption = None,
    games: GamesOption = 100,
    seed: SeedOption = DEFAULT_SEED,
    players: PlayersOption = None,
    agents: AgentsOption = "random",
    jobs: JobsOption = DEFAULT_JOBS,
    as_json: JsonOption = False,
    out: OutOption = None,
    record: RecordOption = None,
    deal: DealOption = None,
    coverage: CoverageOption = False,
    html: HtmlOption = None,
    db: DbOption = None,
    resume: ResumeOption = False,
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    seconds_per_move: SecondsOption = 0,
) -> None:
    """Play seeded games between agents and print per-seat statistics."""
    run = _checked_run(ruleset, overlays, range(seed, seed + games), players, agents, jobs,
                       out, record, deal, html, Where(db, resume, backend.value, address))
    if seconds_per_move and (run.where.swept or coverage or html):
        usage_error("--seconds-per-move sets the clock of games played here: not with --db,"
                    " --backend ray, --coverage or --html")
    run = dataclasses.replace(run, step=seconds_per_move)
    start = time.perf_counter()
    played = _play_all(run.ruleset, run.game, ruleset, overlays, run.players, run.seeds,
                       run.agents, jobs_or_cores(run.jobs), deal,
                       run.records if run.folder else None, run.where, as_json, run.step)
    rows = [row for row, _ in played]
    summary = _summary(run, rows, time.perf_counter() - start)
    _write_outputs(played, run.folder, record, out, run.players, run.game, run.agents, seed,
                   deal, run.records, as_json, run.step)
    _report(run, summary, rows, ruleset, overlays, deal, (coverage, html, as_json))


def _checked_run(ref, overlays, seeds, players, agents, jobs, out, record, deal, html,
                 where: Where) -> Run:
    """The command's arguments checked (a usage error is its message and exit 2) and its
    ruleset loaded."""
    if out is not None and rows_format(out) is None:
        usage_error(f"--out {out}: give a file name ending in .jsonl or .csv")
    if html is not None:
        require_plots()
    jobs = _cap_jobs(jobs)
    ruleset_obj, game = load_game_or_exit(ref, overlays)
    n = check_players(game, players)
    names = _agent_names(agents, n, game.model.players_max)
    _check_deal(game, deal)
    folder = record_folder(record, len(seeds))
    records = ((ruleset_obj.id, list(overlays or []), ruleset_obj.hash, record_ref(ref))
               if record else None)
    if where.swept and folder is not None:
        usage_error("--record DIR writes records of games played here: not with --db or --backend ray")
    return Run(ruleset_obj, game, n, names, list(seeds), jobs, folder, records, where)


def _summary(run: Run, rows: list[dict], elapsed: float) -> dict:
    """The per-seat statistics of the games' rows, what was simulated, and the rate."""
    summary = summarize(rows, run.players, run.agents)
    summary["ruleset"] = run.ruleset.id
    summary["title"] = run.ruleset.title
    summary["overlays"] = list(run.ruleset.overlays)
    summary["games_per_second"] = round(len(run.seeds) / elapsed, 1) if elapsed > 0 else None
    return summary


def _report(run: Run, summary: dict, rows: list[dict], ref, overlays, deal, wanted) -> None:
    """Coverage (engine.analysis replays the same seeded games, counting rule by rule),
    the HTML report, then the summary printed; `wanted`: (--coverage, --html, --json)."""
    coverage, html, as_json = wanted
    # What was simulated: the resolved id (not a game name) with its overlays.
    name = spec_name(run.ruleset.id, overlays or [])
    report = None
    if coverage or html:
        from engine.analysis.coverage import coverage_report

        report = coverage_report(ref, overlays, run.players, run.seeds, run.agents,
                                 jobs_or_cores(run.jobs), deal, title=name)
        if coverage:
            summary["coverage"] = report.data
    if html:
        _write_html(html, summary, rows, name, report)
    if as_json:
        summary["rows"] = rows  # one per game, as --out writes them
    _print(summary, as_json, name, run.ruleset)
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
    names = agent_names(agents)
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
    wide = max([8] + [len(s["agent"]) for s in summary["seats"]])  # (the column fits a long spec)
    typer.echo(f"{'seat':>4}  {'agent':<{wide}} {'mean score':>11} {'win rate':>9}")
    for s in summary["seats"]:
        typer.echo(f"{s['seat']:>4}  {s['agent']:<{wide}} {s['mean_score']:>11.2f} "
                   f"{s['win_rate'] * 100:>8.1f}%")
    if summary["no_winner"]:
        typer.echo(f"no winner: {summary['no_winner'] * 100:.1f}%")
    typer.echo(f"mean turns: {summary['mean_turns']:.2f}   mean rounds: {summary['mean_rounds']:.2f}")
    typer.echo(f"games/s: {summary['games_per_second']}")
