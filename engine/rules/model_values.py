"""The values of a ruleset model: the `Model` the kernel runs, and its parts (actions,
scoring rules, round-end conditions, the opening, how a winner is chosen).

`engine.rules.model.compile_model` builds them from a resolved ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.diagnostics import Position
from engine.pieces import Piece
from engine.topology import Topology


@dataclass
class WinnerSpec:
    """How a winner is chosen: `mover`, `lowest`/`highest` over key expressions, or none."""

    mode: str = "none"  # none | mover | lowest | highest | default (the match's)
    keys: tuple = ()


@dataclass
class ActionModel:
    """One turn option."""

    name: str
    kind: str
    pos: Position | None
    guard: Any = None
    then: tuple = ()  # ((counter, expression), ...)
    ends_turn: bool = True
    extra_turn: Any = None
    max: int = 0
    rules: Any = None  # what the board kind's compile_place made of the action
    spec: Mapping = field(default_factory=dict)
    move: Any = None  # a `move` action's MoveSpec (engine.rules.zones)
    guard_pos: Position | None = None  # where its `if:` is written
    #: `safe:`: when it holds for a listed move, a reachability search takes that move
    #: alone (engine/players/solver_search.py); None: never
    safe: Any = None
    #: `defer:`: a reachability search looks for a line without such moves first
    defer: Any = None


@dataclass
class ScoringRule:
    """One named scoring rule."""

    name: str
    on: str
    points: Any
    guard: Any = None
    to: str = "mover"
    label: str = ""
    pos: Position | None = None


@dataclass
class EndCondition:
    """One named round-end condition; its name becomes `round.reason`."""

    name: str
    cond: Any
    winner: WinnerSpec
    pos: Position | None = None


@dataclass
class Opening:
    """Who opens a round: the holder of the best piece by `rank`, with the allowed pieces."""

    rank: tuple
    also: Any = None


@dataclass
class Model:
    """A checked, compiled ruleset, ready for `engine.kernel.Game`."""

    ruleset: Any
    pieces: tuple[Piece, ...]
    topology: Topology
    players_min: int = 1
    players_max: int = 1
    players_default: int = 1
    hand_size: Mapping[int, int] = field(default_factory=dict)
    refill: bool = False
    deal: tuple = ()  # ((to, count | None), ...)
    opening: Opening | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    actions: tuple[ActionModel, ...] = ()
    scoring: tuple[ScoringRule, ...] = ()
    round_end: tuple[EndCondition, ...] = ()
    match_end: Any = None
    match_winner: WinnerSpec = field(default_factory=lambda: WinnerSpec("default", ()))
    #: `match.objective`: which way scores count, `highest` (default) or `lowest`
    objective: str = "highest"
    score_name: str = ""  # `match.score_name`: what the score counts, in words
    max_rounds: int = 1000
    max_turns_per_round: int = 10000
    zone_names: Mapping[str, str] = field(default_factory=dict)
    tracks_unable: bool = False
    #: `define:` name -> Definition (its source), for what reads through them (R442)
    definitions: Mapping[str, Any] = field(default_factory=dict)
    #: every zone (`engine.rules.zones.ZoneTable`), the built-in three included
    zones: Any = None
    #: some expression reads `clock`: front ends then set the state's clock and records
    #: keep each move's seconds (`State.set_clock`)
    reads_clock: bool = False
    #: `play.undo`: whether a front end lets a person take moves back (default true)
    undo: bool = True

    @property
    def id(self) -> str:
        return getattr(self.ruleset, "id", "")

    @property
    def hash(self) -> str:
        return getattr(self.ruleset, "hash", "")

    def hand_size_for(self, players: int) -> int:
        return int(self.hand_size.get(players, 0))

    def largest_hand(self) -> int:
        """The most pieces a hand is dealt, over every allowed count of players."""
        return max((self.hand_size_for(n) for n in range(self.players_max + 1)), default=0)

    def action(self, name: str) -> ActionModel | None:
        for action in self.actions:
            if action.name == name:
                return action
        return None


__all__ = ["ActionModel", "EndCondition", "Model", "Opening", "ScoringRule", "WinnerSpec"]
