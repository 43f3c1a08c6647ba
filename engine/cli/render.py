"""`rulecraft render SCENARIO|RECORD`: a picture of a position as SVG (or PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from engine.cli.app import app
from engine.cli.common import fail, not_found_status, usage_error
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
        usage_error(f"{out}: the picture must be .svg or .png")
    state, last = _position(source, move)
    if seat is not None and seat >= state.n:
        usage_error(f"--seat {seat}: the game has seats 0 to {state.n - 1}")
    try:
        svg = render_svg(state, highlight=highlight or (), last_move=last, seat=seat)
    except IllegalMove as exc:
        fail(f"--highlight: {exc}")
    except NoDrawing as exc:
        fail(str(exc))
    _write(svg, out)


def _position(source: str, move: int | None):
    """(state, last move) of a scenario or of a record after `move` moves."""
    from engine.cli import games
    from engine.kernel.scenario import load_scenario

    if Path(source).suffix.lower() != ".json":
        if move is not None:
            usage_error("--move is for records; a scenario is one position")
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
        usage_error(f"--move {move}: the record has {len(moves)} moves")
    loaded.data["moves"] = moves[:len(moves) if move is None else move]
    rs = loaded.data["ruleset"]
    ruleset, game = load_game_or_exit(rs.get("ref") or rs["id"], rs.get("overlays") or [])
    try:
        state = replay_record(loaded, game, ruleset.hash, rescore=True).state
    except (RulecraftError, RuleFailure) as exc:
        if isinstance(exc, RulecraftError):
            exit_with(exc, 1)
        fail(str(exc))
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
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {file_reason(exc, out)}")
    typer.echo(f"wrote {out}")
