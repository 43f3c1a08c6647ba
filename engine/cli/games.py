"""What the game commands (play, simulate, moves, replay) share: load and compile a
ruleset into a `Game`, or exit with its diagnostics; describe score events."""

from __future__ import annotations

from typing import Sequence

import typer

from engine.cli.common import print_diagnostics
from engine.diagnostics import RulecraftError, Severity, file_reason
from engine.kernel import Game
from engine.kernel.game import players_mismatch


def resolve(ref: str, overlays: Sequence[str]):
    """(ruleset | None, diagnostics): the rules layer's `check_ruleset` (tests replace it)."""
    from engine.rules import check_ruleset

    return check_ruleset(ref, tuple(overlays))


def load_ruleset(ref: str, overlays: Sequence[str] = ()):
    """The resolved ruleset, through `resolve`; raises RulecraftError."""
    ruleset, diagnostics = resolve(ref, list(overlays))
    if ruleset is None:
        raise RulecraftError(list(diagnostics))
    return ruleset


def compile_game(ref: str, overlays: Sequence[str] = ()):
    """(ruleset | None, game | None, diagnostics) for a ruleset reference."""
    from engine.rules.model import compile_model

    ruleset, diagnostics = resolve(ref, list(overlays))
    if ruleset is None:
        return None, None, diagnostics
    model, more = compile_model(ruleset)
    return ruleset, (Game(model) if model is not None else None), list(diagnostics) + list(more)


# Diagnostics that mean the reference names nothing: a usage error, not a broken ruleset.
_NOT_FOUND = {"R400", "R401", "R408", "R425"}


def load_game_or_exit(ref: str, overlays: Sequence[str] | None = None):
    """(ruleset, game) for a reference, or the diagnostics on stderr and exit 2 (not
    found) or 1 (broken). Warnings are printed and the game returned."""
    ruleset, game, diagnostics = compile_game(ref, list(overlays or ()))
    if game is None:
        print_diagnostics(diagnostics, err=True)
        unknown = ruleset is None and any(
            d.code in _NOT_FOUND and d.pos is None for d in diagnostics
        )
        raise typer.Exit(2 if unknown else 1)
    print_diagnostics([d for d in diagnostics if d.level is Severity.WARNING], err=True)
    return ruleset, game


def exit_with(error: RulecraftError, status: int = 1):
    """Print an error's diagnostics to stderr and leave with `status`."""
    print_diagnostics(error.diagnostics, err=True)
    raise typer.Exit(status)


def where(event) -> str:
    return f"{event.pos.path}:{event.pos.line}" if event.pos else "?"


def describe_events(events, seat: int | None = None) -> str:
    """`hexagon +50 (file:12), tile_value +10 (file:3)`: the events of one seat, or all."""
    parts = []
    for e in events:
        if seat is not None and e.player != seat:
            continue
        who = "" if seat is not None else f"P{e.player + 1} "
        parts.append(f"{who}{e.rule} {e.points:+d} ({where(e)})")
    return ", ".join(parts) if parts else "no points"


def check_players(game: Game, players: int | None) -> int:
    """The number of players, checked against the ruleset; a usage error otherwise."""
    model = game.model
    n = model.players_default if players is None else players
    if not model.players_min <= n <= model.players_max:
        typer.echo(f"error: {players_mismatch(model, n)}", err=True)
        raise typer.Exit(2)
    return n


def record_ref(ref: str) -> str:
    """How a record names its ruleset so that replay finds it: an existing file as an
    absolute path, anything else (an id, a game name) as given."""
    from pathlib import Path

    path = Path(ref)
    return str(path.resolve()) if path.is_file() else ref


def save_record_or_exit(path: str, record: dict) -> None:
    """Write a record; a path that cannot be written is a one-line error and exit 1,
    not a traceback (the game itself went fine, only the file is wrong)."""
    from engine.kernel.record import save_record

    try:
        save_record(path, record)
    except OSError as exc:
        reason = file_reason(exc, path)
        typer.echo(f"error: cannot write the record to {path}: {reason}", err=True)
        raise typer.Exit(1)
