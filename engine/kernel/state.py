"""A game in progress: the mutable state, its legal moves, cloning and keys.

The state changes only through `apply` (in `engine.kernel.flow`). Legal moves are
generated once per decision point and cached; so are the moves of each action, which
is what `can_<action>` reads.
"""

from __future__ import annotations

import random
from operator import attrgetter
from weakref import ref as _weak
from typing import Hashable

from engine.expr import EvaluationError
from engine.kernel.moves import IllegalMove, Move, RuleFailure, ScoreEvent
from engine.kernel.views import (
    Clock, Counters, PileView, PlayerView, PoolView, RoundInfo,
    TurnInfo,
    make_context,
)
from engine.kernel.zones import hidden_from, iter_zone_pieces

# `Game` in annotations is engine.kernel.game.Game, named, not imported: the game module
# sits above this one (it builds states), and the kernel's imports run one way.

_new = object.__new__
_BUSY = object()  # marks an action whose moves are being generated (a `can_` cycle)


class State:
    """Everything that changes during a match. Build one with `Game.new_game`."""

    def __init__(self, game: "Game", players: int, seed: int):
        self.game = game
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed)
        self._rng_shared = False
        self.scores = [0] * players
        self.hands: list[list] = [[] for _ in range(players)]
        self.pool: list = []  # the top (next drawn) is the last item
        self.pile: list = []  # the top is the last item
        # the zones beyond those three: key -> one list per zone (see engine.kernel.zones)
        self.zones: dict[str, list[list]] = {}
        self.down: dict[str, list[int]] = {}  # how many of each lie face down
        self.turned = 0  # pieces the last `move` turned face up
        self.board = game.model.topology.new_board()
        self.to_move = 0
        self.round = RoundInfo(0)
        self.turn = TurnInfo()
        self.counters = Counters()
        self.clock = Clock()
        self.events: list[ScoreEvent] = []
        # One entry per applied move, for records: (move, its chance outcomes, the scores
        # after it). `history` writes them out as records hold them, when asked (a
        # pool's order as piece numbers: see `chance_uids`).
        self.log: list[tuple] = []
        self.setup_chances: list[list[int]] = []
        self.pending_chances: list[list[int]] = []
        self.forced_chances: list[list[int]] | None = None
        self.opening_pieces: frozenset | None = None
        self.is_over = False
        self.winner: int | None = None
        self.last_round_winner: int | None = None
        self.turns_total = 0
        self.previewing = False
        self._bind_views()
        self._invalidate()

    # -- views and contexts -------------------------------------------------------
    def _bind_views(self) -> None:
        # Views are made without their `__init__` (a call each): a clone binds a set.
        # (a weak reference to the state: see `engine.kernel.views`)
        weak = self.weak = _weak(self)
        views = self.player_views = [_new(PlayerView) for _ in range(self.n)]
        for i, view in enumerate(views):
            view._owner = weak
            view.index = i
        pool, pile = _new(PoolView), _new(PileView)
        pool._owner = pile._owner = weak
        self.base_values = {
            "players": views,
            "pool": pool,
            "pile": pile,
            "board": self.board,
            "round": self.round,
            "turn": self.turn,
            "counters": self.counters,
            "clock": self.clock,
        }

    def _rebind(self) -> None:
        """After replacing board/round/turn objects, point the base values at them."""
        base = self.base_values
        base["board"] = self.board
        base["round"] = self.round
        base["turn"] = self.turn
        base["counters"] = self.counters
        base["clock"] = self.clock

    def context(self, seat: int | None = None):
        """A fresh evaluation context with `seat` (default: the player to move) as `player`
        (it reads this state through a weak reference: keep the state while using it)."""
        return make_context(self, self.to_move if seat is None else seat)

    def _invalidate(self) -> None:
        self._legal: list[Move] | None = None
        self._listed: set[int] | None = None
        self._by_text: dict | None = None
        self._by_action: dict[str, object] = {}
        self._ctx = None

    def _decision_context(self):
        if self._ctx is None:
            self._ctx = make_context(self, self.to_move)
        return self._ctx

    # -- legal moves ----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move, in the documented order (actions as written, then the kind's)."""
        legal = self._legal
        if legal is None:
            if self.is_over:
                legal = []
            elif self.game.legal is not None:
                legal = self.game.legal(self)  # `_every_move`, generated (compiled_moves.py)
            else:
                legal = self._every_move()
            self._legal = legal
        return legal

    def _every_move(self) -> list[Move]:
        # The moves of an action are usually known already (a round-end condition read
        # `can_<action>`): taken from the cache without a call.
        known, legal = self._by_action, []
        for action in self.game.actions:
            found = known.get(action.name)
            if found is None or found is _BUSY:
                found = self.moves_of(action)
            legal += found
        return legal

    def moves_of(self, action) -> list[Move]:
        """The legal moves of one action (cached until the state changes)."""
        known = self._by_action
        found = known.get(action.name)
        if found is not None:
            if found is _BUSY:
                raise RuntimeError(f"`can_{action.name}` depends on itself")
            return found  # type: ignore[return-value]
        if self.game.can_cycle:  # mark it under way: a guard may lead back to it
            known[action.name] = _BUSY
        try:
            found = self.game.generators[action.name](self, action)
        except EvaluationError as exc:
            known.pop(action.name, None)
            raise RuleFailure(f"the condition of action `{action.name}`",
                              action.guard_pos or action.pos, exc) from exc
        except BaseException:
            known.pop(action.name, None)
            raise
        known[action.name] = found
        return found  # type: ignore[return-value]

    def can(self, name: str) -> bool:
        """`can_<name>`: whether the player to move has a legal move of that action."""
        action = self.game.action_by_name.get(name)
        return bool(action is not None and not self.is_over and self.moves_of(action))

    def find_move(self, move: Move | str) -> Move:
        """The legal move equal to `move` (or with that text); IllegalMove if there is none."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        if isinstance(move, Move):
            # One of the listed moves itself (the usual case): found by identity, without
            # hashing or formatting anything.
            if self._is_listed(legal, move):
                return move
            key = move.text
        else:
            key = " ".join(str(move).split())
        if self._by_text is None:
            self._by_text = {m.text: m for m in legal}
        found = self._by_text.get(key)
        if found is None:
            raise IllegalMove(self.game.explain_illegal(self, key))
        return found

    def _is_listed(self, legal: list[Move], move: Move) -> bool:
        """Whether `move` is one of the objects in `legal` (the current legal moves).

        A scan for a short list; for a long one, a set of the moves' ids, made once per
        position (an agent that previews every move would otherwise scan the list once
        per move: quadratic). The listed moves stay alive in `legal`, so ids are unique.
        """
        if len(legal) <= 16:
            for listed in legal:
                if listed is move:
                    return True
            return False
        listed = self._listed
        if listed is None:
            listed = self._listed = set(map(id, legal))
        return id(move) in listed

    def apply(self, move: Move | str) -> list[ScoreEvent]:
        """Apply a legal move (or its text); returns the score events it caused."""
        legal = self._legal
        # One of the listed moves itself (an agent's choice): found by one scan, a plain
        # loop being cheaper than a C-level `any` over so few moves
        if legal is not None and type(move) is Move:
            for listed in legal:
                if listed is move:
                    return self.game.steps[move.action](self, move)
        move = self.find_move(move)  # not one of the listed moves: look it up
        return self.game.steps[move.action](self, move)

    def preview(self, move: Move | str) -> tuple[list[ScoreEvent], "State"]:
        """What `move` would do: its score events and the state after it, on a copy
        (which must not be played on: it skips the check for a stalled round)."""
        move = self.find_move(move)
        trial = self.clone()
        trial.previewing = True
        return self.game.steps[move.action](trial, move), trial

    # -- copying and identity ------------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy (the board is cloned; pieces are shared, being immutable)."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        other.hands = [list(h) for h in self.hands]
        other.pool = list(self.pool)
        other.pile = list(self.pile)
        if self.zones:
            other.zones = {k: [list(z) for z in rows] for k, rows in self.zones.items()}
            other.down = {k: list(v) for k, v in self.down.items()}
        other.board = self.board.clone()
        other.round = self.round.copy()
        other.turn = self.turn.copy()
        other.counters = self.counters.copy()
        other.clock = self.clock.copy()
        other.events = list(self.events)
        other.log = list(self.log)
        other.pending_chances = list(self.pending_chances)
        if self.forced_chances is not None:
            other.forced_chances = list(self.forced_chances)
        # Copy-on-write random generator: neither side may advance the shared one.
        self._rng_shared = other._rng_shared = True
        other._bind_views()
        # The same position has the same moves: the lists are values, shared until either
        # side changes (each then makes new ones). Only the context is the state's own.
        other._ctx = None
        by_action = self._by_action
        other._by_action = (
            {k: v for k, v in by_action.items() if v is not _BUSY} if by_action else {}
        )
        return other

    def search_clone(self) -> "State":
        """As `clone`, for a search that only looks ahead: the copy starts with an empty
        log and event list (copying them costs as much as the line is long), and shares
        no cached moves of an action (a search asks for the whole list)."""
        other = _new(State)
        other.__dict__.update(self.__dict__)
        other.scores = self.scores[:]
        other.hands = [h[:] for h in self.hands]
        other.pool = self.pool[:]
        other.pile = self.pile[:]
        if self.zones:
            other.zones = {k: [z[:] for z in rows] for k, rows in self.zones.items()}
            other.down = {k: v[:] for k, v in self.down.items()}
        other.board = self.board.clone()
        other.round = self.round.copy()
        other.turn = self.turn.copy()
        other.counters = self.counters.copy()
        other.clock = Clock()  # (no log to mark: the reading alone)
        other.clock.seconds = self.clock.seconds
        other.events, other.log, other.pending_chances = [], [], []
        if self.forced_chances is not None:
            other.forced_chances = list(self.forced_chances)
        self._rng_shared = other._rng_shared = True
        other._bind_views()
        other._ctx = None
        other._by_action = {}
        return other

    def set_clock(self, seconds: int) -> None:
        """The seconds of play from now on, as the front end measures them (`clock.seconds`
        in expressions); kept for the record, which then gives each move its reading."""
        if type(seconds) is not int or seconds < 0:
            raise ValueError(f"the clock reads whole seconds from 0, not {seconds!r}")
        clock, at = self.clock, len(self.log)
        if seconds != clock.seconds and self.game.model.reads_clock:
            self._invalidate()  # a condition may read the clock: moves listed anew
        clock.seconds = seconds
        if clock.marks and clock.marks[-1][0] == at:
            clock.marks[-1] = (at, seconds)
        elif not clock.marks or clock.marks[-1][1] != seconds:
            clock.marks.append((at, seconds))

    def search_save(self) -> tuple:
        """What a move may change, saved so that `search_restore` undoes it in place: a
        search applies a move to the position itself and takes it back, instead of
        stepping a clone (no new state, views or dicts; the log and the events are cut
        back to their length). Each saved value is restored once: save again per move.
        The generator is marked shared first, so a move that shuffles (a new round)
        advances a copy of it and the saved one stays as it was."""
        self._rng_shared = True
        zones = self.zones
        return (
            self.scores[:], [h[:] for h in self.hands], self.pool[:], self.pile[:],
            {k: [z[:] for z in rows] for k, rows in zones.items()} if zones else zones,
            {k: v[:] for k, v in self.down.items()} if zones else self.down,
            self.board.clone(), self.round.copy(), self.turn.copy(), self.counters.copy(),
            len(self.events), len(self.log), self.pending_chances[:],
            self.forced_chances[:] if self.forced_chances is not None else None,
            (self.to_move, self.is_over, self.winner, self.last_round_winner,
             self.turns_total, self.turned, self.opening_pieces, self.rng),
            self._legal, self._by_action,
        )

    def search_restore(self, saved: tuple) -> None:
        """Undo every change since `search_save` made `saved` (see there)."""
        (self.scores, self.hands, self.pool, self.pile, self.zones, self.down,
         self.board, self.round, self.turn, self.counters, events, log,
         self.pending_chances, self.forced_chances, scalars, self._legal,
         self._by_action) = saved
        (self.to_move, self.is_over, self.winner, self.last_round_winner,
         self.turns_total, self.turned, self.opening_pieces, self.rng) = scalars
        self._rng_shared = True
        del self.events[events:]
        del self.log[log:]
        self._listed = self._by_text = self._ctx = None
        base = self.base_values
        base["board"], base["round"] = self.board, self.round
        base["turn"], base["counters"] = self.turn, self.counters

    @property
    def history(self) -> list[dict]:
        """One dict per applied move, as records hold them: its text, the chance outcomes
        it caused, the scores after it and, once the clock was set, its reading (a new
        list each time: built from `log`)."""
        out = [{"move": move.text, "chances": chance_uids(chances), "scores": scores}
               for move, chances, scores in self.log]
        readings = self.clock.at_each(len(out))
        for entry, seconds in zip(out, readings or ()):
            entry["seconds"] = seconds
        return out

    def random(self) -> random.Random:
        """The state's own generator, copied first if a clone still shares it."""
        if self._rng_shared:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self._rng_shared = False
        return self.rng

    def key(self, with_scores: bool = True) -> Hashable:
        """A hashable summary of the position: equal keys, equal futures (for solvers)."""
        r, t = self.round, self.turn
        return (
            self.to_move,
            tuple(tuple(sorted(p.uid for p in h)) for h in self.hands),
            tuple(p.uid for p in self.pool),
            tuple(p.uid for p in self.pile),
            self.board.key(),
            tuple(sorted(self.counters.__dict__.items())),
            (r.number, r.turns_without_place, r.passes_in_row, r.unable_in_row, r.placed_any),
            (t.draws, t.placed, t.actions),
            tuple(self.scores) if with_scores else (),
            self.opening_pieces,
            self.is_over,
            self.zones_key(),
        )

    def zones_key(self) -> tuple:
        """The zones beyond pool, hands and pile, as a hashable value (for keys)."""
        if not self.zones:
            return ()
        return tuple((k, tuple(tuple(p.uid for p in z) for z in rows), tuple(self.down[k]))
                     for k, rows in self.zones.items())

    def hidden_from(self, seat: int | None) -> dict[str, list]:
        """The pieces `seat` may not see, by where they lie (`engine.kernel.zones`): what
        a player that samples hidden information must resample, and nothing else."""
        return hidden_from(self, seat)

    def zone_pieces(self) -> list:
        """Every piece in a zone beyond pool, hands and pile."""
        return list(iter_zone_pieces(self))

    @property
    def mover(self) -> int:
        return self.to_move


_UID = attrgetter("uid")


def chance_uids(chances: list) -> list[list[int]]:
    """The chance outcomes of one move as records hold them: lists of piece numbers,
    first drawn first. A pool mixed by an exchange is logged as the tuple of its pieces
    in the pool's own order, last drawn first (`flow.mix_into_pool`), and turned into
    numbers only here; a list of numbers is kept as it is (the same list). A move
    without any is logged with an empty tuple (`flow.log_move`): a new empty list."""
    if not chances:
        return []
    for chance in chances:
        if type(chance) is tuple:
            return [list(map(_UID, reversed(c))) if type(c) is tuple else c
                    for c in chances]
    return chances


__all__ = ["State", "IllegalMove"]
