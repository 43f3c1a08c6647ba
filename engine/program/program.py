"""`Program`: a ruleset's generated module, loaded, with what turns its plain data back
into the engine's objects (moves, score events, a `State` for records and replays)."""

from __future__ import annotations

import random

from engine.expr import runtime
from engine.expr.compiler import UNSET
from engine.kernel.chance import shuffle
from engine.kernel.game import players_mismatch
from engine.kernel.moves import RuleFailure, ScoreEvent
from engine.program.plan import Plan, reasons

_ERRORS = (runtime.EvaluationError,) + runtime.FAILURES


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random()
    other.setstate(rng.getstate())
    return other


def _best(scores: list, lowest: bool):
    """The single best seat by score (None on a tie): `flow.choose_winner` without keys."""
    best = (min if lowest else max)(scores)
    seats = [seat for seat, score in enumerate(scores) if score == best]
    return seats[0] if len(seats) == 1 else None


def namespace(plan: Plan) -> dict:
    """The names a program's source reads: the expression runtime, the program's own
    helpers, and the ruleset's constants (`K_*`, the board's `B_*`)."""
    game, model = plan.game, plan.model
    sites = plan.sites

    def failure(site: int, exc: Exception) -> RuleFailure:
        return RuleFailure(sites[site].what, sites[site].pos, runtime.explain(exc))

    names = dict(runtime.NAMESPACE)
    names.update(
        k_ERRORS=_ERRORS, k_failure=failure, k_int=int, k_bool=bool, k_list=list,
        k_Random=random.Random, k_copy_rng=_copy_rng, k_shuffle=shuffle, k_best=_best,
        _UNSET=UNSET,
        K_pieces=tuple(sorted(game.pieces, key=lambda p: p.uid)),
        K_counters0=tuple(int(v) for v in model.counters.values()),
        K_reasons=reasons(model),
        K_rules=tuple((r.name, r.pos, r.label) for r in model.scoring),
        __builtins__={"len": len, "range": range, "True": True, "False": False,
                      "None": None},
    )
    names.update(plan.board.constants())
    return names


class Program:
    """A ruleset compiled to one module of functions over plain data (see
    `engine.program.steps` for its functions). `new`, `legal`, `apply`, `copy`,
    `is_over` and `scores` are the module's own functions; the rest converts."""

    def __init__(self, plan: Plan, source: str, code):
        self.plan = plan
        self.game = plan.game
        self.source = source
        self.module = namespace(plan)
        exec(code, self.module)  # the generator's text only (engine/program/source.py)
        for name in ("legal", "apply", "copy", "search_copy", "is_over", "scores",
                     "search_apply", "search_fork"):
            setattr(self, name, self.module[name])
        self._new = self.module["new"]
        self.fields = plan.fields
        self.rules = self.module["K_rules"]

    def new(self, players: int | None = None, seed: int = 0) -> list:
        """A new match (`Game.new_game(players, seed)`: the same deal)."""
        model = self.game.model
        n = model.players_default if players is None else int(players)
        if not model.players_min <= n <= model.players_max:
            raise ValueError(players_mismatch(model, n))
        return self._new(n, seed)

    # -- back to the engine's objects --------------------------------------------------
    def move_text(self, s: list, code: int) -> str:
        """The text of move `code` in `s`, as the interpreter writes it (`play Ah`)."""
        for action, base in reversed(self.plan.actions):
            if code >= base:
                break
        if action.kind == "deal":
            return action.name
        piece = s[self.fields["cards"]][code - base]
        arg = piece.name if self.game.unique_names else f"{piece.name}@{code - base}"
        return f"{action.name} {arg}"

    def legal_texts(self, s: list) -> list[str]:
        return [self.move_text(s, code) for code in self.legal(s)]

    def events(self, s: list) -> list[ScoreEvent]:
        """Every score event of the match so far, with its rule, file and line."""
        rules = self.rules
        return [ScoreEvent(seat, points, *rules[rule]) for seat, points, rule in
                s[self.fields["events"]]]

    def winner(self, s: list):
        return s[self.fields["winner"]]

    def round_number(self, s: list) -> int:
        return s[self.fields["round"]]

    def round_reasons(self, s: list) -> list[str]:
        """Why each round that ended ended (`round.reason`), in order."""
        return s[self.fields["ended"]]

    def turns(self, s: list) -> int:
        """Turns played in the whole match (`State.turns_total`)."""
        return s[self.fields["turns_total"]]

    def to_move(self, s: list) -> int:
        return s[self.fields["to_move"]]

    def chances(self, s: list) -> list[tuple[int, list[int]]]:
        """(index of the move that caused it, -1 for the setup; the uids in the order
        dealt) for each shuffle."""
        return [(at, [p.uid for p in order]) for at, order in s[self.fields["chances"]]]

    # -- from the engine's objects ----------------------------------------------------
    def codes(self, moves) -> list[int]:
        """The codes of the interpreter's moves of this ruleset (a play: its slot)."""
        base = {action.name: at for action, at in self.plan.actions}
        board = self.plan.board.move_kinds
        kinds = {action.name: action.kind in board for action, _ in self.plan.actions}
        return [base[m.action] + m.data[0] if kinds[m.action] else base[m.action]
                for m in moves]

    def from_state(self, state) -> list:
        """The program's state for the interpreter's `state` of this ruleset (a scenario,
        or a match under way): what a search starts from. Its log, events and shuffles
        start empty; the generator is shared (marked so: a new round copies it)."""
        model, rnd = self.game.model, state.round
        values = {
            "n": state.n, "seed": state.seed, "rng": state.rng, "rng_shared": True,
            "scores": list(state.scores),
            "counters": [int(getattr(state.counters, name)) for name in model.counters],
            "legal": [] if state.is_over else self.codes(state.legal_moves()),
            "to_move": state.to_move, "over": state.is_over, "winner": state.winner,
            "round": rnd.number, "turns": rnd.turns, "reason": rnd.reason or None,
            "round_winner": rnd.winner, "last_winner": state.last_round_winner,
            "turns_total": state.turns_total, "pool": list(state.pool),
            "pile": list(state.pile), "events": [], "log": [], "chances": [], "ended": [],
        }
        values.update(self.plan.board.values(state.board))
        s = [None] * len(self.fields)
        for name, i in self.fields.items():
            s[i] = values[name]
        return s

    def to_state(self, s: list):
        """The interpreter's `State` of the same match: the same seed, each move of the
        program's log applied in turn (records, replays and explain read it)."""
        n, seed = s[self.fields["n"]], s[self.fields["seed"]]
        state = self.game.new_game(n, seed)
        shadow = self._new(n, seed)
        for code in s[self.fields["log"]]:
            state.apply(self.move_text(shadow, code))
            self.apply(shadow, code)
        return state
