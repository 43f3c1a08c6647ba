"""The `rulecraft` command line. Each command lives in its own module of this package."""

from __future__ import annotations

import importlib

from engine.cli.app import app
from engine.cli.options import finish_commands

# One module per command group; each registers its commands on `app` when imported.
_COMMAND_MODULES: tuple[str, ...] = (
    "lint", "catalog", "names", "play", "simulate", "moves", "replay", "solve", "analysis",
    "render", "serve", "results", "agents", "compile",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(f"engine.cli.{_name}")
finish_commands()  # --rulesets and the examples, on every command


def main() -> None:
    """Entry point of the `rulecraft` console script and of `python -m engine`."""
    import sys

    from engine.cli.app import output_failure, silence_stdout

    try:
        app()
    finally:
        # Output still buffered when the command ends is written here: a full disk or a
        # closed pipe is reported in one line, not by the interpreter's own words.
        try:
            sys.stdout.flush()
        except OSError as exc:
            silence_stdout()
            failure = output_failure(exc)
            if failure != "":  # a closed pipe (`| head`) is on purpose: nothing to say
                print(failure or f"error: cannot write the output: {exc.strerror}",
                      file=sys.stderr)
            sys.exit(1)
