"""Scenarios: a position written as YAML, for `rulecraft moves` and the golden tests.

A scenario names a ruleset (and overlays), and gives the board in the board kind's own
notation, the hands, the pool order, the pile, the scores, the player to move and, when
needed, the round, turn and counter values. `expect:` cases name a move with the points
and breakdown it must score (or that it must be illegal). Format: docs/scenarios.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic, Position, RulecraftError, closest, define
from engine.kernel.flow import choose_opener
from engine.kernel.moves import IllegalMove, ScoreEvent
from engine.kernel.views import RoundInfo, TurnInfo

K_BAD_SCENARIO = define("K510", "bad-scenario", "a scenario field is missing or has the wrong form")
K_PIECE = define("K511", "scenario-piece", "a scenario names a piece the set does not have (or once too often)")
K_BOARD = define("K512", "scenario-board", "a scenario's board cannot be read by its board kind")
K_EXPECT = define("K513", "bad-expectation", "an `expect:` case is malformed")

ROUND_KEYS = ("number", "turns", "turns_without_place", "passes_in_row", "unable_in_row", "placed_any")
TURN_KEYS = ("draws", "placed", "actions")
# The top-level keys of docs/scenarios.md; `deal` and `lines` are the lines-of-play
# golden format's (read by its own runner, ignored here).
TOP_KEYS = ("scenario", "ruleset", "with", "players", "seed", "board", "hands", "pool", "rest",
            "pile", "scores", "to_move", "round", "turn", "counters", "expect", "deal", "lines",
            "zones", "clock")


@dataclass
class Case:
    """One `expect:` entry: a move and what it must score."""

    name: str
    move: str
    pos: Position | None
    points: int | None = None
    breakdown: dict | None = None
    scores: list | None = None
    illegal: bool | str = False


@dataclass
class Outcome:
    """What a move does from the scenario's position."""

    move: str
    seat: int
    points: int
    breakdown: dict[str, int]
    scores: list[int]
    events: list[ScoreEvent]


@dataclass
class Scenario:
    path: str
    doc: Any
    ruleset: Any
    game: Any
    state: Any
    cases: list[Case] = field(default_factory=list)

    def outcome(self, move: str) -> Outcome:
        """Play `move` on a copy of the position; raises IllegalMove."""
        return outcome(self.state, move)


def outcome(state, move) -> Outcome:
    """The points, breakdown (by rule, for the mover) and scores after `move`."""
    seat = state.to_move
    found = state.find_move(move)
    events, trial = state.preview(found)
    breakdown: dict[str, int] = {}
    for e in events:
        if e.player == seat:
            breakdown[e.rule] = breakdown.get(e.rule, 0) + e.points
    return Outcome(found.text, seat, sum(breakdown.values()), breakdown, list(trial.scores), events)


def _fail(code, message: str, pos: Position | None, help: str | None = None):
    raise RulecraftError([Diagnostic(code.code, message, pos, help)])


def _scenario_data(doc) -> dict:
    """The scenario's mapping, with a `ruleset:` name; K_BAD_SCENARIO otherwise (a game
    record is valid YAML too, but its `ruleset` is a mapping)."""
    data = doc.data
    if isinstance(data, dict) and data.get("format") != "rulecraft-record":
        _check_top_keys(data, doc)
    if not isinstance(data, dict) or "ruleset" not in data:
        _fail(K_BAD_SCENARIO, "a scenario needs `ruleset:`", doc.near())
    if not isinstance(data["ruleset"], str):
        record = data.get("format") == "rulecraft-record"
        _fail(K_BAD_SCENARIO, "this is a game record, not a scenario (see `replay`)" if record
              else "`ruleset` must be a ruleset id, game name or path", doc.near("ruleset"))
    return data


def load_scenario(path: str | Path, load_ruleset=None) -> Scenario:
    """Read a scenario file and build its position; raises RulecraftError (Y/K/R codes).

    `load_ruleset(ref, overlays)` resolves the scenario's ruleset (default: the rules
    layer's); tests pass their own.
    """
    from engine.rules.model import compile_model
    from engine.rules.yamlload import read_text

    if load_ruleset is None:
        from engine.rules import load_ruleset

    doc = read_text(path)
    if not doc.ok:
        raise RulecraftError(doc.diagnostics)
    data = _scenario_data(doc)
    ref = data["ruleset"]
    local = Path(path).parent / ref
    if local.suffix in (".yaml", ".yml") and _is_file(local):
        ref = str(local)
    overlays = data.get("with") or []
    if not isinstance(overlays, list):
        overlays = [overlays]
    try:
        ruleset = load_ruleset(ref, [str(o) for o in overlays])
    except RulecraftError as exc:
        raise RulecraftError(_placed(exc.diagnostics, doc)) from None
    model, diagnostics = compile_model(ruleset)
    if model is None:
        raise RulecraftError(diagnostics)
    from engine.kernel.game import Game

    game = Game(model)
    state = build_state(game, data, doc)
    cases = read_cases(data.get("expect") or {}, doc)
    return Scenario(str(path), doc, ruleset, game, state, cases)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL:
        return False  # the rules layer says so (R425)


