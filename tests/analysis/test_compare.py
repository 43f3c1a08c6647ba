"""`compare`: common random numbers, paired CIs, output shapes, and --jobs independence."""

import csv
import io
import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("engine.kernel")

from engine.analysis.compare import CSV_FIELDS, build_comparison  # noqa: E402
from engine.analysis.runs import Spec, compile_spec, run_games  # noqa: E402
from engine.analysis.stats import paired, t95  # noqa: E402
from engine.cli import app  # noqa: E402

runner = CliRunner()
GAMES = "6"


def compare(*args):
    result = runner.invoke(app, ["compare", *args, "--games", GAMES, "--seed", "5"])
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def test_a_ruleset_compared_with_itself_gives_identical_numbers(one_round):
    path = one_round()
    data = json.loads(compare(path, path, "--jobs", "1", "--json"))
    assert data["games"] == 6 and data["rulesets"] == [path, path]
    for metric in data["metrics"]:
        a, b = metric["means"]
        assert a == b, metric["key"]
        diff = metric["diffs"][1]
        assert diff["diff"] == 0 and diff["significant"] is False, metric["key"]
    turns = next(m for m in data["metrics"] if m["key"] == "turns")
    assert turns["means"][0] > 0


def test_games_are_paired_by_seed(one_round):
    spec = Spec(one_round())
    (a, b) = run_games([spec, spec], 2, [3, 4, 5], ["random"], jobs=1)
    assert [g.seed for g in a] == [3, 4, 5]
    assert [(g.scores, g.turns, g.fired) for g in a] == [(g.scores, g.turns, g.fired) for g in b]
    assert len({tuple(g.scores) for g in a}) > 1  # different seeds, different games


def test_output_does_not_depend_on_jobs(one_round):
    a, b = one_round(), one_round("scoring:\n  draw_penalty: {points: -6}\n", "b.yaml")
    assert compare(a, b, "--jobs", "1") == compare(a, b, "--jobs", "2")
    assert compare(a, b, "--jobs", "1", "--csv") == compare(a, b, "--jobs", "3", "--csv")


def test_a_real_change_is_significant(one_round):
    a, b = one_round(), one_round("scoring:\n  draw_penalty: {points: -50}\n", "b.yaml")
    data = json.loads(compare(a, b, "--jobs", "1", "--json"))
    metric = {m["key"]: m for m in data["metrics"]}
    fired = metric["rule.draw_penalty.fired"]
    points = metric["rule.draw_penalty.points"]
    # Same deals, same agents: the drawing is the same, each draw costs 45 more.
    assert points["means"][1] == pytest.approx(-50 * fired["means"][1], abs=0.01)
    assert points["diffs"][1]["significant"] is True
    assert points["diffs"][1]["ci95"][1] < 0


def test_csv_shape(one_round):
    a, b = one_round(), one_round("scoring:\n  bridge: {points: 45}\n", "b.yaml")
    rows = list(csv.DictReader(io.StringIO(compare(a, b, "--jobs", "1", "--csv"))))
    assert tuple(rows[0]) == CSV_FIELDS
    assert [r["ruleset"] for r in rows[:2]] == [a, b]
    assert rows[0]["metric"] == "score.seat0" and rows[0]["diff_vs_first"] == ""
    assert rows[1]["significant"] in ("true", "false")
    keys = {r["metric"] for r in rows}
    assert {"win.seat0", "win.seat1", "win.first", "spread", "turns", "rounds", "rule.bridge.points"} <= keys
    assert any(k.startswith("round_end.") for k in keys)
    assert len(rows) == 2 * len(keys)


def test_text_table_and_coverage(one_round):
    a = one_round()
    b = one_round("scoring:\n  never:\n    on: place\n    if: move.hexagons > 5\n"
                  "    points: 1\n", "b.yaml")
    text = compare(a, b, "--jobs", "1", "--coverage")
    assert f"A: {a}" in text and f"B: {b}" in text
    assert "B - A [95% CI]" in text and "mean final score, seat 1" in text
    assert f"{b}:6: rule `never` never fired in 6 games" in text


def test_overlays_inline(one_round, tmp_path):
    overlay = tmp_path / "ov.yaml"
    overlay.write_text("overlay: {game: triominos, title: Ov}\nscoring:\n  bridge: {points: 45}\n",
                       encoding="utf-8")
    data = json.loads(compare(one_round(), f"{one_round()}+{overlay}", "--jobs", "1", "--json"))
    assert data["rulesets"][1].endswith(f"+{overlay}")


