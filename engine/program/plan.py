"""What a program is made of: whether the compiler covers a ruleset (and if not, why),
the state's layout, the tables of constants, and the Python text each context name is
read as.

The compiler covers a ruleset when every part of it has generated code: a board kind
with a part in `BOARD_CODE` (`tableau`, `triangular`, `square`, `chain`, `none`), actions
of the kinds below (a draw may leave the turn open: `ends_turn: false`; an action ending
the turn may give another, `extra_turn`), hands dealt from the pool and refilled, an
opening rule (ranked once by piece when it reads the piece alone), winners chosen by
keys, shared zones and `move` actions between them (`engine.program.zones`: none one
for each player), and expressions that read only the names of `names_for`. Anything else is `NotCompiled`, whose reason names the feature, and the
interpreter plays the ruleset as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.program.chain import ChainCode
from engine.program.nothing import NoBoardCode
from engine.program.square import SquareCode
from engine.program.tableau import TableauCode
from engine.program.triangular import TriangularCode
from engine.program.zones import ZonesCode

#: board kind -> its part of a program (`engine.program.parts`: the protocols each meets)
BOARD_CODE = {"tableau": TableauCode, "triangular": TriangularCode, "square": SquareCode,
              "chain": ChainCode, "none": NoBoardCode}

#: action kinds a program covers: the board's own (a play, a placement from the hand),
#: a deal from the pool, a draw into the hand, an exchange with the pool, a pass and a
#: move between zones (engine/program/zones.py)
ACTION_KINDS = frozenset({"play", "place", "deal", "draw", "pass", "exchange", "move"})
#: how many codes an exchange action spans: more than any hand lists
EXCHANGE_WIDTH = 1 << 20
#: action kinds of every board (one move, or an exchange's, listed by the program)
_ANY_BOARD = frozenset({"deal", "draw", "pass", "exchange", "move"})
RECEIVERS = frozenset({"mover", "winner", "losers", "each"})
WINNER_MODES = frozenset({"none", "mover", "default", "highest", "lowest"})

#: the state's fields before the board's (a program's state is one list)
COMMON_FIELDS = (
    "n", "seed", "rng", "rng_shared", "scores", "counters", "legal", "to_move", "over",
    "winner", "round", "turns", "reason", "round_winner", "last_winner", "turns_total",
    "pool", "pile", "events", "log", "chances", "ended",
    # hands and the round's and turn's counters (`RoundInfo`, `TurnInfo`)
    "hands", "held", "opening", "placed_any", "without_place", "passes", "unable",
    "t_draws", "t_placed", "t_actions", "t_could",
    # the pieces the last `move` turned face up (`State.turned`)
    "turned",
    # the exchanges listed for the position (a code is base + an index there)
    "exchanges",
)

#: the fields of a ruleset that reads `clock`: its seconds (`Program.set_clock`), and
#: (move index, seconds) at each change, as `kernel.views.Clock.marks`
CLOCK_FIELDS = ("clock", "marks")

PIECE_NAMES = ("tile", "card", "token", "piece")


class NotCompiled(Exception):
    """The compiler does not cover this ruleset: `reason` says which feature."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Site:
    """A place where an expression runs, for the failure it reports."""

    what: str
    pos: object


