"""Random games of `simulate` (`runs.play_game`) on a compiled program give exactly the
interpreter's statistics: scores, winner, turns, rounds and their reasons, which rule
fired on how many moves and how many points each gave."""

from __future__ import annotations

import dataclasses

import pytest

from engine.analysis import runs
from engine.analysis.runs import Spec, compile_spec, play_game


def _plain(stats) -> dict:
    found = dataclasses.asdict(stats)
    found.pop("duration_ms")
    return found


@pytest.mark.parametrize("spec,players", [
    (Spec("tripeaks/aisleriot"), 1), (Spec("tripeaks/pysol-scored"), 1),
    (Spec("tripeaks/aisleriot", ("progressive-rounds",)), 1),
    (Spec("triominos/pressman"), 2), (Spec("triominos/goliath"), 3),
], ids=lambda s: s.name if isinstance(s, Spec) else str(s))
def test_random_games_on_the_program_give_the_interpreters_stats(spec, players, monkeypatch):
    game = compile_spec(spec)
    agents = ["random"] * players
    assert runs.random_program(game, agents, None) is not None
    games = 30 if players == 1 else 6  # (a Tri-Ominos match: many rounds)
    fast = [_plain(play_game(game, players, seed, agents)) for seed in range(games)]
    monkeypatch.setattr(runs, "random_program", lambda *args: None)
    slow = [_plain(play_game(game, players, seed, agents)) for seed in range(games)]
    assert fast == slow
    assert all(stats["fired"] and stats["reasons"] for stats in fast)


def test_other_agents_or_a_fixed_deal_play_on_the_interpreter(tmp_path):
    game = compile_spec(Spec("tripeaks/aisleriot"))
    assert runs.random_program(game, ["greedy"], None) is None
    assert runs.random_program(game, ["random"], list(range(52))) is None
    # (a ruleset the compiler does not cover: a first play anywhere on the square board)
    path = tmp_path / "anywhere.yaml"
    path.write_text("extends: triolet/standard\nruleset: {game: triolet, title: t}\n"
                    "actions:\n  place:\n    $delete: [first_play]\n", encoding="utf-8")
    anywhere = compile_spec(Spec(str(path)))
    assert runs.random_program(anywhere, ["random", "random"], None) is None


@pytest.mark.parametrize("spec", [Spec("triolet/standard"),
                                  Spec("triolet/standard", ("opponents-debited",)),
                                  Spec("triolet/standard", ("jokers",)),
                                  Spec("dominoes/all-fives")],
                         ids=lambda s: s.name)
def test_triolet_on_the_program_gives_the_interpreters_stats(spec, monkeypatch):
    # (the square board: plays, exchanges, passes, extra turns; the chain board: places,
    # draws, passes, rounds; two players)
    game = compile_spec(spec)
    assert runs.random_program(game, ["random", "random"], None) is not None
    fast = [_plain(play_game(game, 2, seed, ["random", "random"])) for seed in range(12)]
    monkeypatch.setattr(runs, "random_program", lambda *args: None)
    slow = [_plain(play_game(game, 2, seed, ["random", "random"])) for seed in range(12)]
    assert fast == slow
