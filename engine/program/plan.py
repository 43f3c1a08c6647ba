"""What a program is made of: whether the compiler covers a ruleset (and if not, why),
the state's layout, the tables of constants, and the Python text each context name is
read as.

The compiler covers a ruleset when every part of it has generated code: a board kind
with a part in `BOARD_CODE` (today `tableau`), actions of the kinds below, no hands,
zones, opening rule or `unable_in_row` tracking, and expressions that read only the
names of `names_for`. Anything else is `NotCompiled`, whose reason names the feature,
and the interpreter plays the ruleset as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.program.tableau import BOARD_CODE

#: action kinds a program covers: the board's own (a play) and a deal from the pool
ACTION_KINDS = frozenset({"play", "deal"})
RECEIVERS = frozenset({"mover", "winner", "losers", "each"})
WINNER_MODES = frozenset({"none", "mover", "default", "highest", "lowest"})

#: the state's fields before the board's (a program's state is one list)
COMMON_FIELDS = (
    "n", "seed", "rng", "rng_shared", "scores", "counters", "legal", "to_move", "over",
    "winner", "round", "turns", "reason", "round_winner", "last_winner", "turns_total",
    "pool", "pile", "events", "log", "chances", "ended",
)

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
    sites: list = field(default_factory=list)
    site_of: dict = field(default_factory=dict)

    @property
    def model(self):
        return self.game.model

    def site(self, key) -> int:
        return self.site_of[key]


def _check(game) -> None:
    """Raise NotCompiled naming the first feature the compiler does not cover."""
    model = game.model
    kind = model.topology.kind
    if kind not in BOARD_CODE:
        raise NotCompiled(f"board kind `{kind}`")
    for action in model.actions:
        if action.kind not in ACTION_KINDS:
            raise NotCompiled(f"action `{action.name}` of kind `{action.kind}`")
        if not action.ends_turn or action.extra_turn is not None:
            raise NotCompiled(f"action `{action.name}` that does not end the turn")
    if any(model.hand_size_for(n) for n in range(model.players_min, model.players_max + 1)):
        raise NotCompiled("hands (`setup.hand_size`)")
    if model.refill or model.opening is not None:
        raise NotCompiled("refilled hands or an opening rule")
    if model.zones is not None and model.zones.extra():
        raise NotCompiled("zones beyond the pool and the pile")
    if model.tracks_unable:
        raise NotCompiled("`round.unable_in_row`")
    for to, count in model.deal:
        if to not in ("board", "pile"):
            raise NotCompiled(f"a deal to `{to}`")
    _check_rules(game)


def _check_rules(game) -> None:
    model = game.model
    triggers = {a.name for a in model.actions} | {"round_start", "round_end"}
    for rule in model.scoring:
        if rule.on not in triggers or rule.to not in RECEIVERS:
            raise NotCompiled(f"scoring rule `{rule.name}` (on `{rule.on}`, to `{rule.to}`)")
    specs = [c.winner for c in model.round_end] + [model.match_winner]
    for spec in specs:
        if spec.mode not in WINNER_MODES or spec.keys:
            raise NotCompiled(f"a winner chosen by keys (`{spec.mode}`)")


def make_plan(game) -> Plan:
    """The plan of `game`'s program; NotCompiled if the compiler does not cover it."""
    _check(game)
    model = game.model
    board = BOARD_CODE[model.topology.kind](model.topology)
    names = COMMON_FIELDS + tuple(board.fields)
    fields = {name: i for i, name in enumerate(names)}
    actions, code = [], 0
    for action in model.actions:
        actions.append((action, code))
        code += board.width(action.kind) if action.kind in board.move_kinds else 1
    plan = Plan(game, board, fields, actions)
    _sites(plan)
    return plan


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


def reasons(model) -> tuple:
    """`round.reason` by index: the round-end conditions, then `stalled`, `turn_limit`."""
    return tuple(c.name for c in model.round_end) + ("stalled", "turn_limit")


def names_for(plan: Plan, seat: str, mover: str, piece: str | None = None,
              move: dict | None = None, cans: dict | None = None) -> dict[str, str]:
    """Context name -> its Python text in generated code, for the context of `seat`
    (the text of a seat) with `mover` the mover: what `engine.kernel.views` gives,
    read from the program's state `s` and the locals `scores`, `counters`, `pool`,
    `pile` every generated function binds. `piece`: the text of the move's piece;
    `move`: `move.<field>` texts; `cans`: `can_<action>` texts."""
    f, model = plan.fields, plan.model
    names = {
        "player.score": f"scores[{seat}]", "player.index": seat, "player.hand_count": "0",
        "mover.score": f"scores[{mover}]", "mover.index": mover, "mover.hand_count": "0",
        "players.count": f"s[{f['n']}]",
        "pool.count": "_len(pool)", "pool.top": "(pool[-1] if pool else None)",
        "pile.count": "_len(pile)", "pile.top": "(pile[-1] if pile else None)",
        "round.number": f"s[{f['round']}]", "round.turns": f"s[{f['turns']}]",
        "round.reason": f"s[{f['reason']}]",
    }
    names.update(plan.board.names(f))
    for i, name in enumerate(model.counters):
        names[f"counters.{name}"] = f"counters[{i}]"
    if piece is not None:
        names.update((alias, piece) for alias in PIECE_NAMES)
    names.update(move or {})
    names.update(cans or {})
    return names
