"""The `rulecraft` command line. Each command lives in its own module of this package."""

from __future__ import annotations

import importlib

from engine.cli.app import app

# One module per command group; each registers its commands on `app` when imported.
_COMMAND_MODULES: tuple[str, ...] = (
    "lint", "catalog", "names", "play", "simulate", "moves", "replay", "solve", "analysis",
    "agents",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(f"engine.cli.{_name}")


def main() -> None:
    """Entry point of the `rulecraft` console script and of `python -m engine`."""
    app()
