"""`rulecraft names RULESET [--on PLACE]`: which names an expression may use, and where.

An author writing `points:` for a rule `on: place` wants to know that `move.hexagons`
exists there; this prints every name of that context with its type, and the fields of
each record, from the same declarations the checker uses.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from engine.cli.app import app
from engine.cli.common import WithOption
from engine.cli.games import load_game_or_exit
from engine.expr.types import ListOf, Record, Type
from engine.rules.contexts import ContextTypes


def context_types(game) -> ContextTypes:
    """The environments of a compiled game's ruleset, as the model builds them."""
    data = game.model.ruleset.data
    kinds = [spec.get("kind") for spec in (data.get("components") or {}).values()]
    actions = data.get("actions") or {}
    return ContextTypes(kinds, game.model.topology, game.model.counters, actions)


def environments(game) -> dict[str, dict[str, Type]]:
    """Every place name (`everywhere`, each action, `opening`) with its environment."""
    types = context_types(game)
    envs = {"everywhere": dict(types.base)}
    for action in game.model.actions:
        envs[action.name] = types.move(action.kind)
    envs["opening"] = types.with_piece()
    return envs


def _records(t: Type, found: dict[str, Record]) -> None:
    """Collect the record types reachable from `t`, by name."""
    while isinstance(t, ListOf):
        t = t.item
    if isinstance(t, Record) and t.name not in found:
        found[t.name] = t
        for ft in t.fields.values():
            _records(ft, found)


def describe_env(env: dict[str, Type], base: dict[str, Type] | None = None) -> dict:
    """`names` (name -> type; those also in `base` left out) and the `records` they use."""
    shown = {n: t for n, t in sorted(env.items()) if base is None or n not in base}
    found: dict[str, Record] = {}
    for t in shown.values():
        _records(t, found)
    return {
        "names": {n: str(t) for n, t in shown.items()},
        "records": {name: {f: str(ft) for f, ft in sorted(r.fields.items())}
                    for name, r in sorted(found.items())},
    }


def format_env(place: str, described: dict) -> str:
    """A place's names as text; names of one type share a line (`tile, card: piece`)."""
    title = "everywhere" if place == "everywhere" else f"in `{place}` (besides the names usable everywhere)"
    by_type: dict[str, list[str]] = {}
    for name, tname in described["names"].items():
        by_type.setdefault(tname, []).append(name)
    lines = [f"{title}:"]
    lines += [f"  {', '.join(names)}: {tname}" for tname, names in by_type.items()]
    for rname, fields in described["records"].items():
        listed = ", ".join(f"{f} {t}" for f, t in fields.items()) or "(no fields)"
        lines.append(f"  record {rname}: {listed}")
    return "\n".join(lines) + "\n"


@app.command("names")
def names(
    ruleset: Annotated[str, typer.Argument(help="A ruleset id, a game name, or a path.")],
    with_: WithOption = None,
    on: Annotated[
        Optional[str],
        typer.Option("--on", help="Only this place: `everywhere`, an action's name, or `opening`."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the names expressions may use in a ruleset, with their types and fields."""
    # exit 2 for a reference that names nothing, 1 for a broken ruleset, as `show` does
    _, game = load_game_or_exit(ruleset, with_ or [])
    envs = environments(game)
    if on is not None and on not in envs:
        typer.echo(f"no place `{on}`; places: {', '.join(envs)}", err=True)
        raise typer.Exit(2)
    base = envs["everywhere"]
    shown = {p: describe_env(e, None if p == "everywhere" else base)
             for p, e in envs.items() if on is None or p == on}
    if as_json:
        typer.echo(json.dumps(shown, indent=2))
        return
    typer.echo("\n".join(format_env(p, d) for p, d in shown.items()))
