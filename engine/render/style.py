"""A ruleset's display hints (`display:`), read once per drawing, with built-in defaults.

```yaml
display:
  colours: {background: "#eef", back: "#335"}   # any name of engine.render.svg.COLOURS
  cells: {"2": {label: "x2", colour: "#f6c"}}    # a square board's legend marks
  suits: {h: {symbol: "♥", colour: red}}         # a card's suit (letter) as drawn
  piece_label: value                            # the attribute written on a token
```
None is needed: without hints, colours are the built-in ones, a legend mark is labelled by
itself and coloured from a fixed palette, and the usual suit letters get their symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from engine.render.svg import COLOURS

# The suit letters of the `deck` component generator and their usual symbols.
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
# Legend marks of a square board, coloured in the order the legend lists them.
PALETTE = ("#f2b8b5", "#b5d3f2", "#c8e6b0", "#f6d38b", "#d9c2f0", "#a8e0dc")


@dataclass
class Style:
    """Colours and labels for one drawing."""

    colours: dict = field(default_factory=lambda: dict(COLOURS))
    cells: dict = field(default_factory=dict)  # legend mark -> {label, colour}
    suits: dict = field(default_factory=dict)  # suit letter -> {symbol, colour}
    piece_label: str = "value"

    def suit_symbol(self, suit: str) -> str:
        """How a suit is drawn: the hint's symbol, the usual one, or the letter itself."""
        return str(self.suits.get(suit, {}).get("symbol") or SUITS.get(suit, suit))

    def suit_colour(self, suit: str, colour: str) -> str:
        """The ink of a suit: the hint's colour, else the card's own colour (red/black)."""
        named = self.suits.get(suit, {}).get("colour") or colour
        return self.colours.get(named, named)


def read_style(data: Mapping | None) -> Style:
    """The style a resolved ruleset's data asks for (its `display` section, if any)."""
    hints = (data or {}).get("display") or {}
    style = Style()
    style.colours.update({str(k): str(v) for k, v in (hints.get("colours") or {}).items()})
    style.cells = {str(k): dict(v or {}) for k, v in (hints.get("cells") or {}).items()}
    style.suits = {str(k): dict(v or {}) for k, v in (hints.get("suits") or {}).items()}
    style.piece_label = str(hints.get("piece_label") or "value")
    return style