def _check_top_keys(data: dict, doc) -> None:
    """A misspelt top-level key would otherwise be ignored, and its value with it."""
    for key in data:
        if key not in TOP_KEYS:
            guess = closest(str(key), TOP_KEYS)
            allowed = f"allowed keys: {', '.join(TOP_KEYS)}"
            _fail(K_BAD_SCENARIO, f"unknown scenario key `{key}`",
                  doc.key_where(key) or doc.near(key),
                  f"did you mean `{guess}`? ({allowed})" if guess else allowed)


def _placed(diagnostics, doc) -> list[Diagnostic]:
    """The loader's diagnostics, those without a place put at the scenario's `with:`
    (an unknown overlay) or `ruleset:` line, so the message says which file is wrong."""
    out = []
    for diag in diagnostics:
        if diag.pos is None:
            key = "with" if diag.code == "R401" else "ruleset"
            diag = replace(diag, pos=doc.near(key))
        out.append(diag)
    return out


class _Pieces:
    """The pieces not yet placed anywhere, taken by name."""

    def __init__(self, pieces, doc):
        self.free = list(pieces)
        self.doc = doc

    def take(self, names, path: tuple) -> list:
        if not isinstance(names, list):
            _fail(K_BAD_SCENARIO, "expected a list of piece names", self.doc.near(*path))
        out = []
        for i, name in enumerate(names):
            piece = next((p for p in self.free if p.name == str(name)), None)
            if piece is None:
                _fail(K_PIECE, f"no free piece `{name}` (not in the set, or used already)",
                      self.doc.near(*path, i))
            self.free.remove(piece)
            out.append(piece)
        return out


def build_state(game, data: dict, doc):
    """A state holding exactly the scenario's position."""
    players = data.get("players", game.model.players_default)
    if type(players) is not int:
        _fail(K_BAD_SCENARIO, "`players` must be a number", doc.near("players"))
    try:
        state = game.new_game(players, int(data.get("seed", 0)))
    except ValueError as exc:
        _fail(K_BAD_SCENARIO, str(exc), doc.near("players"))
    pieces = _Pieces(game.pieces, doc)
    state.board = game.model.topology.new_board()
    if data.get("board"):
        try:
            used = state.board.load_position(str(data["board"]), list(pieces.free))
        except (ValueError, KeyError) as exc:
            _fail(K_BOARD, f"the board cannot be read: {exc}", doc.near("board"))
        for piece in used:
            pieces.free.remove(piece)
    hands = data.get("hands") or []
    if not isinstance(hands, list) or len(hands) > players:
        _fail(K_BAD_SCENARIO, f"`hands` must be a list of at most {players}"
              f" list{'s' * (players != 1)}", doc.near("hands"))
    state.hands = [pieces.take(h, ("hands", i)) for i, h in enumerate(hands)]
    state.hands += [[] for _ in range(players - len(state.hands))]
    state.pile = pieces.take(data.get("pile") or [], ("pile",))
    _set_zones(state, data.get("zones") or {}, pieces, doc)
    top = pieces.take(data.get("pool") or [], ("pool",))
    rest = [] if data.get("rest", "pool") == "out" else pieces.free
    state.pool = list(reversed(top + rest))
    _set_numbers(state, data, doc, players)
    return state


def _set_zones(state, given, pieces: "_Pieces", doc) -> None:
    """`zones:` of a scenario: each declared zone's pieces, bottom first (a row of zones:
    a list per zone); a name in parentheses, `(4c)`, lies face down."""
    if not isinstance(given, dict):
        _fail(K_BAD_SCENARIO, "`zones` must map zone names to pieces", doc.near("zones"))
    from engine.kernel.zones import new_zones

    table = state.game.model.zones
    new_zones(state)  # (the new game dealt into them)
    for name, value in given.items():
        zone = table.find(str(name))
        if zone is None or zone.builtin:
            _fail(K_BAD_SCENARIO, f"`zones.{name}` is not a zone the ruleset declares"
                  " (pool, hands and pile have their own keys)", doc.near("zones", name))
        rows = value if zone.is_list else [value]
        if not isinstance(rows, list) or len(rows) != len(state.zones[zone.key]):
            _fail(K_BAD_SCENARIO, f"`zones.{name}` must list {len(state.zones[zone.key])}"
                  " zones", doc.near("zones", name))
        for i, names in enumerate(rows):
            path = ("zones", name) + ((i,) if zone.is_list else ())
            names = list(names or [])
            down = sum(1 for n in names if str(n).startswith("("))
            plain = [str(n).strip("()") for n in names]
            state.zones[zone.key][i] = pieces.take(plain, path)
            state.down[zone.key][i] = down


