"""The `zones:` section and the `move` action kind, read and checked.

A zone is a named place pieces lie in: shared, one per player (`owner: player`) or a
row of several (`count: 7`); drawn as a `stack` (its top shows), a `row` or a `fan`;
its pieces `face: up`, `down` or `top` (only the top face up); seen by everyone as
their faces say (`visible: faces`), by everyone whatever the faces (`all`), by the
owner alone (`owner`) or by nobody (`none`). `pool`, `hand` and `pile` are three
zones every ruleset has. A `move` action takes pieces from named sources to a zone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.diagnostics import Severity, define

R_ZONE = define("R495", "bad-zone", "a zone's description has a value the engine does not know")
R_ZONE_NAME = define("R496", "unknown-zone", "a move or a deal names a zone that is not declared")
R_MOVE = define("R497", "bad-move", "a `move` action's `count`, `from` or `to` cannot be carried out")
R_UNGUARDED = define(
    "R498", "unguarded-top", "the top of a zone that can be empty is read without a guard",
    Severity.WARNING,
)

#: the zones every ruleset has, and how their pieces lie unless the ruleset says otherwise
BUILTIN = {
    "pool": {"face": "down", "visible": "faces", "shape": "stack"},
    "pile": {"face": "up", "visible": "faces", "shape": "stack"},
    "hand": {"face": "up", "visible": "owner", "shape": "row", "owner": "player"},
}
SHAPES = ("stack", "row", "fan")
FACES = ("up", "down", "top")
VISIBILITY = ("faces", "all", "owner", "none")
OWNERS = ("shared", "player")
OUT = "out"  # `to: out`: out of play (a zone of that name, made if none is declared)


@dataclass
class ZoneSpec:
    """One declared zone."""

    key: str
    label: str
    count: int | None = None  # None: one zone; N: a row of N zones, `zones.<key>[i]`
    owner: str = "shared"
    shape: str = "stack"
    face: str = "up"
    visible: str = "faces"
    accepts: Any = None  # compiled later (an expression over `move` and `zone`)
    builtin: bool = False

    @property
    def is_list(self) -> bool:
        """Whether expressions see it as a list of zones (a row of them, or one per player)."""
        return self.count is not None or self.owner == "player"

    def size(self, players: int) -> int:
        """How many zones of this name a game of `players` has."""
        if self.owner == "player":
            return players
        return 1 if self.count is None else self.count


@dataclass
class MoveSpec:
    """What a `move` action takes, from where, to where."""

    sources: tuple[str, ...]  # zone keys, or `board` (its exposed pieces)
    target: str  # a zone key
    mode: str = "pick"  # pick: k separate pieces | run: the top k of one zone | pack
    low: int = 1
    high: int = 1  # pack: at most this many (0: all)
    flip: bool = False  # the pieces are turned over as a pack (their order reversed)
    reach: int = 0  # board pieces under at most this many others, taken with them


@dataclass
class ZoneTable:
    """Every zone of a ruleset by key, the aliases (display names) that also name them."""

    zones: dict[str, ZoneSpec] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def find(self, name: str) -> ZoneSpec | None:
        """The zone a ruleset names by key or display name."""
        key = name if name in self.zones else self.aliases.get(name)
        return None if key is None else self.zones[key]

    def extra(self) -> list[ZoneSpec]:
        """The zones beyond `pool`, `hand` and `pile`."""
        return [z for z in self.zones.values() if not z.builtin]


Report = Callable[..., None]  # report(code, message, path, help=None)


def read_zones(data: Mapping, report: Report) -> ZoneTable:
    """The zone table of a resolved ruleset (`zones:`, with the three built-in zones)."""
    table = ZoneTable()
    given = data.get("zones") or {}
    for key in list(BUILTIN) + [k for k in given if k not in BUILTIN]:
        spec = dict(BUILTIN.get(key, {}))
        spec.update({k: v for k, v in (given.get(key) or {}).items()})
        zone = _zone(key, spec, report)
        table.zones[key] = zone
        if zone.label != key:
            table.aliases.setdefault(zone.label, key)
    actions = data.get("actions") or {}
    if any((a or {}).get("to") == OUT for a in actions.values() if isinstance(a, Mapping)):
        table.zones.setdefault(OUT, ZoneSpec(OUT, OUT))
    return table


def _zone(key: str, spec: Mapping, report: Report) -> ZoneSpec:
    path = ("zones", key)
    zone = ZoneSpec(key, str(spec.get("name", key)), builtin=key in BUILTIN)
    if spec.get("visible") is True:  # (the older form: every player sees the pieces)
        spec = {**spec, "visible": "all"}
    elif spec.get("visible") is False:
        spec = {**spec, "visible": BUILTIN.get(key, {}).get("visible", "none")}
    for name, allowed in (("shape", SHAPES), ("face", FACES), ("visible", VISIBILITY),
                          ("owner", OWNERS)):
        value = spec.get(name, getattr(zone, name))
        if value not in allowed:
            report(R_ZONE, f"zone `{key}` has `{name}: {value}`", path + (name,),
                   f"one of: {', '.join(allowed)}")
        else:
            setattr(zone, name, value)
    count = spec.get("count")
    if count is not None:
        if zone.builtin or zone.owner == "player" or not isinstance(count, int) or count < 1:
            report(R_ZONE, f"zone `{key}` has `count: {count}`", path + ("count",),
                   "`count` is a number of 1 or more, for a shared zone the ruleset declares")
        else:
            zone.count = count
    return zone


_COUNT_MODES = {"all": ("pack", 0, 0)}


def read_move(name: str, spec: Mapping, table: ZoneTable, report: Report) -> MoveSpec | None:
    """The `from`/`to`/`count` of a `move` action; None (and a report) if they are wrong."""
    path = ("actions", name)
    sources = spec.get("from")
    sources = [sources] if isinstance(sources, str) else list(sources or [])
    keys = []
    for i, source in enumerate(sources):
        zone = table.find(str(source)) if source != "board" else None
        if source != "board" and zone is None:
            report(R_ZONE_NAME, f"action `{name}` moves from `{source}`, which is no zone",
                   path + ("from",) + ((i,) if isinstance(spec.get("from"), list) else ()),
                   _known(table))
            return None
        keys.append("board" if zone is None else zone.key)
    if not keys:
        report(R_MOVE, f"action `{name}` has no `from:`", path, "name a zone, or `board`")
        return None
    target = table.find(str(spec.get("to", "")))
    if target is None:
        report(R_ZONE_NAME, f"action `{name}` moves to `{spec.get('to')}`, which is no zone",
               path + ("to",), _known(table))
        return None
    move = MoveSpec(tuple(keys), target.key, flip=bool(spec.get("flip", False)),
                    reach=int(spec.get("reach", 0) or 0))
    if not _read_count(move, spec, report, path):
        return None
    if move.mode in ("run", "pack") and "board" in keys:
        report(R_MOVE, f"action `{name}` takes a run or a pack from the board",
               path + ("from",), "a board gives single pieces: `count: k` without `run`")
        return None
    return move


def _read_count(move: MoveSpec, spec: Mapping, report: Report, path: tuple) -> bool:
    count = spec.get("count", 1)
    if spec.get("run"):
        move.mode = "run"
    if count == "all":
        move.mode, move.low, move.high = "pack", 1, 0
    elif isinstance(count, Mapping) and "up_to" in count:
        move.mode, move.low, move.high = "pack", 1, int(count["up_to"])
    elif isinstance(count, Mapping):
        move.low, move.high = int(count.get("min", 1)), int(count.get("max", count.get("min", 1)))
    elif isinstance(count, int):
        move.low = move.high = count
    else:
        move.low = move.high = 0
    if move.mode != "pack" and not 1 <= move.low <= move.high:
        report(R_MOVE, f"`count: {count}` is not a number of pieces to move", path + ("count",),
               "`count: 2`, `count: {min: 1, max: 13}`, `count: {up_to: 3}` or `count: all`")
        return False
    return True


def _known(table: ZoneTable) -> str:
    return "zones: " + ", ".join(["board"] + list(table.zones))


_TOP = re.compile(r"\b(?:zones\.)?(\w+)(\[[^\]]*\])?\.top\.\w+")
_GUARD = r"\b(?:zones\.)?{name}(?:\[[^\]]*\])?\.count\s*(?:>|>=|==|!=)\s*\d"


def check_tops(table: ZoneTable, sources: list[tuple[str, tuple]], may_empty: set[str],
               report: Report) -> None:
    """Warn where a field of a zone's top is read in an expression that never tests the
    zone's count (the zone may be empty then, and its top is none)."""
    for text, path in sources:
        for match in _TOP.finditer(text):
            name = match.group(1)
            zone = table.find(name) if name != "zone" else None
            key = zone.key if zone is not None else name
            if key not in may_empty or re.search(_GUARD.format(name=re.escape(name)), text):
                continue
            what = match.group(0).rsplit(".", 1)[0]
            count = what[: -len(".top")] + ".count"
            report(R_UNGUARDED, f"`{what}` is none when the zone is empty, and this reads"
                   " it unguarded", path, f"guard it with `{count} > 0 and ...`")


