"""The older action kinds as long forms of `move`, read and checked.

A `move` action written as `place`, `pass` or `exchange` in long form compiles to that
kind's own internal action, so that each operation has one code path in the kernel:

- `{kind: move, from: hand, to: board}`: a placement (the board kind's matching and
  measures say where, and what `move.<measure>` scoring rules read);
- `{kind: move, count: 0}`: a move of no pieces, a pass;
- `{kind: move, from: hand, to: pool, at: random, redraw: true, count: {up_to: n}}`: the
  pieces go back into the pool at random places (a recorded chance outcome), and as
  many are drawn: an exchange.

`play`, `deal` and `draw` are moves between zones and the board's exposed pieces, which
the general move carries out itself (`engine.kernel.general_move`). Any other `move`
is left to `engine.rules.zones.read_move`.
"""

from __future__ import annotations

from typing import Callable, Mapping

from engine.diagnostics import define
from engine.rules.zones import R_MOVE, ZoneTable
from engine.topology import BOARD_KINDS

R_TO_BOARD = define(
    "R492", "move-to-board", "a `move` to `board` that the board kind cannot place, or not from the hand"
)
R_MOVE_OPTION = define(
    "R493", "bad-move-option",
    "a `move` option (`at`, `redraw`, a placement or zone option) where it has no meaning",
)

#: the keys only a move between zones reads (a placement or a pass never does)
ZONE_OPTIONS = ("run", "flip", "reach")
#: the keys of a placement (`place` and `to: board`), which a move between zones ignores
PLACE_OPTIONS = ("contact", "window", "first_play", "jokers", "lines")
#: the keys of the long form itself, not passed on to the kind it compiles to
LONG_FORM_KEYS = ("kind", "from", "to", "at", "redraw")
AT = ("top", "random")

Report = Callable[..., None]  # report(code, message, path, help=None)


def read_long_form(name: str, spec: Mapping, table: ZoneTable, topology,
                   report: Report) -> tuple[str, Mapping] | None:
    """(the internal kind, its spec) of a `move` action: `place`, `pass` or `exchange`
    when it is one written long, else `move` and the spec as written; None (and a
    report) when a long form is written wrong."""
    path = ("actions", name)
    at = spec.get("at", "top")
    if at not in AT:
        report(R_MOVE_OPTION, f"action `{name}` has `at: {at}`", path + ("at",),
               "`at: top` (the default: the pieces go on top) or `at: random` (into the"
               " pool at random places, with `redraw: true`)")
        return None
    if spec.get("count") == 0:
        return _pass(name, spec, path, report)
    if spec.get("to") == "board":
        return _place(name, spec, table, topology, path, report)
    if at == "random" or spec.get("redraw"):
        return _exchange(name, spec, table, path, report)
    for key in PLACE_OPTIONS + ("max",):
        if key in spec:
            report(R_MOVE_OPTION, f"action `{name}` moves to a zone and has `{key}:`, which"
                   " only a placement on the board reads", path + (key,),
                   "remove it (or move `to: board`)" if key != "max"
                   else "give the number of pieces as `count: {up_to: n}`")
            return None
    return "move", spec


def intended_kind(spec: Mapping) -> str:
    """The kind a `move` action reads as, right or not (for what its scoring rules see)."""
    if spec.get("count") == 0:
        return "pass"
    if spec.get("to") == "board":
        return "place"
    if spec.get("at") == "random" or spec.get("redraw"):
        return "exchange"
    return "move"


def _short(kind: str, spec: Mapping, drop: tuple = ()) -> dict:
    """The spec of the internal kind: the long form's own keys left out."""
    out = {k: v for k, v in spec.items() if k not in LONG_FORM_KEYS + drop}
    out["kind"] = kind
    return out


def _misplaced(name: str, spec: Mapping, keys: tuple, what: str, path: tuple,
               report: Report) -> bool:
    """Report the first of `keys` that `spec` has (they mean nothing for `what`)."""
    for key in keys:
        if key in spec and spec[key] not in (None, False):
            help = (f"remove `{key}:`: it has no meaning for {what}" if key != "max" else
                    "give the number of pieces as `count:` (and `$delete: [max]` where a"
                    " base ruleset wrote `max:`)")
            report(R_MOVE_OPTION, f"action `{name}` is {what} and has `{key}:`",
                   path + (key,), help)
            return True
    return False