@dataclass
class Plan:
    """A ruleset's program, before its text: layout, codes, tables."""

    game: object
    board: object
    fields: dict
    #: (action, first move code) in the order written; an action's codes follow
    actions: list
    #: the zones' part (`ZonesCode`), when the ruleset has zones beyond the pool and
    #: the pile or `move` actions
    zones: object = None
    sites: list = field(default_factory=list)
    site_of: dict = field(default_factory=dict)

    @property
    def model(self):
        return self.game.model

    def site(self, key) -> int:
        return self.site_of[key]

    @property
    def hands(self) -> bool:
        """Whether players hold hands (`setup.hand_size`)."""
        model = self.model
        return any(model.hand_size_for(n) for n in range(model.players_min, model.players_max + 1))

    @property
    def held(self) -> bool:
        """Whether the state keeps each hand as a bit set of its uids too (`held`: a
        board's listing reads it, `uses_held`)."""
        return self.hands and getattr(self.board, "uses_held", False)

    @property
    def winner_specs(self) -> list:
        """The round-end conditions' winner specs, then the match's."""
        return [c.winner for c in self.model.round_end] + [self.model.match_winner]

    @property
    def seated_opening(self) -> bool:
        """Whether the opening rule's rank or alternative reads more than the piece (the
        seat: `player.won_last_round`), so the program writes it out for each seat
        rather than ranking the pieces once (`Game.opening_ranks`)."""
        game, opening = self.game, self.model.opening
        return opening is not None and (game.opening_ranks is None or (
            opening.also is not None and game.opening_also is None))

    def mentions(self, pattern: str) -> bool:
        """Whether the resolved ruleset's data (every expression, definitions included)
        holds a match of `pattern`: a counter no text mentions is never read, so the
        program need not keep it (a mention elsewhere only keeps it needlessly)."""
        return re.search(pattern, repr(self.model.ruleset.data)) is not None

    def reads(self, name: str) -> bool:
        """Whether some expression of the ruleset reads the context name `name`."""
        model = self.model
        exprs = [a.guard for a in model.actions] + [e for a in model.actions for _, e in a.then]
        exprs += [e for r in model.scoring for e in (r.guard, r.points)]
        exprs += [c.cond for c in model.round_end] + [model.match_end]
        exprs += [k for spec in self.winner_specs for k in spec.keys]
        return any(e is not None and name in e.names_used for e in exprs)


def _check(game) -> None:
    """Raise NotCompiled naming the first feature the compiler does not cover."""
    model = game.model
    kind = model.topology.kind
    if kind not in BOARD_CODE:
        raise NotCompiled(f"board kind `{kind}`")
    for action in model.actions:
        if action.kind not in ACTION_KINDS:
            raise NotCompiled(f"action `{action.name}` of kind `{action.kind}`")
        if not (action.ends_turn or action.kind == "draw"):
            raise NotCompiled(f"action `{action.name}` that does not end the turn")
        if action.extra_turn is not None and not action.ends_turn:
            raise NotCompiled(f"action `{action.name}` with `extra_turn` that leaves the turn open")
        if action.kind not in BOARD_CODE[kind].move_kinds | _ANY_BOARD:
            raise NotCompiled(f"action `{action.name}` of kind `{action.kind}` on this board")
    if model.reads_clock and _lists_read_clock(model):
        raise NotCompiled("a move listing that reads `clock` (set between moves)")
    if sum(a.kind == "place" for a in model.actions) > 1:
        raise NotCompiled("more than one place action")
    _check_rules(game)


def _lists_read_clock(model) -> bool:
    """Whether a condition listing the moves (an action's `if:`, a zone's `accepts:`)
    reads `clock`: a program lists a position's moves once, when it is reached."""
    exprs = [a.guard for a in model.actions]
    if model.zones is not None:
        exprs += [z.accepts for z in model.zones.zones.values()]
    return any(e is not None and "clock" in e.names_used for e in exprs)


def _check_rules(game) -> None:
    model = game.model
    triggers = {a.name for a in model.actions} | {"round_start", "round_end"}
    for rule in model.scoring:
        if rule.on not in triggers or rule.to not in RECEIVERS:
            raise NotCompiled(f"scoring rule `{rule.name}` (on `{rule.on}`, to `{rule.to}`)")
    specs = [c.winner for c in model.round_end] + [model.match_winner]
    for spec in specs:
        if spec.mode not in WINNER_MODES:
            raise NotCompiled(f"a winner chosen as `{spec.mode}`")


def make_plan(game) -> Plan:
    """The plan of `game`'s program; NotCompiled if the compiler does not cover it."""
    _check(game)
    model = game.model
    made = BOARD_CODE[model.topology.kind]
    try:  # (a board kind whose code depends on the rules and pieces: `for_game`)
        board = made.for_game(game) if hasattr(made, "for_game") else made(model.topology)
        zones = ZonesCode(game, board) if _has_zones(model) else None
    except ValueError as exc:
        raise NotCompiled(str(exc)) from exc
    names = COMMON_FIELDS + tuple(board.fields) + (zones.fields if zones else ())
    if model.reads_clock:  # (the front end's seconds, and when each reading came)
        names += CLOCK_FIELDS
    fields = {name: i for i, name in enumerate(names)}
    actions, code = [], 0
    for action in model.actions:
        actions.append((action, code))
        if action.kind == "move":
            code += zones.width(action)
        elif action.kind in board.move_kinds:
            code += board.width(action.kind)
        else:  # (an exchange's codes: one for each exchange a hand lists)
            code += EXCHANGE_WIDTH if action.kind == "exchange" else 1
    plan = Plan(game, board, fields, actions, zones)
    _sites(plan)
    return plan


