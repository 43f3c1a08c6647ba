"""`Game`: what is fixed for a ruleset (pieces, actions, rules by trigger), built once and
shared by every state, and the entry point `new_game`."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, Sequence

from engine.diagnostics import counted
from engine.expr import EvaluationError
from engine.kernel.compiled import compile_step
from engine.kernel.compiled_moves import (
    compile_legal, compile_move_moves, compile_piece_key, compile_play_moves,
    compile_simple_moves,
)
from engine.kernel.flow import EFFECTS, apply_move, settle, start_round
from engine.kernel.moves import Move
from engine.kernel.generators import GENERATORS
from engine.kernel.state import State
from engine.kernel.views import place_view_class
from engine.pieces import parse_deal as _parse_names
from engine.rules.cycles import can_graph, cycle_through


_PIECE_NAMES = ("tile", "card", "token", "piece")
_MOVE_NAMES = frozenset(("move",) + _PIECE_NAMES)


def _ranks(pieces, key) -> list | None:
    """`key(piece)` of every piece, indexed by uid; None without a key, or if it fails
    for some piece (then each is worked out when dealt, failing only if that one is)."""
    if key is None:  # (uids are the pieces' indexes, as `Game.values` takes them)
        return None
    try:
        return [key(piece) for piece in pieces]
    except EvaluationError:
        return None


def can_cycle(actions, definitions: Mapping = MappingProxyType({})) -> bool:
    """Whether generating the moves of some action may need that action's own moves: its
    guard reads `can_<itself>`, directly, through the guards of other actions or through
    definitions (`engine.rules.cycles`; lint reports such a ruleset as R442)."""
    graph = can_graph(actions, definitions)
    return any(cycle_through(name, graph) is not None for name in graph)


def players_mismatch(model, n: int) -> str:
    """Why `n` players cannot play; "for 1 player", not "for 1 to 1 players"."""
    lo, hi = model.players_min, model.players_max
    span = f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo} to {hi} players"
    return f"this ruleset is for {span}, not {n}"


class Game:
    """A compiled ruleset ready to play. Build it once per model; states share it."""

    def __init__(self, model, compiled: bool = True):
        self.model = model
        self.pieces = tuple(model.pieces)
        self.values = [int(p.attrs.get("value", 0)) for p in self.pieces]
        self.actions = tuple(model.actions)
        self.action_by_name = {a.name: a for a in self.actions}
        self.can_actions = {f"can_{a.name}": a for a in self.actions}
        self.place_actions = tuple(a for a in self.actions if a.kind == "place")
        self.rules_on: dict[str, list] = {}
        for rule in model.scoring:
            self.rules_on.setdefault(rule.on, []).append(rule)
        self.unique_names = len({p.name for p in self.pieces}) == len(self.pieces)
        self.mover_only = {
            trigger: all(r.to == "mover" for r in rules) for trigger, rules in self.rules_on.items()
        }
        self.tracks_unable = model.tracks_unable
        #: whether a move generator may need its own action's moves (see `State.moves_of`)
        self.can_cycle = can_cycle(self.actions, model.definitions)
        self.place_view = place_view_class(model.topology)  # `move` of a place action
        model.topology.learn_pieces(self.pieces)  # (a kind may index the whole set once)
        self.exchange_cache: dict = {}
        for action in self.actions:
            self._prepare_guard(action)
        for action in self.actions:
            self._prepare_effects(action)
        # Generated code (engine.kernel.compiled) unless `compiled` is false: the generic
        # path stays as the reference the tests compare it with. Kept on the Game, not on
        # the actions, which every Game built from one model shares.
        #: action name -> its move generator (a draw/pass/deal guard, a move's `accepts:`
        #: and `if:`, written in place)
        self.generators = {
            a.name: (compiled and (compile_simple_moves(self, a) or compile_play_moves(self, a)
                                   or compile_move_moves(self, a)))
            or GENERATORS[a.kind]
            for a in self.actions
        }
        #: `legal(state)`: the legal moves of a position not over, or None (`State.legal_moves`)
        self.legal = compile_legal(self) if compiled else None
        #: action name -> `step(state, move)`, everything `flow.apply_move` does
        self.steps = {
            a.name: compile_step(self, a) if compiled else apply_move for a in self.actions
        }
        #: action name -> the step of a search that undoes it (`State.search_save`): the
        #: same change of the position, without score events or log (`compile_step`)
        self.search_steps = {
            a.name: compile_step(self, a, search=True) if compiled else apply_move
            for a in self.actions
        }
        #: the opening rank of one piece as a function, when it reads the piece alone
        opening = model.opening
        self.opening_key = compile_piece_key(opening.rank) if compiled and opening else None
        also = opening.also if compiled and opening else None  # (as `(int(also),)`)
        self.opening_also = compile_piece_key([also]) if also is not None else None
        #: the opening rank of each piece by uid, worked out once (it reads the piece alone)
        self.opening_ranks = _ranks(self.pieces, self.opening_key)

    def _prepare_guard(self, action) -> None:
        """What move generation needs of `action`: its cache of play moves, and which
        names its guard reads (a guard reading only the piece filters in one call)."""
        action.play_moves = {}  # slot * key_width + piece uid -> the Move, made once
        action.key_width = len(self.pieces)
        names = getattr(action.guard, "names_used", None)
        action.guard_move = names is None or "move" in names
        action.guard_pieces = tuple(
            n for n in _PIECE_NAMES if names is None or n in names
        )
        action.guard_filter = None
        if action.kind in ("place", "play") and names is not None and not action.guard_move:
            make = getattr(action.guard, "filter", None)
            action.guard_filter = make(action.guard_pieces) if make else None

    def _prepare_effects(self, action) -> None:
        """What applying a move of `action` needs: its effect, its scoring rules, and
        whether anything it runs reads the move or the piece."""
        action.reads_move = self._reads_move(action)
        action.effect = EFFECTS[action.kind]
        action.needs_pool = action.kind in ("draw", "deal")
        action.only_move = Move(action.name)  # draw, pass, deal: the action's one move
        action.scoring = tuple(self.rules_on.get(action.name, ()))
        action.scoring_mover_only = bool(action.scoring) and self.mover_only[action.name]
        # The piece's names put in the context of what the action runs: those read
        # (a name left out is still found, through `move`, if read after all); all
        # of them when rules paying others copy them into their own contexts.
        pays_others = bool(action.scoring) and not action.scoring_mover_only
        action.move_aliases = tuple(
            n for n in _PIECE_NAMES if pays_others or self._reads(action, n)
        )

    def _reads_move(self, action) -> bool:
        """Whether anything run when `action` is applied (its `then`, `extra_turn` and
        scoring rules) reads `move` or the piece: if not, no move record is made."""
        return any(self._reads(action, name) for name in _MOVE_NAMES)

    def _reads(self, action, name: str) -> bool:
        """Whether an expression run when `action` is applied may read `name`."""
        exprs = [e for _, e in action.then] + [action.extra_turn]
        for rule in self.rules_on.get(action.name, ()):
            exprs += [rule.guard, rule.points]
        for expr in exprs:
            if expr is None:
                continue
            names = getattr(expr, "names_used", None)
            if names is None or name in names:
                return True
        return False

    @property
    def topology(self):
        return self.model.topology

    def new_game(
        self,
        players: int | None = None,
        seed: int = 0,
        deal: Sequence | None = None,
        chances: Sequence[Sequence[int]] | None = None,
    ) -> State:
        """A new match, its first round dealt.

        `deal` fixes the order of every piece for the first round (pieces, uids, or a
        text of piece names: see `parse_deal`). `chances` replays recorded chance
        outcomes (lists of uids) in place of the seeded generator.
        """
        n = self.model.players_default if players is None else int(players)
        if not self.model.players_min <= n <= self.model.players_max:
            raise ValueError(players_mismatch(self.model, n))
        state = State(self, n, seed)
        if chances is not None:
            state.forced_chances = [list(c) for c in chances]
        order = None if deal is None else self.parse_deal(deal)
        start_round(state, 1, order)
        state.setup_chances = state.pending_chances
        state.pending_chances = []
        settle(state, state.to_move)
        if state.pending_chances:  # a first round that stalled dealt another
            state.setup_chances += state.pending_chances
            state.pending_chances = []
        return state

    def parse_deal(self, deal) -> list:
        """A full order of the pieces: a text of names (`Ah 2c ...` or `Ah2c...` for
        two-character names), or a sequence of pieces or uids. Raises ValueError."""
        if isinstance(deal, str):
            order = _parse_names(deal, self.pieces)
        else:
            order = [self.pieces[x] if isinstance(x, int) else x for x in deal]
        if sorted(p.uid for p in order) != list(range(len(self.pieces))):
            raise ValueError(
                f"a deal must list every piece once: {counted(len(self.pieces), 'piece')},"
                f" got {len(order)}"
            )
        return order

    def explain_illegal(self, state: State, text: str) -> str:
        """Why the move written `text` is not legal in `state`."""
        if state.is_over:
            return "the game is over"
        word, _, arg = text.partition(" ")
        action = self.action_by_name.get(word)
        if action is None:
            names = ", ".join(self.action_by_name)
            # (it may be a piece's name or a cell as well as a misspelt action)
            return (f"no legal move reads `{text}`, and no action is named `{word}`"
                    f" (actions: {names})")
        if action.kind == "place" and arg:
            try:
                hand = state.hands[state.to_move]
                first = not state.round.placed_any
                state.board.parse_placement(arg, hand, first, action.rules)
            except (ValueError, NotImplementedError) as exc:
                return f"`{text}` is not legal: {exc}"
            if first and state.opening_pieces is not None:
                return f"`{text}` is not legal: the round must open with the opening piece"
            return f"`{text}` is not legal: the condition of `{word}` is false"
        if not state.moves_of(action):
            return f"`{word}` is not allowed now"
        return f"`{text}` is not a legal `{word}` move now"
