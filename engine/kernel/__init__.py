"""The generic game kernel: one engine that runs every ruleset.

`Game(model)` is built once per compiled ruleset; `game.new_game(players, seed)` gives a
`State`; `state.legal_moves()` lists `Move`s in a fixed order and `state.apply(move)`
plays one, returning the `ScoreEvent`s it caused. See docs/api.md.
"""

from engine.kernel.game import Game
from engine.kernel.moves import IllegalMove, Move, RuleFailure, ScoreEvent
from engine.kernel.state import State

__all__ = ["Game", "IllegalMove", "Move", "RuleFailure", "ScoreEvent", "State"]