def _set_numbers(state, data: dict, doc, players: int) -> None:
    scores = data.get("scores", [0] * players)
    if not (isinstance(scores, list) and len(scores) == players
            and all(type(x) is int for x in scores)):
        _fail(K_BAD_SCENARIO, f"`scores` must list {players} integer{'s' * (players != 1)}", doc.near("scores"))
    state.scores = list(scores)
    state.round = RoundInfo(1)
    state.round.placed_any = state.board.count > 0 and bool(state.game.place_actions)
    _set_fields(state.round, data.get("round") or {}, ROUND_KEYS, ("round",), doc)
    state.turn = TurnInfo()
    _set_fields(state.turn, data.get("turn") or {}, TURN_KEYS, ("turn",), doc)
    for name, value in state.game.model.counters.items():
        setattr(state.counters, name, value)
    _set_fields(state.counters, data.get("counters") or {}, tuple(state.game.model.counters),
                ("counters",), doc)
    state.events, state.log, state.setup_chances, state.pending_chances = [], [], [], []
    state.opening_pieces = None
    state.is_over = False
    state._rebind()
    _set_clock(state, data, doc)
    if not state.round.placed_any and state.game.model.opening is not None:
        choose_opener(state)
    if "to_move" in data:
        seat = data["to_move"]
        if type(seat) is not int or not 0 <= seat < players:
            _fail(K_BAD_SCENARIO, f"`to_move` must be a seat from 0 to {players - 1}",
                  doc.near("to_move"))
        if seat != state.to_move:
            state.opening_pieces = None
        state.to_move = seat
    state._invalidate()


def _set_clock(state, data: dict, doc) -> None:
    """`clock: N`: the seconds of play the front end reports, for the moves played here."""
    if "clock" not in data:
        return
    seconds = data["clock"]
    if type(seconds) is not int or seconds < 0:
        _fail(K_BAD_SCENARIO, "`clock` must be whole seconds from 0", doc.near("clock"),
              "for example `clock: 100`")
    state.set_clock(seconds)


def _set_fields(target, values: dict, allowed: tuple, path: tuple, doc) -> None:
    if not isinstance(values, dict):
        _fail(K_BAD_SCENARIO, f"`{path[0]}` must be a mapping", doc.near(*path))
    for key, value in values.items():
        if key not in allowed:
            _fail(K_BAD_SCENARIO, f"`{path[0]}.{key}` is not a field here (fields: "
                  f"{', '.join(allowed) or 'none'})", doc.near(*path, key))
        if type(value) not in (int, bool):
            _fail(K_BAD_SCENARIO, f"`{path[0]}.{key}` must be a number", doc.near(*path, key))
        setattr(target, key, value)


def read_cases(expect, doc) -> list[Case]:
    """The `expect:` mapping: case name -> {move, points, breakdown, scores, illegal}."""
    if not isinstance(expect, dict):
        _fail(K_EXPECT, "`expect` must map case names to cases", doc.near("expect"))
    cases = []
    for name, spec in expect.items():
        path = ("expect", name)
        if not isinstance(spec, dict) or not isinstance(spec.get("move"), str):
            _fail(K_EXPECT, f"case `{name}` needs `move:` (the move's text)", doc.near(*path))
        unknown = set(spec) - {"move", "points", "breakdown", "scores", "illegal", "note"}
        if unknown:
            _fail(K_EXPECT, f"case `{name}` has unknown keys: {', '.join(sorted(map(str, unknown)))}",
                  doc.near(*path))
        cases.append(Case(
            str(name), spec["move"], doc.key_where(*path) or doc.near(*path),
            spec.get("points"), spec.get("breakdown"), spec.get("scores"),
            spec.get("illegal", False),
        ))
    return cases


def check_case(scenario: Scenario, case: Case) -> list[str]:
    """Differences between a case's expectations and what the move does (empty: passes)."""
    try:
        got = scenario.outcome(case.move)
    except IllegalMove as exc:
        if case.illegal:
            if isinstance(case.illegal, str) and case.illegal not in str(exc):
                return [f"illegal as expected, but the reason is `{exc}`"]
            return []
        return [f"`{case.move}` is illegal: {exc}"]
    problems = []
    if case.illegal:
        problems.append(f"`{case.move}` is legal, expected illegal (scores {got.points})")
    if case.points is not None and got.points != case.points:
        problems.append(f"points: expected {case.points}, got {got.points}")
    if case.breakdown is not None and got.breakdown != case.breakdown:
        problems.append(f"breakdown: expected {case.breakdown}, got {got.breakdown}")
    if case.scores is not None and got.scores != case.scores:
        problems.append(f"scores: expected {case.scores}, got {got.scores}")
    return problems
