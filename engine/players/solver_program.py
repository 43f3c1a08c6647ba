"""The exact solver's searches on a ruleset's compiled program (`engine.program`).

The same searches as `engine.players.solver_search` (which stays the reference and the
fallback), on the program's plain state: a move is an int code, a position a list,
stepped by the program's own `search_apply` (its `apply` without the move's events and
log; it lists the next position's moves). Each child but the last is a `search_fork`
of the position; the last is the position itself, stepped in place (nothing reads a
position once its last child is searched). The key
is one function written for the ruleset and question (`program_key`): the board's part
from its code (`TableauCode.key_text`: the slots holding a card, as bits), the pool's
and pile's sizes and the pile's top packed into one integer, then the counters, turns
and score the question sees; with `move` actions, the parts of the interpreter's key
(`engine.players.solver_key.make_key`: the pool, the pile, the zones' cards). A `move`
action's `safe:` and `defer:` are read on the program's positions
(`engine.players.solver_program_safe`). Points are the program's own, played from HIGH_SCORE when
the floor is handled by unclamped increments (see `engine.players.solver`).

Answers are the interpreter's exactly: the program lists the moves in the
interpreter's order, so the memo's choices and the lines are the same
(tests/players/test_solver_program.py).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Callable

from engine.players.solver_search import (CHECK_EVERY, INF, NO_GAIN, NodeLimit, Solver, _Walk,
                                          chosen, deep_recursion, memory_in_use)
from engine.players.solver_program_safe import NOT_WRITTEN, conditions
from engine.players.solver_key import pool_only_shrinks, top_classes
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
    zones beyond the pool and the pile (`zones_key`)."""
    f, model, plan = program.fields, program.game.model, program.plan
    names = list(model.counters)
    if any(name not in names for name in counters) or set(round_fields) - {"turns"}:
        return None
    kinds = {action.kind for action, _ in plan.actions}
    if kinds - {"play", "deal", "move"} or plan.hands:
        return None  # (hands are not in the key)
    if "move" in kinds or plan.zones is not None:
        return _zones_key(program, round_fields, counters, scores, classes, root_pool)
    if not hasattr(plan.board, "key_text"):
        return None  # (a board kind with no key of its own yet)
    board, bits = plan.board.key_text(f)
    size = len(program.game.pieces) + 1
    top = "(_top[pile[-1].uid] + 1 if pile else 0)" if classes is not None \
        else "(pile[-1].uid + 1 if pile else 0)"  # (`classes`: the top's class)
    small = f"{top} * {size} + _len(s[{f['pool']}])"
    extra = _extra_parts(f, names, round_fields, counters, scores)
    if len(extra) == 1:  # (any int: the digits below it stay within their bases)
        small = f"({extra.pop()} * {size} + {top}) * {size}" \
                f" + _len(s[{f['pool']}])"
    body = f"(({small}) << {bits}) | {board}"
    if extra:
        body = f"({body}, {', '.join(extra)})"
    return _made(f"def key(s):\n    pile = s[{f['pile']}]\n    return {body}\n",
                 {"_len": len, "_top": classes})


def _extra_parts(f: dict, names: list, round_fields, counters, scores) -> list[str]:
    """The texts of the counters, the turn number and the score a key holds."""
    extra = [f"s[{f['counters']}][{names.index(name)}]" for name in counters]
    extra += [f"s[{f['turns']}]"] if round_fields else []
    extra += [f"s[{f['scores']}][0]"] if scores else []
    return extra


def _made(text: str, namespace: dict) -> Callable:
    exec(compile(text, "<solver program key>", "exec"), namespace)  # the solver's own text
    return namespace["key"]


