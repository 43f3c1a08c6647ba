"""`rulecraft moves SCENARIO`: the legal moves of a position, with their points."""

from __future__ import annotations

import json

import typer

from engine.analysis.phrases import counted
from engine.cli.app import app
from engine.cli.common import not_found_status
from engine.cli.games import describe_events, exit_with, where
from engine.diagnostics import RulecraftError
from engine.kernel import RuleFailure


@app.command("moves")
def moves_command(
    scenario: str = typer.Argument(..., help="A scenario file (docs/scenarios.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
) -> None:
    """List the legal moves of a scenario's position, with points and breakdown by rule."""
    from engine.cli import games
    from engine.kernel.scenario import load_scenario, outcome

    try:
        sc = load_scenario(scenario, games.load_ruleset)
        state = sc.state
        rows = [(move, outcome(state, move)) for move in state.legal_moves()]
    except RulecraftError as exc:
        exit_with(exc, not_found_status(exc.diagnostics, scenario))
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(_as_json(scenario, sc, rows), indent=2))
        return
    typer.echo(f"{sc.ruleset.id}: P{state.to_move + 1} (seat {state.to_move}) to move, "
               f"{counted(len(rows), 'legal move')}")
    for i, (move, got) in enumerate(rows, 1):
        typer.echo(f"{i:3}. {move.text:<28} {got.points:+5d}  {describe_events(got.events)}")


def _as_json(path: str, sc, rows) -> dict:
    return {
        "scenario": path,
        "ruleset": sc.ruleset.id,
        "to_move": sc.state.to_move,
        "moves": [
            {
                "move": move.text,
                "points": got.points,
                "breakdown": [
                    {"rule": e.rule, "points": e.points, "player": e.player,
                     "where": where(e), "label": e.detail}
                    for e in got.events
                ],
                "scores": got.scores,
            }
            for move, got in rows
        ],
    }
