"""What the interop adapters share: a compiled game per (ruleset, overlays), the deal as
chance outcomes, stable integer codes of moves, and what one seat may see.

A match starts with chance: the round-1 order of every piece (one outcome per piece,
first dealt first, as `Game.new_game(deal=...)` takes it), then the seed of the state's
generator, which the kernel uses for every later chance outcome (a new round's shuffle,
an exchange's reshuffle).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache

SEEDS = 1024  # outcomes of the last chance node (the generator's seed for later chance)
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
    """A match in progress, chance first: `dealt` (piece uids so far), then `seed`, then the
    kernel state. Deep copies clone the kernel state; pickles replay the moves."""

    ruleset: str
    overlays: tuple[str, ...]
    players: int
    dealt: list[int] = field(default_factory=list)
    seed: int | None = None
    moves: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)  # the seat that made each move
    state: object = None

    @property
    def game(self):
        return load_game(self.ruleset, self.overlays)

    @property
    def dealing(self) -> bool:
        return self.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability): the next piece dealt, or the generator's seed."""
        if len(self.dealt) < len(self.game.pieces):
            left = sorted(set(range(len(self.game.pieces))) - set(self.dealt))
            return [(uid, 1.0 / len(left)) for uid in left]
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def chance_text(self, outcome: int) -> str:
        if len(self.dealt) < len(self.game.pieces):
            return f"deal {self.game.pieces[outcome].name} (piece {outcome})"
        return f"seed {outcome}"

    def apply_chance(self, outcome: int) -> None:
        if len(self.dealt) < len(self.game.pieces):
            self.dealt.append(outcome)
        else:
            self.seed = outcome
            self.state = self.game.new_game(self.players, outcome, deal=list(self.dealt))

    def play(self, move) -> list:
        """Apply a kernel move (or its text); its score events."""
        seat = self.state.to_move
        events = self.state.apply(move)
        self.moves.append(move if isinstance(move, str) else move.text)
        self.movers.append(seat)
        return events

    def scores(self) -> list[int]:
        return list(self.state.scores) if self.state is not None else [0] * self.players

    def __deepcopy__(self, memo) -> "Match":
        state = self.state.clone() if self.state is not None else None
        return Match(self.ruleset, self.overlays, self.players, list(self.dealt), self.seed,
                     list(self.moves), list(self.movers), state)

    def __reduce__(self):
        return (_replayed, (self.ruleset, self.overlays, self.players, list(self.dealt),
                            self.seed, list(self.moves)))


def _replayed(ruleset, overlays, players, dealt, seed, moves) -> Match:
    match = Match(ruleset, tuple(overlays), players, list(dealt))
    if seed is not None:
        match.apply_chance(seed)
        for text in moves:
            match.play(text)
    return match


def seat_view(match: Match, seat: int, with_history: bool = True) -> str:
    """What `seat` knows, as text: the public position (board as drawn, with face-down
    pieces hidden; the pile's top; how many pieces each hand and the pool hold; scores),
    its own hand, and (for an information state) every move played so far. Other hands,
    the pool's order and the deal stay hidden."""
    if match.dealing:
        return f"seat {seat} of {match.players}; dealing ({len(match.dealt)} pieces dealt)"
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
        lines.append("moves: " + "; ".join(f"{s}:{m}" for s, m in zip(match.movers, match.moves)))
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
