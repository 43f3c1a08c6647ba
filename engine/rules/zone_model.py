"""The parts of a model that zones add: each zone's `accepts:` compiled, and the
warning for a zone's top read where the zone may be empty (R498)."""

from __future__ import annotations

from engine.expr.types import BOOL
from engine.rules.zones import check_tops, zones_that_may_empty


def finish_zones(builder, model) -> None:
    """Compile every `accepts:`, put the zone table on the model, warn of unguarded tops."""
    table = builder.zone_table
    given = builder.data.get("zones") or {}
    for key, zone in table.zones.items():
        source = (given.get(key) or {}).get("accepts")
        if source is not None:
            zone.accepts = builder.expr(source, builder.types.accepts(), ("zones", key, "accepts"),
                                        BOOL)
    model.zones = table
    moves = [a.move for a in model.actions if a.move is not None]
    dealt = {to for to, _ in model.deal}
    kinds = {a.kind for a in model.actions}
    may_empty = zones_that_may_empty(table, moves, kinds, dealt)
    check_tops(table, list(_expression_texts(builder.data)), may_empty, builder.report)


def _expression_texts(data):
    """(text, path) of every string that may be an expression: guards, points, updates."""
    for name, spec in (data.get("actions") or {}).items():
        spec = spec or {}
        if isinstance(spec.get("if"), str):
            yield spec["if"], ("actions", name, "if")
        for counter, text in (spec.get("then") or {}).items():
            if isinstance(text, str):
                yield text, ("actions", name, "then", counter)
    for name, spec in (data.get("scoring") or {}).items():
        for part in ("if", "points"):
            if isinstance((spec or {}).get(part), str):
                yield spec[part], ("scoring", name, part)
    for name, spec in ((data.get("round") or {}).get("end") or {}).items():
        if isinstance((spec or {}).get("if"), str):
            yield spec["if"], ("round", "end", name, "if")
    for name, text in (data.get("define") or {}).items():
        if isinstance(text, str):
            yield text, ("define", name)
    for key, spec in (data.get("zones") or {}).items():
        if isinstance((spec or {}).get("accepts"), str):
            yield spec["accepts"], ("zones", key, "accepts")