def _has_zones(model) -> bool:
    """Whether the program needs its zones' part: zones beyond the pool and the pile,
    or a `move` action."""
    return (model.zones is not None and bool(model.zones.extra())) or any(
        a.kind == "move" for a in model.actions)


def _sites(plan: Plan) -> None:
    """Every place an expression runs, in a fixed order (the tables follow it)."""
    def add(key, what, pos):
        plan.site_of[key] = len(plan.sites)
        plan.sites.append(Site(what, pos))
    model = plan.model
    for action in model.actions:
        add(("guard", action.name), f"the condition of action `{action.name}`",
            action.guard_pos or action.pos)
        add(("then", action.name), f"action `{action.name}` (its `then` or `extra_turn`)",
            action.pos)
    for i, rule in enumerate(model.scoring):
        add(("rule", i), f"scoring rule `{rule.name}`", rule.pos)
    for i, cond in enumerate(model.round_end):
        add(("end", i), f"round-end condition `{cond.name}`", cond.pos)
    add(("match",), "the match's end condition (`match.end_if`)", None)
    if model.opening is not None:
        add(("opening",), "the opening rule (`setup.opening`)", None)
    for j, spec in enumerate(plan.winner_specs):
        cond = model.round_end[j] if j < len(model.round_end) else None
        add(("winner", j), "the keys choosing a winner", cond.pos if cond else None)


def reasons(model) -> tuple:
    """`round.reason` by index: the round-end conditions, then `stalled`, `turn_limit`."""
    return tuple(c.name for c in model.round_end) + ("stalled", "turn_limit")


def names_for(plan: Plan, seat: str, mover: str, piece: str | None = None,
              move: dict | None = None, cans: dict | None = None) -> dict[str, str]:
    """Context name -> its Python text in generated code, for the context of `seat`
    (the text of a seat) with `mover` the mover: what `engine.kernel.views` gives,
    read from the program's state `s` and the locals `scores`, `counters`, `pool`,
    `pile`, `hands` every generated function binds. `piece`: the text of the move's
    piece; `move`: `move.<field>` texts; `cans`: `can_<action>` texts. (`player`,
    `players` and `opponents` as whole records are seat records made on the spot,
    `k_seat`: only rules at a round's end read them.)"""
    f, model = plan.fields, plan.model
    names = {
        "players.count": f"s[{f['n']}]", "players": "k_seats(s)",
        "opponents": f"k_others(s, {seat})",
        "pool.count": "_len(pool)", "pool.top": "(pool[-1] if pool else None)",
        "pile.count": "_len(pile)", "pile.top": "(pile[-1] if pile else None)",
        "round.number": f"s[{f['round']}]", "round.turns": f"s[{f['turns']}]",
        "round.reason": f"s[{f['reason']}]",
        "round.turns_without_place": f"s[{f['without_place']}]",
        "round.passes_in_row": f"s[{f['passes']}]", "round.unable_in_row": f"s[{f['unable']}]",
        "round.placed_any": f"s[{f['placed_any']}]",
        "turn.draws": f"s[{f['t_draws']}]", "turn.placed": f"s[{f['t_placed']}]",
        "turn.actions": f"s[{f['t_actions']}]",
    }
    for role, text in (("player", seat), ("mover", mover)):
        names.update({
            role: f"k_seat(s, {text})", f"{role}.score": f"scores[{text}]",
            f"{role}.index": text, f"{role}.hand_count": f"_len(hands[{text}])",
            f"{role}.hand_value": f"k_hand_value(hands[{text}])",
            f"{role}.won_last_round": f"(s[{f['last_winner']}] == {text})",
        })
    names.update(_part_names(plan))
    for i, name in enumerate(model.counters):
        names[f"counters.{name}"] = f"counters[{i}]"
    if piece is not None:
        names.update((alias, piece) for alias in PIECE_NAMES)
    names.update(move or {})
    names.update(cans or {})
    return names


def _part_names(plan: Plan) -> dict[str, str]:
    """The names the board's and the zones' parts give (`board.*`, `zones.*`), and the
    clock's seconds."""
    f = plan.fields
    names = dict(plan.board.names(f))
    if plan.zones is not None:
        names.update(plan.zones.names(f))
    if "clock" in f:
        names["clock.seconds"] = f"s[{f['clock']}]"
    return names
