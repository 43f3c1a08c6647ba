"""Generated code made from real functions (`engine/program/template.py`): a template's
body with the rules' constants written in and the branches they decide folded away,
doing what the template itself does when called with the same constants."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.program import template, turn
from engine.program.template import unroll


def _step(s, m, mover, *, FIELD, KEEP, LIMIT, CODES, SIZE):
    """A small template: a switch, a field index, a tuple of codes, a namespace name."""
    if KEEP is not None and not FIELD is None:
        s[FIELD] += 1
    if LIMIT > 2 and m in CODES:
        s[0] = SIZE(s)
    else:
        s[0] = -1 if KEEP is None else LIMIT * 2
    x = 1 if KEEP else 2
    return x


def _run(lines: list[str], namespace: dict, **local) -> dict:
    """Execute `lines` as the body of a function of the `local` names; its locals after."""
    body = "\n".join("    " + line for line in lines) or "    pass"
    names = ", ".join(local)
    exec(f"def f({names}):\n{body}\n    return locals()\n", namespace)
    return namespace["f"](**local)


def test_switches_fold_away_and_values_are_written_in():
    lines = template.fragment(_step, dict(FIELD=3, KEEP=True, LIMIT=5, CODES=(7, 9),
                                          SIZE="k_size"))
    assert lines == ["s[3] += 1", "if m in (7, 9):", "    s[0] = k_size(s)", "else:",
                     "    s[0] = 10", "x = 1", "return x"]
    lines = template.fragment(_step, dict(FIELD=3, KEEP=None, LIMIT=1, CODES=(),
                                          SIZE="k_size"))
    assert lines == ["s[0] = -1", "x = 2", "return x"]


def test_a_fragment_does_what_its_template_does():
    consts = dict(FIELD=1, KEEP=True, LIMIT=3, CODES=(4,), SIZE="k_size")
    for m in (4, 5):
        called = [0, 10]
        _step(called, m, 0, **dict(consts, SIZE=len))
        run = [0, 10]
        lines = template.fragment(_step, consts)[:-1]  # (the body but its `return`)
        _run(lines, {"k_size": len}, s=run, m=m, mover=0)
        assert run == called


def _nothing_left(a, b, *, KEEP):
    if KEEP:
        a.append(b)


def test_a_whole_function_is_defined_from_a_template():
    """`define`: the template's positional parameters and docstring, its body folded;
    `pass` when the constants fold the body away."""
    lines = template.define(_step, "B_step", dict(FIELD=3, KEEP=None, LIMIT=1, CODES=(),
                                                  SIZE="k_size"))
    assert lines == ["def B_step(s, m, mover):",
                     '    """A small template: a switch, a field index, a tuple of codes, a '
                     'namespace name."""', "    s[0] = -1", "    x = 2", "    return x"]
    namespace: dict = {}
    exec("\n".join(lines), namespace)
    assert namespace["B_step"]([0], 1, 0) == 2
    assert template.define(_nothing_left, "f", {"KEEP": False}) == ["def f(a, b):", "    pass"]
    assert template.define(_nothing_left, "f", {"KEEP": True}) == [
        "def f(a, b):", "    a.append(b)"]


def test_every_constant_must_be_given_once_and_be_a_literal():
    with pytest.raises(TypeError, match=r"missing \['SIZE'\], unknown \['OTHER'\]"):
        template.fragment(_step, dict(FIELD=1, KEEP=1, LIMIT=1, CODES=(), OTHER=2))
    with pytest.raises(TypeError, match="not a literal"):
        template.fragment(_step, dict(FIELD=1, KEEP=1, LIMIT=1, CODES=(), SIZE="a b"))
    with pytest.raises(TypeError, match="not a literal"):
        template.fragment(_step, dict(FIELD=1.5, KEEP=1, LIMIT=1, CODES=(), SIZE="k"))
    assert template.constants(_step) == ("FIELD", "KEEP", "LIMIT", "CODES", "SIZE")
    assert template.parameters(_step) == ("s", "m", "mover")


_FIELDS = dict(turns=0, turns_total=1, n=2, to_move=3, log=4, without_place=5, passes=6,
               unable=7, t_placed=8, t_could=9, t_draws=10, t_actions=11, held=12)
_END_TURN = dict(F=_FIELDS, SEARCH=False, PASS_CODES=(40,), EXTRA_TURNS=True, REFILL=True,
                 HELD=True, HAND_SIZES="K_hand", BITS="k_bits")


def _turn_state() -> list:
    # turns, total, n, to_move, log, without_place, passes, unable, placed, could,
    # draws, actions, held
    return [4, 9, 3, 1, [], 2, 1, 0, 0, False, 2, 3, [0, 0, 0]]


