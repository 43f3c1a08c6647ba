"""Stored legal-move counts (tests/golden/move_counts.json, made by
tests/golden/move_counts.py): every seeded line of every shipped ruleset and overlay is
played again, on the interpreter and on the compiled program, and must list, at every
ply, as many legal moves as stored, the same set of them (the digest of their sorted
texts), and end with the stored scores.

A failure names the ruleset, the line (seed, and players when not the default) and the
first ply whose count differs. When only the digest differs, the counts agree but a
set of moves does not: diff `python tests/golden/move_counts.py --show RULESET KEY`
between the commit before the change and after it to find the ply.
"""

from __future__ import annotations

import pytest

from engine.program import compile_program
from tests.golden.move_counts import (
    Compiled, Interpreted, compute, game_of, line_keys, load, name_of, play_line, refs,
)

REFS = refs()
STORED = load()


def _ids(pair) -> str:
    return name_of(*pair)


def _stored(name: str) -> dict[str, dict]:
    if name not in STORED:
        pytest.fail(f"{name}: no lines in move_counts.json (a new ruleset or overlay: run "
                    "`python tests/golden/move_counts.py --write` and check that the diff "
                    "only adds lines)")
    return STORED[name]


def _differences(name: str, key: str, want: dict, got: dict) -> list[str]:
    """What differs between a stored line and a recomputed one, the first ply first."""
    where = f"{name} line {key!r}"
    if got["players"] != want["players"]:
        return [f"{where}: played by {got['players']} players, stored {want['players']}"]
    want_counts, got_counts = want["counts"], got["counts"]
    for ply, (a, b) in enumerate(zip(want_counts, got_counts)):
        if a != b:
            return [f"{where}: ply {ply}: {b} legal moves, stored {a}"]
    if len(want_counts) != len(got_counts):
        return [f"{where}: the line has {len(got_counts)} plies, stored "
                f"{len(want_counts)} (the game ends at another ply)"]
    problems = []
    if got["digest"] != want["digest"]:
        problems.append(f"{where}: the same counts at every ply but another set of moves "
                        f"(digest {got['digest']}, stored {want['digest']}); find the ply "
                        f"with `python tests/golden/move_counts.py --show {name} '{key}'`")
    if got["scores"] != want["scores"]:
        problems.append(f"{where}: scores {got['scores']} at the end, stored "
                        f"{want['scores']}")
    return problems


def _check(name: str, got: dict[str, dict], stored: dict[str, dict]) -> None:
    problems = []
    for key in sorted(set(stored) | set(got)):
        if key not in got or key not in stored:
            problems.append(f"{name} line {key!r}: "
                            + ("stored but no longer played" if key not in got
                               else "played but not stored"))
            continue
        problems += _differences(name, key, stored[key], got[key])
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_every_stored_ruleset_is_still_shipped():
    names = {name_of(*pair) for pair in REFS}
    assert sorted(set(STORED) - names) == [], "stored, but no longer a shipped ruleset"


@pytest.mark.parametrize("pair", REFS, ids=_ids)
def test_the_interpreter_lists_the_stored_moves(pair):
    name = name_of(*pair)
    _check(name, compute(*pair), _stored(name))


@pytest.mark.parametrize("pair", REFS, ids=_ids)
def test_the_program_lists_the_stored_moves(pair, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")  # (generated now, not read from disk)
    name = name_of(*pair)
    stored = _stored(name)
    game = game_of(*pair)
    program = compile_program(game)
    got = {key: {"players": players, **play_line(Compiled(program, players, seed), seed)}
           for key, players, seed in line_keys(game)}
    _check(name, got, stored)


def test_a_line_does_not_depend_on_the_listing_order():
    """The move played is chosen among the sorted texts: listing the same moves in
    another order plays the same line."""

    class Reversed(Interpreted):
        def moves(self):
            return super().moves()[::-1]

    game = game_of("triolet/standard", ())
    ahead = play_line(Interpreted(game, 2, 1), 1)
    assert play_line(Reversed(game, 2, 1), 1) == ahead
