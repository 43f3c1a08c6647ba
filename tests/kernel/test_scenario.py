"""Scenarios: positions from YAML, `expect:` cases checked, and clear K51x errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.diagnostics import RulecraftError
from engine.kernel.scenario import check_case, load_scenario
from tests.kernel.stub_ruleset import StubRuleset

HERE = Path(__file__).parent / "scenarios"


def stack_run(tmp_path, old: str = "", new: str = "", extra: str = ""):
    """A copy of stack-run.yaml in `tmp_path` (its ruleset made absolute) with `old`
    replaced by `new` and `extra` appended: (its path, the unedited text)."""
    text = (HERE / "stack-run.yaml").read_text()
    text = text.replace("../rulesets/stack.yaml", str(HERE.parent / "rulesets/stack.yaml"))
    path = tmp_path / "s.yaml"
    path.write_text((text.replace(old, new) if old else text) + extra)
    return path, text


def stub_loader(ref, overlays=()):
    import tests.kernel.fakes  # noqa: F401

    return StubRuleset(Path(ref).read_text(), ref)


def load(name: str):
    return load_scenario(HERE / name, stub_loader)


@pytest.mark.parametrize("name", ["stack-run.yaml", "line-opening.yaml"])
def test_every_case_holds(name):
    scenario = load(name)
    assert scenario.cases
    for case in scenario.cases:
        assert check_case(scenario, case) == [], case.name


def test_the_position_is_as_written():
    state = load("stack-run.yaml").state
    assert state.board.dump_position() == "Ac 3c / 2c 4c"
    assert [p.name for p in state.pile] == ["5c"]
    # the listed pool is on top, the other pieces below it in set order
    assert [p.name for p in reversed(state.pool)][:2] == ["Ad", "2d"]
    assert len(state.pool) == 10 - 4 - 1
    assert state.scores == [7] and state.counters.run == 2


def test_the_opening_rule_picks_the_player_to_move():
    state = load("line-opening.yaml").state
    assert state.to_move == 1
    assert [m.text for m in state.legal_moves()] == ["place L=7"]


def test_a_failing_expectation_is_described(tmp_path):
    path, _ = stack_run(tmp_path, "points: 3", "points: 4")
    scenario = load_scenario(path, stub_loader)
    problems = check_case(scenario, scenario.cases[0])
    assert problems == ["points: expected 4, got 3"]


@pytest.mark.parametrize("edit,code", [
    (("pile: [5c]", "pile: [5x]"), "K511"),
    (("pile: [5c]", "pile: [4c]"), "K511"),  # 4c is on the board already
    (("board: Ac 3c / 2c 4c", "board: Ac 3c / 2c Zz"), "K512"),
    (("scores: [7]", "scores: [7, 1]"), "K510"),
    (("counters: {run: 2}", "counters: {runs: 2}"), "K510"),
    (("move: deal", "mvoe: deal"), "K513"),
])
def test_mistakes_are_named_with_their_place(tmp_path, edit, code):
    path, _ = stack_run(tmp_path, *edit)
    with pytest.raises(RulecraftError) as exc:
        load_scenario(path, stub_loader)
    (diag,) = exc.value.diagnostics
    assert diag.code == code and diag.pos is not None and diag.pos.line > 1


@pytest.mark.parametrize("code, key", [("R400", "ruleset"), ("R401", "with")])
def test_an_unknown_ruleset_or_overlay_is_placed_in_the_scenario(tmp_path, code, key):
    from engine.diagnostics import Diagnostic

    def not_found(ref, overlays=()):
        raise RulecraftError([Diagnostic(code, "unknown")])

    path = tmp_path / "s.yaml"
    path.write_text("players: 1\nruleset: nope/x\nwith: [nope]\nboard: ''\n")
    with pytest.raises(RulecraftError) as exc:
        load_scenario(path, not_found)
    (diag,) = exc.value.diagnostics
    assert diag.pos is not None and diag.pos.path == str(path)
    assert diag.pos.line == {"ruleset": 2, "with": 3}[key]


@pytest.mark.parametrize("extra, says", [
    ("", "`ruleset` must be a ruleset id"),
    ('format: rulecraft-record\n', "a game record, not a scenario"),
])
def test_a_ruleset_that_is_not_a_name_is_a_k510(tmp_path, extra, says):
    path = tmp_path / "s.yaml"
    path.write_text(extra + "ruleset: {id: x/y, hash: abc}\nplayers: 1\n")
    with pytest.raises(RulecraftError) as exc:
        load_scenario(path, stub_loader)
    (diag,) = exc.value.diagnostics
    assert diag.code == "K510" and says in diag.message
    assert diag.pos is not None and diag.pos.line == 1 + bool(extra)


def test_a_misspelt_top_level_key_is_an_error_with_a_suggestion(tmp_path):
    path, text = stack_run(tmp_path, "scores: [7]", "socres: [7]")
    with pytest.raises(RulecraftError) as exc:
        load_scenario(path, stub_loader)
    (diag,) = exc.value.diagnostics
    assert diag.code == "K510" and "`socres`" in diag.message
    line = text.splitlines().index("scores: [7]") + 1
    assert (diag.pos.path, diag.pos.line, diag.pos.col) == (str(path), line, 1)
    assert "did you mean `scores`?" in diag.help
    assert "allowed keys: scenario, ruleset, with" in diag.help and "deal, lines" in diag.help


def test_the_lines_of_play_keys_are_allowed(tmp_path):
    path, _ = stack_run(tmp_path, extra="deal: [Ac]\nlines: []\n")
    assert load_scenario(path, stub_loader).cases


def test_a_count_in_a_message_agrees_with_its_noun(tmp_path):
    path, _ = stack_run(tmp_path, "scores: [7]", "scores: [7, 1]")
    with pytest.raises(RulecraftError) as exc:
        load_scenario(path, stub_loader)
    assert exc.value.diagnostics[0].message == "`scores` must list 1 integer"
