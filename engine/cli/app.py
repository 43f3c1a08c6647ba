"""The typer application that every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="rulecraft",
    help="Rulecraft: play, simulate, lint and compare tabletop games written as YAML rulesets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Rulecraft: every game and house variant is a YAML ruleset."""
