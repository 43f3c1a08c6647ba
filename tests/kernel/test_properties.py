"""Properties every ruleset must have, checked over every shipped ruleset and overlay
(found under rulesets/, so games added later are covered) and the kernel's test games.

Random seeded games end; every listed move applies; pieces are conserved (pool + hands +
board + pile + the declared zones = the set); the board's own invariants hold (`Board.check_invariants`); the
score events add up to the scores; a record replays to the same scores.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine.kernel import Game
from engine.kernel.record import dumps, make_record, replay_record
from engine.paths import rulesets_dir
from engine.rules.model import compile_model
from tests.kernel.helpers import game as kernel_game

MAX_MOVES = 3000  # per game; the shipped limits end every match long before
FULL_CHECK_EVERY = 7  # apply every listed move on a copy at one state in this many


def shipped() -> list[tuple[str, tuple[str, ...]]]:
    """(ruleset id, overlays) for every ruleset file, and every overlay on its game's
    default ruleset."""
    import yaml

    root = rulesets_dir()
    found = []
    for path in sorted(root.glob("*/*.yaml")):
        found.append((f"{path.parent.name}/{path.stem}", ()))
    for path in sorted(root.glob("*/overlays/*.yaml")):
        head = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("overlay") or {}
        base = head.get("base") or path.parent.parent.name
        found.append((base, (path.stem,)))
    return found


def _load(ref: str, overlays: tuple[str, ...]) -> Game:
    from engine.rules import load_ruleset

    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model)


def _pieces_everywhere(state) -> Counter:
    """Where every piece is, by uid (a board kind without `pieces_on_board` is counted)."""
    held = Counter(p.uid for p in state.pool)
    held.update(p.uid for h in state.hands for p in h)
    held.update(p.uid for p in state.pile)
    held.update(p.uid for p in state.zone_pieces())  # the zones a ruleset declares
    try:
        held.update(p.uid for p in state.board.pieces_on_board())
    except NotImplementedError:
        missing = [p.uid for p in state.game.pieces if p.uid not in held]
        assert len(missing) == state.board.count, "the board holds a piece that is elsewhere too"
        held.update(missing)
    return held


def check_game(game: Game, seed: int, players: int | None = None) -> None:
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    everything = Counter(p.uid for p in game.pieces)
    for step in range(MAX_MOVES):
        assert _pieces_everywhere(state) == everything, f"pieces not conserved at move {step}"
        assert state.board.check_invariants() == [], f"board invariant broken at move {step}"
        if state.is_over:
            break
        moves = state.legal_moves()
        assert moves, "a state that is not over has no legal move"
        if step % FULL_CHECK_EVERY == 0:
            for move in moves:
                state.clone().apply(move)
        state.apply(rng.choice(moves))
    assert state.is_over, f"the game did not end within {MAX_MOVES} moves"
    assert sum(e.points for e in state.events) == sum(state.scores)
    for seat in range(state.n):
        assert sum(e.points for e in state.events if e.player == seat) == state.scores[seat]
    _check_replay(game, state)


def _check_replay(game: Game, state) -> None:
    import json
    import tempfile

    from engine.kernel.record import load_record

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(dumps(make_record(state, "x", [], "h", [])))
    loaded = load_record(f.name)
    Path(f.name).unlink()
    replayed = replay_record(loaded, game, "h").state
    assert replayed.scores == state.scores
    assert json.dumps(replayed.history) == json.dumps(state.history)


SHIPPED = shipped()


@pytest.mark.parametrize("ref,overlays", SHIPPED, ids=["+".join((r,) + o) for r, o in SHIPPED])
def test_shipped_rulesets_play_soundly(ref, overlays):
    game = _load(ref, overlays)
    model = game.model
    check_game(game, 1)
    if model.players_max > model.players_min:
        check_game(game, 2, model.players_max)


@pytest.mark.parametrize("name", ["line", "stack"])
def test_kernel_test_games_play_soundly(name):
    g = kernel_game(name)
    for seed in range(3):
        check_game(g, seed)
