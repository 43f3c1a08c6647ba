"""The interpreter's positions for the solver's search (`engine.players.solver_search`):
kernel `State`s and `Move`s.

The search's step is the kernel's step for a search (`Game.search_steps`: the same
change, no score events or log). In `optimise` each move is applied to the position
itself and taken back (`branch` saves what a move may change, `State.search_save`,
and `back` restores it, `State.search_restore`): no state is copied. `decide` keeps a
position's children to search them after all are stepped, so it steps copies
(`State.search_clone`).
"""

from __future__ import annotations

from operator import attrgetter, methodcaller

from engine.players.solver_key import make_key, top_classes
from engine.players.solver_safe import defer_filter, safe_picker


class StatePositions:
    """`Positions` over the interpreter's states (see the module's docstring)."""

    legal = staticmethod(methodcaller("legal_moves"))
    scores = staticmethod(attrgetter("scores"))
    copy = staticmethod(methodcaller("search_clone"))
    action_of = staticmethod(attrgetter("action"))

    def __init__(self, game, turns_keyed: bool):
        self.game = game
        self.hints = (safe_picker(game), defer_filter(game))
        self.turns_keyed = turns_keyed
        self.cut = False
        self.seat = 0
        self.root = None
        self._saved: list = []
        self._ends: list = []  # (why the round ended, at the step that ended it)

    def key_from(self, root, relevance, fields: tuple):
        self.root, self.seat = root, root.to_move
        return make_key(root.game, relevance.round_fields, fields[0], fields[1], root,
                        top_classes(root.game, relevance.top_fields))

    def start(self):
        self._saved, self._ends[:] = [], ()
        return self.root.search_clone()

    def ends_of(self, state) -> list:
        """The round ends of the search's steps (one list for every state)."""
        return self._ends

    def branch(self, state):
        """The position itself, what a move may change saved for `back`."""
        self._saved.append(state.search_save())
        return state

    def back(self, state) -> None:
        """Undo the moves since the last `branch` of `state`."""
        state.search_restore(self._saved.pop())

    def step(self, state, move) -> None:
        """The search's step; why the round ended, if it did, in `ends_of(state)`."""
        before = state.round
        state.game.search_steps[move.action](state, move)
        if state.round is not before or state.is_over:
            self._ends.append(
                (before.reason if state.round is not before else state.round.reason) or "?")

    def reason(self, state) -> str:
        """Why the round ended (a step just ended it); notes a line the turn limit cut
        while the key does not hold the turn number."""
        reason = self._ends.pop()
        if reason == "turn_limit" and not self.turns_keyed:
            self.cut = True
        return reason

    @staticmethod
    def texts(moves: list) -> list[str]:
        return [move.text for move in moves]

    @staticmethod
    def replay(root):
        return root.clone()

    @staticmethod
    def play(state, move) -> tuple[str, str | None]:
        """Apply a move of another copy of the position (found again by its text):
        (its text, the reason if it ended the round, else None). A round that ends
        without ending the match is followed at once by the next one, in a new round
        record: the old record keeps the reason."""
        move = state.find_move(move.text)
        before = state.round
        state.game.steps[move.action](state, move)
        if state.round is not before:
            return move.text, before.reason or "?"
        return move.text, (state.round.reason or "?") if state.is_over else None
