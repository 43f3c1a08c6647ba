"""The hand plans of a program's `square` board (`square.py`): real functions, which
the program holds as namespace constants and calls when a hand's plan, or a part of
it, is not kept yet (the listing reads the kept ones itself: `square_lay.plays`).

A plan is kept by the hand's values in hand order and by its ranked values (a
program's `B_plans`): (the bit set of its values, per count k the distinct
arrangements of k pieces of the ranked hand, each as (values, their bits, the pieces'
indices in the ranked hand, sum), the plays worked out from it so far (per mask of a
single cell the arrangements of one piece, `one`; per count the arrangements a run
takes, `run`), per count the arrangements by their sum, each as (values, bits), and
the most pieces of it a line can take, `most_pieces`). The arrangements are the
interpreter's (`square_hands._by_pattern`: each distinct order of values once, equal
values in hand order).
"""

from __future__ import annotations

from operator import attrgetter

from engine.topology.square_hands import _by_pattern

_VALUE = attrgetter("value")


def hand_plan(key: tuple, *, plans: dict, most: int, longest: int, top: int,
              ranges: tuple) -> tuple:
    """The plan of the hand whose values in hand order are `key`, kept in `plans` under
    `key` and under the ranked values (worked out once for every order of them);
    `most`: the most pieces a play lays, `longest`, `top`, `ranges`: see
    `most_pieces`."""
    if len(plans) > 20000:
        plans.clear()
    values = tuple(sorted(key))
    plan = plans.get(values)
    if plan is None:
        plan = plans[values] = _work_out(values, most, longest, top, ranges)
    plans[key] = plan
    return plan


def _work_out(values: tuple, most: int, longest: int, top: int, ranges: tuple) -> tuple:
    """The plan of the ranked `values` (`hand_plan`)."""
    mask = 0
    for x in values:
        mask |= 1 << x
    orders = _by_pattern(tuple([values.index(x) for x in values]), min(len(values), most))
    arrs: list[list] = [[] for _ in range(most + 1)]
    for k in range(1, len(orders)):
        for idx, _ in orders[k]:
            vals = tuple([values[i] for i in idx])
            arrs[k].append((vals, tuple([1 << x for x in vals]), idx, sum(vals)))
    sums: list[dict] = [{} for _ in range(most + 1)]
    for k, found in enumerate(arrs):
        for vals, bits, idx, total in found:
            sums[k].setdefault(total, []).append((vals, bits))
    sums = [{total: tuple(found) for total, found in by.items()} for by in sums]
    return (mask, arrs, {}, [{} for _ in range(most + 1)], sums,
            most_pieces(arrs, longest, top, ranges))


def most_pieces(arrs: list, longest: int, top: int, ranges: tuple) -> int:
    """The most new pieces of the arrangements `arrs` (per count) that some line may
    take, by its sum bounds alone (1: no run of two or more): for k pieces, a line of
    length k to `longest` whose other pieces sum to at most `top` each (`ranges`: per
    length and sum of the other pieces, the bounds of the new pieces' sum)."""
    most = 1
    for k in range(2, len(arrs)):
        totals = set([total for _, _, _, total in arrs[k]])
        for length in range(k, longest + 1):
            for lo, hi in ranges[length][:(length - k) * top + 1]:
                for total in totals:
                    if lo <= total <= hi:
                        most = k
    return most


def one(ones: dict, m: int, arrs: list) -> tuple:
    """The arrangements (their values) of one piece on a cell whose masks let through
    the values `m`, last first, kept in `ones`."""
    found = ones[m] = tuple([vals for vals, bits, idx, _ in arrs if m & bits[0]][::-1])
    return found


def run(runs: dict, key: tuple, arrs: list, ivs: tuple, lo: int, hi: int) -> tuple:
    """The arrangements (their values) that a run of new cells whose masks across are
    `ivs` lets through with a sum from `lo` to `hi`, kept in `runs` under `key` (the
    masks, the line's length and its pieces' sum), as a tuple (kept ones are tuples:
    one block each, and the same empty one)."""
    found = []
    for vals, bits, idx, total in arrs:
        if lo <= total <= hi:
            for bit, iv in zip(bits, ivs):
                if not bit & iv:
                    break
            else:
                found.append(vals)
    found = runs[key] = tuple(found)
    return found


def taken(hand: list, pl: tuple) -> list:
    """The pieces of `hand` the play `pl` takes: with its pieces' indices in the ranked
    hand (by value, equal values in hand order; a play of a hand with a joker), those;
    else (cells and values) for each of its values the earliest piece left with it,
    which is what the plan's indices give."""
    if len(pl) > 2:
        ranked = sorted(hand, key=_VALUE)
        return [ranked[i] for i in pl[2]]
    left, took = list(hand), []
    for x in pl[1]:
        for i, piece in enumerate(left):
            if piece.value == x:
                took.append(left.pop(i))
                break
    return took
