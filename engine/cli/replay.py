"""`rulecraft replay FILE`: replay a record and check that it gives the same scores."""

from __future__ import annotations

import json

import typer

from engine.analysis.phrases import counted
from engine.cli.app import app
from engine.cli.games import exit_with, load_game_or_exit
from engine.diagnostics import RulecraftError, format_json, format_text, printable
from engine.kernel import RuleFailure


@app.command("replay")
def replay_command(
    record: str = typer.Argument(..., help="A record written by play or simulate --record."),
    rescore: bool = typer.Option(
        False, "--rescore", help="Score the same moves under the current rules."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the outcome as JSON."),
) -> None:
    """Replay a record; stop if its ruleset has changed, unless --rescore."""
    from engine.kernel.record import load_record, replay_record

    try:
        loaded = load_record(record)
    except RulecraftError as exc:
        exit_with(exc, 1)
    ruleset, game = _named_ruleset(record, loaded.data["ruleset"])
    rs = loaded.data["ruleset"]
    try:
        result = replay_record(loaded, game, ruleset.hash, rescore=rescore)
    except RulecraftError as exc:
        exit_with(exc, 1)
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    state = result.state
    moves = len(loaded.data["moves"])
    recorded = (loaded.data.get("final") or {}).get("scores")
    differs = not rescore and recorded is not None and recorded != state.scores
    if as_json:
        _print_json(rs, ruleset, result, moves, recorded, differs)
    else:
        _print_text(rs, result, moves, recorded)
    if differs:
        if not as_json:
            typer.echo("the final scores differ from the record", err=True)
        raise typer.Exit(1)
    if result.problems:
        raise typer.Exit(1)


def _named_ruleset(record: str, rs: dict):
    """(ruleset, game) the record names; if it cannot be loaded, its diagnostics, then a
    line saying which record asked for it."""
    ref, overlays = rs.get("ref") or rs["id"], rs.get("overlays") or []
    try:
        return load_game_or_exit(ref, overlays)
    except typer.Exit:
        # The diagnostics name only the ruleset or overlay; say which file asked for it.
        named = f"`{ref}`" + "".join(f" with `{o}`" for o in overlays)
        typer.echo(printable(f"{record}: the ruleset this record names ({named}) cannot be"
                             " loaded"), err=True)
        raise


def _print_text(rs: dict, result, moves: int, recorded) -> None:
    state = result.state
    if result.changed:
        typer.echo(printable(f"the ruleset `{rs['id']}` has changed since the record; re-scored"))
    if result.problems:
        typer.echo(format_text(result.problems))
        typer.echo("moves no longer legal: replay stopped there")
    typer.echo(printable(f"replayed {len(state.history)} of {counted(moves, 'move')} of {rs['id']}"))
    typer.echo(f"scores: {state.scores}" + (f"  (recorded: {recorded})" if recorded else ""))


def _print_json(rs: dict, ruleset, result, moves: int, recorded, differs: bool) -> None:
    state = result.state
    winner = getattr(state, "winner", None)
    typer.echo(json.dumps({
        "ruleset": rs["id"],
        "title": ruleset.title,
        "overlays": list(rs.get("overlays") or []),
        "moves": moves,
        "replayed": len(state.history),
        "scores": list(state.scores),
        "recorded_scores": recorded,
        "same_scores": not differs,
        "winner": winner,  # a seat from 0, as in the record
        "over": bool(state.is_over),
        "ruleset_changed": bool(result.changed),
        "problems": json.loads(format_json(result.problems)) if result.problems else [],
    }, indent=2))
