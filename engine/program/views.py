"""Views of a program's state: the read side of the interpreter's `State`, answered
from the program's one list `s` (docs/architecture.md, "One implementation of each
rule", step 2).

    view = program.view(s)            # ProgramView(program, s)
    view.scores, view.to_move, view.round.number, view.turn.placed, view.counters.run
    view.hands, view.pool, view.pile, view.zones, view.down, view.board (a topology Board)
    view.events (ScoreEvents), view.legal_texts(), view.clock, view.history
    render_svg(view), topology.render_text(view.board), view.context(seat)

A view reads `s` as it is: the numbers live, the objects it builds (the board of a
kind whose program keeps plain fields, the zones by key, the score events, the
counters, the replay) once per position, made again when the position changes (a move
adds an entry to the log, or changes the round's turns, the round, the pool or the
match's end: `_cached`). It changes nothing, and what it hands out is the program's
own lists: read them, never change them.

The view answers as the interpreter's `State` does, so that what reads a `State` reads
a view: `engine.render` (`render_svg` without marks), the terminal's drawing
(`render_runs`, `render_zones`, `pool_top_shown`), the adapters' `observation`, the
expression contexts (`engine.kernel.views.make_context(view, seat)`: the kernel's own
records over the view), `engine.kernel.zones` (`face_down`, `hidden_from`, ...).
`State`'s own readers (`key`, `zones_key`, `hidden_from`, `zone_pieces`, `mover`) are
the view's too, the same functions. The board is the board kind's own `Board`
(`view_boards.py`). The record's side (`history`) and what the program forgets of the
board come from a replay of the log on the program (`view_replay.py`).

The round's and turn's counters are all kept by a program's `apply` and
`preview_apply` (`steps.kept_counters`), and so is `turned` (the pieces the last `move`
turned face up); `turn.extra` is false between moves, as the interpreter's. So `key()`
answers as `State.key()` for a state the program made from its seed.

What a view cannot answer without the interpreter (step 3 adds it to the program's
state; reading it raises `NotKept`, or the view answers as noted):
- moves as `Move` objects (`legal_moves`, `find_move`, `preview`, and so
  `render_svg`'s `highlight` and `last_move`: a move's data is the interpreter's
  placement or slot): a view lists the moves' texts and codes, and `moves_of(action)`
  gives an action's codes (what `can_<action>` reads);
- the piece on each cell of a square board (the program keeps its value) and a
  tableau's deal (`TableauBoard.deal_uids`, which `key()` reads): both come from the
  replay, which needs a state the program made from its seed (`Program.new`); for one
  made by `Program.from_state` or a search's copy, whose log starts later, the view
  lays the first free piece of each value and takes the cards left for the deal, and
  has no history;
- a search's state (`search_copy`, `search_apply`) keeps no events and no log, and its
  step skips the round's, turn's and ruleset's counters no text of the ruleset reads
  (`search_apply` is the searches' hot path): those the view reads stale, and so its
  `key()`; a preview (`preview_apply`) skips the ruleset's unread counters too;
- the clock's readings of a ruleset that never reads `clock` (the interpreter keeps
  them for the record; `Program.set_clock` drops them);
- a new round is seen in `round.number`: the view's `round` is one object for its life
  (the interpreter's `State` makes a new `RoundInfo`, which the terminal's play compares
  by identity).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary
from weakref import ref as _weak

from engine.kernel.state import State
from engine.kernel.views import Clock, Counters, PileView, PlayerView, PoolView, make_context
from engine.program.view_boards import board_of, watcher
from engine.program.view_replay import Replay

_new = object.__new__
#: a round's and turn's counters as `RoundInfo` and `TurnInfo` name them -> their field
ROUND_FIELDS = {"number": "round", "turns": "turns", "placed_any": "placed_any",
                "turns_without_place": "without_place", "passes_in_row": "passes",
                "unable_in_row": "unable", "winner": "round_winner"}
TURN_FIELDS = {"draws": "t_draws", "placed": "t_placed", "actions": "t_actions",
               "could_place": "t_could"}


class NotKept(LookupError):
    """What the interpreter's `State` keeps and this program does not (see the module's
    docstring): a view cannot answer it."""


class Tables:
    """What a program's views read, worked out once per program: the fields, which of
    the round's and turn's counters it keeps, the counters' names, each zone's places
    and each action's span of codes."""

    def __init__(self, program):
        plan = program.plan
        self.f = f = program.fields
        self.counters = tuple(plan.model.counters)
        zones = plan.zones
        extra = plan.model.zones.extra() if plan.model.zones is not None else ()
        # zone key -> its places in the state's `zones` (`ZonesCode.places`)
        self.places = {z.key: range(zones.first[z.key], zones.first[z.key] + zones.count(z.key))
                       for z in extra} if zones is not None else {}
        bases = sorted(base for _, base in plan.actions) + [float("inf")]
        self.spans = {action.name: (base, bases[bases.index(base) + 1])
                      for action, base in plan.actions}
        self.stamp = (f["log"], f["turns"], f["round"], f["pool"], f["over"])


