"""Fuzzing records and scenarios (issue 16): mutations of real records and of the golden
scenario files give a K/R/Y/S/E diagnostic (RulecraftError), a RuleFailure or a working
position, never another exception. Budgets: tests/fuzzing.py (`--fuzz-long`,
RULECRAFT_FUZZ_EXAMPLES); docs/testing.md."""

from __future__ import annotations

import atexit
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.diagnostics import CODES, RulecraftError
from engine.kernel import RuleFailure
from engine.kernel.record import dumps, load_record, make_record, replay_record
from engine.kernel.scenario import check_case, load_scenario
from tests.fuzzing import fuzz_settings

TESTS = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((TESTS / "golden").rglob("*.yaml")) + sorted((TESTS / "kernel" / "scenarios").glob("*.yaml"))
SCRATCH = Path(tempfile.mkdtemp(prefix="rulecraft-fuzz-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)  # the mutated files go with it

# Values that broke the engine in the fuzzing run of issue 16, and plain wrong ones.
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.just(10**400),
    st.text(max_size=12), st.just("x" * 300), st.just("\x1b]0;PWNED\x07"),
    st.lists(st.integers(-3, 60), max_size=4), st.just([[]]), st.just([None]),
    st.dictionaries(st.sampled_from(["move", "scores", "id", "__class__"]),
                    st.integers(-2, 2), max_size=2),
)


def _check_diagnostics(exc: RulecraftError) -> None:
    assert exc.diagnostics, "a RulecraftError carries its diagnostics"
    for d in exc.diagnostics:
        assert d.code in CODES, d


# -- records ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records() -> list[dict]:
    """A real record of a seeded game of each of two games, made as `simulate` makes them."""
    from engine.analysis.runs import Spec, compile_spec
    from engine.players.agents import RandomAgent, play_out

    out = []
    for ref, players in (("tripeaks", 1), ("triominos", 2)):
        game = compile_spec(Spec(ref, ()))
        state = play_out(game.new_game(players, 4), [RandomAgent(s) for s in range(players)])
        model = game.model
        out.append(make_record(state, model.ruleset.id, [], model.hash,
                               ["random"] * players, ref=ref))
    return out


def _paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, prefix + (key,))


def _mutate(data, path: tuple, how: str, junk):
    if not path:
        return junk
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    else:
        parent[key] = junk
    return data


_GAMES: dict = {}


def _game_for(loaded):
    from engine.analysis.runs import Spec, compile_spec

    rs = loaded.data["ruleset"]
    key = (rs.get("ref") or rs["id"], tuple(rs.get("overlays") or ()))
    if key not in _GAMES:
        try:
            _GAMES[key] = compile_spec(Spec(*key))
        except RulecraftError as exc:
            _GAMES[key] = exc
    return _GAMES[key]


@fuzz_settings(40)
@given(data=st.data())
def test_a_mutated_record_is_a_diagnostic(records, data):
    record = json.loads(json.dumps(data.draw(st.sampled_from(records))))
    paths = list(_paths(record))
    path = data.draw(st.sampled_from(paths))
    how = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
    record = _mutate(record, path, how, data.draw(JUNK))
    laid_out = isinstance(record, dict) and isinstance(record.get("moves", []), list)
    # one move a line as the engine writes records (positions per line), or plain JSON
    text = dumps(record) if laid_out and data.draw(st.booleans()) else json.dumps(record)
    if data.draw(st.booleans()):  # and sometimes the text itself: cut, or a byte changed
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(["", "[" * 2000, "\x00", "é", '"', "}"]))
    path = SCRATCH / "record.json"
    path.write_text(text, encoding="utf-8")
    try:
        loaded = load_record(path)
        game = _game_for(loaded)
        if isinstance(game, RulecraftError):
            return
        replay_record(loaded, game, game.model.hash, rescore=data.draw(st.booleans()))
    except RulecraftError as exc:
        _check_diagnostics(exc)
    except RuleFailure:
        pass


# -- scenarios ----------------------------------------------------------------------------
def _absolute_ruleset(text: str, origin: Path) -> str:
    """The scenario with a relative `ruleset:` path made absolute (it is read elsewhere)."""
    def absolute(match):
        ref = match.group(2)
        local = origin.parent / ref
        return match.group(1) + (str(local.resolve()) if ref.endswith(".yaml") and local.is_file() else ref)
    return re.sub(r"(?m)^(ruleset: )(\S+)", absolute, text)


_LINE_JUNK = ["", "-1", "999999999", "9" * 5000, "null", "[]", "{}", "[[[", "true", "__class__",
              "\x1b[31m", "\t", "'x", "*a", "&a [1]", "!!python/object:os.system", "x" * 300]


@fuzz_settings(25)
@given(data=st.data())
def test_a_mutated_scenario_is_a_diagnostic(data):
    origin = data.draw(st.sampled_from(SCENARIOS))
    lines = _absolute_ruleset(origin.read_text(encoding="utf-8"), origin).split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["delete", "duplicate", "value", "swap", "indent"]))
        if how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "indent":
            lines[i] = "  " + lines[i]
        else:  # the value after a `key:` replaced, or the whole line
            key, sep, _ = lines[i].partition(": ")
            lines[i] = key + sep + data.draw(st.sampled_from(_LINE_JUNK))
        if not lines:
            lines = [""]
    path = SCRATCH / "scenario.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        scenario = load_scenario(path)
    except RulecraftError as exc:
        _check_diagnostics(exc)
        return
    scenario.state.legal_moves()
    for case in scenario.cases[:3]:
        try:
            check_case(scenario, case)
        except RuleFailure:
            pass
