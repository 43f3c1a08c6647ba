"""The dominoes family end to end: `play`, `simulate`, `compare`, and who sets each hand
(shared/rules/dominoes.md 4.1: the last hand's winner sets any tile)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli import app
from engine.kernel import Game
from engine.rules import load_ruleset
from engine.rules.model import compile_model

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_play_shows_the_line_with_its_ends_and_takes_typed_moves(tmp_path):
    record = tmp_path / "game.json"
    result = run("play", "dominoes/all-fives", "--seed", "3", input=f"1\nhint\n1\nboard\nquit\n{record}\n")
    assert result.exit_code == 0, result.output
    assert "open ends: W " in result.output and "your hand:" in result.output
    assert "count +" in result.output  # the Fives count scored during play, with its rule
    assert run("replay", str(record)).exit_code == 0


def test_simulate_and_compare_the_families():
    result = run("simulate", "dominoes", "--games", "3", "--seed", "2", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ruleset"] == "dominoes/draw"
    result = run("compare", "dominoes/all-fives", "dominoes/muggins", "--games", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "dominoes/muggins" in result.output


def _game(ref: str) -> Game:
    model, _ = compile_model(load_ruleset(ref))
    return Game(model)


def _play_to_round_two(state):
    while state.round.number == 1 and not state.is_over:
        state.apply(state.legal_moves()[0])


def test_the_winner_of_a_hand_sets_any_tile_of_the_next():
    # Draw game, DO-5: after a hand won (by dominoing or a blocked hand with a single
    # lowest), its winner opens the next with any tile of the hand.
    game = _game("dominoes/draw")
    for seed in range(6):
        state = game.new_game(2, seed)
        _play_to_round_two(state)
        if state.is_over or state.last_round_winner is None:
            continue
        assert state.to_move == state.last_round_winner
        openings = {m.data.pieces[0].uid for m in state.legal_moves()}
        assert openings == {p.uid for p in state.hands[state.to_move]}
        return
    raise AssertionError("no seed gave a won first hand")


def test_the_first_draw_hand_is_set_with_the_highest_double():
    game = _game("dominoes/draw")
    for seed in range(5):
        state = game.new_game(2, seed)
        doubles = [(p.value, seat) for seat, h in enumerate(state.hands) for p in h if p.distinct == 1]
        if doubles:
            value, seat = max(doubles)
            assert state.to_move == seat
            assert [m.text for m in state.legal_moves()] == [f"place {value // 2}-{value // 2}"]


def test_all_fives_sets_any_tile_by_lot():
    # DO-4: a seat chosen by lot (the shuffle) sets any tile; over seeds both seats do.
    game = _game("dominoes/all-fives")
    openers = set()
    for seed in range(12):
        state = game.new_game(2, seed)
        openers.add(state.to_move)
        assert len(state.legal_moves()) == 9  # every tile of the 9 dealt
    assert openers == {0, 1}


def test_a_fives_game_is_won_the_moment_a_score_reaches_the_target(tmp_path):
    # DO-19: A has 240 of 250; setting 5-5 counts 10, reaching 250 mid-hand: the hand and
    # the match end at once (round reason `target`), A wins.
    from engine.kernel.scenario import load_scenario

    path = tmp_path / "target.yaml"
    path.write_text("ruleset: dominoes/all-fives\nplayers: 2\nhands: [[5-5, 1-2], [0-1]]\n"
                    "scores: [240, 0]\nto_move: 0\n", encoding="utf-8")
    state = load_scenario(path).state
    (move,) = [m for m in state.legal_moves() if m.text == "place 5-5"]
    state.apply(move)
    assert state.scores == [250, 0] and state.is_over and state.winner == 0
    assert state.round.reason == "target"


def test_the_terminal_line_turns_only_where_the_terminal_is_too_narrow(monkeypatch):
    """The turn is the terminal's: at 80 columns a long E runs 7 tiles along the row
    (8 columns a tile: tests/topology/test_chain.py works the columns out), at 200 it
    does not turn at all."""
    import io

    from engine.cli.play import Session, show
    from engine.cli.screen import Screen

    game = _game("dominoes/draw")
    state = game.new_game(2, 0)
    state.board = game.model.topology.new_board()
    state.board.load_position("set: 6-6; E: 6-5 5-4 4-3 3-2 2-1 1-0 0-4 4-2 2-0; W: 6-1",
                              game.pieces)
    for columns, row in ((80, "W   [1|6]   -   [6|5]   [5|4]   [4|3]   [3|2]   [2|1]   [1|0]   [0|4]   4"),
                         (200, "W   [1|6]   -   [6|5]   [5|4]   [4|3]   [3|2]   [2|1]   [1|0]   [0|4]   [4|2]   [2|0]   E")):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = io.StringIO()
        show(Session(state, None, [], None, "greedy", "dominoes", Screen(False, file=out)))
        assert row in out.getvalue().splitlines()
