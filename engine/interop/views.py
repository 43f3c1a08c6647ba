"""What the interop adapters share: a compiled game per (ruleset, overlays), every
chance outcome as explicit chance steps, stable integer codes of moves, and what one
seat may see.

Every chance outcome the kernel records (the round-1 shuffle, a later round's shuffle,
the pool's order after an exchange) becomes a run of chance steps, one per piece: the
next piece of that order, uniform over the pieces not placed yet. A match keeps every
outcome chosen and rebuilds its kernel state from them (`Game.new_game(chances=...)`
and the moves so far), so the kernel's generator never decides anything.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache

CODE_BITS = 31  # move codes are non-negative 31-bit integers (OpenSpiel's actions are int)


@lru_cache(maxsize=64)
def load_game(ruleset: str, overlays: tuple[str, ...] = ()):
    """The kernel `Game` of a ruleset with overlays, compiled once per process."""
    from engine.api import load

    return load(ruleset, overlays).game


def split_overlays(text: str) -> tuple[str, ...]:
    """`"a,b"` (OpenSpiel's string parameter) -> ("a", "b")."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def move_code(text: str) -> int:
    """The integer of a move: the first 31 bits of the BLAKE2b hash of its text. The text
    is made of piece names and board coordinates, so the code stays as long as they do."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - CODE_BITS)


def coded_moves(state) -> dict[int, object]:
    """The legal moves by code, in code order; two moves with one code are an error
    (a chance of about n*n / 2**32 for n legal moves; none in the shipped rulesets)."""
    found: dict[int, object] = {}
    for move in state.legal_moves():
        code = move_code(move.text)
        if code in found:
            raise RuntimeError(f"moves `{found[code].text}` and `{move.text}` share the code {code}")
        found[code] = move
    return dict(sorted(found.items()))


@dataclass
class Match:
    """A match in progress over explicit chance. `chances`: every outcome chosen so far
    (lists of uids, first dealt first); `pending`: the piece sets still to order (each an
    outcome the kernel needs next), `partial` the one being chosen; `waiting` the move
    that needs them (None for the setup) and `before` the state it is played on."""

    ruleset: str
    overlays: tuple[str, ...]
    players: int
    chances: list[list[int]] = field(default_factory=list)
    pending: list[list[int]] = field(default_factory=list)
    partial: list[int] = field(default_factory=list)
    waiting: str | None = None
    moves: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)  # the seat that made each move
    state: object = None  # the kernel state once no chance is pending (else the one before)

    def __post_init__(self) -> None:
        if self.state is None and not self.pending and not self.chances:
            self.pending = [list(range(len(self.game.pieces)))]  # round 1's shuffle

    @property
    def game(self):
        return load_game(self.ruleset, self.overlays)

    @property
    def dealing(self) -> bool:
        """Whether chance moves next."""
        return bool(self.pending)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(piece uid, probability): the next piece of the order being chosen."""
        left = sorted(set(self.pending[0]) - set(self.partial))
        return [(uid, 1.0 / len(left)) for uid in left]

    def chance_text(self, outcome: int) -> str:
        return f"next {self.game.pieces[outcome].name} (piece {outcome})"

    def apply_chance(self, outcome: int) -> None:
        """Put piece `outcome` next in the order being chosen; once every pending order is
        chosen, play on (the setup, or the move that needed them)."""
        self.partial.append(outcome)
        if len(self.partial) < len(self.pending[0]):
            return
        self.chances.append(self.partial)
        self.partial = []
        self.pending.pop(0)
        if not self.pending:
            self._rebuild()

    def _rebuild(self) -> None:
        """The kernel state from the outcomes and moves; outcomes it needed beyond those
        (a deal that stalls and deals again) become pending in turn."""
        moves = self.moves + ([self.waiting] if self.waiting is not None else [])
        state = self.game.new_game(self.players, 0, chances=self.chances)
        for text in moves:
            state.apply(text)
        used = [list(c) for c in state.setup_chances] + [
            list(c) for entry in state.history for c in entry["chances"]]
        if len(used) > len(self.chances):  # drawn by the generator: choose them instead
            self.pending = [sorted(c) for c in used[len(self.chances):]]
            return
        if self.waiting is not None:
            self.movers.append(self.state.to_move)
            self.moves.append(self.waiting)
            self.waiting = None
        self.state = state

    def play(self, move) -> None:
        """Apply a kernel move (or its text); when it needs chance, the move waits for
        the chance steps and the state stays as it was."""
        text = move if isinstance(move, str) else move.text
        before = self.state.clone()
        self.state.apply(move)
        drawn = self.state.history[-1]["chances"]
        if drawn:
            self.state, self.waiting = before, text
            self.pending = [sorted(c) for c in drawn]
            return
        self.moves.append(text)
        self.movers.append(before.to_move)

    def scores(self) -> list[int]:
        return list(self.state.scores) if self.state is not None else [0] * self.players

    def __deepcopy__(self, memo) -> "Match":
        state = self.state.clone() if self.state is not None else None
        return Match(self.ruleset, self.overlays, self.players, [list(c) for c in self.chances],
                     [list(c) for c in self.pending], list(self.partial), self.waiting,
                     list(self.moves), list(self.movers), state)

    def __reduce__(self):
        return (_replayed, (self.ruleset, self.overlays, self.players, self.chances,
                            self.pending, self.partial, self.waiting, self.moves, self.movers))


def _replayed(ruleset, overlays, players, chances, pending, partial, waiting, moves, movers):
    """A match from its pickled fields: the kernel state replayed from the outcomes."""
    match = Match(ruleset, tuple(overlays), players, [list(c) for c in chances],
                  [list(c) for c in pending], list(partial), waiting, list(moves), list(movers))
    if chances:
        state = match.game.new_game(players, 0, chances=chances)
        for text in moves:
            state.apply(text)
        match.state = state
    return match


def public_text(game, text: str) -> str:
    """A move as the other seats see it: an exchange says how many pieces went back, not
    which (they come from the mover's hidden hand); every other move is public."""
    word, _, rest = text.partition(" ")
    action = game.action_by_name.get(word)
    if action is not None and action.kind == "exchange":
        return f"{word} ({len(rest.split())} pieces)"
    return text


def seat_view(match: Match, seat: int, with_history: bool = True) -> str:
    """What `seat` knows, as text: the public position (board as drawn, with face-down
    pieces hidden; the pile's top; how many pieces each hand and the pool hold; scores),
    its own hand, and (for an information state) every move played so far. Other hands,
    the pool's order and the deal stay hidden."""
    if match.state is None:
        return f"seat {seat} of {match.players}; dealing"
    state, game = match.state, match.game
    hand = " ".join(p.name for p in state.hands[seat]) or "-"
    counts = " ".join(str(len(h)) for h in state.hands)
    top = state.pile[-1].name if state.pile else "-"
    lines = [
        f"seat {seat} of {match.players}; to move: seat {state.to_move}; round {state.round.number}",
        f"scores: {' '.join(map(str, state.scores))}",
        f"hand: {hand}",
        f"hand sizes: {counts}; pool: {len(state.pool)}; pile: {len(state.pile)}, top {top}",
        game.model.topology.render_text(state.board),
    ]
    if with_history:
        seen = (m if s == seat else public_text(game, m) for s, m in zip(match.movers, match.moves))
        lines.append("moves: " + "; ".join(f"{s}:{m}" for s, m in zip(match.movers, seen)))
    return "\n".join(lines)


def observation_size(game, players: int) -> int:
    """The length of `observation` for a game and player count."""
    return 4 * len(game.pieces) + 4 * players + 2


def _seen_on_board(board) -> list:
    """The board's pieces a player can see: on a tableau the exposed ones (face-down
    cards stay hidden), on a placement board every piece."""
    try:
        return [piece for _, piece in board.iter_exposed()]
    except NotImplementedError:
        return board.pieces_on_board()


def observation(state, seat: int):
    """What `seat` sees, as float32: per piece (uid order) four flags (in this seat's
    hand, seen on the board, in the pile, the pile's top), then by seat: to move, is
    this seat, score, hand size; then the pool's size and the round number."""
    import numpy as np

    pieces, n = len(state.game.pieces), state.n
    out = np.zeros(observation_size(state.game, n), np.float32)
    for piece in state.hands[seat]:
        out[4 * piece.uid] = 1
    for piece in _seen_on_board(state.board):
        out[4 * piece.uid + 1] = 1
    for piece in state.pile:
        out[4 * piece.uid + 2] = 1
    if state.pile:
        out[4 * state.pile[-1].uid + 3] = 1
    base = 4 * pieces
    out[base + state.to_move] = 1
    out[base + n + seat] = 1
    out[base + 2 * n: base + 3 * n] = state.scores
    out[base + 3 * n: base + 4 * n] = [len(h) for h in state.hands]
    out[base + 4 * n] = len(state.pool)
    out[base + 4 * n + 1] = state.round.number
    return out