@pytest.mark.parametrize("m, extra", [(40, False), (12, True)])
def test_the_turns_end_fragment_matches_flow_end_turn_rules(m, extra):
    """flow.end_turn: a pass counts in `passes_in_row`, a turn without a placement in
    `turns_without_place`, one that could not place in `unable_in_row`; the hand
    refills to its size; the next seat moves unless the mover has an extra turn."""
    hands, pool = [[], ["a"], []], ["x", "y", "z"]
    s = _turn_state()
    ns = {"K_hand": (0, 0, 0, 2), "k_bits": len}
    _run(template.fragment(turn.end_turn, _END_TURN), ns, s=s, m=m, mover=1,
         extra=extra, hands=hands, pool=pool)
    assert s[:4] == [5, 10, 3, 1 if extra else 2]
    assert s[4] == [m] and s[5] == 3 and s[6] == (2 if m == 40 else 0) and s[7] == 1
    assert s[8:12] == [0, True, 0, 0]
    assert hands[1] == ["a", "z"] and pool == ["x", "y"] and s[12] == [0, 2, 0]
    # the template called as it stands does the same
    called, hands2, pool2 = _turn_state(), [[], ["a"], []], ["x", "y", "z"]
    turn.end_turn(called, m, 1, extra, hands2, pool2, **dict(
        _END_TURN, F=SimpleNamespace(**_FIELDS), HAND_SIZES=(0, 0, 0, 2), BITS=len))
    assert (called, hands2, pool2) == (s, hands, pool)


def test_a_search_keeps_no_log_and_unkept_counters_are_left_out():
    fields = dict(_FIELDS, without_place=None, passes=None, unable=None, t_could=None)
    consts = dict(_END_TURN, F=fields, SEARCH=True, REFILL=False, EXTRA_TURNS=False)
    lines = template.fragment(turn.end_turn, consts)
    assert lines == ["s[0] += 1", "s[10] = 0", "s[8] = 0", "s[11] = 0",
                     "s[3] = (mover + 1) % s[2]"]


def _holes(s, *, TEST, BODY, F):
    """Holes: an expression read twice, statements standing alone (one nested)."""
    if TEST and F.x is not None:
        BODY
    s[F.x] = TEST + 1


def test_holes_take_the_generators_text_with_its_comments():
    lines = template.fragment(_holes, dict(
        TEST=template.Code("a.b * 2"), BODY=template.Lines(["# why", "for p in q:", "    r(p)"]),
        F={"x": 4}))
    # (a hole's text goes in as written, in parentheses unless it is a name)
    assert lines == ["if (a.b * 2):", "    # why", "    for p in q:", "        r(p)",
                     "s[4] = (a.b * 2) + 1"]
    empty = template.fragment(_holes, dict(TEST=template.Code("t"), BODY=template.Lines(),
                                           F={"x": 4}))
    assert empty == ["if t:", "    pass", "s[4] = t + 1"]


def _ends(v, a, e, *, STEP):
    """A template with a loop to unroll: each end of a run, and a range of steps."""
    for end, mark in unroll(((a, 1), (e, 2))):
        if v[end] == 0:
            v[end] = mark * STEP
    for j in unroll(range(1, STEP)):
        if j > 1:
            v[j] += j


def test_a_loop_over_unroll_is_written_out_once_per_item():
    lines = template.fragment(_ends, {"STEP": 3})
    assert lines == ["if v[a] == 0:", "    v[a] = 3", "if v[e] == 0:", "    v[e] = 6",
                     "v[2] += 2"]
    for start in ([0, 0, 0, 0], [5, 0, 7, 0]):
        called, run = list(start), list(start)
        _ends(called, 0, 3, STEP=3)
        _run(lines, {}, v=run, a=0, e=3)
        assert run == called


def _jumps(v, *, N):
    for i in unroll(range(N)):
        if v[i]:
            break


def _assigns(v, *, N):
    for i in unroll(range(N)):
        i = 2


def test_an_unrolled_loop_neither_jumps_nor_assigns_its_names():
    with pytest.raises(TypeError, match="no `else`, `break` or `continue`"):
        template.fragment(_jumps, {"N": 2})
    with pytest.raises(TypeError, match="assigned to"):
        template.fragment(_assigns, {"N": 2})


def _part(xs, y, *, K):
    """A part written in place: its parameters are the caller's names."""
    xs.append(y + K if K else y)
    n = len(xs)
    return n


def _whole(items, z, *, PART):
    PART(items, z)
    count = PART(items, 7)
    return count, z


def _assigning(xs, y, *, K):
    y = K
    return y


def _caller(items, *, PART):
    PART(items, 1)


def test_a_part_is_written_in_place_of_its_call():
    """`Inline`: the part's body with its parameters read as the call's arguments, its
    last `return` an assignment (none when the part returns the name assigned); a
    part assigns none of its parameters."""
    consts = {"PART": template.Inline(_part, {"K": 10})}
    lines = template.fragment(_whole, consts)
    assert lines == ["items.append(z + 10)", "n = len(items)", "items.append(7 + 10)",
                     "n = len(items)", "count = n", "return (count, z)"]
    got = _run(lines[:-1], {}, items=[], z=1)
    assert (got["items"], got["count"]) == ([11, 17], 2)
    items: list = []
    assert _whole(items, 1, **consts) == (2, 1) and items == [11, 17]  # (called: a call)
    assert template.fragment(_whole, {"PART": template.Inline(_part, {"K": 0})})[:2] == [
        "items.append(z)", "n = len(items)"]
    with pytest.raises(TypeError, match="`y` is assigned to"):
        template.fragment(_caller, {"PART": template.Inline(_assigning, {"K": 1})})
