"""`Game`: what is fixed for a ruleset (pieces, actions, rules by trigger), built once and
shared by every state, and the entry point `new_game`."""

from __future__ import annotations

from typing import Sequence

from engine.kernel.flow import settle, start_round
from engine.kernel.state import State

try:  # the pieces layer's reader of deals, where it has one
    from engine.pieces import parse_deal as _parse_names
except ImportError:  # pragma: no cover - an older pieces layer: read names here
    _parse_names = None


def _expose_attributes(piece) -> None:
    """Copy a piece's attributes onto the instance, so that `tile.value` in a compiled
    expression is a plain attribute read rather than a `__getattr__` call (the values
    are the same; pieces stay immutable)."""
    for name, value in piece.attrs.items():
        if name not in ("uid", "component", "name", "attrs") and name not in piece.__dict__:
            object.__setattr__(piece, name, value)


class Game:
    """A compiled ruleset ready to play. Build it once per model; states share it."""

    def __init__(self, model):
        self.model = model
        self.pieces = tuple(model.pieces)
        self.values = [int(p.attrs.get("value", 0)) for p in self.pieces]
        self.actions = tuple(model.actions)
        self.action_by_name = {a.name: a for a in self.actions}
        self.place_actions = tuple(a for a in self.actions if a.kind == "place")
        self.rules_on: dict[str, list] = {}
        for rule in model.scoring:
            self.rules_on.setdefault(rule.on, []).append(rule)
        self.unique_names = len({p.name for p in self.pieces}) == len(self.pieces)
        self.mover_only = {
            trigger: all(r.to == "mover" for r in rules) for trigger, rules in self.rules_on.items()
        }
        self.tracks_unable = model.tracks_unable
        self.exchange_cache: dict = {}
        for action in self.actions:
            names = getattr(action.guard, "names_used", None)
            action.guard_move = names is None or "move" in names
            action.guard_pieces = tuple(
                n for n in ("tile", "card", "token", "piece") if names is None or n in names
            )
        for piece in self.pieces:
            _expose_attributes(piece)

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
            raise ValueError(
                f"this ruleset is for {self.model.players_min} to "
                f"{self.model.players_max} players, not {n}"
            )
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
        if isinstance(deal, str) and _parse_names is not None:
            order = _parse_names(deal, self.pieces)
        elif isinstance(deal, str):
            names = deal.replace(",", " ").split()
            if len(names) == 1 and len(names[0]) == 2 * len(self.pieces):
                names = [names[0][i : i + 2] for i in range(0, len(names[0]), 2)]
            free: dict[str, list] = {}
            for piece in reversed(self.pieces):
                free.setdefault(piece.name.lower(), []).append(piece)
            order = []
            for name in names:
                stack = free.get(name.lower())
                if not stack:
                    raise ValueError(f"`{name}` is not a piece of this set, or is listed twice")
                order.append(stack.pop())
        else:
            order = [self.pieces[x] if isinstance(x, int) else x for x in deal]
        if sorted(p.uid for p in order) != list(range(len(self.pieces))):
            raise ValueError(
                f"a deal must list every piece once: {len(self.pieces)} pieces, got {len(order)}"
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
            return f"`{text}` is not a move: unknown action `{word}` (actions: {names})"
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
