"""`match.objective: lowest` on a small Golf-like solitaire (tests/players/rulesets/
golf.yaml): the solver, the greedy agent, `hint`, the winner and lint follow it.

The deal, worked out by hand. Tableau (two columns, top card covered by the bottom one):
Ac under 4c, 3c under 4d; waste 2c; stock (top first) 2d, 3d, Ad. The score is the cards
left on the tableau when the round ends.
- At 2c and 2d nothing plays (4c, 4d need a 3 or a 5): deal, deal; the waste is 3d.
- Now 4c or 4d play; dealing Ad instead ends the round at once with 4 cards left.
- play 4d (waste 4) uncovers 3c; 3c plays (waste 3); 4c plays (waste 4) and uncovers
  Ac, which nothing reaches (the last deal, Ad, is no 2): 1 card left, in 6 steps
  (deal, deal, play 4d, play 3c, play 4c, deal). After 4d, 3c, dealing Ad leaves 2;
  after 4d alone, 3.
- play 4c (waste 4) uncovers Ac: neither Ac nor 4d is next to a 4, and Ad is not next
  to Ac or 4d either: 3 left.
So the fewest cards left is 1, the most 4; the tableau cannot be cleared.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app
from engine.kernel import Game
from engine.players.agents import GreedyAgent, play_out, ranked_moves
from engine.players.solver import solve
from engine.rules import load_ruleset
from engine.rules.model import compile_model

GOLF = str(Path(__file__).parent / "rulesets" / "golf.yaml")
DEAL = "Ac 3c 4c 4d 2c 2d 3d Ad"


def golf(objective: str | None = None):
    ruleset = load_ruleset(GOLF)
    if objective is not None:
        ruleset.data["match"]["objective"] = objective
    model, problems = compile_model(ruleset)
    assert model is not None, problems
    return Game(model)


def test_the_solver_finds_the_fewest_cards_left():
    found = solve(golf().new_game(1, 0, deal=DEAL))
    assert found.exhaustive and not found.reachable and found.objective == "lowest"
    assert found.best_score == 1
    assert found.best_line == ["deal", "deal", "play 4d", "play 3c", "play 4c", "deal"]


def test_with_the_default_objective_the_solver_maximises():
    # The same ruleset read `highest`: dealing all three stock cards leaves all 4.
    found = solve(golf("highest").new_game(1, 0, deal=DEAL))
    assert found.best_score == 4 and found.best_line == ["deal", "deal", "deal"]


def test_greedy_and_hint_prefer_the_lower_score():
    # At waste 3d: play 4c and play 4d gain 0, the deal ends the round at +4. Lowest
    # first, greedy takes the first 0 (4c, in slot order), then must deal: 3 left.
    state = golf().new_game(1, 0, deal=DEAL)
    state.apply("deal")
    state.apply("deal")
    assert [m.text for _, _, m, _ in ranked_moves(state)] == ["play 4c", "play 4d", "deal"]
    assert GreedyAgent().choose(state).text == "play 4c"
    assert play_out(state, [GreedyAgent()]).scores == [3]
    # Read `highest`, greedy deals at once and keeps all 4.
    assert play_out(golf("highest").new_game(1, 0, deal=DEAL), [GreedyAgent()]).scores == [4]


def test_the_winner_of_a_match_by_score_is_the_lowest():
    # Triolet without its `winner: {highest: ...}`, read `lowest`: whoever ends with
    # fewer points wins. Seeded random games until one ends with distinct scores.
    from engine.players.agents import RandomAgent

    ruleset = load_ruleset("triolet/standard")
    del ruleset.data["match"]["winner"]
    ruleset.data["match"]["objective"] = "lowest"
    game = Game(compile_model(ruleset)[0])
    for seed in range(5):
        state = play_out(game.new_game(2, seed), [RandomAgent(1), RandomAgent(2)])
        if state.scores[0] != state.scores[1]:
            break
    assert state.winner == state.scores.index(min(state.scores))


def test_solve_says_fewest_cards_left():
    result = CliRunner().invoke(app, ["solve", GOLF, "--deal", DEAL])
    assert result.exit_code == 0, result.output
    assert "fewest cards left: 1" in result.stdout


def test_lint_warns_when_the_winner_contradicts_the_objective(tmp_path):
    path = tmp_path / "golf.yaml"
    text = Path(GOLF).read_text(encoding="utf-8").replace(
        "score_name: cards left}", "score_name: cards left, winner: {highest: [player.score]}}")
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", str(path)])
    assert "R490" in result.stdout, result.stdout


def test_compare_says_which_way_a_score_goes():
    result = CliRunner().invoke(app, ["compare", GOLF, GOLF, "--games", "2", "--agents",
                                      "greedy"])
    assert result.exit_code == 0, result.output
    assert "mean final score, seat 0 (lower is better)" in result.stdout


def test_greedy_never_reads_the_next_card_it_would_deal():
    # The Golf deal with a rule that scores a deal the rank of the card dealt, less 1:
    # at waste 3d, play 4c, play 4d (0 each) and deal are legal. The stock is hidden:
    # dealt Ad first, the deal gains 0 and greedy keeps the first legal move (play 4c);
    # dealt 2c first, it gains 1. A greedy agent that previewed the real stock would
    # play 4c in one state and deal in the other; it samples the stock instead, so the
    # two states, which differ only in the stock's order, get the same move.
    ruleset = load_ruleset(GOLF)
    ruleset.data["match"]["objective"] = "highest"
    ruleset.data["scoring"]["dealt"] = {"on": "deal", "points": "pile.top.rank - 1"}
    game = Game(compile_model(ruleset)[0])
    low, high = (game.new_game(1, 0, deal=f"Ac 3c 4c 4d 3d {stock}")
                 for stock in ("Ad 2c 2d", "2c Ad 2d"))
    assert [m.text for m in low.legal_moves()] == ["play 4c", "play 4d", "deal"]
    # What the real stock would say (the leak the agent must not use):
    assert real_gains(low) == [0, 0, 0] and real_gains(high) == [0, 0, 1]
    for seed in range(6):
        assert GreedyAgent(seed).choose(low).text == GreedyAgent(seed).choose(high).text
    # The moves ranked for the player (hint, the page's list) are previewed in a sample
    # too: the same ranking and the same points in both states, whatever the real stock.
    rows = [[(m.text, g) for g, _, m, _ in ranked_moves(s)] for s in (low, high)]
    assert rows[0] == rows[1]
    # In the sample the stock is 2c, Ad, 2d shuffled: the deal gains 1 (a 2 first) or 0
    # (Ad first), so it is listed first at +1 or last at 0, both plays at 0.
    assert rows[0] in ([("deal", 1), ("play 4c", 0), ("play 4d", 0)],
                       [("play 4c", 0), ("play 4d", 0), ("deal", 0)])


def real_gains(state) -> list[int]:
    """The immediate gain of each legal move previewed in the position itself (hidden
    pieces read)."""
    return [state.preview(m)[1].scores[0] - state.scores[0] for m in state.legal_moves()]


def test_greedy_plays_whole_pyramid_games_whose_legal_pairs_read_a_hidden_card():
    # Pyramid's moves can use a card the mover cannot see (a pair with the stock's top),
    # so the sample greedy previews in lists other moves than the real position: a move
    # not legal in the sample is not previewed there (it raised IllegalMove before), and
    # every game runs to its end with only legal moves
    for ref in ("pyramid/pysol", "pyramid/aisleriot"):
        model, problems = compile_model(load_ruleset(ref))
        assert model is not None, problems
        game = Game(model)
        for seed in range(6):
            state = play_out(game.new_game(None, seed), [GreedyAgent(seed)])
            assert state.is_over