def _zones_key(program, round_fields, counters, scores, classes, root_pool) -> Callable | None:
    """`program_key` for a program with zones (see there): the parts of `make_key`."""
    f, game, plan = program.fields, program.game, program.plan
    if not all(a.ends_turn for a in game.actions) or plan.zones is None:
        return None  # (the turn's counts would be keyed: not held)
    board = plan.board
    if board.kind != "none" and not hasattr(board, "key_text"):
        return None
    size = len(game.pieces) + 1
    top = "(_top[pile[-1].uid] + 1 if pile else 0)" if classes is not None \
        else "(pile[-1].uid + 1 if pile else 0)"
    if pool_only_shrinks(game):
        small = f"(({top} * {size} + _len(pile)) * {size} + _len(s[{f['pool']}]))"
        parts = []
    else:
        small = f"({top} * {size} + _len(pile))"
        parts = [f"_pool(s[{f['pool']}])"]
    if board.kind != "none":
        text, bits = board.key_text(f)
        small = f"({small} << {bits}) | {text}"
    zones = plan.zones
    listed = tuple(z for z in range(2, len(zones.places))
                   if zones._face(zones.places[z][0]) == "list")
    parts.append(f"_tuple([_tuple([p.uid for p in z]) for z in s[{f['zones']}][2:]])")
    if listed:
        parts.append(f"_tuple([dn[z] for z in {listed!r}])")
    parts += _extra_parts(f, list(game.model.counters), round_fields, counters, scores)
    root = tuple(root_pool or ())

    def pool_code(pool: list):
        uids = tuple([p.uid for p in pool])
        return len(uids) if uids == root[:len(uids)] else uids
    text = (f"def key(s):\n    pile, dn = s[{f['pile']}], s[{f['down']}]\n"
            f"    return ({small}, {', '.join(parts)})\n")
    return _made(text, {"_len": len, "_top": classes, "_tuple": tuple, "_pool": pool_code})


def searcher(state, goal: str, relevance, max_nodes, max_memory, sign: int,
             compiled: bool | None = None) -> Solver:
    """The search for `state`: on its ruleset's program when it has one (and the
    question reads only what the program holds), unless `compiled` is False; the
    interpreter's otherwise. `compiled=True` requires the program."""
    program = program_for(state.game) if compiled is not False else None
    rel = relevance
    if program is not None and all(conditions(program, field) is not NOT_WRITTEN
                                   for field in ("safe", "defer")) and all(
            program_key(program, rel.round_fields, c, s) is not None
            for c, s in ((rel.decide_counters, rel.decide_scores),
                         (rel.best_counters, True))):
        return ProgramSolver(program, goal, relevance, max_nodes, max_memory, sign)
    if compiled:
        raise ValueError("this ruleset has no compiled program the solver can search")
    return Solver(goal, relevance, max_nodes, max_memory, sign)


