"""`Program`: a ruleset's generated module, loaded, with what turns its plain data back
into the engine's objects (moves, score events, a `State` for records and replays)."""

from __future__ import annotations

import random
from operator import attrgetter

from engine.expr import runtime
from engine.expr.compiler import UNSET
from engine.kernel.chance import shuffle
from engine.kernel.game import players_mismatch
from engine.kernel.moves import RuleFailure, ScoreEvent
from engine.program.exchange import exchange, exchanges, exchanges_of
from engine.program.fold import tables
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


def _pick(keyed: list, lowest: bool):
    """The single seat with the best keys (None on a tie): `flow.choose_winner`."""
    best = (min if lowest else max)(keyed)
    seats = [seat for seat, key in enumerate(keyed) if key == best]
    return seats[0] if len(seats) == 1 else None


class Seat:
    """`player`, `mover` and the items of `players` and `opponents` in a program: one
    seat's record, made when a rule reads the whole record (`PlayerView`'s fields)."""

    __slots__ = ("hand", "hand_count", "hand_value", "index", "score", "won_last_round")

    def __init__(self, index: int, score: int, hand: list, value: int, won: bool):
        self.index, self.score, self.hand = index, score, hand
        self.hand_count, self.hand_value, self.won_last_round = len(hand), value, won

    def __repr__(self) -> str:
        return f"<player {self.index}>"


def _seat_helpers(plan: Plan) -> dict:
    """`k_seat(s, i)`, `k_seats(s)`, `k_others(s, i)`, `k_hand_value(hand)` over the
    state's fields (`views.PlayerView`, `views.opponents_of`)."""
    f, values = plan.fields, plan.game.values

    def hand_value(hand: list) -> int:
        return sum([values[p.uid] for p in hand])

    def seat(s: list, i: int) -> Seat:
        hand = s[f["hands"]][i]
        return Seat(i, s[f["scores"]][i], hand, hand_value(hand), s[f["last_winner"]] == i)

    def seats(s: list) -> list:
        return [seat(s, i) for i in range(s[f["n"]])]

    def others(s: list, i: int) -> list:
        return [seat(s, j) for j in range(s[f["n"]]) if j != i]

    return {"k_seat": seat, "k_seats": seats, "k_others": others, "k_hand_value": hand_value}


def _opening_tables(game) -> dict:
    """`K_ranks` (each piece's opening rank, by uid) and `K_also` (the uids the opening
    rule's alternative allows) when both read the piece alone (`Game.opening_ranks`):
    what the program's opener (`rounds.opener`) reads then."""
    if game.model.opening is None or game.opening_ranks is None:
        return {}
    also = game.opening_also
    return {"K_ranks": tuple(game.opening_ranks),
            "K_also": frozenset(p.uid for p in game.pieces if also is not None and also(p)[0])}


def _bits(hand: list) -> int:
    """The uids of `hand`'s pieces as a bit set (a piece is in one place)."""
    return sum([1 << p.uid for p in hand])


def _round_and_turn(state) -> dict:
    """The hands and the round's and turn's counters of the interpreter's `state`, as
    the program's fields (`plan.COMMON_FIELDS`)."""
    rnd, turn = state.round, state.turn
    return {"hands": [list(h) for h in state.hands], "opening": state.opening_pieces,
            "held": [_bits(h) for h in state.hands],
            "placed_any": rnd.placed_any, "without_place": rnd.turns_without_place,
            "passes": rnd.passes_in_row, "unable": rnd.unable_in_row,
            "t_draws": turn.draws, "t_placed": turn.placed, "t_actions": turn.actions,
            "t_could": turn.could_place, "turned": state.turned}


