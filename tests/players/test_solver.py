"""The generic solver on Tri Peaks positions small enough to work out by hand.

Positions are written as scenarios (docs/scenarios.md); the solver sees only the
kernel's moves. Each expected figure is reasoned out in the test's comment.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.kernel.scenario import load_scenario
from engine.players.solver import Relevance, default_goal, hint, solve
from engine.rules import load_ruleset

EMPTY = "\n".join(["  . . . . . .", "  . . . . . . . . .", "  . . . . . . . . . ."])
ONE_RUN = ("Jc 7d 3h 7c Tc 3d 6d Qd 2h 4c 6c 9c Kc 2d 5d 9d Jd Ah 2c 3c 5c 8c Qc Ad 4d 8d Td Kd"
           " Ac 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")


def position(tmp_path, peaks: str, pile: str, pool: list[str], score: int = 0,
             ruleset: str = "tripeaks/aisleriot"):
    path = tmp_path / "position.yaml"
    path.write_text(
        f"ruleset: {ruleset}\nplayers: 1\nboard: |\n  {peaks}\n{EMPTY}\n"
        f"pile: [{pile}]\npool: [{', '.join(pool)}]\nrest: out\nscores: [{score}]\n",
        encoding="utf-8",
    )
    return load_scenario(path).state


def test_two_peaks_and_two_stock_cards(tmp_path):
    # Jc and 3h left, waste Tc, stock 2d then 8s, score 20. Jc now (+1, +15 = 36), deal
    # 2d (-5 = 31), 3h (+1, last peak +30 = 62): cleared in 3 steps. Dealing first lets
    # 3h go but strands Jc (8s is not next to a jack or a three).
    state = position(tmp_path, "Jc . 3h", "Tc", ["2d", "8s"], score=20)
    found = solve(state)
    assert found.exhaustive and found.reachable and found.goal == "cleared"
    assert found.steps == 3 and found.line == ["play Jc", "deal", "play 3h"]
    assert found.best_score == 62 and found.best_line == found.line
    assert state.scores == [20] and state.board.count == 2  # the state is untouched


def test_a_deal_that_cannot_be_cleared_and_the_floor(tmp_path):
    # Only 3h left, waste Tc, stock 8s: the only move is the deal, then nothing. At 3
    # points the deal costs 3 (floor at 0): the best score is 0.
    state = position(tmp_path, ". . 3h", "Tc", ["8s"], score=3)
    found = solve(state)
    assert found.exhaustive and not found.reachable and found.steps is None
    assert found.best_score == 0 and found.best_line == ["deal"]
    assert not solve(state, best=False).reachable


def test_the_best_score_may_not_clear(tmp_path):
    # Microsoft (no floor), score 0: Jc and 3h left, waste Tc, stock 2d. Jc (+16), deal
    # (-5), 3h (+31) clears for 42. Deal first (-5), 3h (+1 +15) leaves Jc stuck: 11.
    state = position(tmp_path, "Jc . 3h", "Tc", ["2d"], ruleset="tripeaks/microsoft")
    found = solve(state)
    assert found.steps == 3 and found.best_score == 42


def test_hint_is_the_first_move_of_a_clearing_line(tmp_path):
    state = position(tmp_path, "Jc . 3h", "Tc", ["2d", "8s"], score=20)
    assert hint(state) == "play Jc"


def test_a_node_limit_gives_the_best_met_unproven():
    from engine.kernel import Game
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("tripeaks/aisleriot"))[0])
    state = game.new_game(1, 0, deal=ONE_RUN)
    found = solve(state, max_nodes=200)
    # Depth first in the kernel's order (2c first) finds the one-run line at once.
    assert not found.exhaustive and found.reachable and found.steps == 28
    assert found.best_score == 466


def test_a_budget_spent_deciding_still_gives_a_real_best_line():
    # Seed 19 cannot be cleared, and proving it takes about half a million positions:
    # 300 are all spent deciding. The best complete line met on the way is reported,
    # unproven, and playing it from the deal ends the round with exactly that score.
    from engine.kernel import Game
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("tripeaks/aisleriot"))[0])
    found = solve(game.new_game(1, 19), max_nodes=300)
    assert not found.exhaustive and not found.reachable
    assert found.best_score is not None and found.best_line
    replay = game.new_game(1, 19)
    for move in found.best_line:
        replay.apply(move)
    assert replay.is_over and replay.scores == [found.best_score]


def test_a_progressive_round_ends_the_search_when_cleared():
    # With progressive rounds the match goes on, but the solver answers for this round:
    # the one-run deal clears in 28 steps for 466, then a new round is dealt.
    from engine.kernel import Game
    from engine.rules.model import compile_model

    model = compile_model(load_ruleset("tripeaks/aisleriot", ("progressive-rounds",)))[0]
    state = Game(model).new_game(1, 0, deal=ONE_RUN)
    found = solve(state, best=False)
    assert found.reachable and len(found.line) == 28
    found = solve(state, max_nodes=300)
    assert found.steps == 28 and found.best_score == 466


def test_what_the_key_must_hold():
    aisleriot = Relevance.of(load_ruleset("tripeaks/aisleriot").data)
    assert aisleriot.decide_counters == () and not aisleriot.decide_scores
    assert aisleriot.best_counters == ("run",) and aisleriot.best_scores  # the floor
    microsoft = Relevance.of(load_ruleset("tripeaks/microsoft").data)
    assert not microsoft.best_scores
    msc = Relevance.of(load_ruleset("tripeaks/msc").data)
    assert msc.best_counters == ("peaks", "run")
    assert default_goal(load_ruleset("tripeaks/aisleriot").data) == "cleared"


def test_more_than_one_player_is_refused():
    from engine.kernel import Game
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("triominos/pressman"))[0])
    with pytest.raises(ValueError, match="single-player"):
        solve(game.new_game(2, 0))


runner = CliRunner()


def test_cli_solves_a_deal_given_as_text():
    result = runner.invoke(app, ["solve", "tripeaks", "--deal", ONE_RUN, "--decide", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["reachable"] and data["deal"] == ONE_RUN and len(data["line"]) == 28


def test_cli_reports_the_share_over_seeded_deals():
    result = runner.invoke(app, ["solve", "tripeaks", "--games", "2", "--seed", "9",
                                 "--max-nodes", "2000"])
    assert result.exit_code == 0, result.output
    assert "2 seeded deals (seeds 9 to 10)" in result.output
    assert "goal `cleared` reachable:" in result.output


@pytest.mark.parametrize("args, words", [
    (["--deal", "Ah", "--seed", "1"], "not both"),
    ([], "give --deal"),
    (["--deal", "Ah Kd"], "bad deal"),
])
def test_cli_usage_errors(args, words):
    result = runner.invoke(app, ["solve", "tripeaks", *args])
    assert result.exit_code == 2 and words in result.output


def test_the_floor_is_applied_exactly_without_the_score_in_the_key(tmp_path):
    # Only 3h left (the last peak), waste Tc, stock 2d, score 0. Dealing costs nothing
    # at 0 (the floor), then 3h on 2d scores 1 + 30 = 31. Counted unclamped the deal
    # would cost 5 (26): the floor is applied where it clamps, so the best is 31.
    state = position(tmp_path, ". . 3h", "Tc", ["2d"], score=0)
    found = solve(state)
    assert found.exhaustive and found.reachable and found.steps == 2
    assert found.best_score == 31 and found.best_line == ["deal", "play 3h"]
    # At 20 points the same deal costs the full 5: 20 - 5 + 31 = 46.
    assert solve(position(tmp_path, ". . 3h", "Tc", ["2d"], score=20)).best_score == 46


def test_the_floor_is_read_from_the_rules():
    assert Relevance.of(load_ruleset("tripeaks/aisleriot").data).floor
    data = load_ruleset("tripeaks/aisleriot").data
    data["scoring"]["card"]["points"] = "counters.run + (if player.score > 50 then 1 else 0)"
    assert not Relevance.of(data).floor  # another reading of the score: keyed


def test_a_memory_budget_stops_the_search_and_says_so():
    # Seed 19 needs about half a million positions; a budget of one byte stops the
    # search at its first reading of the memory (every 8,192 positions).
    from engine.kernel import Game
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("tripeaks/aisleriot"))[0])
    found = solve(game.new_game(1, 19), max_memory=1)
    assert not found.exhaustive and found.stopped == "memory" and found.nodes <= 8192
    result = runner.invoke(app, ["solve", "tripeaks", "--seed", "19", "--max-memory", "1"])
    assert result.exit_code == 0 and "memory budget (--max-memory)" in result.stdout
    bad = runner.invoke(app, ["solve", "tripeaks", "--seed", "19", "--max-memory", "lots"])
    assert bad.exit_code == 2 and "not a size" in bad.stderr


def test_a_stopped_search_says_so_plainly():
    # Seed 19 cannot be cleared, and proving it takes about half a million positions:
    # 300 leave it undecided, and the output says which budget stopped it.
    result = runner.invoke(app, ["solve", "tripeaks", "--seed", "19", "--max-nodes", "300"])
    assert result.exit_code == 0, result.output
    assert "search stopped by the position budget (--max-nodes)" in result.output
    assert "goal `cleared`: undecided" in result.output and "best score: at least" in result.output
    many = runner.invoke(app, ["solve", "tripeaks", "--games", "2", "--seed", "19",
                               "--max-nodes", "300"])
    # seed 19 stays undecided; seed 20 is cleared within 300 positions or undecided too
    assert "undecided (a budget stopped it):" in many.output and "19" in many.output
    done = runner.invoke(app, ["solve", "tripeaks", "--deal", ONE_RUN, "--decide"])
    assert "stopped" not in done.output and "not proven" not in done.output


def test_the_key_holds_no_turn_number_unless_a_rule_reads_it():
    from engine.kernel import Game
    from engine.players.solver_key import make_key, round_fields_read
    from engine.rules.model import compile_model

    data = load_ruleset("klondike/aisleriot").data
    assert round_fields_read(data) == ()  # Klondike: its passes count, not its turns
    game = Game(compile_model(load_ruleset("klondike/aisleriot"))[0])
    state = game.new_game(1, 0)
    key = make_key(game, (), ("passes",), False, state)
    later = state.clone()
    later.round.turns += 7  # the same position seven turns later
    assert key(later) == key(state)
    later.counters.passes += 1  # not the same pass through the stock
    assert key(later) != key(state)
    data["round"]["end"]["late"] = {"if": "round.turns > 200"}
    assert round_fields_read(data) == ("turns",)


def test_the_turn_limit_leaves_an_answer_unproven():
    # The small Golf deal (tests/players/test_objective.py) needs at least three moves
    # to end its round; with a limit of two turns every line is cut by the limit, which
    # the key does not hold: the search says so instead of claiming a proof.
    from engine.kernel import Game
    from engine.rules.model import compile_model
    from tests.players.test_objective import DEAL, GOLF

    ruleset = load_ruleset(GOLF)
    ruleset.data["limits"] = {"max_turns_per_round": 2}
    found = solve(Game(compile_model(ruleset)[0]).new_game(1, 0, deal=DEAL))
    assert not found.exhaustive and found.stopped == "turns" and not found.reachable


def test_a_cycle_is_no_way_out_and_klondike_is_searched():
    # Klondike's moves go back and forth (a card to a foundation and back): the search
    # must stop at positions already on its line, not run on to the turn limit.
    from engine.kernel import Game
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("klondike/aisleriot"))[0])
    found = solve(game.new_game(1, 0), best=False, max_nodes=300)
    assert found.nodes <= 300 and found.stopped in ("nodes", None)
