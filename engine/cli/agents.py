"""`rulecraft agents`: the agents there are and their parameters."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from engine.cli.app import app


@app.command("agents")
def agents_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the agents (for --agents and play) and their parameters."""
    from engine.players.agents import AGENT_INFO

    if as_json:
        rows = [{"name": name, **info} for name, info in AGENT_INFO.items()]
        typer.echo(json.dumps(rows, indent=2))
        return
    for name, info in AGENT_INFO.items():
        typer.echo(f"{name}: {info['summary']}")
        for p in info["parameters"]:
            typer.echo(f"  {p['name']:<10} {p['values']:<32} default {p['default']:<8}"
                       f" {p['help']}")
    typer.echo("A spec is the name, then parameters after colons in any order:"
               " `mcts:800:greedy`, `mcts:0.5s:win`.")
