"""A compiled program's positions for the solver's search (`engine.players.solver_search`,
the same search as on the interpreter's states, which stay the reference and the
fallback).

A position is the program's plain state (one list), a move an int code, stepped by the
program's own `search_apply` (its `apply` without the move's events and log; it lists
the next position's moves). Each child but the last is a `search_fork` of the position.
The key is made for the ruleset and question (`program_key`): with plays and deals only,
the board's part (`TableauCode.key_field`: the slots holding a card, as bits), the
pool's size and the pile's top packed into one integer, then the counters, turns and
score the question sees; with `move` actions, the parts of the interpreter's key
(`engine.players.solver_key.make_key`: the pool, the pile, the zones' cards). A `move`
action's `safe:` and `defer:` are read on the program's positions
(`engine.players.solver_program_safe`). Points are the program's own, played from
HIGH_SCORE when the floor is handled by unclamped increments (see
`engine.players.solver`).

Answers are the interpreter's exactly: the program lists the moves in the
interpreter's order, so the memo's choices and the lines are the same
(tests/players/test_solver_program.py).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import partial
from operator import itemgetter
from typing import Callable

from engine.players.solver_key import pool_only_shrinks, top_classes
from engine.players.solver_positions import StatePositions
from engine.players.solver_program_safe import NOT_WRITTEN, conditions
from engine.players.solver_search import Solver
from engine.program import program_for


def program_key(program, round_fields: tuple[str, ...], counters: tuple[str, ...],
                scores: bool, classes: tuple[int, ...] | None = None,
                root_pool: list | None = None) -> Callable | None:
    """`key(s)` of a program's position (see the module's docstring), or None when the
    question reads a part the program does not hold (the interpreter's search then).

    With no `move` action the pile's size is left out: every move then puts one piece
    on the pile (a play from the board, a deal from the pool), so within a round it
    follows from the board and the pool. The parts are packed as digits (the pool's
    size, the pile's top, then one counter, turn or score, which may be any int) and
    the board's bits below them: one operation on a large int, the rest on small ones.
    With `move` actions the key holds what the interpreter's does (`make_key`): the
    pile's size too, the pool as `root_pool` (uids) left it or its uids, and the
    zones beyond the pool and the pile (`_zones_key`)."""
    f, model, plan = program.fields, program.game.model, program.plan
    names = list(model.counters)
    if any(name not in names for name in counters) or set(round_fields) - {"turns"}:
        return None
    kinds = {action.kind for action, _ in plan.actions}
    if kinds - {"play", "deal", "move"} or plan.hands:
        return None  # (hands are not in the key)
    extra = _extra_parts(f, names, round_fields, counters, scores)
    tops = _tops(program.game, classes)
    if "move" in kinds or plan.zones is not None:
        return _zones_key(program, extra, tops, root_pool)
    if not hasattr(plan.board, "key_field"):
        return None  # (a board kind with no key of its own yet)
    board, bits = plan.board.key_field(f)
    return _packed_key(f["pile"], f["pool"], board, bits, len(program.game.pieces) + 1,
                       tops, extra)


def _tops(game, classes: tuple[int, ...] | None) -> list[int]:
    """By uid, the pile's top as a key's digit (its uid, or its class: `top_classes`,
    plus one; 0 is an empty pile)."""
    uids = [p.uid for p in game.pieces]
    tops = [0] * (max(uids, default=0) + 1)
    for uid in uids:
        tops[uid] = (uid if classes is None else classes[uid]) + 1
    return tops


def _extra_parts(f: dict, names: list, round_fields, counters, scores) -> list[tuple]:
    """The counters, the turn number and the score a key holds, each as where it is
    read in the state: (field, index in it) or (field, None)."""
    extra = [(f["counters"], names.index(name)) for name in counters]
    extra += [(f["turns"], None)] if round_fields else []
    extra += [(f["scores"], 0)] if scores else []
    return extra


def _reader(at: int, index: int | None) -> Callable:
    """`s[at][index]` (or `s[at]`) as a function of the state `s`."""
    if index is None:
        return itemgetter(at)
    inner = itemgetter(index)
    return lambda s: inner(s[at])


def _packed_key(pile_at: int, pool_at: int, board_at: int, bits: int, size: int,
                tops: list, extra: list) -> Callable:
    """The key of a board and a pool (no zones): the pile's top and the pool's size as
    digits above the board's `bits`; one part more (`extra`) as the highest digit, more
    than one in a tuple after the packed int (see `program_key`)."""
    if len(extra) == 1 and extra[0][1] is not None:  # (a counter or the score)
        at, index = extra[0]

        def key(s: list) -> int:
            pile = s[pile_at]
            return (((s[at][index] * size + (tops[pile[-1].uid] if pile else 0)) * size
                     + len(s[pool_at])) << bits) | s[board_at]
        return key

    def packed(s: list) -> int:
        pile = s[pile_at]
        return ((((tops[pile[-1].uid] if pile else 0) * size + len(s[pool_at])) << bits)
                | s[board_at])
    if not extra:
        return packed
    readers = [_reader(*part) for part in extra]
    return lambda s: (packed(s), *[read(s) for read in readers])


def _zones_key(program, extra: list, tops: list, root_pool) -> Callable | None:
    """`program_key` for a program with zones (see there): the parts of `make_key`."""
    f, game, plan = program.fields, program.game, program.plan
    if not all(a.ends_turn for a in game.actions) or plan.zones is None:
        return None  # (the turn's counts would be keyed: not held)
    board = plan.board
    if board.kind != "none" and not hasattr(board, "key_field"):
        return None
    board_at, bits = board.key_field(f) if board.kind != "none" else (None, 0)
    zones = plan.zones
    listed = tuple(z for z in range(2, len(zones.places))
                   if zones._face(zones.places[z][0]) == "list")
    return _zones_key_of(f, board_at, bits, len(game.pieces) + 1, tops,
                         None if pool_only_shrinks(game) else _pool_code(root_pool), listed,
                         [_reader(*part) for part in extra])


def _zones_key_of(f: dict, board_at: int | None, bits: int, size: int, tops: list,
                  pool_code: Callable | None, listed: tuple, readers: list) -> Callable:
    """The key of a position with zones (see `_zones_key`): the pile's top and size,
    the pool's size (`pool_code` None) or its code, the board's bits (if any) in one
    int; the zones' pieces, their face-down counts (`listed` places) and `readers`
    (`extra` parts) after it."""
    pile_at, pool_at, zones_at, down_at = f["pile"], f["pool"], f["zones"], f["down"]

    def key(s: list) -> tuple:
        pile = s[pile_at]
        small = (tops[pile[-1].uid] if pile else 0) * size + len(pile)
        if pool_code is None:
            small = small * size + len(s[pool_at])
        if board_at is not None:
            small = (small << bits) | s[board_at]
        parts = [small] if pool_code is None else [small, pool_code(s[pool_at])]
        parts.append(tuple([tuple([p.uid for p in z]) for z in s[zones_at][2:]]))
        if listed:
            down = s[down_at]
            parts.append(tuple([down[z] for z in listed]))
        if readers:
            parts += [read(s) for read in readers]
        return tuple(parts)
    return key


def _pool_code(root_pool: list | None) -> Callable:
    """The pool (uids) as its size while it is what the root's pool left, else its uids."""
    root = tuple(root_pool or ())

    def code(pool: list):
        uids = tuple([p.uid for p in pool])
        return len(uids) if uids == root[:len(uids)] else uids
    return code


def searcher(state, goal: str, relevance, max_nodes, max_memory, sign: int,
             compiled: bool | None = None) -> Solver:
    """The search for `state`: on its ruleset's program when it has one (and the
    question reads only what the program holds), unless `compiled` is False; on the
    interpreter's states otherwise. `compiled=True` requires the program."""
    program = program_for(state.game) if compiled is not False else None
    rel, turns_keyed = relevance, "turns" in relevance.round_fields
    if program is not None and all(conditions(program, field) is not NOT_WRITTEN
                                   for field in ("safe", "defer")) and all(
            program_key(program, rel.round_fields, c, s) is not None
            for c, s in ((rel.decide_counters, rel.decide_scores),
                         (rel.best_counters, True))):
        positions = ProgramPositions(program, turns_keyed)
    elif compiled:
        raise ValueError("this ruleset has no compiled program the solver can search")
    else:
        positions = StatePositions(state.game, turns_keyed)
    return Solver(positions, goal, relevance, max_nodes, max_memory, sign)


class ProgramPositions:
    """`Positions` over a program's states (see the module's docstring)."""

    back = None  # (a branch is a fork: nothing to take back)

    def __init__(self, program, turns_keyed: bool):
        self.program = program
        f = program.fields
        self.legal, self.scores = itemgetter(f["legal"]), itemgetter(f["scores"])
        self.copy = self.branch = program.search_fork
        self.step = program.search_apply
        #: a round's end appends why to `ended` (and only then: the program's
        #: `_end_round`); the lists a round's end appends to are shared by a position's
        #: forks (`search_fork`)
        self.ends_of = itemgetter(f["ended"])
        self._round_end_lists = (f["ended"], f["chances"], f["events"])
        self.action_of = partial(bisect_right, [base for _, base in program.plan.actions])
        safe, defer = conditions(program, "safe"), conditions(program, "defer")
        self.hints = (None if safe is None else partial(_first_holding, safe),
                      None if defer is None else partial(_not_holding, defer))
        self.turns_keyed, self.cut = turns_keyed, False
        self.seat, self.root = 0, None

    def key_from(self, root, relevance, fields: tuple) -> Callable:
        self.root = self.program.from_state(root)
        self.seat = self.root[self.program.fields["to_move"]]
        return program_key(self.program, relevance.round_fields, *fields,
                           top_classes(self.program.game, relevance.top_fields),
                           [p.uid for p in root.pool])

    def start(self) -> list:
        return self.program.search_copy(self.root)

    def reason(self, s: list) -> str:
        """Why the round ended (a step just ended it). The lists a round's end appends
        to are emptied again: a search's positions share them (`search_fork`)."""
        reason = s[self._round_end_lists[0]][0] or "?"
        for at in self._round_end_lists:
            del s[at][:]
        if reason == "turn_limit" and not self.turns_keyed:
            self.cut = True
        return reason

    def texts(self, codes: list[int]) -> list[str]:
        """The move texts of a line of codes from the root."""
        program = self.program
        s, line = program.search_copy(self.root), []
        for code in codes:
            line.append(program.move_text(s, code))
            program.search_apply(s, code)
        return line

    def replay(self, root) -> list:
        return self.program.from_state(root)

    def play(self, s: list, code: int) -> tuple[str, str | None]:
        text = self.program.move_text(s, code)
        self.step(s, code)
        return text, (self.reason(s) if self.ends_of(s) else None)


def _first_holding(holds: Callable, s: list, codes: list[int]) -> int | None:
    """The first of `codes` for which `holds(s, code)`, else None."""
    return next((code for code in codes if holds(s, code)), None)


def _not_holding(holds: Callable, s: list, codes: list[int]) -> list[int]:
    """`codes` but those for which `holds(s, code)`."""
    return [code for code in codes if not holds(s, code)]