def _pass(name: str, spec: Mapping, path: tuple, report: Report):
    """`count: 0`: a move of no pieces, which goes nowhere (a pass)."""
    for key in ("from", "to"):
        if key in spec:
            report(R_MOVE, f"action `{name}` moves no pieces (`count: 0`) and has `{key}:`",
                   path, "a move of no pieces is a pass: drop `from:` and `to:`"
                   " (or give `count:` 1 or more)", fields=("count", key))
            return None
    if _misplaced(name, spec, ZONE_OPTIONS + PLACE_OPTIONS + ("redraw", "max"),
                  "a move of no pieces", path, report):
        return None
    if spec.get("at", "top") != "top":
        report(R_MOVE_OPTION, f"action `{name}` moves no pieces and has `at: {spec['at']}`",
               path + ("at",), "remove `at:`: a move of no pieces goes nowhere")
        return None
    return "pass", _short("pass", spec, ("count",))


def _sources(spec: Mapping, table: ZoneTable) -> list:
    """The zone keys a move's `from:` names (`board`, or None for an unknown name)."""
    given = spec.get("from")
    given = [given] if isinstance(given, str) else list(given or [])
    found = []
    for source in given:
        zone = table.find(str(source)) if source != "board" else None
        found.append("board" if source == "board" else (zone.key if zone else None))
    return found


def _place(name: str, spec: Mapping, table: ZoneTable, topology, path: tuple,
           report: Report):
    """`to: board`: pieces from the hand laid where the board kind says (a `place`)."""
    if "place" not in topology.actions:
        report(R_TO_BOARD, f"action `{name}` moves to the board, and the `{topology.kind}`"
               " board kind places no pieces", path + ("to",),
               "move to a zone (`to: pile`), or use a board kind that places pieces"
               f" ({_placing_kinds()})")
        return None
    if _sources(spec, table) != ["hand"]:
        given = f"from `{spec['from']}`" if "from" in spec else "without a `from:`"
        report(R_TO_BOARD, f"action `{name}` moves to the board {given}; pieces are placed"
               " from the hand", path, "`from: hand`",
               fields=("from",) if "from" in spec else ("to", "kind"))
        return None
    if _misplaced(name, spec, ZONE_OPTIONS + ("redraw", "max"), "a placement", path, report):
        return None
    if spec.get("at", "top") != "top":
        report(R_MOVE_OPTION, f"action `{name}` is a placement and has `at: {spec['at']}`",
               path + ("at",), "the board kind says where a piece goes: remove `at:`")
        return None
    return "place", _short("place", spec)


def _placing_kinds() -> str:
    """The board kinds that place pieces, for a help line."""
    return ", ".join(f"`{k}`" for k, cls in sorted(BOARD_KINDS.items()) if "place" in cls.actions)


def _exchange(name: str, spec: Mapping, table: ZoneTable, path: tuple, report: Report):
    """`at: random, redraw: true`: pieces of the hand back into the pool at random places,
    as many drawn (an `exchange` of 1 to n pieces)."""
    wrong = _not_an_exchange(spec, table)
    if wrong is not None:
        key, why = wrong
        report(R_MOVE_OPTION, f"action `{name}` has `at: random` or `redraw:`, which only an"
               f" exchange has (a move from the hand into the pool that draws as many back),"
               f" and {why}", path,
               "write `{kind: move, from: hand, to: pool, at: random, redraw: true,"
               " count: {up_to: 3}}`, or drop `at:` and `redraw:`",
               fields=(key,) if key in spec else ("at", "redraw"))
        return None
    if _misplaced(name, spec, ZONE_OPTIONS + PLACE_OPTIONS + ("max",), "an exchange", path,
                  report):
        return None
    most = _exchange_count(spec.get("count"))
    if most is None:
        report(R_MOVE_OPTION, f"action `{name}` exchanges `count: {spec.get('count')}`"
               " pieces", path + ("count",),
               "an exchange takes 1 to n pieces: `count: {up_to: n}` or `{min: 1, max: n}`")
        return None
    short = _short("exchange", spec, ("count",))
    short["max"] = most
    return "exchange", short


def _not_an_exchange(spec: Mapping, table: ZoneTable) -> tuple[str, str] | None:
    """(the key, what is wrong) when `spec` is not quite an exchange's long form."""
    target = table.find(str(spec.get("to", "")))
    if _sources(spec, table) != ["hand"]:
        return "from", f"it moves from `{spec.get('from')}`, not from the hand"
    if target is None or target.key != "pool":
        return "to", f"it moves to `{spec.get('to')}`, not to the pool"
    if spec.get("at") != "random":
        return "at", "the pieces do not go in at random places (`at: random`)"
    if not spec.get("redraw"):
        return "redraw", "none are drawn back (`redraw: true`)"
    return None


def _exchange_count(count) -> int | None:
    """The most pieces an exchange's `count:` allows (1 to that many), or None."""
    if isinstance(count, Mapping) and set(count) == {"up_to"}:
        most = count["up_to"]
    elif isinstance(count, Mapping) and count.get("min") == 1 and set(count) == {"min", "max"}:
        most = count["max"]
    else:
        return None
    return most if isinstance(most, int) and most >= 1 else None
