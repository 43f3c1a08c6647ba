"""`rulecraft render SCENARIO|RECORD`: a picture of a position as SVG (or PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from engine.cli.app import app
from engine.cli.common import not_found_status
from engine.cli.games import exit_with, load_game_or_exit
from engine.diagnostics import RulecraftError, file_reason
from engine.kernel import IllegalMove, RuleFailure


@app.command("render")
def render_command(
    source: str = typer.Argument(..., help="A scenario (.yaml) or a game record (.json)."),
    out: Path = typer.Option(..., "--out", "-o", help="The picture to write: .svg or .png."),
    move: Optional[int] = typer.Option(
        None, "--move", min=0, help="A record's position after this many moves (default: all)."),
    highlight: Optional[str] = typer.Option(
        None, "--highlight", help="Mark the cells and pieces of this legal move (its text)."),
    seat: Optional[int] = typer.Option(
        None, "--seat", min=0,
        help="Show only this seat's hand face up, seats from 0 (default: every hand)."),
) -> None:
    """Draw a scenario's position, or a record's after --move N, as SVG or PNG."""
    from engine.render import NoDrawing, render_svg

    if out.suffix.lower() not in (".svg", ".png"):
        typer.echo(f"error: {out}: the picture must be .svg or .png", err=True)
        raise typer.Exit(2)
    state, last = _position(source, move)
    if seat is not None and seat >= state.n:
        typer.echo(f"error: --seat {seat}: the game has seats 0 to {state.n - 1}", err=True)
        raise typer.Exit(2)
    try:
        svg = render_svg(state, highlight=highlight or (), last_move=last, seat=seat)
    except IllegalMove as exc:
        typer.echo(f"error: --highlight: {exc}", err=True)
        raise typer.Exit(1)
    except NoDrawing as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    _write(svg, out)


def _position(source: str, move: int | None):
    """(state, last move) of a scenario or of a record after `move` moves."""
    from engine.cli import games
    from engine.kernel.scenario import load_scenario

    if Path(source).suffix.lower() != ".json":
        if move is not None:
            typer.echo("error: --move is for records; a scenario is one position", err=True)
            raise typer.Exit(2)
        try:
            return load_scenario(source, games.load_ruleset).state, None
        except RulecraftError as exc:
            exit_with(exc, not_found_status(exc.diagnostics, source))
    return _record_position(source, move)


def _record_position(source: str, move: int | None):
    from engine.kernel.record import load_record, replay_record

    try:
        loaded = load_record(source)
    except RulecraftError as exc:
        exit_with(exc, 1)
    moves = loaded.data["moves"]
    if move is not None and move > len(moves):
        typer.echo(f"error: --move {move}: the record has {len(moves)} moves", err=True)
        raise typer.Exit(2)
    loaded.data["moves"] = moves[:len(moves) if move is None else move]
    rs = loaded.data["ruleset"]
    ruleset, game = load_game_or_exit(rs.get("ref") or rs["id"], rs.get("overlays") or [])
    try:
        state = replay_record(loaded, game, ruleset.hash, rescore=True).state
    except (RulecraftError, RuleFailure) as exc:
        if isinstance(exc, RulecraftError):
            exit_with(exc, 1)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    return state, (state.log[-1][0] if state.log else None)


def _write(svg: str, out: Path) -> None:
    from engine.render.png import NoConverter, svg_to_png

    try:
        if out.suffix.lower() == ".png":
            used = svg_to_png(svg, out)
            typer.echo(f"wrote {out} (with {used})")
            return
        out.write_text(svg, encoding="utf-8")
    except NoConverter as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {file_reason(exc, out)}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {out}")
