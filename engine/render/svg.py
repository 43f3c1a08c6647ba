"""Writing SVG text: elements with escaped attributes and text, and a picture's frame.

Only standard SVG 1.1 elements and attributes are written, so that any viewer (and an XML
parser) reads the result. Classes name what a shape shows (`cell`, `piece`, `target`,
`highlight`, `last`) so that a style sheet or a test can find it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

SVG_NS = "http://www.w3.org/2000/svg"

# The built-in look; a ruleset's `display.colours` overrides any of these by name.
COLOURS = {
    "background": "#f4f1e8",
    "ink": "#222222",
    "tile": "#fffdf6",
    "tile_edge": "#5a4a32",
    "open": "#b8ad94",
    "target": "#2e8b57",
    "highlight": "#e0a100",
    "last": "#1e6fd9",
    "back": "#3b5b92",
    "red": "#c0392b",
    "black": "#1b1b1b",
    "grid": "#c9bfa6",
    "cell": "#ece6d4",
}


def attrs_text(attrs: dict) -> str:
    """` a="1" b="x"`: keys with `_` written as `-`, a trailing `_` dropped (`class_`)."""
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        out.append(f" {name}={quoteattr(str(value))}")
    return "".join(out)


def el(tag: str, body: str = "", **attrs) -> str:
    """One element; `body` is SVG text already (use `text` for words)."""
    head = f"<{tag}{attrs_text(attrs)}"
    return f"{head}>{body}</{tag}>" if body else f"{head}/>"


def text(x: float, y: float, words: object, **attrs) -> str:
    """A `<text>` centred on (x, y) unless `text_anchor` says otherwise."""
    attrs.setdefault("text_anchor", "middle")
    attrs.setdefault("dominant_baseline", "central")
    return el("text", escape(str(words)), x=float(x), y=float(y), **attrs)


def group(items: list[str], **attrs) -> str:
    """A `<g>` of items."""
    return el("g", "".join(items), **attrs)


@dataclass
class Picture:
    """A part of the drawing: its SVG body and its size in pixels."""

    width: float
    height: float
    body: list[str] = field(default_factory=list)


# Marks as a style sheet: a style rule outranks the shapes' own presentation attributes.
_CSS = (".target polygon, .target rect {stroke: %(target)s; stroke-width: 3; stroke-dasharray: none}"
        " .last polygon, .last rect {stroke: %(last)s; stroke-width: 3.5}"
        " .highlight polygon, .highlight rect {stroke: %(highlight)s; stroke-width: 4;"
        " stroke-dasharray: none}"
        " .selected polygon, .selected rect {stroke: %(highlight)s; stroke-width: 4}")


def document(parts: list[tuple[float, float, Picture]], colours: dict, title: str) -> str:
    """The whole SVG: each part translated to its (x, y), on the background."""
    width = max((x + p.width for x, _, p in parts), default=10) + 10
    height = max((y + p.height for _, y, p in parts), default=10) + 10
    body = [el("title", escape(title)), el("style", _CSS % colours),
            el("rect", x=0, y=0, width=float(width), height=float(height),
               fill=colours["background"], class_="background")]
    for x, y, part in parts:
        body.append(group(part.body, transform=f"translate({x:.1f},{y:.1f})"))
    return (f'<svg xmlns="{SVG_NS}" version="1.1" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'
            + "".join(body) + "</svg>\n")