_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def tables_of(program) -> Tables:
    found = _TABLES.get(program)
    if found is None:
        found = _TABLES[program] = Tables(program)
    return found


class Look:
    """`round` or `turn` of a view: each counter read from `s` when asked (`RoundInfo`,
    `TurnInfo`'s fields)."""

    __slots__ = ("_s", "_at")
    names: dict = {}

    def __init__(self, s: list, tables: Tables):
        self._s, self._at = s, tables.f

    def __getattr__(self, name: str):
        field = self.names.get(name)
        if field is None:
            raise AttributeError(name)
        return self._s[self._at[field]]

    def __repr__(self) -> str:
        return f"<{self.what} of a program's state>"


class RoundLook(Look):
    __slots__ = ()
    what, names = "round", ROUND_FIELDS

    @property
    def reason(self) -> str:
        """Why the round ended (`""` while it goes on, as `RoundInfo.reason`)."""
        return self._s[self._at["reason"]] or ""


class TurnLook(Look):
    __slots__ = ()
    what, names = "turn", TURN_FIELDS

    #: `TurnInfo.extra`: false between moves, as the interpreter's (whose extra turn is
    #: a local of its step too, `flow.apply_move`; `TurnInfo.reset` clears the field)
    extra = False


class ProgramView:
    """The position a program's state `s` holds, read as the interpreter's `State` is
    (see the module's docstring). Cheap to make: it builds nothing until read."""

    def __init__(self, program, s: list):
        self.program, self.game, self.s = program, program.game, s
        self.tables = t = tables_of(program)
        self._f = t.f
        self._cache: dict = {}
        self._at = None
        self._replay: Replay | None = None
        self.round, self.turn = RoundLook(s, t), TurnLook(s, t)
        self.weak = _weak(self)
        self.player_views = views = [_new(PlayerView) for _ in range(s[t.f["n"]])]
        for i, view in enumerate(views):
            view._owner, view.index = self.weak, i

    # -- what the interpreter's `State` reads, from `State` itself ------------------------
    key = State.key
    zones_key = State.zones_key
    hidden_from = State.hidden_from
    zone_pieces = State.zone_pieces
    mover = State.mover

    def _get(self, name: str):
        return self.s[self._f[name]]

    def _cached(self, name: str, make):
        """The object `make()` builds, kept for this position: until the log's length,
        the round's turns, the round, the pool's size or the match's end changes (every
        step changes one, a search's too, which keeps no log)."""
        s, at = self.s, self.tables.stamp
        stamp = (len(s[at[0]]), s[at[1]], s[at[2]], len(s[at[3]]), s[at[4]])
        if stamp != self._at:
            self._cache.clear()
            self._at = stamp
        found = self._cache.get(name)
        if found is None:
            found = self._cache[name] = make()
        return found

    # -- the match ---------------------------------------------------------------------
    n = property(lambda self: self._get("n"))
    seed = property(lambda self: self._get("seed"))
    rng = property(lambda self: self._get("rng"))
    scores = property(lambda self: self._get("scores"))
    to_move = property(lambda self: self._get("to_move"))
    is_over = property(lambda self: self._get("over"))
    winner = property(lambda self: self._get("winner"))
    last_round_winner = property(lambda self: self._get("last_winner"))
    turns_total = property(lambda self: self._get("turns_total"))
    opening_pieces = property(lambda self: self._get("opening"))

    #: the pieces the last `move` turned face up (`State.turned`)
    turned = property(lambda self: self._get("turned"))

    @property
    def counters(self) -> Counters:
        """`counters`: the ruleset's counters by name (a `Counters`, as the state's)."""
        def make():
            found = Counters()
            found.__dict__.update(zip(self.tables.counters, self._get("counters")))
            return found
        return self._cached("counters", make)

    @property
    def clock(self) -> Clock:
        """`clock`: its seconds, and the marks a record writes (none kept by a program
        of a ruleset that never reads it)."""
        found = Clock()
        if "clock" in self._f:
            found.seconds, found.marks = self._get("clock"), list(self._get("marks"))
        return found

    # -- where the pieces are -------------------------------------------------------------
    hands = property(lambda self: self._get("hands"))
    pool = property(lambda self: self._get("pool"))
    pile = property(lambda self: self._get("pile"))

    def _by_zone(self, name: str) -> dict:
        """The program's list `name` (`zones` or `down`: an item per place) as the state
        keeps it: zone key -> an item per zone of that key (`ZonesCode.places`), for the
        zones beyond pool and pile."""
        def make():
            places = self._get(name) if self.tables.places else None
            return {key: [places[z] for z in span] for key, span in self.tables.places.items()}
        return self._cached(name, make)

    #: the zones beyond pool, hands and pile: key -> one list of pieces per zone
    zones = property(lambda self: self._by_zone("zones"))
    #: how many pieces of each of those zones lie face down, from the bottom
    down = property(lambda self: self._by_zone("down"))

    @property
    def board(self):
        """The board as its kind's own `Board` (`view_boards.board_of`)."""
        return self._cached("board", lambda: board_of(self))

    # -- what happened ---------------------------------------------------------------------
    @property
    def events(self) -> list:
        """Every score event of the match so far (`Program.events`)."""
        return self._cached("events", lambda: self.program.events(self.s))

    def replay(self) -> Replay | None:
        """The log replayed on the program from the match's seed, up to this position;
        None when `s` was not made by `Program.new` (its log starts later)."""
        def make():
            replay = self._replay
            if replay is None or not replay.extends(self.s):
                replay = self._replay = Replay(self.program, self.s, watcher(self.program))
            replay.advance(self.s)
            return replay if replay.valid else False
        return self._cached("replay", make) or None

    @property
    def history(self) -> list[dict]:
        """One dict per move, as records hold them (`State.history`): its text, its
        chance outcomes, the scores after it, and the clock's reading once set."""
        replay = self._need_replay("history")
        out = replay.history()
        readings = self.clock.at_each(len(out))
        for entry, seconds in zip(out, readings or ()):
            entry["seconds"] = seconds
        return out

    @property
    def setup_chances(self) -> list[list[int]]:
        """The setup's shuffles, as uids first dealt first (`State.setup_chances`)."""
        return [[p.uid for p in order] for at, order in self._get("chances") if at == -1]

    def _need_replay(self, what: str) -> Replay:
        replay = self.replay()
        if replay is None:
            raise NotKept(f"the {what} of a state not made by `Program.new`")
        return replay

    # -- the moves ---------------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        return self._get("legal")

    def legal_texts(self) -> list[str]:
        """The legal moves' texts, in the interpreter's order."""
        return self._cached("texts", lambda: self.program.legal_texts(self.s))

    def moves_of(self, action) -> list[int]:
        """The legal moves of one action, as the program's codes (what `can_<action>`
        reads: whether there are any)."""
        lo, hi = self.tables.spans[action.name]
        return [code for code in self._get("legal") if lo <= code < hi]

    def can(self, name: str) -> bool:
        """`can_<name>`: whether the player to move has a legal move of that action."""
        action = self.game.action_by_name.get(name)
        return bool(action is not None and not self.is_over and self.moves_of(action))

    # -- expression contexts -----------------------------------------------------------------
    @property
    def base_values(self) -> dict:
        """The context's records (`State.base_values`): players, pool, pile, board,
        round, turn, counters, clock."""
        pool, pile = _new(PoolView), _new(PileView)
        pool._owner = pile._owner = self.weak
        return {"players": self.player_views, "pool": pool, "pile": pile,
                "board": self.board, "round": self.round, "turn": self.turn,
                "counters": self.counters, "clock": self.clock}

    def context(self, seat: int | None = None):
        """An evaluation context with `seat` (default: the player to move) as `player`
        (`State.context`; it reads this view through a weak reference: keep the view)."""
        return make_context(self, self.to_move if seat is None else seat)

    def __repr__(self) -> str:
        return (f"<view of a program's state: round {self.round.number},"
                f" P{self.to_move + 1} to move>")


__all__ = ["NotKept", "ProgramView", "tables_of"]
