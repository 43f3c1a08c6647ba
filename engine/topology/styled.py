"""Board drawings as styled text: lines of (text, style) runs.

A drawing names what each run is (`piece`, `last`, `mark1`, `hidden`, `red`...), never
how it looks: the terminal layer maps these names to colours, and the plain text is the
runs' text alone. `symbols` asks for the terminal's glyphs (suit symbols) in place of
the ASCII forms that records and typed moves use.
"""

from __future__ import annotations

from typing import Iterable, Sequence

Run = tuple[str, "str | None"]
Line = list[Run]

# The style names a drawing may use (the terminal layer gives each a look).
STYLES = ("piece", "last", "empty", "axis", "open", "hidden", "red", "black",
          "mark1", "mark2", "mark3", "mark4", "mark5", "mark6")

# Standard suit letters of a `deck` component and their symbols.
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def plain(lines: Iterable[Sequence[Run]]) -> str:
    """The drawing's text without its styles, lines joined, trailing spaces removed."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines)


def from_text(text: str) -> list[Line]:
    """Unstyled lines, for a kind that draws only plain text."""
    return [[(line, None)] for line in text.splitlines()]


def piece_label(piece, symbols: bool = False) -> str:
    """A piece's name; with `symbols`, a card's suit letter as its symbol (`A♥`)."""
    suit = getattr(piece, "suit", None)
    name = piece.name
    if symbols and isinstance(suit, str) and name.endswith(suit) and suit in SUIT_SYMBOLS:
        return name[: -len(suit)] + SUIT_SYMBOLS[suit]
    return name


def piece_style(piece) -> str:
    """`red` or `black` for a card with a colour field, else `piece`."""
    colour = getattr(piece, "colour", None)
    return colour if colour in ("red", "black") else "piece"
