"""Checks of a ruleset's `display` hints beyond their shape (the schema checks that): a
hint must name something the ruleset has, or it would silently do nothing."""

from __future__ import annotations

from engine.diagnostics import Severity, define

R_DISPLAY = define("R491", "display-names-nothing",
                   "a `display` hint names a board mark or piece attribute the ruleset lacks",
                   Severity.WARNING)


def check_display(data: dict, pieces, report) -> None:
    """R491 for `display.cells` keys that are no mark of `board.cells`, and a
    `display.piece_label` that no piece has."""
    hints = data.get("display") or {}
    if not isinstance(hints, dict):
        return
    marks = {str(k) for k in ((data.get("board") or {}).get("cells") or {})}
    for mark in hints.get("cells") or {}:
        if str(mark) not in marks:
            known = ", ".join(f"`{m}`" for m in sorted(marks)) or "none"
            report(R_DISPLAY, f"`display.cells` names the mark `{mark}`, which `board.cells`"
                   " does not have", ("display", "cells", mark), f"the marks are: {known}")
    label = hints.get("piece_label")
    if label and label != "name" and not any(hasattr(p, str(label)) for p in pieces):
        report(R_DISPLAY, f"`display.piece_label` is `{label}`, an attribute no piece has",
               ("display", "piece_label"), "use `value`, `name` or another attribute of the pieces")
