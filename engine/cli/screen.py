"""The play screen: a rich `Console` in colour on a terminal, plain text otherwise.

Drawings come from the board kinds as (text, style) runs (`engine.topology.styled`);
this module gives the style names their look. `NO_COLOR`, `TERM=dumb`, `--no-color` and
an output that is not a terminal all give plain text, without a single escape sequence.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.theme import Theme

from engine.diagnostics import printable
from engine.topology.styled import piece_label, piece_style

THEME = Theme({
    "piece": "bold", "last": "bold black on yellow", "empty": "dim", "axis": "dim cyan",
    "open": "dim", "hidden": "blue", "red": "bold red", "black": "bold",
    "mark1": "cyan", "mark2": "magenta", "mark3": "green", "mark4": "bold yellow",
    "mark5": "blue", "mark6": "red",
    "title": "bold", "you": "bold green", "turn": "bold yellow", "gain": "green",
    "loss": "red", "note": "dim", "problem": "yellow",
})


def wants_colour(no_color: bool, stream=None) -> bool:
    """Colour only on a terminal, and not when `NO_COLOR` (https://no-color.org),
    `TERM=dumb` or `--no-color` says no."""
    stream = stream if stream is not None else sys.stdout
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Screen:
    """Where a game at the terminal is drawn: stdout, or stderr when stdout carries JSON."""

    def __init__(self, styled: bool, err: bool = False, file=None):
        self.styled = styled
        self.err = err
        self.console = Console(theme=THEME, color_system="auto" if styled else None,
                               force_terminal=styled or None, highlight=False, markup=False,
                               emoji=False, stderr=err, soft_wrap=True, file=file)

    def say(self, text: str | Text = "", style: str | None = None) -> None:
        """One line (or a rich Text) in a style; control characters from a ruleset or a
        record are written as escapes (rich would pass ESC to the terminal)."""
        if isinstance(text, Text):
            if printable(text.plain) != text.plain:  # rare: give up the styles, not safety
                text = Text(printable(text.plain))
        else:
            text = printable(text)
        self.console.print(text, style=style)

    def runs(self, lines: Sequence[Sequence[tuple]]) -> None:
        """A drawing made of (text, style) runs."""
        for line in lines:
            self.console.print(Text.assemble(*[(printable(t), s or "") for t, s in line]))

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]],
              title: str | None = None) -> None:
        """Rows under headers: boxed in colour, columns of plain text otherwise."""
        table = Table(*headers, title=title, box=box.SIMPLE_HEAD if self.styled else None,
                      show_edge=False, pad_edge=False, title_justify="left",
                      header_style="bold" if self.styled else "")
        for row in rows:
            table.add_row(*(printable(cell) for cell in row))
        self.console.print(table)

    def height(self) -> int:
        """The terminal's height in lines (24 when it cannot tell)."""
        return shutil.get_terminal_size((80, 24)).lines

    def width(self) -> int:
        """The terminal's width in columns (80 when it cannot tell)."""
        return shutil.get_terminal_size((80, 24)).columns


def piece_text(piece, screen: Screen) -> Text:
    """A piece's name in its colour (a card's suit as a symbol on a styled screen)."""
    return Text(piece_label(piece, screen.styled), style=piece_style(piece))


def points_text(points: int, width: int = 0) -> Text:
    """`+13` in green, `-5` in red, `+0` plain (right-aligned in `width`)."""
    return Text(f"{points:+{width}d}", style="gain" if points > 0 else "loss" if points < 0 else "")