class ProgramSolver(Solver):
    """`Solver`'s searches on a program's positions (see the module's docstring)."""

    def __init__(self, program, goal: str, relevance, max_nodes=None, max_memory=None,
                 sign: int = 1):
        super().__init__(goal, relevance, max_nodes, max_memory, sign)
        self.program, self.apply = program, program.search_apply
        f = program.fields
        self._round_end_lists = (f["ended"], f["chances"], f["events"])
        self._legal, self._scores, self._round = f["legal"], f["scores"], f["round"]
        self._over, self._ended = f["over"], f["ended"]
        self._starts = [base for _, base in program.plan.actions]
        self.root_s: list = []
        #: the ruleset's `safe:` and `defer:` over the program's positions, or None
        self._hints = (conditions(program, "safe"), conditions(program, "defer"))

    def set_fields(self, fields: tuple, root) -> None:
        """Key positions by `fields` (the counters, whether the scores) from `root` on."""
        self.fields = fields
        self.key = program_key(self.program, self.relevance.round_fields, *fields,
                               top_classes(self.program.game, self.relevance.top_fields),
                               [p.uid for p in root.pool])
        self.root_s = self.program.from_state(root)

    def _step(self, s: list, code: int) -> str | None:
        """Apply `code` to `s`; the reason if it ended the round, else None."""
        number = s[self._round]
        self.apply(s, code)
        if s[self._round] != number or s[self._over]:
            return self._reason(s)
        return None

    def _reason(self, s: list) -> str:
        """Why the round ended (a step just ended it). The lists a round's end appends
        to are emptied again: a search's positions share them (`search_fork`)."""
        ended = s[self._ended]
        reason = ended[0] or "?"
        for at in self._round_end_lists:
            del s[at][:]
        if reason == "turn_limit" and not self.turns_keyed:
            self.cut = True
        return reason

    def texts(self, codes: list[int]) -> list[str]:
        """The move texts of a line of codes from the root."""
        program = self.program
        s, line = program.search_copy(self.root_s), []
        for code in codes:
            line.append(program.move_text(s, code))
            program.search_apply(s, code)
        return line

    # -- is the goal reachable? ------------------------------------------------------------
    def decide(self, root) -> list[str] | None:
        """As `Solver.decide`, with the ruleset's `safe:` and `defer:` read on the
        program's positions (`engine.players.solver_program_safe`)."""
        return self.decide_hinted(root, *self._hints)

    def _listed(self, s: list, order) -> list[int]:
        """The codes `_search` tries at `s` (`Solver.children`'s choice): without the
        deferred ones, the safe one alone, else in `order`."""
        moves = s[self._legal]
        if self.drop is not None:
            moves = [code for code in moves if not self.drop(s, code)]
        if self.pick_safe is not None:
            safe = next((code for code in moves if self.pick_safe(s, code)), None)
            if safe is not None:
                return [safe]
        return moves if order is None else order(moves)

    def orders(self, shuffle: random.Random) -> tuple:
        starts = self._starts

        def runs(codes: list[int]) -> list[list[int]]:
            out: list[list[int]] = []
            last = None
            for code in codes:
                action = bisect_right(starts, code)
                if action == last:
                    out[-1].append(code)
                else:
                    out.append([code])
                    last = action
            return out

        def backwards(codes):
            return [c for run in runs(codes) for c in reversed(run)]

        def shuffled(codes):
            return [c for run in runs(codes) for c in shuffle.sample(run, len(run))]

        return None, backwards, shuffled

    def _depth_first(self, root, dead: set, order) -> list[str] | None:
        s = self.program.search_copy(self.root_s)
        self.walk = _Walk(dead, order, {self.key(s): 0}, s[self.program.fields["to_move"]])
        found = self._search(s, 0)
        return self.texts(self.walk.line[::-1]) if found is True else None

    def _search(self, s: list, depth: int):
        """As `Solver._search`, on the program's positions (the line as codes)."""
        walk, sign, key, fork = self.walk, self.sign, self.key, self.program.search_fork
        open_children, low, seat = [], INF, walk.seat
        self.count_node()
        if self.pick_safe is None and self.drop is None:
            moves = s[self._legal] if walk.order is None else walk.order(s[self._legal])
        else:
            moves = self._listed(s, walk.order)
        last = len(moves) - 1
        for i, code in enumerate(moves):
            child = s if i == last else fork(s)
            reason = self._step(child, code)
            if reason is None:
                ckey = key(child)
                if ckey not in walk.dead:
                    open_children.append((code, child, ckey))
                continue
            score = sign * child[self._scores][seat]
            if score > self.met[0]:  # a complete line: the best?
                self.met = (score, self.texts(walk.path + [code]))
            if reason == self.goal:
                walk.line.append(code)
                return True
        return self._search_children(open_children, depth, low)

    def _search_children(self, open_children: list, depth: int, low):
        walk = self.walk
        for code, child, ckey in open_children:
            if ckey in walk.dead or ckey in walk.on_path:
                low = min(low, walk.on_path.get(ckey, INF))
                continue
            walk.path.append(code)
            walk.on_path[ckey] = depth + 1
            found = self._search(child, depth + 1)
            del walk.on_path[ckey]
            if found is True:
                walk.line.append(code)
                return True
            walk.path.pop()
            if found > depth:  # every line from it was searched: none reaches the goal
                walk.dead.add(ckey)
            low = min(low, found)
        return low

    # -- fewest steps and best score ---------------------------------------------------------
    def optimise(self, root, seat: int, fields: tuple, shares: int = 1,
                 floor: bool = False) -> object:
        """As `Solver.optimise`, on the program's positions (moves as codes)."""
        self.begin_optimise(root, seat, fields, shares, floor)
        self._set_check()
        s = self.program.search_copy(self.root_s)
        root_key = self.key(s)
        value, settle = self._values()
        with deep_recursion():
            try:
                value(s, root_key)
            except NodeLimit:
                raise  # (the counts are written: `checkpoint` raised it)
            except BaseException:
                settle()
                raise
        settle()
        return root_key

    def _values(self) -> tuple[Callable, Callable]:
        """(`value(s, key)`, the memo entry of one position (see `Solver.optimise`), its
        children's first; `settle()`, which writes back the positions counted).

        `Solver.value` on the program's positions, written out for speed (this is the
        search's inner loop): a closure over what it reads, so that a position binds
        nothing; the step, the count of positions and the best entry's six parts
        inline; the path and the lines met kept only when a budget may stop the search
        (`track`: only then are they read). Positions are counted in the closure
        (`spent`) and written back by `settle`, or before a `checkpoint`."""
        memo, seat, sign, path, found = self.memo, self.seat, self.sign, self.path, self.found
        scores_at, floor, goal, track = self._scores, self.floor, self.goal, self.track
        fork, apply, keyf, reason_of = self.program.search_fork, self.apply, self.key, self._reason
        legal_at, round_at, over_at, offer = self._legal, self._round, self._over, self.offer
        spent, nodes0, check_at = self.spent, self.nodes - self.spent, self.check_at

        def settle() -> None:
            self.spent, self.nodes = spent, nodes0 + spent

        def value(s: list, key) -> None:
            nonlocal spent, check_at
            memo[key] = None  # on the path: a cycle back here is not a way out
            if spent + 1 >= check_at:  # (this position counted against the budget only)
                self.spent, self.nodes = spent + 1, nodes0 + spent
                self.checkpoint()
                check_at = self.check_at
            spent += 1
            base, number, moves = s[scores_at][seat], s[round_at], s[legal_at]
            steps_b, gain_b, lift_b = INF, NO_GAIN, NO_GAIN
            steps_m = gain_m = lift_m = None
            last, depth = (moves[-1] if moves else None), len(path)
            for code in moves:
                child = s if code == last else fork(s)
                apply(child, code)  # (`_step`, written out)
                points = sign * (child[scores_at][seat] - base)
                if child[round_at] != number or child[over_at]:
                    steps, gain, below = (1 if reason_of(child) == goal else INF), points, 0
                else:
                    ckey = keyf(child)
                    if ckey not in memo:
                        if track:
                            path.append(code)
                            value(child, ckey)
                            path.pop()
                        else:
                            value(child, ckey)
                    entry = memo[ckey]
                    if entry is None:
                        continue
                    steps, gain, below = entry[0] + 1, entry[2] + points, entry[4]
                if track and (depth + steps < found[1][0]
                              or not floor and sign * base + gain > found[3][0]):
                    offer(path, code, depth + steps, None if floor else base + sign * gain)
                if steps < steps_b:
                    steps_b, steps_m = steps, code
                if gain > gain_b:
                    gain_b, gain_m = gain, code
                if below > lift_b:
                    lift_b, lift_m = below, code
            if gain_b > lift_b:
                lift_b, lift_m = gain_b, None  # None: from here, follow the gains
            memo[key] = (steps_b, steps_m, gain_b, gain_m, lift_b, lift_m)

        return value, settle

    def checkpoint(self) -> None:
        """`count_node`'s checks, when `value` reaches `check_at`: the node budget, and
        every so many positions the memory in use; then the next point to check at."""
        if self.spent > self.cap:
            raise NodeLimit("nodes")
        if self.memory_cap is not None and self.spent >= self.next_check:
            self.next_check = self.spent + CHECK_EVERY
            if memory_in_use() > self.memory_cap:
                raise NodeLimit("memory")
        self._set_check()

    def _set_check(self) -> None:
        memory = INF if self.memory_cap is None else self.next_check
        self.check_at = min(self.cap + 1, memory)
        self.track = self.cap != INF or self.memory_cap is not None

    def rebuild(self, root, prefix: list, which: int) -> list[str]:
        """A line: `prefix` (codes) from the root, then the memo's choices."""
        program = self.program
        s = program.from_state(root)
        line, number = [], s[self._round]
        for code in prefix:
            line.append(program.move_text(s, code))
            program.apply(s, code)
        if s[self._round] != number or s[self._over]:
            return line  # (the line ended the round: nothing follows)
        return line + self._follow(s, which)

    def follow(self, root, which: int, lifted: bool = False) -> list[str]:
        """As `Solver.follow`, from the interpreter's `root`."""
        return self._follow(self.program.from_state(root), which, lifted)

    def _follow(self, s: list, which: int, lifted: bool = False) -> list[str]:
        memo, program, line = self.memo, self.program, []
        while True:
            entry = memo.get(self.key(s))
            if not entry:
                return line
            code, lifted = chosen(entry, which, lifted)
            if code is None:
                return line
            line.append(program.move_text(s, code))
            if self._step(s, code) is not None:
                return line
