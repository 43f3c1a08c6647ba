"""Ruleset references with overlays written inline: `id+overlay1+overlay2`."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence


def split_spec(spec: str, extra: Sequence[str] = ()) -> tuple[str, list[str]]:
    """`"game/house+overlay"` -> `("game/house", ["overlay"])`, then `extra` overlays.

    A spec that names an existing file is taken whole, so a path may contain `+`.

    >>> split_spec("game/house+short-match", ["no-bonus"])
    ('game/house', ['short-match', 'no-bonus'])
    """
    if "+" not in spec or Path(spec).exists():
        return spec, list(extra)
    ref, *overlays = [part.strip() for part in spec.split("+")]
    return ref, [o for o in overlays if o] + list(extra)


def spec_name(ref: str, overlays: Sequence[str]) -> str:
    """The inverse of `split_spec`: how a ruleset with overlays is named in reports."""
    return "+".join([ref, *overlays])
