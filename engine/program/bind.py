"""What a program written to a file (`rulecraft compile -o game.py`) reads when it is
imported: the constants of its ruleset, rebuilt from the ruleset itself, which must be
the one it was generated from (same hash)."""

from __future__ import annotations

from engine.kernel import Game
from engine.program.plan import make_plan
from engine.program.program import namespace
from engine.rules import load_ruleset
from engine.rules.model import compile_model


class StaleProgram(RuntimeError):
    """The ruleset changed since the program was written."""


def footer(ref: str, overlays, ruleset_hash: str) -> str:
    """The lines ending a written program: bind its constants when imported (the ids
    as string literals, through `repr`: data, not code)."""
    return (
        "\n# Imported as a file, the module binds its constants from its ruleset\n"
        "# (the engine must be installed, and the ruleset unchanged: same hash).\n"
        "from engine.program.bind import constants as _constants  # noqa: E402\n"
        f"globals().update(_constants({ref!r}, {tuple(overlays)!r}, {ruleset_hash!r}))\n"
    )


def constants(ref: str, overlays, ruleset_hash: str) -> dict:
    """The namespace a written program's functions read (`program.namespace`)."""
    ruleset = load_ruleset(ref, tuple(overlays))
    if ruleset.hash != ruleset_hash:
        raise StaleProgram(f"`{ref}` changed since this program was written (hash"
                           f" {ruleset.hash[:12]}, not {ruleset_hash[:12]}): compile it again")
    model, diagnostics = compile_model(ruleset)
    if model is None:
        raise StaleProgram("\n".join(map(str, diagnostics)))
    names = namespace(make_plan(Game(model)))
    names.pop("__builtins__", None)  # (a module keeps its own)
    return names
