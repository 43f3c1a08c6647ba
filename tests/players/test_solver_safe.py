"""Safe and deferred moves (`safe:`, `defer:` of a `move` action;
engine/players/solver_safe.py): deciding takes a safe move alone, looks for a line
without the deferred moves first, and is never wrong for it."""

from __future__ import annotations

from pathlib import Path

from engine.kernel import Game
from engine.kernel.scenario import load_scenario
from engine.players.solver import solve
from engine.players.solver_safe import defer_filter, safe_picker
from engine.rules import load_ruleset
from engine.rules.model import compile_model

HERE = Path(__file__).resolve().parent
DEFER_ALL = str(HERE / "rulesets" / "klondike-defer-all.yaml")
SUITS = "cdhs"


def _scenario(tmp_path, foundations: list[int], tableau: list[list[str]],
              ruleset: str = "klondike/aisleriot"):
    """A Klondike position: foundation i holds ranks 1..foundations[i] of suit i."""
    ranks = "A23456789TJQK"
    up = [[f"{ranks[r]}{SUITS[i]}" for r in range(n)] for i, n in enumerate(foundations)]
    piles = tableau + [[]] * (7 - len(tableau))
    path = tmp_path / "position.yaml"
    path.write_text(
        f"ruleset: {ruleset}\nplayers: 1\nrest: out\npool: []\n"
        f"zones:\n  tableau: {piles}\n  foundations: {up}\n".replace("'", ""),
        encoding="utf-8")
    return load_scenario(path).state


def test_a_card_nothing_can_need_is_safe_and_one_still_needed_is_not(tmp_path):
    # Foundations: clubs to 3, diamonds to 4, hearts to 4, spades to 3. 5d may go up,
    # but a black four (4c, 4s: neither is up) could still need it on the tableau: not
    # safe. 4c may go up, and only a red three could need it: 3d and 3h are both up, so
    # nothing can (and every foundation holds at least 4 - 2 = 2): safe. The listing has
    # 5d's move first (pile 1 before pile 2); the picker passes it over for 4c's.
    state = _scenario(tmp_path, [3, 4, 4, 3], [["5d"], ["4c"]])
    moves = state.legal_moves()
    ups = [m.text for m in moves if m.action == "to_foundation"]
    assert ups == ["to_foundation 5d foundations[1]", "to_foundation 4c foundations[0]"]
    assert safe_picker(state.game)(state, moves).text == "to_foundation 4c foundations[0]"


def test_an_ace_or_a_two_is_always_safe(tmp_path):
    state = _scenario(tmp_path, [1, 0, 0, 0], [["2c"]])
    assert safe_picker(state.game)(state, state.legal_moves()).text == \
        "to_foundation 2c foundations[0]"


def test_a_twin_to_twin_build_and_a_return_are_deferred(tmp_path):
    # 9h lies on a face-up Ts (pile 1); Tc (pile 2) takes it too: moving it there leaves
    # a black ten face up where one was, deferred. 3d back from its foundation onto 4s
    # (pile 3) is deferred too; Kd onto the empty pile 5 is not (it leaves 4d, pile 4,
    # not nothing: no whole pile), nor is any other move.
    state = _scenario(tmp_path, [0, 3, 0, 0], [["Ts", "9h"], ["Tc"], ["4s"], ["4d", "Kd"]])
    moves = state.legal_moves()
    kept = [m.text for m in defer_filter(state.game)(state, moves)]
    texts = [m.text for m in moves]
    assert "build 9h tableau[1]" in texts and "build 9h tableau[1]" not in kept
    assert "from_foundation 3d tableau[2]" in texts
    assert not any(t.startswith("from_foundation") for t in kept)
    assert "build Kd tableau[4]" in kept
    assert [t for t in texts if t not in kept] == ["build 9h tableau[1]",
                                                   "from_foundation 3d tableau[2]"]


def test_deferring_every_move_still_finds_the_line(tmp_path):
    # Every card up but Ks, which lies alone on pile 1: one move clears. With every move
    # deferred the first search has none to try and ends without a line; the full
    # search that follows finds it (a search without deferred moves proves nothing).
    _scenario(tmp_path, [13, 13, 13, 12], [["Ks"]])
    path = tmp_path / "position.yaml"
    deferred = load_scenario(
        path, lambda ref, overlays: load_ruleset(ref, tuple(overlays) + (DEFER_ALL,))).state
    assert defer_filter(deferred.game)(deferred, deferred.legal_moves()) == []
    found = solve(deferred, best=False)
    assert found.reachable and found.line == ["to_foundation Ks foundations[3]"]


def test_klondike_deals_are_decided_within_a_small_budget():
    # Seeds 1 and 2 of klondike/aisleriot clear; the solver finds a line within 3,000
    # positions, and the line, replayed on the interpreter, puts all 52 cards up.
    game = Game(compile_model(load_ruleset("klondike/aisleriot", ()))[0])
    for seed in (1, 2):
        state = game.new_game(1, seed)
        found = solve(state, best=False, max_nodes=3000)
        assert found.reachable, seed
        for text in found.line:
            state.apply(text)
        assert sum(len(f) for f in state.zones["foundations"]) == 52


def test_safe_is_read_for_move_actions_only():
    overlay = HERE / "rulesets" / "tripeaks-safe-play.yaml"
    model, problems = compile_model(load_ruleset("tripeaks/aisleriot", (str(overlay),)))
    assert model is None and any(p.code == "R433" for p in problems)