def test_usage_errors(one_round):
    assert runner.invoke(app, ["compare", one_round()]).exit_code == 2
    result = runner.invoke(app, ["compare", one_round(), "no/such", "--games", "1"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["compare", one_round(), one_round(), "--agents", "wizard"])
    assert result.exit_code == 2 and "unknown agent" in result.stderr


def test_paired_interval_by_hand():
    # diffs 1, 2, 3: mean 2, sd 1, t(2) = 4.303: 2 +- 4.303 / sqrt(3)
    got = paired([0, 0, 0], [1, 2, 3])
    assert got.diff == 2 and got.low == pytest.approx(2 - 4.303 / 3 ** 0.5)
    assert got.significant is False
    assert paired([0, 0, 0, 0], [1, 1, 1, 1]).significant is True  # no spread, all +1
    assert paired([5, 6], [5, 6]).significant is False
    assert t95(10) == 2.228


def test_comparison_lists_rules_of_every_ruleset(one_round):
    a, b = Spec(one_round()), Spec(one_round("scoring:\n  extra: {on: pass, points: 1}\n", "b.yaml"))
    models = [compile_spec(s).model for s in (a, b)]
    results = run_games([a, b], 2, [1, 2], ["random"], jobs=1)
    c = build_comparison([a, b], models, results, [1, 2], 2, ["random"])
    keys = [m.key for m in c.metrics]
    assert "rule.extra.points" in keys and keys.index("rule.extra.fired") > keys.index("rule.bridge.fired")
    assert [r.name for r in c.coverage[1]][-1] == "extra"


def test_rulesets_of_different_games_are_refused_unless_asked():
    # Seed i deals a Tri-Ominos game under one and a Triolet game under the other: no pairing.
    result = runner.invoke(app, ["compare", "triominos/pressman", "triolet", "--games", "1"])
    assert result.exit_code == 1
    assert "different games" in result.stderr and "--across-games" in result.stderr
    assert "B - A" not in result.output
    result = runner.invoke(app, ["compare", "triominos/pressman", "triolet", "--games", "1",
                                 "--across-games"])
    assert result.exit_code == 0, result.output
    assert "B - A" in result.output


def test_a_single_player_comparison_leaves_out_what_says_nothing():
    # Alone, "the first to move" is always seat 0, the spread is always 0, and a round
    # that nobody won is not a tie.
    result = runner.invoke(app, ["compare", "tripeaks", "tripeaks/microsoft", "--games", "2",
                                 "--json"])
    assert result.exit_code == 0, result.output
    metrics = {m["key"]: m["label"] for m in json.loads(result.output)["metrics"]}
    assert "win.first" not in metrics and "spread" not in metrics
    assert "win.seat0" in metrics and "win.seat1" not in metrics
    assert "tie" not in metrics["win.none"]


def test_more_agents_than_seats_or_none_is_a_usage_error():
    # Two seats, three agents: the third would have been dropped without a word.
    result = runner.invoke(app, ["compare", "triominos/pressman", "triominos/club", "--games", "1",
                                 "--players", "2", "--agents", "greedy,random,greedy"])
    assert result.exit_code == 2
    assert "3 agents for 2 players" in result.stderr
    result = runner.invoke(app, ["compare", "triominos/pressman", "triominos/club", "--games", "1",
                                 "--agents", ","])
    assert result.exit_code == 2 and "names no agent" in result.stderr


def test_across_games_the_header_does_not_claim_pairing():
    args = ["compare", "triominos/pressman", "triolet", "--games", "1", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--across-games"])
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert "paired by seed" not in head and "not paired" in head
    data = json.loads(runner.invoke(app, [*args, "--across-games", "--json"]).stdout)
    assert data["paired_by_seed"] is False


def test_within_one_game_the_header_says_paired_by_seed(one_round):
    path = one_round()
    assert "paired by seed (common random numbers)" in compare(path, path, "--jobs", "1").splitlines()[0]
    assert json.loads(compare(path, path, "--jobs", "1", "--json"))["paired_by_seed"] is True


def test_a_player_count_a_ruleset_cannot_seat_is_said_plainly():
    result = runner.invoke(app, ["compare", "triominos/pressman", "tripeaks/aisleriot",
                                 "--games", "2", "--across-games"])
    assert result.exit_code == 2
    assert "`tripeaks/aisleriot`: this ruleset is for 1 player, not 2" in result.output
