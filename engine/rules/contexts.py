"""The contexts of a ruleset's expressions: which names exist where, and their types.

Every expression field is compiled in one of these environments (name -> type):

- `base`: everywhere (player, players, opponents, mover, pool, pile, board, round, turn,
  counters, clock, and `can_<action>` for each action);
- `move(kind)`: base plus `move` (fields of the action kind and of the board kind) and
  the piece it concerns under the names `tile`, `card`, `token` and `piece`;
- `piece`: base plus the piece alone (the opening rule's ranking keys).

The runtime values with these fields are in `engine.kernel.views`.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from engine.expr.types import BOOL, INT, STR, ListOf, Record, type_from_name
from engine.pieces import ATTRIBUTE_TYPES

PIECE_NAMES = ("tile", "card", "token", "piece")
#: the action kinds whose scoring rules and effects see a `move`
MOVE_KINDS = ("place", "play", "exchange", "move")

PLAYER_FIELDS = {
    "index": "int", "score": "int", "hand_count": "int", "hand_value": "int",
    "won_last_round": "bool",
}
ROUND_FIELDS = {
    "number": "int", "turns": "int", "turns_without_place": "int", "passes_in_row": "int",
    "unable_in_row": "int", "reason": "str",
}
TURN_FIELDS = {"draws": "int", "placed": "int", "actions": "int"}
#: `clock`: the seconds of play the front end reports (`engine.kernel.views.Clock`)
CLOCK_FIELDS = {"seconds": "int"}
GENERIC_MOVE_FIELDS = {"value": "int", "count": "int", "opening": "bool", "pieces": "list[piece]"}
#: `move` of a `move` action besides the generic fields: where the pieces came from and
#: went, how many cards it turned face up, and the board slots it emptied
MOVE_MOVE_FIELDS = {"source": "str", "source_index": "int", "target": "str",
                    "target_index": "int", "turned": "int"}
ZONE_FIELDS = {"count": "int", "value": "int", "top": "piece", "pieces": "list[piece]",
               "face_up": "int", "index": "int", "name": "str"}


def _move_records(move_fields: Mapping) -> dict:
    """`<kind>_move` -> its fields, for each move kind: the generic ones and the board
    kind's (`move_fields`)."""
    specs = {}
    for kind in MOVE_KINDS:
        fields = dict(GENERIC_MOVE_FIELDS)
        if kind == "exchange":
            fields.pop("opening")
        if kind == "move":
            fields.update(MOVE_MOVE_FIELDS)
            slot = move_fields.get("play", {}).get("slot")
            if slot:  # the board's slots a move emptied (of a board kind with slots)
                fields["slots"] = f"list[{slot}]"
        fields.update(move_fields.get(kind, {}))
        specs[f"{kind}_move"] = fields
    return specs


class ContextTypes:
    """The environments of one ruleset, built from its pieces, board kind and sections."""

    def __init__(self, component_kinds: Iterable[str], topology, counters: Iterable[str],
                 actions: Iterable[str], zones=None):
        self.records: dict[str, object] = {}
        piece_fields: dict[str, str] = {"name": "str", "component": "str", "uid": "int"}
        for kind in component_kinds:
            for name, tname in ATTRIBUTE_TYPES.get(kind, {}).items():
                piece_fields.setdefault(name, tname)
        specs: dict[str, Mapping[str, str]] = dict(getattr(topology, "record_types", {}) or {})
        specs["piece"] = piece_fields
        specs["zone"] = ZONE_FIELDS
        specs["zones"], specs["player_zones"] = _zone_records(zones)
        specs["player"] = {**PLAYER_FIELDS, "zones": "player_zones"}
        specs["board"] = {"count": "int", **(getattr(topology, "board_fields", {}) or {})}
        specs["round"] = ROUND_FIELDS
        specs["turn"] = TURN_FIELDS
        specs["clock"] = CLOCK_FIELDS
        specs["counters"] = {name: "int" for name in counters}
        specs.update(_move_records(getattr(topology, "move_fields", {}) or {}))
        self.specs = specs
        self.piece = self.type("piece")
        player = self.type("player")
        zone = self.type("zone")
        self.base = {
            "player": player,
            "mover": player,
            "players": ListOf(player),
            "opponents": ListOf(player),
            "pool": zone,
            "pile": zone,
            "zones": self.type("zones"),
            "board": self.type("board"),
            "round": self.type("round"),
            "turn": self.type("turn"),
            "counters": self.type("counters"),
            "clock": self.type("clock"),
        }
        for action in actions:
            self.base[f"can_{action}"] = BOOL

    def type(self, name: str):
        """A type by plain name (`int`, `list[line]`, a record name)."""
        return type_from_name(name, self.specs)

    def move(self, kind: str) -> dict:
        """The environment of an action's effects and scoring rules."""
        env = dict(self.base)
        if kind in MOVE_KINDS:
            env["move"] = self.type(f"{kind}_move")
        if kind in MOVE_KINDS:
            for name in PIECE_NAMES:
                env[name] = self.piece
        return env

    def accepts(self) -> dict:
        """The environment of a zone's `accepts:`: a move's, and `zone` (where it goes)."""
        env = self.move("move")
        env["zone"] = self.type("zone")
        return env

    def with_piece(self) -> dict:
        env = dict(self.base)
        for name in PIECE_NAMES:
            env[name] = self.piece
        return env


def _zone_records(table) -> tuple[dict, dict]:
    """The fields of `zones` (each zone by key and by display name) and `player.zones`."""
    shared: dict[str, str] = {}
    own: dict[str, str] = {}
    for zone in (table.zones.values() if table is not None else ()):
        names = [zone.key] + ([zone.label] if zone.label != zone.key else [])
        for name in names:
            shared.setdefault(name, "list[zone]" if zone.is_list else "zone")
            if zone.owner == "player":
                own.setdefault(name, "zone")
    return shared, own


__all__ = ["ContextTypes", "BOOL", "INT", "STR", "Record"]
