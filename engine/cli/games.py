"""What the game commands (play, simulate, moves, replay) share: load and compile a
ruleset into a `Game`, or exit with its diagnostics; describe score events."""

from __future__ import annotations

from typing import Sequence

import typer

from engine.cli.common import load_or_exit, print_diagnostics
from engine.diagnostics import RulecraftError, Severity
from engine.kernel import Game


def load_game_or_exit(ref: str, overlays: Sequence[str] | None = None):
    """(ruleset, game) for a reference, or the diagnostics on stderr and exit 1/2."""
    from engine.rules.model import compile_model

    ruleset = load_or_exit(ref, overlays)
    model, diagnostics = compile_model(ruleset)
    if model is None:
        print_diagnostics([d for d in diagnostics], err=True)
        raise typer.Exit(1)
    warnings = [d for d in diagnostics if d.level is Severity.WARNING]
    print_diagnostics(warnings, err=True)
    return ruleset, Game(model)


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
        typer.echo(f"error: this ruleset is for {model.players_min} to {model.players_max} "
                   f"players, not {n}", err=True)
        raise typer.Exit(2)
    return n
