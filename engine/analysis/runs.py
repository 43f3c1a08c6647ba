"""Playing many seeded games and keeping what analysis needs from each.

Game i is seeded `seeds[i]` and each seat's agent `agent_seed(seed, seat)`, exactly as
`simulate` does, so the same seed gives the same game here and there. Under several
rulesets the same seeds give common random numbers: the same deal and the same agent
generators, so a difference between rulesets is the rules, not the luck.

Work is split into chunks of consecutive seeds per ruleset and merged back in order, so
the results never depend on the number of worker processes.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from engine.analysis.program_runs import play_program_game, random_program
from engine.diagnostics import Position

# Reasons the kernel gives a round that it ended itself rather than by a ruleset's rule.
LIMIT_REASONS = ("turn_limit",)
STALLED = "stalled"


@dataclass
class GameStats:
    """What one finished (or crashed) game tells analysis."""

    seed: int
    scores: list[int]
    winner: int | None
    turns: int
    rounds: int
    reasons: dict[str, int] = field(default_factory=dict)  # round-end reason -> rounds
    fired: dict[str, int] = field(default_factory=dict)  # rule -> moves on which it scored
    points: dict[str, int] = field(default_factory=dict)  # rule -> points it gave, all seats
    first: int = 0  # the seat that moved first in the game
    hit_round_limit: bool = False
    last_reason: str | None = None  # why the last round ended
    duration_ms: float = 0.0  # wall time of the game (not part of its outcome)
    error: str | None = None
    error_pos: Position | None = None


@dataclass(frozen=True)
class Spec:
    """A ruleset to play: its reference and overlays, and how reports name it."""

    ref: str
    overlays: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return "+".join((self.ref, *self.overlays))


def play_game(game, players: int, seed: int, agent_names: Sequence[str],
              max_moves: int = 1_000_000, deal=None) -> GameStats:
    """Play one seeded game between agents; errors are kept in the stats, not raised."""
    from engine.kernel import RuleFailure
    from engine.players.agents import agent_seed, make_agent

    stats = GameStats(seed, [0] * players, None, 0, 0)
    state, moves, move = None, 0, None
    start = time.perf_counter()
    try:
        program = random_program(game, agent_names, deal)
        if program is not None:  # (random agents on a compiled program: the same game)
            play_program_game(program, stats, players, seed, max_moves, _finish)
            return stats
        agents = [make_agent(agent_names[s % len(agent_names)], agent_seed(seed, s))
                  for s in range(players)]
        state = game.new_game(players, seed, deal=deal)
        stats.first = state.to_move
        _tally(stats, state.events)  # the first round's `round_start` rules
        moves, move = 0, None
        while not state.is_over and moves < max_moves:
            before, move = state.round, None
            move = agents[state.to_move].choose(state)
            _tally(stats, state.apply(move))
            _round_ends(stats, state, before)
            moves += 1
        _finish(stats, state, game.model)
    except RuleFailure as exc:
        stats.error, stats.error_pos = str(exc), getattr(exc, "pos", None)
    except Exception as exc:  # an engine bug must not stop a whole batch; it is reported
        where = "setting up" if state is None else (
            f"choosing move {moves + 1}" if move is None else f"playing move {moves + 1} (`{move}`)")
        stats.error = f"internal error while {where}: {type(exc).__name__}: {exc}"
    stats.duration_ms = round((time.perf_counter() - start) * 1000, 3)
    return stats


def _tally(stats: GameStats, events) -> None:
    seen = set()
    for e in events:
        stats.points[e.rule] = stats.points.get(e.rule, 0) + e.points
        if e.rule not in seen:
            seen.add(e.rule)
            stats.fired[e.rule] = stats.fired.get(e.rule, 0) + 1


def _round_ends(stats: GameStats, state, before) -> None:
    """Count the rounds that one move ended, with their reasons."""
    ended = state.round.number - before.number + (1 if state.is_over else 0)
    if ended <= 0:
        return
    reasons = [before.reason] + [STALLED] * (ended - 1)
    if state.is_over and state.round is not before:
        reasons[-1] = state.round.reason
    for reason in reasons:
        key = str(reason or "unknown")
        stats.reasons[key] = stats.reasons.get(key, 0) + 1
    stats.last_reason = str(reasons[-1]) if reasons[-1] else None


def _finish(stats: GameStats, state, model) -> None:
    stats.scores = list(state.scores)
    stats.winner = state.winner
    stats.turns = state.turns_total
    stats.rounds = state.round.number
    if model.match_end is not None and state.round.number >= model.max_rounds:
        # The match stopped at `limits.max_rounds`: did its own end condition hold?
        seat = state.winner if state.winner is not None else 0
        try:
            stats.hit_round_limit = not bool(model.match_end.evaluate(state.context(seat)))
        except Exception:
            stats.hit_round_limit = True


# -- many games, in this process or in workers ------------------------------------

_GAMES: dict[Spec, object] = {}


def compile_spec(spec: Spec):
    """The `Game` for a spec, compiled once per process; raises RulecraftError."""
    game = _GAMES.get(spec)
    if game is None:
        from engine.diagnostics import RulecraftError
        from engine.kernel import Game
        from engine.rules import load_ruleset
        from engine.rules.model import compile_model

        model, diagnostics = compile_model(load_ruleset(spec.ref, spec.overlays))
        if model is None:
            raise RulecraftError(list(diagnostics))
        game = _GAMES[spec] = Game(model)
    return game


def run_chunk(task) -> list[GameStats]:
    """Play one task `(spec, players, seeds, agents, deal)`: its games, in seed order."""
    spec, players, seeds, agents, deal = task
    game = compile_spec(spec)
    return [play_game(game, players, seed, agents, deal=deal) for seed in seeds]


def chunk_seeds(seeds: Sequence[int], jobs: int) -> list[list[int]]:
    """Consecutive runs of seeds, about four per worker so that the load evens out."""
    size = max(1, math.ceil(len(seeds) / (max(1, jobs) * 4)))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


def make_tasks(specs: Sequence[Spec], players: int, seeds_by_spec: Sequence[Sequence[int]],
               agents: Sequence[str], jobs: int, deal: str | None = None,
               most: int | None = None) -> list[tuple[int, tuple]]:
    """(spec index, task) for every chunk of every spec's seeds (`most`: games per chunk
    at most, so that a store receives finished games often)."""
    tasks = []
    for k, (spec, seeds) in enumerate(zip(specs, seeds_by_spec)):
        for chunk in chunk_seeds(seeds, jobs):
            step = most or len(chunk) or 1
            tasks += [(k, (spec, players, chunk[i:i + step], list(agents), deal))
                      for i in range(0, len(chunk), step)]
    return tasks


def iter_results(tasks: Sequence[tuple[int, tuple]], jobs: int = 1, backend: str = "local",
                 address: str | None = None) -> Iterator[tuple[int, list[GameStats]]]:
    """(spec index, the chunk's stats) for each task, as each finishes (any order with
    several workers): here, in `jobs` processes, or on Ray (`engine.analysis.cluster`)."""
    if backend == "ray":
        from engine.analysis.cluster import iter_ray_results

        yield from iter_ray_results(run_chunk, tasks, address, jobs)
        return
    if jobs <= 1:
        for k, task in tasks:
            yield k, run_chunk(task)
        return
    from engine.rules import files

    # A worker started fresh (spawn, forkserver) does not inherit the `--rulesets` folders.
    with ProcessPoolExecutor(jobs, initializer=files.set_user_roots,
                             initargs=([str(r) for r in files.user_roots()],)) as pool:
        futures = {pool.submit(run_chunk, task): k for k, task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()


def run_games(specs: Sequence[Spec], players: int, seeds: Sequence[int],
              agents: Sequence[str], jobs: int = 1,
              progress: Callable[[int], None] | None = None,
              deal: str | None = None, backend: str = "local",
              address: str | None = None) -> list[list[GameStats]]:
    """For each spec, the stats of the games seeded `seeds`, in seed order (`deal`: every
    game's first round starts from this deal, as `simulate --deal`)."""
    tasks = make_tasks(specs, players, [seeds] * len(specs), agents, jobs, deal)
    out: list[list[GameStats]] = [[] for _ in specs]
    for k, chunk in iter_results(tasks, jobs, backend, address):
        out[k].extend(chunk)
        if progress:
            progress(len(chunk))
    order = {seed: i for i, seed in enumerate(seeds)}
    for games in out:  # chunks finish in any order; the results never depend on it
        games.sort(key=lambda g: order[g.seed])
    return out
