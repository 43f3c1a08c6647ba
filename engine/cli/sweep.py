"""Many games for `simulate` and `compare` into a results store and/or on Ray: chunks of
seeds played here, in worker processes or on a Ray cluster, each finished chunk stored
at once, so an interrupted run keeps what it finished and `--resume` plays the rest.
"""

from __future__ import annotations

import platform
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Optional, Sequence

import typer

from engine.analysis.runs import GameStats, Spec
from engine.cli.common import fail
from engine.cli.progress import progress_bar

STORE_CHUNK = 25  # games per stored transaction at most: what an interruption can lose
_ids = iter(range(1 << 62))


@dataclass
class Target:
    """A ruleset to play, as the store names it: the spec, its resolved id and hash."""

    spec: Spec
    ruleset_id: str
    ruleset_hash: str


def versions() -> dict:
    """The versions a run row records."""
    import engine

    # seats_from: the games' `winner`/`first` count seats from 0; stores written before
    # that lack the key and count from 1, so a query can tell the two apart.
    found = {"rulecraft": engine.__version__, "python": platform.python_version(),
             "seats_from": 0}
    try:
        import duckdb

        found["duckdb"] = duckdb.__version__
    except ImportError:  # pragma: no cover - duckdb is a dependency
        pass
    return found


def run_sweep(targets: Sequence[Target], players: int, seeds: Sequence[int],
              agents: Sequence[str], jobs: int, command: str, deal: Optional[str] = None,
              db: Optional[str] = None, resume: bool = False, backend: str = "local",
              address: Optional[str] = None, show: bool = True) -> list[list[GameStats]]:
    """For each target, its games' stats in seed order (stored in `db` as they finish)."""
    if resume and not db:
        fail("--resume needs --db FILE (the results file of the run to finish)", 2)
    params = {"command": command, "rulesets": [[t.ruleset_id, list(t.spec.overlays),
              t.ruleset_hash] for t in targets], "players": players, "agents": list(agents),
              "seeds": [seeds[0], seeds[-1], len(seeds)] if seeds else [], "deal": deal}
    store = _open(db) if db else None
    if backend == "ray":
        _ray_or_exit(address, jobs)
    try:
        run_id, before = _start(store, params, targets, resume)
        return _play(store, run_id, before, targets, players, seeds, agents, jobs, deal,
                     backend, address, show)
    finally:
        if store is not None:
            store.close()


def _ray_or_exit(address, jobs) -> None:
    from engine.analysis.cluster import Unreachable, start_ray
    from engine.extras import MissingExtra

    try:
        start_ray(address, jobs if jobs > 1 else None)
    except MissingExtra as exc:
        fail(str(exc), 2)
    except Unreachable as exc:
        fail(str(exc))
    except Exception as exc:  # Ray's own errors: an unreachable address, say
        fail(f"cannot start or reach Ray{f' at {address}' if address else ''}:"
              f" {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")


def _open(db: str):
    from engine.store import StoreError, open_store

    try:
        return open_store(db)
    except StoreError as exc:
        fail(str(exc))


def _start(store, params: dict, targets, resume: bool):
    """The run's id and the games it has stored already (by target), a new run unless
    resuming."""
    from engine.analysis.rows import stats_of_row

    before: list[list[GameStats]] = [[] for _ in targets]
    if store is None:
        return "", before
    run_id = store.unfinished_run(params) if resume else None
    if resume and run_id is None:
        fail(f"{store.path} holds no unfinished run of this command with these settings;"
              " run it without --resume")
    if run_id is None:
        run_id = f"r{time.strftime('%Y%m%d-%H%M%S')}-{next(_ids)}-{_pid()}"
        store.begin_run(run_id, command_line(), params, versions())
        return run_id, before
    index = {(t.ruleset_id, tuple(t.spec.overlays)): k for k, t in enumerate(targets)}
    for row in store.games_of(run_id):
        k = index.get((row["ruleset"], tuple(row["overlays"] or ())))
        if k is not None:
            before[k].append(stats_of_row(row))
    return run_id, before


def command_line() -> str:
    """The running command as typed (rebuilt from its parsed options, so that it is the
    same however the command was called): `rulecraft simulate GAME --games 100`."""
    import shlex

    try:  # typer carries its own click (0.29 on), older ones use click's
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover
        from click import get_current_context
    ctx = get_current_context(silent=True)
    if ctx is None:
        return shlex.join(["rulecraft", *sys.argv[1:]])
    words = ["rulecraft", ctx.info_name or ""]
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if value is None or value == param.default or value is False or value == []:
            continue
        value = getattr(value, "value", value)  # an Enum choice
        values = value if isinstance(value, (list, tuple)) else [value]
        if param.param_type_name == "argument":
            words += [str(v) for v in values]
        elif value is True:
            words.append(param.opts[0])
        else:
            for v in values:
                words += [param.opts[0], str(v)]
    return shlex.join(words)


def _pid() -> int:
    import os

    return os.getpid()


def _play(store, run_id, before, targets, players, seeds, agents, jobs, deal, backend,
          address, show) -> list[list[GameStats]]:
    from engine.analysis.runs import iter_results, make_tasks

    done = [{g.seed for g in games} for games in before]
    todo = [[s for s in seeds if s not in done[k]] for k in range(len(targets))]
    tasks = make_tasks([t.spec for t in targets], players, todo, agents, jobs, deal,
                       STORE_CHUNK if store is not None else None)
    out = [list(games) for games in before]
    total, count = sum(len(t) for t in todo), sum(len(g) for g in before)
    results = iter_results(tasks, jobs, backend, address)
    try:
        with progress_bar(len(targets) * len(seeds), "playing", quiet=not show) as advance:
            if advance:
                advance(count)
            for k, chunk in results:
                if store is not None:
                    store.add_games([_row(targets[k], g, agents, run_id) for g in chunk])
                out[k].extend(chunk)
                count += len(chunk)
                _report(advance, store, show, count, len(targets) * len(seeds), len(chunk))
    except (KeyboardInterrupt, BrokenProcessPool) as exc:
        _interrupted(store, run_id, count, total, exc)
    if store is not None:
        store.finish_run(run_id)
    order = {seed: i for i, seed in enumerate(seeds)}
    for games in out:
        games.sort(key=lambda g: order[g.seed])
    return out


def _row(target: Target, stats: GameStats, agents, run_id: str) -> dict:
    from engine.analysis.rows import stored_row

    return stored_row(stats, target.ruleset_id, target.ruleset_hash, target.spec.overlays,
                      agents, run_id)


def _report(advance, store, show: bool, count: int, total: int, new: int) -> None:
    """Progress: the bar on a terminal; without one, a line on stderr per stored chunk
    (so that a log shows how far a long run got)."""
    if advance:
        advance(new)
    elif store is not None and show:
        typer.echo(f"stored {count}/{total} games", err=True)


def _interrupted(store, run_id: str, count: int, total: int, exc: BaseException):
    what = "interrupted" if isinstance(exc, KeyboardInterrupt) else "a worker process died"
    if store is None:
        fail(f"{what}; nothing was stored (--db FILE keeps finished games)", 130
              if isinstance(exc, KeyboardInterrupt) else 1)
    store.finish_run(run_id, "interrupted")
    typer.echo(f"\n{what}: {count} games are stored in {store.path}; the same command with"
               " --resume plays the rest", err=True)
    raise typer.Exit(130 if isinstance(exc, KeyboardInterrupt) else 1)
