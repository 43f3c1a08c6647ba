"""The cost of evaluating compiled expressions against the same formulas written by hand.

Run: `python benchmarks/bench_expr.py`. Prints, per formula, nanoseconds per evaluation
for the hand-written Python function, the generated code (what `compile_expression`
returns) and the closure backend (`engine.expr.closures`), and the ratios.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path
from types import SimpleNamespace as Obj

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.diagnostics import Position  # noqa: E402
from engine.expr import compile_expression  # noqa: E402
from engine.expr import types as T  # noqa: E402
from engine.expr.checker import Checker  # noqa: E402
from engine.expr.closures import compile_closures  # noqa: E402
from engine.expr.definitions import mapping  # noqa: E402
from engine.expr.parser import parse  # noqa: E402

PLAYER = T.Record("player", {"hand_value": T.INT, "score": T.INT, "won_last_round": T.BOOL})
LINE = T.Record("line", {"length": T.INT, "sum": T.INT, "new": T.BOOL})
CELL = T.Record("cell", {"multiplier": T.INT, "value": T.INT, "max_line": T.INT, "extra_turn": T.BOOL})
MOVE = T.Record("move", {"hexagons": T.INT, "value": T.INT, "lines": T.ListOf(LINE),
                         "placed": T.ListOf(CELL), "count": T.INT})
CARD = T.Record("card", {"rank": T.INT})
PILE = T.Record("pile", {"top": CARD, "count": T.INT})
ENV = {"opponents": T.ListOf(PLAYER), "players": T.ListOf(PLAYER), "player": PLAYER,
       "move": MOVE, "card": CARD, "pile": PILE}

VALUES = {
    "opponents": [Obj(hand_value=12, score=80, won_last_round=False), Obj(hand_value=7, score=120, won_last_round=False)],
    "players": [Obj(hand_value=0, score=300, won_last_round=True), Obj(hand_value=12, score=80, won_last_round=False),
                Obj(hand_value=7, score=420, won_last_round=False)],
    "player": Obj(hand_value=4, score=300, won_last_round=True),
    "move": Obj(hexagons=1, value=11, count=3,
                lines=[Obj(length=3, sum=15, new=True), Obj(length=2, sum=9, new=True)],
                placed=[Obj(multiplier=2, value=5, max_line=3, extra_turn=False),
                        Obj(multiplier=1, value=4, max_line=2, extra_turn=True),
                        Obj(multiplier=3, value=6, max_line=3, extra_turn=False)]),
    "card": Obj(rank=5), "pile": Obj(top=Obj(rank=6), count=10),
}

FORMULAS = [
    ("25 + sum(p.hand_value for p in opponents)",
     lambda v: 25 + sum(p.hand_value for p in v["opponents"])),
    ("if move.hexagons > 0 then 50 * move.hexagons else 0",
     lambda v: 50 * v["move"].hexagons if v["move"].hexagons > 0 else 0),
    ("50 * move.hexagons", lambda v: 50 * v["move"].hexagons),
    ("abs(card.rank - pile.top.rank) == 1 or abs(card.rank - pile.top.rank) == 12",
     lambda v: abs(v["card"].rank - v["pile"].top.rank) == 1 or abs(v["card"].rank - v["pile"].top.rank) == 12),
    ("sum(if l.length == 3 then 30 else l.sum for l in move.lines)",
     lambda v: sum(30 if l.length == 3 else l.sum for l in v["move"].lines)),
    ("sum((p.multiplier - 1) * (if p.max_line == 3 then 30 else p.value) for p in move.placed)",
     lambda v: sum((p.multiplier - 1) * (30 if p.max_line == 3 else p.value) for p in v["move"].placed)),
    ("any(p.score >= 400 for p in players)", lambda v: any(p.score >= 400 for p in v["players"])),
]


def per_call_ns(functions, number: int, rounds: int = 7) -> list[float]:
    """Best time per call of each function; rounds interleave them, so that a busy
    machine slows all of them alike."""
    best = [float("inf")] * len(functions)
    for _ in range(rounds):
        for i, function in enumerate(functions):
            elapsed = timeit.timeit(lambda: function(VALUES), number=number)
            best[i] = min(best[i], elapsed / number * 1e9)
    return best


def closures_for(text: str):
    checker = Checker(ENV, {}, mapping(text, Position("bench")))
    return compile_closures(checker.check_root(parse(text), None))


def main(number: int = 100_000) -> None:
    print(f"{'formula':62} {'hand ns':>8} {'gen ns':>8} {'gen/hand':>8} {'clos ns':>8} {'clos/hand':>9}")
    gen_ratios, clos_ratios = [], []
    for text, hand in FORMULAS:
        expr, problems = compile_expression(text, ENV, Position("bench"))
        assert expr is not None, problems
        closures = closures_for(text)
        assert expr.evaluate(VALUES) == hand(VALUES) == closures(VALUES)
        h, g, c = per_call_ns([hand, expr.evaluate, closures], number)
        gen_ratios.append(g / h)
        clos_ratios.append(c / h)
        short = text if len(text) <= 60 else text[:57] + "..."
        print(f"{short:62} {h:8.0f} {g:8.0f} {g / h:8.2f} {c:8.0f} {c / h:9.2f}")
    print(f"generated code: {min(gen_ratios):.2f}x to {max(gen_ratios):.2f}x the hand-written cost; "
          f"closures: {min(clos_ratios):.2f}x to {max(clos_ratios):.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
