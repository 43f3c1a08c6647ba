"""A context like a scoring rule's: the names, their types, and values for them."""

from __future__ import annotations

from types import SimpleNamespace as Obj

from engine.diagnostics import Position
from engine.expr import compile_expression
from engine.expr import types as T

PLAYER = T.Record("player", {"index": T.INT, "score": T.INT, "hand_count": T.INT,
                             "hand_value": T.INT, "won_last_round": T.BOOL})
LINE = T.Record("line", {"length": T.INT, "sum": T.INT, "new": T.BOOL})
SLOT = T.Record("slot", {"tags": T.ListOf(T.STR), "row": T.INT})
MOVE = T.Record("move", {"hexagons": T.INT, "bridges": T.INT, "value": T.INT, "edges": T.INT,
                         "opening": T.BOOL, "lines": T.ListOf(LINE), "slot": SLOT})
ROUND = T.Record("round", {"number": T.INT, "reason": T.STR})
ENV = {"player": PLAYER, "players": T.ListOf(PLAYER), "opponents": T.ListOf(PLAYER),
       "move": MOVE, "round": ROUND, "can_place": T.BOOL}

START = Position("rules.yaml", 7, 13)


def make_values() -> dict:
    """Values worked out by hand in the tests: opponents hold 12 and 7 points."""
    me = Obj(index=0, score=390, hand_count=0, hand_value=0, won_last_round=True)
    others = [Obj(index=1, score=120, hand_count=4, hand_value=12, won_last_round=False),
              Obj(index=2, score=405, hand_count=2, hand_value=7, won_last_round=False)]
    move = Obj(hexagons=2, bridges=1, value=11, edges=2, opening=False,
               lines=[Obj(length=3, sum=15, new=True), Obj(length=2, sum=9, new=False),
                      Obj(length=3, sum=12, new=False)],
               slot=Obj(tags=["peak", "top"], row=0))
    return {"player": me, "players": [me] + others, "opponents": others, "move": move,
            "round": Obj(number=3, reason="went_out"), "can_place": False}


def compile_ok(text, expected=None, definitions=None, env=ENV):
    """Compile, insisting there are no diagnostics."""
    expr, problems = compile_expression(text, env, START, expected, definitions)
    assert problems == [] and expr is not None, problems
    return expr


def problems_of(text, expected=None, definitions=None, env=ENV, pos=START):
    expr, problems = compile_expression(text, env, pos, expected, definitions)
    assert expr is None and problems
    return problems