def zones_that_may_empty(table: ZoneTable, moves: list[MoveSpec], kinds: set[str],
                         dealt: set[str]) -> set[str]:
    """Zones whose top may be none: a move or a draw takes from them, or no deal fills
    them at the start (`zone` names the destination in an `accepts:`, empty or not).
    `kinds` are the actions' kinds as compiled (a long form's own kind)."""
    found = {"zone"}
    for move in moves:
        found.update(move.sources)
    if kinds & {"draw", "deal", "exchange"}:
        found.add("pool")
    if "place" in kinds:
        found.add("hand")
    found.update(z for z in table.zones if z not in dealt and z != "pool")
    return found


@dataclass
class ZoneDeal:
    """A `setup.deal` step into a zone (or a row of zones)."""

    key: str
    counts: tuple[int, ...]  # per zone of the row (one number: the same for each)
    by_round: bool = False  # one piece to each zone in turn, as cards are dealt by hand
    face: str | None = None  # `top`: each zone's top face up, the rest down


def read_zone_deal(step: Mapping, path: tuple, table: ZoneTable, report: Report):
    """A deal step into a declared zone; None (and a report) if it is wrong."""
    zone = table.find(str(step.get("to")))
    if zone is None or zone.builtin:
        report(R_ZONE_NAME, f"setup.deal deals to `{step.get('to')}`, which is no zone",
               path + ("to",), "`board`, `pile`, or a zone declared under `zones:`")
        return None
    count = step.get("count", 1)
    size = zone.count or 1
    counts = tuple(int(c) for c in count) if isinstance(count, list) else (int(count),) * size
    face = step.get("face")
    if len(counts) != size or face not in (None,) + FACES:
        report(R_ZONE, f"setup.deal to `{zone.key}`: `count` needs one number per zone"
               f" ({size}) and `face` one of {', '.join(FACES)}", path)
        return None
    return ZoneDeal(zone.key, counts, step.get("by") == "round", face)