def namespace(plan: Plan) -> dict:
    """The names a program's source reads: the expression runtime, the program's own
    helpers, and the ruleset's constants (`K_*`, the board's `B_*`)."""
    game, model = plan.game, plan.model
    sites = plan.sites

    def failure(site: int, exc: Exception) -> RuleFailure:
        return RuleFailure(sites[site].what, sites[site].pos, runtime.explain(exc))

    names = dict(runtime.NAMESPACE)
    names.update(
        k_ERRORS=_ERRORS, k_failure=failure, k_int=int, k_bool=bool, k_list=list, k_frozenset=frozenset,
        k_Random=random.Random, k_copy_rng=_copy_rng, k_shuffle=shuffle, k_best=_best,
        k_pick=_pick, k_bits=_bits, k_has=lambda items, test: any(map(test, items)), _UNSET=UNSET,
        K_hand=tuple(model.hand_size_for(n) if n >= model.players_min else 0
                     for n in range(model.players_max + 1)),
        K_contact=tuple(getattr(a, "rules", None) for a in model.actions),
        K_pieces=tuple(sorted(game.pieces, key=lambda p: p.uid)),
        K_counters0=tuple(int(v) for v in model.counters.values()),
        K_reasons=reasons(model),
        K_rules=tuple((r.name, r.pos, r.label) for r in model.scoring),
        k_set=set, k_exchanges_of=exchanges_of, k_exchange=exchange,
        k_name=attrgetter("name"),
        K_most=tuple(getattr(a, "max", None) for a in model.actions),
        __builtins__={"len": len, "range": range, "enumerate": enumerate, "True": True, "False": False,
                      "None": None, "sorted": sorted, "tuple": tuple, "set": set, "min": min,
                      "max": max, "sum": sum, "zip": zip, "map": map, "list": list,
                      "dict": dict},
    )
    names.update(plan.board.constants())
    if plan.zones is not None:
        names.update(plan.zones.constants(plan.fields))
    names.update(tables(plan))  # (folded from expressions: engine/program/fold.py)
    names.update(_seat_helpers(plan))
    names.update(_opening_tables(game))
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
                     "search_apply", "search_fork", "preview_apply"):
            setattr(self, name, self.module[name])
        self._new = self.module["new"]
        self.fields = plan.fields
        self.rules = self.module["K_rules"]
        # (codes that index a position's listings are found by `_listed`)
        self._relists = hasattr(plan.board, "relist") or any(
            a.kind == "exchange" for a, _ in plan.actions)

    def new(self, players: int | None = None, seed: int = 0) -> list:
        """A new match (`Game.new_game(players, seed)`: the same deal)."""
        model = self.game.model
        n = model.players_default if players is None else int(players)
        if not model.players_min <= n <= model.players_max:
            raise ValueError(players_mismatch(model, n))
        return self._new(n, seed)

    def set_clock(self, s: list, seconds: int) -> None:
        """The seconds of play from now on, as the front end measures them
        (`State.set_clock`: `clock.seconds`, kept for the record); nothing for a
        ruleset that never reads the clock."""
        if type(seconds) is not int or seconds < 0:
            raise ValueError(f"the clock reads whole seconds from 0, not {seconds!r}")
        f = self.fields
        if "clock" not in f:
            return
        at, marks = len(s[f["log"]]), s[f["marks"]]
        s[f["clock"]] = seconds
        if marks and marks[-1][0] == at:
            marks[-1] = (at, seconds)
        elif not marks or marks[-1][1] != seconds:
            marks.append((at, seconds))

    # -- back to the engine's objects --------------------------------------------------
    def move_text(self, s: list, code: int) -> str:
        """The text of move `code` in `s`, as the interpreter writes it (`play Ah`)."""
        for action, base in reversed(self.plan.actions):
            if code >= base:
                break
        if action.kind == "exchange":
            return " ".join((action.name, *s[self.fields["exchanges"]][code - base]))
        if action.kind == "move":
            arg = self.plan.zones.move_arg(s, self.fields, action, code - base)
            return f"{action.name} {arg}" if arg else action.name
        if action.kind not in self.plan.board.move_kinds:
            return action.name
        return f"{action.name} {self.plan.board.move_arg(s, self.fields, code - base, self.game)}"

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

    def view(self, s: list):
        """A read-only view of `s` answering what the interpreter's `State` answers
        (`engine.program.views.ProgramView`: the board as its kind's `Board`, the
        zones, the round's and turn's counters, score events, ...)."""
        from engine.program.views import ProgramView  # (views read a program: above it)
        return ProgramView(self, s)

    # -- from the engine's objects ----------------------------------------------------
    def codes(self, moves) -> list[int]:
        """The codes of the interpreter's moves of this ruleset (a play: its slot; a
        placement: the board's code of it, `move_code`)."""
        base = {action.name: at for action, at in self.plan.actions}
        board, zones = self.plan.board, self.plan.zones
        kinds = {action.name: action.kind in board.move_kinds for action, _ in self.plan.actions}
        moved = {action.name: action for action, _ in self.plan.actions if action.kind == "move"}
        return [base[m.action] + zones.move_code(moved[m.action], m.data) if m.action in moved
                else base[m.action] + board.move_code(m.data) if kinds[m.action]
                else base[m.action] for m in moves]

    def from_state(self, state) -> list:
        """The program's state for the interpreter's `state` of this ruleset (a scenario,
        or a match under way): what a search starts from. Its log, events and shuffles
        start empty; the generator is shared (marked so: a new round copies it)."""
        model, rnd = self.game.model, state.round
        values = {
            "n": state.n, "seed": state.seed, "rng": state.rng, "rng_shared": True,
            "scores": list(state.scores),
            "counters": [int(getattr(state.counters, name)) for name in model.counters],
            "legal": [] if state.is_over or self._relists else self.codes(state.legal_moves()),
            "to_move": state.to_move, "over": state.is_over, "winner": state.winner,
            "round": rnd.number, "turns": rnd.turns, "reason": rnd.reason or None,
            "round_winner": rnd.winner, "last_winner": state.last_round_winner,
            "turns_total": state.turns_total, "pool": list(state.pool),
            "pile": list(state.pile), "events": [], "log": [], "chances": [], "ended": [],
            "exchanges": [], "clock": state.clock.seconds, "marks": [],
        }
        values.update(_round_and_turn(state))
        values.update(self.plan.board.values(state.board))
        s = [None] * len(self.fields)
        for name, i in self.fields.items():
            s[i] = values.get(name)
        if self.plan.zones is not None:
            self.plan.zones.fill(s, self.fields, state)
        if self._relists and not state.is_over:
            self._listed(s, state)
        return s

    def _listed(self, s: list, state) -> None:
        """The position's listings a code indexes (an exchange's; a board's that codes
        a play by its index, `relist`) in `s`, and its legal moves' codes from them."""
        moves, f = state.legal_moves(), self.fields
        hand = s[f["hands"]][state.to_move]
        if hasattr(self.plan.board, "relist"):
            self.plan.board.relist(s, f, self.module, hand)
        for action, base in self.plan.actions:
            if action.kind == "exchange":
                s[f["exchanges"]] = exchanges(hand, action.max)
        texts = {text: code for code, text in
                 ((c, self.move_text(s, c)) for c in self._candidates(s))}
        s[f["legal"]] = [texts[m.text] for m in moves]

    def _candidates(self, s: list):
        """Every code the position's listings hold (`_listed`), or a move of its own."""
        f = self.fields
        for action, base in self.plan.actions:
            if action.kind == "exchange":
                yield from range(base, base + len(s[f["exchanges"]]))
            elif action.kind in self.plan.board.move_kinds and "places" in f \
                    and hasattr(self.plan.board, "relist"):
                yield from range(base, base + len(s[f["places"]]))
            elif action.kind not in self.plan.board.move_kinds:
                yield base

    def to_state(self, s: list):
        """The interpreter's `State` of the same match: the same seed, each move of the
        program's log applied in turn (records, replays and explain read it)."""
        n, seed = s[self.fields["n"]], s[self.fields["seed"]]
        state = self.game.new_game(n, seed)
        shadow = self._new(n, seed)
        marks = list(s[self.fields["marks"]]) if "marks" in self.fields else []
        for i, code in enumerate(s[self.fields["log"]]):
            while marks and marks[0][0] <= i:  # (the clock as it read at each move)
                state.set_clock(marks.pop(0)[1])
            state.apply(self.move_text(shadow, code))
            self.apply(shadow, code)
        for _, seconds in marks:
            state.set_clock(seconds)
        return state
